import { z } from 'zod';
import { ZChangePassword, ZEmail, ZMemberProfile, ZPassword } from './auth';
import { ZId, ZIdParams, ZListQuery, ZMoney, ZOk, ZPage } from './common';
import { ORDER_STATUSES, ORDER_TEXT_LIMITS } from './outbound';
import { defineRoutes } from './routes';

/**
 * The online store (spec §1, §2.6, §3 "Online store: name, short URL, description"): a seller's members-only shop.
 * /store-admin (the store and its listed products), /store-member (members), the member portal under /store/ and
 * direct purchase (a member's or the seller's order of listed products → a pending outbound order of channel
 * `store`).
 */

/** A short URL: 3–40 lower-case letters, digits and dashes, not starting or ending with a dash. */
export const SHORT_URL_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;
export const ZShortUrl = z.string().trim().toLowerCase().regex(SHORT_URL_PATTERN);
/** A logo: a small PNG/JPEG/WebP data URL (about 150 KB of image at most). */
export const STORE_LOGO_MAX_CHARS = 200_000;
const ZLogo = z
  .string()
  .max(STORE_LOGO_MAX_CHARS)
  .regex(/^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*)?$/);
const ZBoolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

export const ZStore = z.object({
  id: ZId,
  name: z.string(),
  short_url: z.string(),
  description: z.string(),
  logo: z.string(),
  is_open: z.boolean(),
  updated_at: z.string(),
});
export type TStore = z.infer<typeof ZStore>;
export const ZStoreAdmin = z.object({ store: ZStore.nullable() });

export const ZSaveStore = z.strictObject({
  name: z.string().trim().min(1).max(100),
  short_url: ZShortUrl,
  description: z.string().trim().max(1000).optional(),
  logo: ZLogo.optional(),
  is_open: z.boolean().optional(),
});
export type TSaveStore = z.infer<typeof ZSaveStore>;

export const ZShortUrlCheckQuery = z.object({ short_url: z.string().trim().max(100) });
/** `valid`: the form is right; `available`: no other store has it (the caller's own store's URL is available). */
export const ZShortUrlCheck = z.object({ valid: z.boolean(), available: z.boolean() });

// ---- listed products --------------------------------------------------------------------------------------------

export const ZStoreProductQuery = ZListQuery.extend({ listed: ZBoolParam.optional() });
export type TStoreProductQuery = z.infer<typeof ZStoreProductQuery>;
export const ZStoreProduct = z.object({
  id: ZId,
  number: z.string(),
  name: z.string(),
  barcode: z.string().nullable(),
  unit: z.string().nullable(),
  selling_price: z.string().nullable(),
  online_listing: z.boolean(),
  /** Active and allowed to ship: only these can be ordered. */
  orderable: z.boolean(),
  /** Sellable stock over all warehouses (allocation decides what ships). */
  available: z.number().int(),
});
export type TStoreProduct = z.infer<typeof ZStoreProduct>;
export const ZUpdateStoreProduct = z.strictObject({
  online_listing: z.boolean(),
  selling_price: ZMoney.nullable(),
});

// ---- orders --------------------------------------------------------------------------------------------------------

export const ZStoreOrderQuery = ZListQuery.extend({ status: z.enum(ORDER_STATUSES).optional() });
export type TStoreOrderQuery = z.infer<typeof ZStoreOrderQuery>;
export const ZStoreOrderLine = z.object({
  product_number: z.string(),
  product_name: z.string(),
  quantity: z.number().int(),
  unit_price: z.string().nullable(),
});
export const ZStoreOrder = z.object({
  id: ZId,
  number: z.string(),
  created_at: z.string(),
  status: z.enum(ORDER_STATUSES),
  consignment_number: z.string().nullable(),
  /** The carrier's tracking page of the consignment, when the carrier has one. */
  tracking_url: z.string().nullable(),
  logistics_provider: z.string().nullable(),
  recipient_name: z.string(),
  recipient_address: z.string(),
  total_amount: z.string().nullable(),
  cod: z.boolean(),
  /** Who ordered: a member (null when the seller ordered from the main area). */
  member_name: z.string().nullable(),
  member_email: z.string().nullable(),
  lines: z.array(ZStoreOrderLine),
});
export type TStoreOrder = z.infer<typeof ZStoreOrder>;

