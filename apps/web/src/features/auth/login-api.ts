import { useMutation } from '@tanstack/react-query';
import type { TLoginResponse } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { bootRoutes } from '../../shared/auth/auth-routes';
import { userSession } from '../../shared/auth/session';

// The login page's calls, apart from api.ts: they use the schema-free auth routes, so /login does not load zod.

type TLoginSuccess = Extract<TLoginResponse, { status: 'login' }>;

/** Keep the tokens of a successful login (spec §3 session state); the guard then loads the profile. */
export function startSession(res: TLoginSuccess): void {
  userSession.set({ access: res.access, refresh: res.refresh, role: res.role });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiCall(bootRoutes.login, { body }),
  });
}

export function useVerifyOtp() {
  return useMutation({
    mutationFn: (body: { user_id: string; otp: string }) => apiCall(bootRoutes.verifyOtp, { body }),
  });
}
