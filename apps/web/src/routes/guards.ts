import { redirect } from 'react-router';
import { ApiError, apiCall } from '../shared/api/client';
import { bootRoutes } from '../shared/auth/auth-routes';
import { loadProfile, logoutMember, logoutUser, memberSession, userSession } from '../shared/auth/session';
import { setPreferences } from '../shared/preferences/preferences';

/**
 * Route guards of spec §2 and §6, as loaders. They run when their area is entered (shouldRevalidate is off), like
 * the original's beforeEnter guards: moving between screens of one area does not refresh again — the 60-second
 * timer and the 401 handler keep the token fresh meanwhile.
 */

/** §2.1: /login, /register, /format-password send a logged-in user to `/`. */
export function publicOnlyGuard(): Response | null {
  if (userSession.isLoggedIn()) throw redirect('/');
  return null;
}

/** Refresh the token and load the profile; any refusal logs out (spec §8 "other rules"). */
async function enterUserArea(failTo: string): Promise<void> {
  const outcome = await userSession.refresh();
  if (outcome === 'unreachable') {
    throw new ApiError(0, 'NETWORK_ERROR', {}, 'server unreachable');
  }
  if (outcome === 'refused') {
    await logoutUser();
    throw redirect(failTo);
  }
  try {
    const profile = await loadProfile();
    // The profile keeps the user's language and theme: it wins over this browser's copy.
    setPreferences({ language: profile.language, theme: profile.theme });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NETWORK_ERROR') throw err;
    await logoutUser();
    throw redirect(failTo);
  }
}

/** §2.2/§6 main area: not logged in → /login; EMPLOYEE → /crm; any other role refreshes and proceeds. */
export async function mainGuard(): Promise<null> {
  const s = userSession.get();
  if (!s) throw redirect('/login');
  if (s.role === 'EMPLOYEE') throw redirect('/crm');
  await enterUserArea('/login');
  return null;
}

/** §2.7 CRM: not logged in → /; EMPLOYEE refreshes and proceeds; any other role → /. */
export async function crmGuard(): Promise<null> {
  const s = userSession.get();
  if (s?.role !== 'EMPLOYEE') throw redirect('/');
  await enterUserArea('/login');
  return null;
}

/** §2.6: /store/login/{short_url} sends a logged-in member to /store. */
export function memberPublicOnlyGuard(): null {
  if (memberSession.isLoggedIn()) throw redirect('/store');
  return null;
}

/** §2.6: /store/404 sends a logged-in member to /store. */
export function storeNotFoundGuard(): null {
  if (memberSession.isLoggedIn()) throw redirect('/store');
  return null;
}

/** §2.6 store portal: not a logged-in member → /store/404; otherwise the stored token is loaded (refreshed). */
export async function memberGuard(): Promise<null> {
  if (!memberSession.isLoggedIn()) throw redirect('/store/404');
  const outcome = await memberSession.refresh();
  if (outcome === 'unreachable') throw new ApiError(0, 'NETWORK_ERROR', {}, 'server unreachable');
  if (outcome === 'refused') {
    await logoutMember();
    throw redirect('/store/404');
  }
  try {
    const profile = await apiCall(bootRoutes.memberProfile, {});
    memberSession.update({ profile });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NETWORK_ERROR') throw err;
    await logoutMember();
    throw redirect('/store/404');
  }
  return null;
}

/** Guards run once per entry into their area. */
export const enterOnly = (): boolean => false;
