import type { TRouteContract } from '@wms/contracts';
import { sendRoute, type TCallInput } from './api/client';
import { downloadBytes } from './excel/use-excel-export';

/**
 * Download a file route of the contracts (the server's Excel exports and import templates) as `fileName`, with the
 * session's token and the user's language like any API call; a failure throws ApiError with the server's code.
 */
export async function downloadFile<C extends TRouteContract>(
  route: C,
  fileName: string,
  input: TCallInput<C>,
): Promise<void> {
  const res = await sendRoute(route, input, { accept: '*/*' });
  downloadBytes(new Uint8Array(await res.arrayBuffer()), fileName, res.headers.get('content-type') ?? '');
}
