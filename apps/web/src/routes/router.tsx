import type { ComponentType } from 'react';
import { type LazyRouteFunction, Navigate, type RouteObject, redirect } from 'react-router';
import { loadAppHolders, withAppApi } from '../shared/ui/app-api';
import { PageLoading } from '../shared/ui/page-loading';
import {
  crmGuard,
  enterOnly,
  mainGuard,
  memberGuard,
  memberPublicOnlyGuard,
  publicOnlyGuard,
  storeNotFoundGuard,
} from './guards';
import { RootShell } from './root-shell';
import { RouteError } from './route-error';
import {
  CRM_PATHS,
  MAIN_PATHS,
  MANUAL_PAGES,
  PAYMENT_PATHS,
  PRINT_PATHS,
  PUBLIC_PATHS,
  STORE_MEMBER_PATHS,
  type TScreenHandle,
  type TScreenPath,
} from './route-table';
import type { TScreenMap } from './screens';

export type { TManualHandle, TScreenHandle } from './route-table';

type TLazy = LazyRouteFunction<RouteObject>;
const component =
  (load: () => Promise<ComponentType>): TLazy =>
  async () => ({ Component: await load() });

/**
 * A layout of an area (all but the public pages): its screens use TanStack Query and `App.useApp()`, whose providers
 * and hooks load with it (shared/api/query-provider.tsx, shared/ui/app-api.tsx) rather than with every page.
 */
const framed =
  (load: () => Promise<ComponentType>): TLazy =>
  async () => {
    const [Layout, { withQueryClient }] = await Promise.all([
      load(),
      import('../shared/api/query-provider'),
      loadAppHolders(),
      // Every framed area may show dates: dayjs speaks the user's language before its first screen renders.
      import('../shared/preferences/locale').then((m) => m.enableDates()),
    ]);
    return { Component: withAppApi(withQueryClient(Layout)) };
  };

const layouts = {
  public: component(async () => (await import('../layouts/public-layout')).PublicLayout),
  main: framed(async () => (await import('../layouts/main-layout')).MainLayout),
  print: framed(async () => (await import('../layouts/print-layout')).PrintLayout),
  blank: framed(async () => (await import('../layouts/blank-layout')).BlankLayout),
  store: framed(async () => (await import('../layouts/store-layout')).StoreLayout),
  crm: framed(async () => (await import('../layouts/crm-layout')).CrmLayout),
  manual: framed(async () => (await import('../manual/manual-layout')).ManualLayout),
};

const manualPage = component(async () => (await import('../manual/manual-page')).ManualPage);
const underConstruction = component(async () => (await import('../shared/ui/under-construction')).UnderConstruction);

function screen(path: TScreenPath, relative: string, screens: TScreenMap): RouteObject {
  const load = screens[path];
  const handle: TScreenHandle = { screen: path, pending: !load };
  return {
    path: relative,
    handle,
    lazy: load ? component(async () => (await load()).default) : underConstruction,
  };
}

const strip = (prefix: string) => (path: string) => path.slice(prefix.length);
/** Redirect in a loader: for areas without a guard (nothing else runs in parallel). */
const go = (to: string) => () => redirect(to);
/**
 * Redirect by rendering: used under a guard, whose loader runs in parallel with child loaders. A child loader's
 * redirect would restart the navigation and run the guard (and its token refresh) twice.
 */
const goAfterGuard = (to: string) =>
  function RedirectAfterGuard() {
    return <Navigate to={to} replace />;
  };

/** The whole route tree of spec §2, built from the route table and the registered screens. */
export function createAppRoutes(screens: TScreenMap): RouteObject[] {
  const main = strip('/');
  return [
    {
      id: 'root',
      Component: RootShell,
      ErrorBoundary: RouteError,
      HydrateFallback: PageLoading,
      children: [
        // §2.1 public pages
        {
          loader: publicOnlyGuard,
          lazy: layouts.public,
          children: PUBLIC_PATHS.map((p) => screen(p, main(p), screens)),
        },
        // §2.6 store-member portal
        {
          path: 'store',
          children: [
            {
              loader: memberPublicOnlyGuard,
              lazy: layouts.public,
              children: [screen('/store/login/:short_url', 'login/:short_url', screens)],
            },
            { loader: storeNotFoundGuard, lazy: layouts.public, children: [screen('/store/404', '404', screens)] },
            {
              loader: memberGuard,
              shouldRevalidate: enterOnly,
              lazy: layouts.store,
              children: [
                { index: true, Component: goAfterGuard('/store/deliver-list') },
                ...STORE_MEMBER_PATHS.map((p) => screen(p, strip('/store/')(p), screens)),
              ],
            },
            { path: '*', loader: go('/store/404') },
          ],
        },
        // §2.7 CRM area (EMPLOYEE)
        {
          path: 'crm',
          loader: crmGuard,
          shouldRevalidate: enterOnly,
          lazy: layouts.crm,
          children: [
            { index: true, Component: goAfterGuard('/crm/dashboard') },
            ...CRM_PATHS.map((p) => screen(p, strip('/crm/')(p), screens)),
            { path: '*', Component: goAfterGuard('/crm/404') },
          ],
        },
        // §2.5 user manual (readable without logging in)
        {
          path: 'user-manual',
          lazy: layouts.manual,
          children: [
            ...MANUAL_PAGES.map(
              (page): RouteObject =>
                page === ''
                  ? { index: true, handle: { manual: page }, lazy: manualPage }
                  : { path: page, handle: { manual: page }, lazy: manualPage },
            ),
            { path: '*', handle: { manual: null }, lazy: manualPage },
          ],
        },
        // §2.2–2.4 the guarded areas
        {
          loader: mainGuard,
          shouldRevalidate: enterOnly,
          children: [
            { lazy: layouts.print, children: PRINT_PATHS.map((p) => screen(p, main(p), screens)) },
            { lazy: layouts.blank, children: PAYMENT_PATHS.map((p) => screen(p, main(p), screens)) },
            {
              lazy: layouts.main,
              children: [
                { index: true, Component: goAfterGuard('/dashboard') },
                ...MAIN_PATHS.map((p) => screen(p, main(p), screens)),
                { path: '*', Component: goAfterGuard('/dashboard') },
              ],
            },
          ],
        },
      ],
    },
  ];
}
