import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mainGuard } from './guards';
import { createAppRoutes, type TManualHandle, type TScreenHandle } from './router';
import { SCREENS } from './screens';

/** Spec §2, written out again here on purpose: the router must answer every one of these paths. */
const SPEC_SCREENS: Record<string, string[]> = {
  '2.1 public': ['/login', '/register', '/format-password', '/store/login/{short_url}'],
  '2.2 main': [
    ...['/dashboard', '/corporation', '/warehouse', '/subzone', '/express-provider', '/ecommerce-channel', '/package'],
    ...['/product-class', '/product', '/product-update', '/product-print', '/product-stock', '/product-location'],
    ...['/entry', '/entry-confirm', '/entry-export', '/entry-quick', '/entry-cnt'],
    ...['/return', '/return-confirm', '/return-export', '/return-cnt'],
    ...['/deliver', '/deliver-cnt', '/deliver-operation', '/deliver-opser', '/deliver-imei'],
    ...['/deliver-customize-form', '/deliver-export', '/user-help', '/bug', '/request'],
    ...['/stock-transfer', '/stock-multi-transfer', '/stock-expire-transfer', '/stock-log', '/inventory'],
    ...['/change-password', '/profile', '/two-factor', '/billing'],
    ...['/module-api-setup', '/module-shopee-create', '/gd-api-setup', '/gd-api-callback'],
    ...['/users', '/database-clean', '/store-admin', '/store-member', '/dev-test'],
    ...['/purchase-advice', '/deliver-statistics', '/location-stock', '/product-turnover', '/stock-age'],
    ...['/customize', '/privacy', '/service-rule', '/404'],
  ],
  '2.3 print': [
    ...['/entry-qrcode/{id}', '/entry-print/{id}', '/deliver-print-pick/{id}', '/deliver-print-pick-A4/{id}'],
    ...['/deliver-print-doc/{id}/{orderby}', '/deliver-print-rec/{id}/{orderby}', '/rack-print/{selected}'],
    ...['/package-print', '/return-print/{id}', '/product-print-preview/{data}'],
  ],
  '2.4 payment': ['/tappay', '/wait-tappay', '/newebpay', '/wait-newebpay'],
  '2.6 store': ['/store/404', '/store/dashboard', '/store/deliver-list', '/store/profile', '/store/password'],
  '2.7 crm': ['/crm/dashboard', '/crm/customer', '/crm/board', '/crm/rack', '/crm/stock', '/crm/404'],
  // Not in the spec: the OpenAPI reference of the contracts (docs/ARCHITECTURE.md "API reference").
  // The partner API guide for a seller's developers (issue #13), linked from /module-api-setup.
  // Direct purchase from the main area (spec §1, the §2.8 menu group "direct-purchase and store ordering"; issue #16).
  'platform (main area)': ['/api-docs', '/partner-api-docs', '/direct-purchase'],
  // The floor board of the day's shipments (issue #36).
  'ships (main area)': ['/ships-today', '/ships-handover', '/release-channels', '/deliver-pick'],
  'ships (print)': ['/ships-manifest-print/{id}'],
  // Every seller's usage statements, for the staff (issue #35).
  'usage (crm)': ['/crm/statements'],
};

const SPEC_MANUAL_PAGES = [
  ...['', 'flowchart', 'corporation', 'warehouse', 'ecommerce-channel', 'express-provider', 'package', 'users'],
  ...['product', 'deliver', 'deliver-operation', 'deliver-opser', 'entry', 'entry-confirm', 'return'],
  ...['return-confirm', 'product-stock', 'product-location', 'stock-transfer', 'stock-multi-transfer'],
  ...['stock-log', 'inventory', 'api-setting', 'gd-api-setup', 'purchase-advice', 'deliver-statistics'],
  ...['location-stock', 'product-turnover', 'stock-age', 'store-admin', 'store-member', '2fa', 'billing'],
  ...['version', 'customize', 'product-update', 'product-print', 'deliver-cnt', 'deliver-export', 'deliver-imei'],
  ...['deliver-customize-form', 'entry-cnt', 'entry-quick', 'entry-export', 'return-cnt', 'return-export'],
];

/**
 * Screens a later issue builds; they render "screen under construction". This list may only shrink: when you
 * register a screen in features/<context>/screens.ts, delete its line here (the test tells you to).
 */
const PENDING = new Set<string>([]);

const routes = createAppRoutes(SCREENS);
const toRouter = (spec: string) => spec.replace(/\{(\w+)\}/g, ':$1');
const sample = (spec: string) => spec.replace(/\{(\w+)\}/g, (_, name: string) => `sample-${name}`);

/** The handle of the deepest route matching a URL, and whether that route redirects (has a loader, no screen). */
function resolve(url: string) {
  const matches = matchRoutes(routes, url) ?? [];
  const last = matches.at(-1)?.route as RouteObject | undefined;
  return { handle: last?.handle as (TScreenHandle & TManualHandle) | undefined, route: last, matches };
}

describe('route table of spec §2', () => {
  for (const [section, paths] of Object.entries(SPEC_SCREENS)) {
    it(`answers every screen of ${section}`, () => {
      for (const spec of paths) {
        const { handle } = resolve(sample(spec));
        expect(handle?.screen, `router lacks ${spec}`).toBe(toRouter(spec));
      }
    });
  }

  it('lists exactly the screens still under construction (remove a line from PENDING when you finish one)', () => {
    const all = Object.values(SPEC_SCREENS).flat();
    const pending = all.filter((spec) => resolve(sample(spec)).handle?.pending);
    const finishedButListed = [...PENDING].filter((p) => !pending.includes(p));
    const pendingButUnlisted = pending.filter((p) => !PENDING.has(p));
    expect(finishedButListed, 'these screens are finished: delete them from PENDING').toEqual([]);
    expect(pendingButUnlisted, 'these screens render "under construction" but are not in PENDING').toEqual([]);
  });

  it('registers no screen outside the spec', () => {
    const known = new Set(Object.values(SPEC_SCREENS).flat().map(toRouter));
    expect(Object.keys(SCREENS).filter((p) => !known.has(p))).toEqual([]);
  });

  it('answers every user-manual page of §2.5 and has a catch-all not-found page', () => {
    for (const page of SPEC_MANUAL_PAGES) {
      const { handle } = resolve(page ? `/user-manual/${page}` : '/user-manual');
      expect(handle?.manual, `manual lacks ${page || 'index'}`).toBe(page);
    }
    expect(resolve('/user-manual/no-such-page').handle?.manual).toBeNull();
    expect(resolve('/user-manual/a/b').handle?.manual).toBeNull();
  });

  it('sends unknown paths to the catch-all of their area', () => {
    const catchAll = (url: string) => resolve(url).route?.path;
    expect(catchAll('/no-such-screen')).toBe('*');
    // …under the main guard, so a visitor who is not logged in goes to /login first.
    expect(resolve('/no-such-screen').matches.some((m) => m.route.loader === mainGuard)).toBe(true);
    expect(catchAll('/store/nowhere')).toBe('*');
    expect(catchAll('/crm/nowhere')).toBe('*');
    // Root indexes redirect.
    expect(resolve('/').route?.index).toBe(true);
    expect(resolve('/store').route?.index).toBe(true);
    expect(resolve('/crm').route?.index).toBe(true);
  });
});
