import type { TMainPath } from '../routes/route-table';

/** Menu groups of spec §2.8, in its order. Items are main-area paths or manual pages (`/user-manual/...`). */
export interface TMenuGroup {
  key: string;
  items: Array<TMainPath | `/user-manual${string}`>;
}

export const MENU_GROUPS: TMenuGroup[] = [
  {
    key: 'basic',
    items: [
      '/corporation',
      '/warehouse',
      '/subzone',
      '/package',
      '/express-provider',
      '/ecommerce-channel',
      '/product-class',
    ],
  },
  { key: 'product', items: ['/product', '/product-update', '/product-print'] },
  { key: 'inbound', items: ['/entry', '/entry-confirm', '/entry-quick', '/entry-export', '/entry-cnt'] },
  { key: 'return', items: ['/return', '/return-confirm', '/return-export', '/return-cnt'] },
  {
    key: 'order',
    items: [
      '/deliver',
      '/ships-today',
      '/release-channels',
      '/deliver-export',
      '/deliver-operation',
      '/deliver-opser',
      '/deliver-pick',
      '/deliver-imei',
      '/deliver-cnt',
      '/deliver-customize-form',
      '/customize',
    ],
  },
  {
    key: 'stock',
    items: [
      '/product-stock',
      '/stock-log',
      '/product-location',
      '/stock-transfer',
      '/stock-multi-transfer',
      '/stock-expire-transfer',
      '/inventory',
    ],
  },
  { key: 'analysis', items: ['/deliver-statistics', '/location-stock', '/product-turnover', '/stock-age'] },
  { key: 'purchase', items: ['/purchase-advice'] },
  { key: 'account', items: ['/billing', '/two-factor', '/change-password', '/profile', '/users'] },
  {
    key: 'api',
    items: [
      '/module-api-setup',
      '/module-shopee-create',
      '/gd-api-setup',
      '/gd-api-callback',
      '/partner-api-docs',
      '/api-docs',
    ],
  },
  { key: 'store', items: ['/direct-purchase', '/store-admin', '/store-member'] },
  { key: 'manual', items: ['/user-manual', '/user-manual/flowchart', '/user-help', '/bug', '/request'] },
  { key: 'terms', items: ['/service-rule', '/privacy'] },
  { key: 'version', items: ['/user-manual/version'] },
];

/** The group whose item is the current path (to open it in the menu). */
export function groupOf(pathname: string): string | undefined {
  return MENU_GROUPS.find((g) => g.items.some((item) => item === pathname))?.key;
}
