import { useMutation } from '@tanstack/react-query';
import { authRoutes, type TLoginResponse } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { userSession } from '../../shared/auth/session';

type TLoginSuccess = Extract<TLoginResponse, { status: 'login' }>;

/** Keep the tokens of a successful login (spec §3 session state); the guard then loads the profile. */
export function startSession(res: TLoginSuccess): void {
  userSession.set({ access: res.access, refresh: res.refresh, role: res.role });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiCall(authRoutes.login, { body }),
  });
}

export function useVerifyOtp() {
  return useMutation({
    mutationFn: (body: { user_id: string; otp: string }) => apiCall(authRoutes.verifyOtp, { body }),
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: {
      company_name: string;
      name: string;
      email: string;
      phone?: string;
      language?: 'zh-TW' | 'ja' | 'en';
    }) => apiCall(authRoutes.register, { body }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: { email: string; language?: 'zh-TW' | 'ja' | 'en' }) =>
      apiCall(authRoutes.forgotPassword, { body }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; new_password: string }) => apiCall(authRoutes.resetPassword, { body }),
  });
}
