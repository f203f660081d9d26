import type { authRoutes } from '@wms/contracts';
import { routeHead } from '../api/route-head';

type TAuthRoutes = typeof authRoutes;

/**
 * The auth routes that what /login loads calls (the login page, the session, the guards, the preference switch) and
 * the dashboard's build check, as heads without their zod schemas (shared/api/route-head.ts).
 */
export const bootRoutes = {
  login: routeHead<TAuthRoutes['login']>({ method: 'POST', path: '/api/login/', auth: 'public' }),
  verifyOtp: routeHead<TAuthRoutes['verifyOtp']>({ method: 'POST', path: '/api/verify-otp/', auth: 'public' }),
  refresh: routeHead<TAuthRoutes['refresh']>({ method: 'POST', path: '/api/token/refresh/', auth: 'public' }),
  memberRefresh: routeHead<TAuthRoutes['memberRefresh']>({
    method: 'POST',
    path: '/api/member-token/refresh/',
    auth: 'public',
  }),
  logout: routeHead<TAuthRoutes['logout']>({ method: 'POST', path: '/api/logout/', auth: 'public' }),
  profile: routeHead<TAuthRoutes['profile']>({ method: 'GET', path: '/api/profile/', auth: 'customer', perm: 'self' }),
  employeeProfile: routeHead<TAuthRoutes['employeeProfile']>({
    method: 'GET',
    path: '/api/employee-profile/',
    auth: 'employee',
  }),
  memberProfile: routeHead<TAuthRoutes['memberProfile']>({
    method: 'GET',
    path: '/api/member-profile/',
    auth: 'member',
  }),
  updateProfile: routeHead<TAuthRoutes['updateProfile']>({
    method: 'PATCH',
    path: '/api/account/profile/',
    auth: 'user',
    perm: 'self',
  }),
  build: routeHead<TAuthRoutes['build']>({ method: 'GET', path: '/api/build/', auth: 'public' }),
};
