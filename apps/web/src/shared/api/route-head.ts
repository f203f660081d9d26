import type { TRouteContract } from '@wms/contracts';

/**
 * A route of the contracts' tables without its zod schemas, typed as the contract itself (apiCall infers body, query
 * and answer from it). apiCall needs a route's method, path and auth only, and importing a contracts table brings zod
 * (25 kB gzip) and every schema of the table: the boot path and the main frame's first screen call their few routes
 * through heads. route-head.test.ts compares each head with its contract, so they cannot drift apart.
 */
export function routeHead<C extends TRouteContract>(
  head: Pick<C, 'method' | 'path' | 'auth'> & (C extends { perm: infer P } ? { perm: P } : { perm?: undefined }),
): C {
  return head as C;
}
