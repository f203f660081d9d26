/**
 * The route table of spec §2, as data: every path the product answers, by area. The router (router.tsx) is built
 * from it; a screen is real when a feature registers it in its `screens.ts`, otherwise it renders the
 * "screen under construction" page. Do not add a screen here: register it in `features/<context>/screens.ts`.
 */

/** §2.1 public pages: a logged-in user is sent to `/`. */
export const PUBLIC_PATHS = ['/login', '/register', '/format-password'] as const;

/** §2.2 the guarded main area (MainLayout). */
export const MAIN_PATHS = [
  // Basics
  '/dashboard',
  '/corporation',
  '/warehouse',
  '/subzone',
  '/express-provider',
  '/ecommerce-channel',
  '/package',
  '/product-class',
  // Product
  '/product',
  '/product-update',
  '/product-print',
  '/product-stock',
  '/product-location',
  // Inbound
  '/entry',
  '/entry-confirm',
  '/entry-export',
  '/entry-quick',
  '/entry-cnt',
  // Return
  '/return',
  '/return-confirm',
  '/return-export',
  '/return-cnt',
  // Outbound
  '/deliver',
  '/deliver-cnt',
  '/deliver-operation',
  '/deliver-opser',
  '/deliver-imei',
  '/deliver-customize-form',
  '/deliver-export',
  // The floor board of the day's shipments (issue #36; not in the spec)
  '/ships-today',
  '/ships-handover',
  '/release-channels',
  // The handheld pick walk of a batch or wave (issues #36, #37)
  '/deliver-pick',
  // Support
  '/user-help',
  '/bug',
  '/request',
  // Stock
  '/stock-transfer',
  '/stock-multi-transfer',
  '/stock-expire-transfer',
  '/stock-log',
  '/inventory',
  // Account
  '/change-password',
  '/profile',
  '/two-factor',
  '/billing',
  // Integrations
  '/module-api-setup',
  '/module-shopee-create',
  '/gd-api-setup',
  '/gd-api-callback',
  // The API reference (OpenAPI) of the contracts and the partner API guide (#13); not in the spec
  '/api-docs',
  '/partner-api-docs',
  // Administration
  '/users',
  '/database-clean',
  '/store-admin',
  '/store-member',
  // Direct purchase from the main area (spec §1 "direct-purchase ordering", §2.8 menu group; no path in §2.2)
  '/direct-purchase',
  '/dev-test',
  // Analysis and other
  '/purchase-advice',
  '/deliver-statistics',
  '/location-stock',
  '/product-turnover',
  '/stock-age',
  '/customize',
  '/privacy',
  '/service-rule',
  '/404',
] as const;

/** §2.3 full-page print and label screens (guarded, PrintLayout: no chrome). */
export const PRINT_PATHS = [
  '/entry-qrcode/:id',
  '/entry-print/:id',
  '/deliver-print-pick/:id',
  '/deliver-print-pick-A4/:id',
  '/deliver-print-doc/:id/:orderby',
  '/deliver-print-rec/:id/:orderby',
  '/rack-print/:selected',
  '/package-print',
  '/return-print/:id',
  '/product-print-preview/:data',
  // A carrier's handover manifest (issue #36; not in the spec)
  '/ships-manifest-print/:id',
] as const;

/** §2.4 payment pages (guarded, BlankLayout). */
export const PAYMENT_PATHS = ['/tappay', '/wait-tappay', '/newebpay', '/wait-newebpay'] as const;

/** §2.6 the store-member portal. `/store` redirects to `/store/deliver-list`. */
export const STORE_MEMBER_PATHS = [
  '/store/dashboard',
  '/store/deliver-list',
  '/store/profile',
  '/store/password',
] as const;
export const STORE_PUBLIC_PATHS = ['/store/login/:short_url', '/store/404'] as const;

/** §2.7 the CRM area (EMPLOYEE only). `/crm` redirects to `/crm/dashboard`. */
export const CRM_PATHS = [
  '/crm/dashboard',
  '/crm/customer',
  '/crm/board',
  '/crm/rack',
  '/crm/stock',
  // Not in the spec: every seller's usage statements (issue #35).
  '/crm/statements',
  '/crm/404',
] as const;

/** §2.5 user manual sub-pages ('' is the index). Each is a Markdown document per language (see manual/). */
export const MANUAL_PAGES = [
  '',
  'flowchart',
  'corporation',
  'warehouse',
  'ecommerce-channel',
  'express-provider',
  'package',
  'users',
  'product',
  'deliver',
  'deliver-operation',
  'deliver-opser',
  'entry',
  'entry-confirm',
  'return',
  'return-confirm',
  'product-stock',
  'product-location',
  'stock-transfer',
  'stock-multi-transfer',
  'stock-log',
  'inventory',
  'api-setting',
  'gd-api-setup',
  'module-shopee-create',
  'purchase-advice',
  'deliver-statistics',
  'location-stock',
  'product-turnover',
  'stock-age',
  'store-admin',
  'store-member',
  '2fa',
  'billing',
  'version',
  'customize',
  'product-update',
  'product-print',
  'deliver-cnt',
  'deliver-export',
  'deliver-imei',
  'deliver-customize-form',
  'entry-cnt',
  'entry-quick',
  'entry-export',
  'return-cnt',
  'return-export',
  // Not in the spec: phones and handhelds on the floor (issue #37).
  'handheld',
] as const;

export type TPublicPath = (typeof PUBLIC_PATHS)[number];
export type TMainPath = (typeof MAIN_PATHS)[number];
export type TPrintPath = (typeof PRINT_PATHS)[number];
export type TPaymentPath = (typeof PAYMENT_PATHS)[number];
export type TStorePath = (typeof STORE_MEMBER_PATHS)[number] | (typeof STORE_PUBLIC_PATHS)[number];
export type TCrmPath = (typeof CRM_PATHS)[number];
export type TManualPage = (typeof MANUAL_PAGES)[number];

/** Every path a feature can register a screen for. */
export type TScreenPath = TPublicPath | TMainPath | TPrintPath | TPaymentPath | TStorePath | TCrmPath;

export const SCREEN_PATHS: readonly TScreenPath[] = [
  ...PUBLIC_PATHS,
  ...MAIN_PATHS,
  ...PRINT_PATHS,
  ...PAYMENT_PATHS,
  ...STORE_MEMBER_PATHS,
  ...STORE_PUBLIC_PATHS,
  ...CRM_PATHS,
];

/** The i18n key of a screen's title in the `nav` namespace: '/deliver-print-doc/:id/:orderby' → 'deliver-print-doc'. */
export function screenKey(path: TScreenPath): string {
  const parts = path.split('/').filter((p) => p && !p.startsWith(':'));
  return parts.join('.');
}

/** What every screen route carries: its spec path (titles, tests) and whether it is still under construction. */
export interface TScreenHandle {
  screen: TScreenPath;
  pending: boolean;
}
/** Manual routes carry their page ('' = index; null = the catch-all not-found page). */
export interface TManualHandle {
  manual: TManualPage | null;
}
