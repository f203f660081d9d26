import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { memberSession } from '../../shared/auth/session';

/** POST /api/member-login/ and keep the member session (separate from the user session). */
export function useMemberLogin() {
  return useMutation({
    mutationFn: (body: { corp: string; email: string; password: string }) => apiCall(authRoutes.memberLogin, { body }),
    onSuccess: (res) => memberSession.set({ access: res.access, refresh: res.refresh, profile: res.profile }),
  });
}
