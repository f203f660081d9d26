import { authRoutes } from '@wms/contracts';
import { App } from 'antd';
import { useCallback } from 'react';
import { apiCall } from '../api/client';
import { getProfile, storeProfile, userSession } from '../auth/session';
import { errorText } from '../forms/error-text';
import { setPreferences, type TPreferences } from './preferences';

/** Change language/theme here and, for a logged-in user, in the profile too (PATCH /api/account/profile/). */
export function useChangePreferences(): (patch: Partial<TPreferences>) => Promise<void> {
  const { message } = App.useApp();
  return useCallback(
    async (patch) => {
      setPreferences(patch);
      if (!userSession.isLoggedIn() || !getProfile()) return;
      try {
        storeProfile(await apiCall(authRoutes.updateProfile, { body: patch }));
      } catch (err) {
        void message.error(errorText(err));
      }
    },
    [message],
  );
}
