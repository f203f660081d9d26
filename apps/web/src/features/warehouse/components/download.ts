import type { TRouteContract } from '@wms/contracts';
import { buildUrl } from '../../../shared/api/client';
import { userSession } from '../../../shared/auth/session';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { getLanguage } from '../../../shared/preferences/preferences';

/** Download a file route of the contracts (Excel templates, exports) with the user's token and language. */
export async function downloadFile(route: TRouteContract, fileName: string, query?: Record<string, unknown>) {
  const headers: Record<string, string> = { 'accept-language': getLanguage() };
  let token = userSession.accessToken();
  let res = await fetch(buildUrl(route.path, undefined, query), {
    headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
  });
  if (res.status === 401 && (await userSession.refresh()) === 'refreshed') {
    token = userSession.accessToken();
    res = await fetch(buildUrl(route.path, undefined, query), {
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
  }
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  downloadBytes(new Uint8Array(await res.arrayBuffer()), fileName, res.headers.get('content-type') ?? '');
}

/** A chosen file as base64 (the import routes take JSON). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
