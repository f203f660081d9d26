import type { TRouteContract } from '@wms/contracts';
import { createFetchClient, fillPath, type TRouteClient, type TRouteResponse } from '@wms/contracts/client';

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

/**
 * The path (and query) of a contract route, for the load generator that sends raw requests: the route table's path
 * with its parameters filled in, never one written by hand.
 */
export function routePath(
  route: TRouteContract,
  params?: Record<string, unknown>,
  query?: Record<string, string | number | boolean | undefined>,
): string {
  const path = fillPath(route.path, params);
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.append(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
