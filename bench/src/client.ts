import { createRouteClient, type TRouteClient } from '@wms/contracts/client';

/**
 * The typed route client over HTTP (`fetch`), for the bench: `http(url).outboundRoutes.listOrders({ query, token })`.
 * Same tables, same types as the server tests' `ctx.api`; only the transport differs.
 */
export function httpClient(baseUrl: string): TRouteClient {
  return createRouteClient(async (req) => {
    const url = new URL(req.url, baseUrl);
    for (const [k, v] of Object.entries(req.query ?? {}))
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
    const res = await fetch(url, {
      method: req.method,
      headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers.entries()),
      rawPayload: new Uint8Array(await res.arrayBuffer()),
    };
  });
}
