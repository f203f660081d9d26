import type { authRoutes } from '@wms/contracts';

type TAuthRoutes = typeof authRoutes;
type TRouteHead<K extends keyof TAuthRoutes> = Pick<TAuthRoutes[K], 'method' | 'path' | 'auth'> & { perm?: string };

/** A route of the contracts' auth table without its zod schemas; typed as the contract itself (apiCall infers from it). */
function head<K extends keyof TAuthRoutes>(route: TRouteHead<K>): TAuthRoutes[K] {
  return route as TAuthRoutes[K];
}

/**
 * The auth routes that what /login loads calls (the login page, the session, the guards, the preference switch): the
 * contracts' table carries each route's zod schemas, and importing it would bring zod into /login. apiCall needs a
 * route's method, path and auth only; the types are the contracts' own. auth-routes.test.ts compares each with the
 * contracts, so they cannot drift apart.
 */
export const bootRoutes = {
  login: head<'login'>({ method: 'POST', path: '/api/login/', auth: 'public' }),
  verifyOtp: head<'verifyOtp'>({ method: 'POST', path: '/api/verify-otp/', auth: 'public' }),
  refresh: head<'refresh'>({ method: 'POST', path: '/api/token/refresh/', auth: 'public' }),
  memberRefresh: head<'memberRefresh'>({ method: 'POST', path: '/api/member-token/refresh/', auth: 'public' }),
  logout: head<'logout'>({ method: 'POST', path: '/api/logout/', auth: 'public' }),
  profile: head<'profile'>({ method: 'GET', path: '/api/profile/', auth: 'customer', perm: 'self' }),
  employeeProfile: head<'employeeProfile'>({ method: 'GET', path: '/api/employee-profile/', auth: 'employee' }),
  memberProfile: head<'memberProfile'>({ method: 'GET', path: '/api/member-profile/', auth: 'member' }),
  updateProfile: head<'updateProfile'>({ method: 'PATCH', path: '/api/account/profile/', auth: 'user', perm: 'self' }),
};