/** The carrier's public tracking page of a consignment number (T-cat today), or null. */
export function trackingUrlOf(
  provider: { code: string; name: string } | null,
  consignment: string | null,
): string | null {
  if (!provider || !consignment) return null;
  const key = `${provider.code} ${provider.name}`.toLowerCase();
  if (/t-?cat|黑貓|tcat|宅急便/.test(key))
    return `https://www.t-cat.com.tw/Inquire/TraceDetail.aspx?BillID=${encodeURIComponent(consignment)}`;
  return null;
}

// ---- members -------------------------------------------------------------------------------------------------------

const ZMemberPhone = z.string().trim().max(ORDER_TEXT_LIMITS.recipient_phone);
const ZMemberPostcode = z.string().trim().max(ORDER_TEXT_LIMITS.recipient_postcode);
const ZMemberAddress = z.string().trim().max(ORDER_TEXT_LIMITS.recipient_address);

export const ZStoreMember = z.object({
  id: ZId,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  postcode: z.string(),
  address: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type TStoreMember = z.infer<typeof ZStoreMember>;
export const ZStoreMemberQuery = ZListQuery.extend({ is_active: ZBoolParam.optional() });
export type TStoreMemberQuery = z.infer<typeof ZStoreMemberQuery>;

export const ZCreateStoreMember = z.strictObject({
  name: z.string().trim().min(1).max(100),
  email: ZEmail,
  phone: ZMemberPhone.optional(),
  postcode: ZMemberPostcode.optional(),
  address: ZMemberAddress.optional(),
  is_active: z.boolean().optional(),
  /** Set by the seller; without one a password is generated. Either way it is mailed with the login link. */
  password: ZPassword.optional(),
});
export type TCreateStoreMember = z.infer<typeof ZCreateStoreMember>;
export const ZUpdateStoreMember = z.strictObject({
  name: z.string().trim().min(1).max(100),
  phone: ZMemberPhone,
  postcode: ZMemberPostcode,
  address: ZMemberAddress,
  is_active: z.boolean(),
});
export type TUpdateStoreMember = z.infer<typeof ZUpdateStoreMember>;

export const ZUpdateMemberProfile = z.strictObject({
  name: z.string().trim().min(1).max(100),
  phone: ZMemberPhone,
  postcode: ZMemberPostcode,
  address: ZMemberAddress,
});
export type TUpdateMemberProfile = z.infer<typeof ZUpdateMemberProfile>;

// ---- direct purchase -----------------------------------------------------------------------------------------------

export const ZCatalogItem = z.object({
  id: ZId,
  number: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  selling_price: z.string().nullable(),
  available: z.number().int(),
});
export type TCatalogItem = z.infer<typeof ZCatalogItem>;
export const ZStoreCatalog = z.object({
  store: z.object({
    name: z.string(),
    short_url: z.string(),
    description: z.string(),
    logo: z.string(),
    is_open: z.boolean(),
  }),
  products: z.array(ZCatalogItem),
  /** Delivery methods: the seller's active logistics providers. */
  providers: z.array(z.object({ id: ZId, code: z.string(), name: z.string() })),
});
export type TStoreCatalog = z.infer<typeof ZStoreCatalog>;

export const DIRECT_PURCHASE_MAX_LINES = 50;
export const ZDirectPurchase = z.strictObject({
  lines: z
    .array(z.strictObject({ product_id: ZId, quantity: z.number().int().min(1).max(9999) }))
    .min(1)
    .max(DIRECT_PURCHASE_MAX_LINES),
  recipient_name: z.string().trim().min(1).max(ORDER_TEXT_LIMITS.recipient_name),
  recipient_phone: z.string().trim().min(1).max(ORDER_TEXT_LIMITS.recipient_phone),
  recipient_postcode: z.string().trim().min(1).max(ORDER_TEXT_LIMITS.recipient_postcode),
  recipient_address: z.string().trim().min(1).max(ORDER_TEXT_LIMITS.recipient_address),
  logistics_provider_id: ZId,
  /** Collect on delivery: the order's total is collected. */
  cod: z.boolean().optional(),
  shipping_remark: z.string().trim().max(ORDER_TEXT_LIMITS.shipping_remark).optional(),
});
export type TDirectPurchase = z.infer<typeof ZDirectPurchase>;
export const ZDirectPurchaseResult = z.object({ id: ZId, number: z.string(), total_amount: z.string() });

export const storeRoutes = defineRoutes({
  getStoreAdmin: {
    method: 'GET',
    path: '/api/store-admin/',
    auth: 'customer',
    perm: 'store:read',
    response: ZStoreAdmin,
  },
  saveStore: {
    method: 'PUT',
    path: '/api/store-admin/',
    auth: 'customer',
    perm: 'store:write',
    body: ZSaveStore,
    response: ZStore,
  },
  checkShortUrl: {
    method: 'GET',
    path: '/api/store-admin/short-url/',
    auth: 'customer',
    perm: 'store:read',
    query: ZShortUrlCheckQuery,
    response: ZShortUrlCheck,
  },
  listStoreProducts: {
    method: 'GET',
    path: '/api/store-admin/products/',
    auth: 'customer',
    perm: 'store:read',
    query: ZStoreProductQuery,
    response: ZPage(ZStoreProduct),
  },
  updateStoreProduct: {
    method: 'PUT',
    path: '/api/store-admin/products/:id/',
    auth: 'customer',
    perm: 'store:write',
    params: ZIdParams,
    body: ZUpdateStoreProduct,
    response: ZStoreProduct,
    tenantScoped: true,
  },
  listStoreOrders: {
    method: 'GET',
    path: '/api/store-admin/orders/',
    auth: 'customer',
    perm: 'store:read',
    query: ZStoreOrderQuery,
    response: ZPage(ZStoreOrder),
  },
  listStoreMembers: {
    method: 'GET',
    path: '/api/store-members/',
    auth: 'customer',
    perm: 'store:read',
    query: ZStoreMemberQuery,
    response: ZPage(ZStoreMember),
  },
  exportStoreMembers: {
    method: 'GET',
    path: '/api/store-members/export/',
    auth: 'customer',
    perm: 'store:read',
    query: ZStoreMemberQuery,
    response: z.unknown(),
  },
  createStoreMember: {
    method: 'POST',
    path: '/api/store-members/',
    auth: 'customer',
    perm: 'store:write',
    body: ZCreateStoreMember,
    response: ZStoreMember,
  },
  updateStoreMember: {
    method: 'PUT',
    path: '/api/store-members/:id/',
    auth: 'customer',
    perm: 'store:write',
    params: ZIdParams,
    body: ZUpdateStoreMember,
    response: ZStoreMember,
    tenantScoped: true,
  },
  resetStoreMemberPassword: {
    method: 'POST',
    path: '/api/store-members/:id/reset-password/',
    auth: 'customer',
    perm: 'store:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  sellerCatalog: {
    method: 'GET',
    path: '/api/direct-purchase/catalog/',
    auth: 'customer',
    perm: 'store:read',
    response: ZStoreCatalog,
  },
  sellerPurchase: {
    method: 'POST',
    path: '/api/direct-purchase/',
    auth: 'customer',
    perm: 'store:write',
    body: ZDirectPurchase,
    response: ZDirectPurchaseResult,
  },
  // ---- the member portal (member tokens only) ----
  updateMemberProfile: {
    method: 'PUT',
    path: '/api/member-profile/',
    auth: 'member',
    body: ZUpdateMemberProfile,
    response: ZMemberProfile,
  },
  changeMemberPassword: {
    method: 'POST',
    path: '/api/member-password/',
    auth: 'member',
    body: ZChangePassword,
    response: ZOk,
  },
  memberCatalog: { method: 'GET', path: '/api/member-catalog/', auth: 'member', response: ZStoreCatalog },
  listMemberOrders: {
    method: 'GET',
    path: '/api/member-orders/',
    auth: 'member',
    query: ZStoreOrderQuery,
    response: ZPage(ZStoreOrder),
  },
  memberPurchase: {
    method: 'POST',
    path: '/api/member-orders/',
    auth: 'member',
    body: ZDirectPurchase,
    response: ZDirectPurchaseResult,
  },
});
