/** Read the `exp` claim (seconds) of a JWT without verifying it: only to schedule the refresh. */
export function jwtExpiry(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = JSON.parse(atob(b64)) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

/** Refresh lead time of spec §7/§9: the access token is refreshed 60 seconds before it expires. */
export const REFRESH_LEAD_SECONDS = 60;

/** Milliseconds from `nowMs` until the refresh is due (0 when already due, null when the token has no expiry). */
export function refreshDelayMs(token: string, nowMs: number): number | null {
  const exp = jwtExpiry(token);
  if (exp === null) return null;
  return Math.max(0, exp * 1000 - REFRESH_LEAD_SECONDS * 1000 - nowMs);
}
