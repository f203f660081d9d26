import { useMutation } from '@tanstack/react-query';
import { authRoutes, type TProfile, type TUpdateProfile } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { loadProfile, storeProfile } from '../../shared/auth/session';

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: TUpdateProfile) => apiCall(authRoutes.updateProfile, { body }),
    onSuccess: (profile: TProfile) => storeProfile(profile),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { old_password: string; new_password: string }) => apiCall(authRoutes.changePassword, { body }),
  });
}

export function useTwoFactorSetup() {
  return useMutation({ mutationFn: () => apiCall(authRoutes.twoFactorSetup, {}) });
}

export function useTwoFactorEnable() {
  return useMutation({
    mutationFn: (body: { otp: string }) => apiCall(authRoutes.twoFactorEnable, { body }),
    onSuccess: () => loadProfile(),
  });
}

export function useTwoFactorDisable() {
  return useMutation({
    mutationFn: (body: { password: string; otp: string }) => apiCall(authRoutes.twoFactorDisable, { body }),
    onSuccess: () => loadProfile(),
  });
}
