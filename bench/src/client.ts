import { createFetchClient, type TRouteClient } from '@wms/contracts/client';

/**
 * The typed route client over HTTP, for the bench: `http(url).outboundRoutes.listOrders({ query, token })`. Same
 * tables, same types as the server tests' `ctx.api`; only the transport differs.
 */
export function httpClient(baseUrl: string): TRouteClient {
  return createFetchClient(baseUrl);
}
