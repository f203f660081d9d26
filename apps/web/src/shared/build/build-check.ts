/** How often an open tab asks the server for its build id (it also asks on every navigation and on focus). */
export const BUILD_CHECK_INTERVAL_MS = 60_000;

/** The server runs a different build than this tab: 'system needs update'. 'dev' ids never count. */
export function isOutdated(serverBuildId: string | undefined, myBuildId: string): boolean {
  if (!serverBuildId || serverBuildId === 'dev' || myBuildId === 'dev') return false;
  return serverBuildId !== myBuildId;
}

/** GET /api/build/ without cache; undefined when it cannot be read (offline, server restarting). */
export async function fetchServerBuildId(): Promise<string | undefined> {
  try {
    const res = await fetch('/api/build/', { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { build_id?: unknown };
    return typeof body.build_id === 'string' ? body.build_id : undefined;
  } catch {
    return undefined;
  }
}

export const MY_BUILD_ID: string = import.meta.env.DEV ? 'dev' : __BUILD_ID__;
