import { z } from 'zod';
import { MENU_GROUPS, type TMenuGroup } from './menu-groups';

/**
 * Permissions inside a seller's company. The menu groups of spec §2.8 are what a role opens; each route of the
 * contracts' tables declares the ONE permission it needs (`perm` next to `auth`), `route()` enforces it with 403
 * PERMISSION_DENIED, and the web hides the menus and screens a user's grants do not open.
 */
export { allows, MENU_GROUPS, type TMenuGroup, type TPermission } from './menu-groups';
export const ZMenuGroup = z.enum(MENU_GROUPS);

export const SELLER_ROLES = ['owner', 'office', 'warehouse', 'readonly', 'custom'] as const;
export const ZSellerRole = z.enum(SELLER_ROLES);
export type TSellerRole = z.infer<typeof ZSellerRole>;

/** What the owner can tick for a custom role: every menu group but user administration, plus seeing prices. */
export const CUSTOM_GRANTS = [...MENU_GROUPS.filter((g) => g !== 'users'), 'prices'] as const;
export const ZCustomGrant = z.enum(CUSTOM_GRANTS);
export type TCustomGrant = z.infer<typeof ZCustomGrant>;

/** Fields of prices and costs: answers to a user without the `prices` grant carry null in them. */
export const PRICE_FIELDS: readonly string[] = ['unit_price', 'selling_price', 'cost', 'stock_value'];

/** One user's effective access: per menu group read/write, and whether prices and costs are shown. */
export const ZGrants = z.object({
  read: z.array(ZMenuGroup),
  write: z.array(ZMenuGroup),
  prices: z.boolean(),
});
export type TGrants = z.infer<typeof ZGrants>;

const ALL: readonly TMenuGroup[] = MENU_GROUPS;
const OFFICE: readonly TMenuGroup[] = MENU_GROUPS.filter((g) => g !== 'users' && g !== 'billing');
const WAREHOUSE_WRITE: readonly TMenuGroup[] = ['inbound', 'returns', 'orders', 'stock'];
const WAREHOUSE_READ: readonly TMenuGroup[] = [...WAREHOUSE_WRITE, 'products', 'basics'];

/** The grants of a seller role (`access`: the ticked grants of a custom role; ignored for the others). */
export function grantsOf(role: TSellerRole, access: readonly string[] = []): TGrants {
  switch (role) {
    case 'owner':
      return { read: [...ALL], write: [...ALL], prices: true };
    case 'office':
      return { read: [...OFFICE], write: [...OFFICE], prices: true };
    case 'warehouse':
      return { read: [...WAREHOUSE_READ], write: [...WAREHOUSE_WRITE], prices: false };
    case 'readonly':
      return { read: [...OFFICE], write: [], prices: true };
    case 'custom': {
      const groups = MENU_GROUPS.filter((g) => g !== 'users' && access.includes(g));
      return { read: groups, write: groups, prices: access.includes('prices') };
    }
  }
}

/** Role names as a mail (the invitation) shows them; the web has its own in the `users` locale namespace. */
export const SELLER_ROLE_LABELS: Record<TSellerRole, Record<'zh-TW' | 'ja' | 'en', string>> = {
  owner: { 'zh-TW': '擁有者（管理員）', ja: 'オーナー（管理者）', en: 'Owner (admin)' },
  office: { 'zh-TW': '辦公室人員', ja: '事務スタッフ', en: 'Office' },
  warehouse: { 'zh-TW': '倉庫人員', ja: '倉庫スタッフ', en: 'Warehouse' },
  readonly: { 'zh-TW': '唯讀', ja: '閲覧のみ', en: 'Read-only' },
  custom: { 'zh-TW': '自訂', ja: 'カスタム', en: 'Custom' },
};
