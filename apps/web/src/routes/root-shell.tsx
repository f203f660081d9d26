import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { onSessionEnded } from '../shared/auth/session';
import { UpdateChecker } from '../shared/build/update-checker';
import { PageLoading } from '../shared/ui/page-loading';
import type { TScreenHandle } from './route-table';
import { screenTitle, titleNamespaces } from './screen-title';

const OUTSIDE_USER_AREA = /^\/(login|register|format-password|store|user-manual)(\/|$)/;

/** The root route: document title, the update check, and leaving a guarded area when its session ends. */
export function RootShell() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const matches = useMatches();

  useEffect(
    () =>
      onSessionEnded((kind) => {
        const path = window.location.pathname;
        if (kind === 'user' && !OUTSIDE_USER_AREA.test(path)) void navigate('/login', { replace: true });
        if (kind === 'member' && path.startsWith('/store') && !path.startsWith('/store/login'))
          void navigate('/store/404', { replace: true });
      }),
    [navigate],
  );

  const handle = [...matches].reverse().find((m) => (m.handle as TScreenHandle | undefined)?.screen)?.handle as
    | TScreenHandle
    | undefined;
  // The public pages' titles are in `common`: they do not load `nav`.
  const { t } = useTranslation(titleNamespaces(handle?.screen ?? null));
  const title = handle ? screenTitle(handle.screen) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the route and the language.
  useEffect(() => {
    document.title = title ? `${title} | ${t('common:app.short')}` : t('common:app.name');
  }, [title, t, pathname]);

  return (
    <>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <UpdateChecker />
    </>
  );
}
