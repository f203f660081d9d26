import { createFetchClient, type TRouteClient, type TRouteResponse } from '@wms/contracts/client';

/**
 * The typed route client over HTTP, for the bench: `http(url).outboundRoutes.listOrders({ query, token })`. Same
 * tables, same types as the server tests' `ctx.api`; only the transport differs.
 */
export function httpClient(baseUrl: string): TRouteClient {
  return createFetchClient(baseUrl);
}

/** The body of a 2xx answer; any other answer throws with `what`, its status and the start of its body. */
export async function ok<T>(what: string, answer: Promise<TRouteResponse<T>>): Promise<T> {
  const res = await answer;
  if (res.statusCode < 200 || res.statusCode > 299)
    throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
}

/** A seller's access token (the login answers `status: 'login'` for a seller without a second factor). */
export async function loginToken(api: TRouteClient, who: { email: string; password: string }): Promise<string> {
  const body = await ok('login', api.authRoutes.login({ body: { email: who.email, password: who.password } }));
  if (body.status !== 'login') throw new Error(`login: ${body.status}`);
  return body.access;
}
