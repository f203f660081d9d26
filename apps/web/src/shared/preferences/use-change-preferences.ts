// Only the hook: antd's App hooks are not part of the public pages (shared/ui/app-api.tsx).
import useApp from 'antd/es/app/useApp';
import { useCallback } from 'react';
import { apiCall } from '../api/client';
import { bootRoutes } from '../auth/auth-routes';
import { getProfile, storeProfile, userSession } from '../auth/session';
import { setPreferences, type TPreferences } from './preferences';

/** Change language/theme here and, for a logged-in user, in the profile too (PATCH /api/account/profile/). */
export function useChangePreferences(): (patch: Partial<TPreferences>) => Promise<void> {
  const { message } = useApp();
  return useCallback(
    async (patch) => {
      setPreferences(patch);
      if (!userSession.isLoggedIn() || !getProfile()) return;
      try {
        storeProfile(await apiCall(bootRoutes.updateProfile, { body: patch }));
      } catch (err) {
        const text = (await import('../forms/error-text')).errorText(err);
        // Before any area loaded antd App's hooks (only public pages seen; shared/ui/app-api.tsx): the static message.
        if (message.error) void message.error(text);
        else void import('antd/es/message').then((m) => m.default.error(text));
      }
    },
    [message],
  );
}
