import type { TLoginResponse } from '@wms/contracts';
import { useCallback, useState } from 'react';
import { apiCall } from '../../shared/api/client';
import { bootRoutes } from '../../shared/auth/auth-routes';
import { userSession } from '../../shared/auth/session';
import { rememberFailedLogins } from './failed-logins';

// The login page's calls, apart from api.ts: they use the schema-free auth routes and no TanStack Query, so /login
// loads neither zod nor TanStack Query.

type TLoginSuccess = Extract<TLoginResponse, { status: 'login' }>;

/** Keep the tokens of a successful login (spec §3 session state); the guard then loads the profile. */
export function startSession(res: TLoginSuccess): void {
  userSession.set({ access: res.access, refresh: res.refresh, role: res.role });
  rememberFailedLogins(res.failed_logins);
}

/** A call with its pending flag, like TanStack Query's useMutation, which the login page does without. */
function useCall<I, O>(call: (input: I) => Promise<O>): { mutateAsync: (input: I) => Promise<O>; isPending: boolean } {
  const [pending, setPending] = useState(0);
  const mutateAsync = useCallback(
    async (input: I) => {
      setPending((n) => n + 1);
      try {
        return await call(input);
      } finally {
        setPending((n) => n - 1);
      }
    },
    [call],
  );
  return { mutateAsync, isPending: pending > 0 };
}

const login = (body: { email: string; password: string }) => apiCall(bootRoutes.login, { body });
const verifyOtp = (body: { user_id: string; otp: string }) => apiCall(bootRoutes.verifyOtp, { body });

export function useLogin() {
  return useCall(login);
}

export function useVerifyOtp() {
  return useCall(verifyOtp);
}
