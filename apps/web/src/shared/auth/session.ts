import { ROLES, type TMemberProfile, type TProfile, type TRole, type TRouteContract } from '@wms/contracts';
import { useSyncExternalStore } from 'react';
import { apiCall, exchangeRefreshToken, setAuthHooks } from '../api/client';
import { bootRoutes } from './auth-routes';
import { isMemberProfile } from './member-profile';
import { TokenStore, type TTokenPair } from './token-store';

/** Session state of spec §3: tokens and role (persisted); the profile is loaded on entering the guarded area. */
export interface TUserSession extends TTokenPair {
  role: TRole;
}
/** Member session of spec §3: kept apart from the user session. */
export interface TMemberSession extends TTokenPair {
  profile: TMemberProfile;
}

function isPair(v: unknown): v is TTokenPair {
  const o = v as Partial<TTokenPair> | null;
  return typeof o?.access === 'string' && typeof o.refresh === 'string';
}

export const userSession = new TokenStore<TUserSession>({
  key: 'wms.session',
  exchange: (refresh) => exchangeRefreshToken(bootRoutes.refresh.path, refresh),
  isValid: (v): v is TUserSession =>
    isPair(v) && (ROLES as readonly unknown[]).includes((v as { role?: unknown }).role),
});

export const memberSession = new TokenStore<TMemberSession>({
  key: 'wms.member',
  exchange: (refresh) => exchangeRefreshToken(bootRoutes.memberRefresh.path, refresh),
  isValid: (v): v is TMemberSession => isPair(v) && isMemberProfile((v as { profile?: unknown }).profile),
});

// ── profile (memory only; reloaded on entering the guarded area) ──
let profile: TProfile | null = null;
const profileListeners = new Set<() => void>();

function setProfile(next: TProfile | null): void {
  profile = next;
  for (const l of profileListeners) l();
}

export function getProfile(): TProfile | null {
  return profile;
}

/** Replace the cached profile after the user changed it (PATCH /api/account/profile/). */
export function storeProfile(next: TProfile): void {
  setProfile(next);
}

/** GET /api/profile/ (CUSTOMER) or /api/employee-profile/ (EMPLOYEE) by the session's role. */
export async function loadProfile(): Promise<TProfile> {
  const s = userSession.get();
  if (!s) throw new Error('not logged in');
  const route = s.role === 'EMPLOYEE' ? bootRoutes.employeeProfile : bootRoutes.profile;
  const loaded = await apiCall(route, {});
  setProfile(loaded);
  return loaded;
}

// ── logout ──
type TLogoutListener = (kind: 'user' | 'member') => void;
const logoutListeners = new Set<TLogoutListener>();

/** The router listens here to go to /login (or /store/404) when a session ends outside a user action. */
export function onSessionEnded(listener: TLogoutListener): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/** Logout of spec §4: revoke the refresh token (best effort), clear tokens and profile. */
export async function logoutUser(): Promise<void> {
  const s = userSession.get();
  userSession.clear();
  setProfile(null);
  if (s) await apiCall(bootRoutes.logout, { body: { refresh: s.refresh } }).catch(() => undefined);
}

export async function logoutMember(): Promise<void> {
  const s = memberSession.get();
  memberSession.clear();
  if (s) await apiCall(bootRoutes.logout, { body: { refresh: s.refresh } }).catch(() => undefined);
}

let wasLoggedIn = userSession.isLoggedIn();
userSession.subscribe(() => {
  const now = userSession.isLoggedIn();
  if (wasLoggedIn && !now) {
    setProfile(null);
    for (const l of logoutListeners) l('user');
  }
  wasLoggedIn = now;
});
let memberWasLoggedIn = memberSession.isLoggedIn();
memberSession.subscribe(() => {
  const now = memberSession.isLoggedIn();
  if (memberWasLoggedIn && !now) for (const l of logoutListeners) l('member');
  memberWasLoggedIn = now;
});

function storeFor(auth: TRouteContract['auth']) {
  return auth === 'member' ? memberSession : userSession;
}

setAuthHooks({
  token: (auth) => storeFor(auth).accessToken(),
  refresh: async (auth) => (await storeFor(auth).refresh()) === 'refreshed',
  expired: (auth) => {
    if (auth === 'member') void logoutMember();
    else void logoutUser();
  },
});

// ── React bindings ──
export function useUserSession(): TUserSession | null {
  return useSyncExternalStore(userSession.subscribe, () => userSession.get());
}

export function useMemberSession(): TMemberSession | null {
  return useSyncExternalStore(memberSession.subscribe, () => memberSession.get());
}

export function useProfile(): TProfile | null {
  return useSyncExternalStore(
    (l) => {
      profileListeners.add(l);
      return () => profileListeners.delete(l);
    },
    () => profile,
  );
}
