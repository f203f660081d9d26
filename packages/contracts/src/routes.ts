import type { z } from 'zod';

/**
 * Who may call a route. `customer` = a seller's user (any non-EMPLOYEE role), `employee` = provider staff, `member` =
 * store member, `apikey` = a seller's own system with a partner API key (the public `/api/v1/` API).
 */
export type TRouteAuth = 'public' | 'customer' | 'employee' | 'member' | 'user' | 'apikey';

export interface TRouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: TRouteAuth;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Routes that act on one tenant-owned row by `:id`; the isolation sweep calls them with another seller's id. */
  tenantScoped?: boolean;
}

/** Identity helper that keeps the literal types of a route table. */
export function defineRoutes<T extends Record<string, TRouteContract>>(routes: T): T {
  return routes;
}
