import type { TRouteContract } from '@wms/contracts';
import { ApiError, buildUrl } from '../../../shared/api/client';
import { userSession } from '../../../shared/auth/session';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { getLanguage } from '../../../shared/preferences/preferences';

/**
 * Download a file route (the server's .xlsx exports) with the user's token and language; one refresh on 401.
 * Errors come back as ApiError with the server's catalogue code, like apiCall's.
 */
export async function downloadExport(
  route: TRouteContract,
  fileName: string,
  input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {},
): Promise<void> {
  const url = buildUrl(route.path, input.params, input.query);
  const call = () => {
    const token = userSession.accessToken();
    return fetch(url, {
      headers: { 'accept-language': getLanguage(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  };
  let res = await call();
  if (res.status === 401 && (await userSession.refresh()) === 'refreshed') res = await call();
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as {
      error?: { code: string; params?: object; message?: string };
    } | null;
    throw new ApiError(
      res.status,
      (body?.error?.code ?? `HTTP_${res.status}`) as ApiError['code'],
      (body?.error?.params ?? {}) as Record<string, unknown>,
      body?.error?.message ?? res.statusText,
    );
  }
  downloadBytes(new Uint8Array(await res.arrayBuffer()), fileName, res.headers.get('content-type') ?? '');
}
