import { allows, type TGrants, type TPermission } from '@wms/contracts';
import type { TMainPath } from './route-table';

/**
 * What a main-area screen needs to be opened (the read permission of the API it lists; the server enforces each
 * call by the route table of the contracts). A path not listed is open to every user (`self`: dashboard, account,
 * help, terms). The menu hides what the user's grants do not open, and the layout shows "no permission" instead.
 */
export const SCREEN_PERMISSIONS: Partial<Record<TMainPath, TPermission>> = {
  '/corporation': 'basics:read',
  '/warehouse': 'basics:read',
  '/subzone': 'basics:read',
  '/package': 'basics:read',
  '/express-provider': 'basics:read',
  '/ecommerce-channel': 'basics:read',
  '/product-class': 'products:read',
  '/product': 'products:read',
  '/product-update': 'products:write',
  '/product-print': 'products:read',
  '/product-stock': 'stock:read',
  '/product-location': 'stock:read',
  '/entry': 'inbound:read',
  '/entry-confirm': 'inbound:read',
  '/entry-export': 'inbound:read',
  '/entry-quick': 'inbound:write',
  '/entry-cnt': 'inbound:read',
  '/return': 'returns:read',
  '/return-confirm': 'returns:read',
  '/return-export': 'returns:read',
  '/return-cnt': 'returns:read',
  '/deliver': 'orders:read',
  '/deliver-cnt': 'orders:read',
  '/deliver-operation': 'orders:read',
  '/deliver-opser': 'orders:read',
  '/deliver-imei': 'orders:read',
  '/deliver-customize-form': 'orders:read',
  '/deliver-export': 'orders:read',
  '/ships-today': 'orders:read',
  '/ships-handover': 'orders:read',
  '/release-channels': 'orders:read',
  '/deliver-pick': 'orders:read',
  '/customize': 'orders:read',
  '/stock-transfer': 'stock:write',
  '/stock-multi-transfer': 'stock:write',
  '/stock-expire-transfer': 'stock:write',
  '/stock-log': 'stock:read',
  '/inventory': 'stock:read',
  '/billing': 'billing:read',
  '/module-api-setup': 'api:read',
  '/module-shopee-create': 'api:read',
  '/gd-api-setup': 'api:read',
  '/gd-api-callback': 'api:read',
  '/api-docs': 'api:read',
  '/partner-api-docs': 'api:read',
  '/users': 'users:read',
  '/database-clean': 'users:write',
  '/dev-test': 'users:read',
  '/store-admin': 'store:read',
  '/store-member': 'store:read',
  '/direct-purchase': 'store:read',
  '/purchase-advice': 'analysis:read',
  '/deliver-statistics': 'analysis:read',
  '/location-stock': 'stock:read',
  '/product-turnover': 'analysis:read',
  '/stock-age': 'analysis:read',
};

/** True when a user with `grants` may open `path` (no grants known yet: nothing is hidden). */
export function canOpen(path: string, grants: TGrants | null | undefined): boolean {
  const perm = SCREEN_PERMISSIONS[path as TMainPath];
  return !perm || !grants || allows(grants, perm);
}
