import type { TFailedLogins } from '@wms/contracts';

// The wrong passwords given for the account since its previous sign-in, as the sign-in answered them: kept for this
// tab until the user closes the notice (the login page navigates away before it could show).
const KEY = 'wms.failed-logins';

export function rememberFailedLogins(failed: TFailedLogins | undefined): void {
  try {
    if (failed) sessionStorage.setItem(KEY, JSON.stringify(failed));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off: the notice is not shown.
  }
}

export function pendingFailedLogins(): TFailedLogins | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const value = raw ? (JSON.parse(raw) as Partial<TFailedLogins>) : null;
    return value && typeof value.count === 'number' && typeof value.last_at === 'string'
      ? { count: value.count, last_at: value.last_at }
      : null;
  } catch {
    return null;
  }
}

export function dismissFailedLogins(): void {
  rememberFailedLogins(undefined);
}
