import type { z } from 'zod';
import type { TPermission } from './permissions';

/**
 * Who may call a route. `customer` = a seller's user (any non-EMPLOYEE role), `employee` = provider staff, `member` =
 * store member, `apikey` = a seller's own system with a partner API key (the public `/api/v1/` API).
 */
export type TRouteAuth = 'public' | 'customer' | 'employee' | 'member' | 'user' | 'apikey';

/**
 * What a partner API key may do, least first: `read` (products, stock, orders), `orders` (also create and cancel
 * orders), `full` (also inbound receipts). Each `apikey` route names the scope it needs.
 */
export const API_SCOPES = ['read', 'orders', 'full'] as const;
export type TApiScope = (typeof API_SCOPES)[number];

/** A key of scope `held` may call a route needing `needed`. */
export function apiScopeAllows(held: TApiScope, needed: TApiScope): boolean {
  return API_SCOPES.indexOf(held) >= API_SCOPES.indexOf(needed);
}

interface TRouteBase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Routes that act on one tenant-owned row by `:id`; the isolation sweep calls them with another seller's id. */
  tenantScoped?: boolean;
  /**
   * An outside system's call to us (a payment gateway's notify, a carrier's status push, Shopee's push): public, so
   * throttled per client address (`CALLBACK_IP_LIMIT_PER_MINUTE`, together for every such route; 429 + Retry-After,
   * which the senders retry).
   */
  callback?: true;
}

/**
 * A route of a seller's user (`customer`, `user`) MUST declare the permission it needs: the route table is the one
 * place that says it, `route()` enforces it (403 PERMISSION_DENIED), and a test fails on a route without one.
 */
export type TRouteContract =
  | (TRouteBase & { auth: 'customer' | 'user'; perm: TPermission; scope?: undefined })
  | (TRouteBase & { auth: 'apikey'; perm?: undefined; scope: TApiScope })
  | (TRouteBase & { auth: 'public' | 'employee' | 'member'; perm?: undefined; scope?: undefined });

/** Identity helper that keeps the literal types of a route table. */
export function defineRoutes<T extends Record<string, TRouteContract>>(routes: T): T {
  return routes;
}
