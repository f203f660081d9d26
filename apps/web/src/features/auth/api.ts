import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

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
