import { z } from 'zod';
import { ZId, ZIsoDate, ZListQuery, ZPage, ZQuantityInput } from './common';
import { defineRoutes } from './routes';

/** Why stock moved (the ledger's `reason`); the server's CHECK constraint holds the same list. */
export const STOCK_REASONS = [
  'inbound',
  'inbound_cancel',
  'outbound',
  'outbound_cancel',
  'return',
  'return_cancel',
  'return_to_supplier',
  'transfer',
  'expiry_transfer',
  'adjust',
  'stocktake',
] as const;
export type TStockReason = (typeof STOCK_REASONS)[number];

/** A reason as the user reads it (the stock-log screen and its export say the same). */
export const STOCK_REASON_LABELS: Record<TStockReason, Record<'zh-TW' | 'ja' | 'en', string>> = {
  inbound: { 'zh-TW': '入庫', ja: '入庫', en: 'Inbound' },
  inbound_cancel: { 'zh-TW': '入庫取消', ja: '入庫取消', en: 'Inbound cancelled' },
  outbound: { 'zh-TW': '出庫', ja: '出庫', en: 'Outbound' },
  outbound_cancel: { 'zh-TW': '出庫取消', ja: '出庫取消', en: 'Outbound cancelled' },
  return: { 'zh-TW': '退貨', ja: '返品', en: 'Return' },
  return_cancel: { 'zh-TW': '退貨取消', ja: '返品取消', en: 'Return cancelled' },
  return_to_supplier: { 'zh-TW': '退回供應商', ja: '仕入先返品', en: 'Return to supplier' },
  transfer: { 'zh-TW': '調撥', ja: '在庫移動', en: 'Transfer' },
  expiry_transfer: { 'zh-TW': '效期調撥', ja: '期限切れ移動', en: 'Expiry transfer' },
  adjust: { 'zh-TW': '調整', ja: '調整', en: 'Adjustment' },
  stocktake: { 'zh-TW': '盤點', ja: '棚卸', en: 'Stocktake' },
};
export const LOCATION_KINDS_FOR_STOCK = ['sellable', 'defective', 'expired', 'staging'] as const;
/** A pile's state for selling: sellable, past its sellable-until date, expired, or in a location that never sells. */
export const LOT_STATES = ['sellable', 'unsellable', 'expired', 'blocked'] as const;
export type TLotState = (typeof LOT_STATES)[number];
/** The stock log counts at most this many rows (and pages up to it); narrow the filters to see older rows. */
export const STOCK_LOG_COUNT_CAP = 10_000;
/**
 * /product-stock with a search counts matching rows up to this many: counting every match of a broad search means
 * reading every product of the seller with two case-insensitive matches — more than the page itself costs. Pages and
 * the export still reach every row; `count_capped` says the total is "more than".
 */
export const PRODUCT_STOCK_SEARCH_COUNT_CAP = 1_000;

const ZBool = z.enum(['true', 'false']).transform((v) => v === 'true');

// ---- /product-stock ----
export const ZProductStockQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  product_id: ZId.optional(),
  type: z.enum(['single', 'combination']).optional(),
  /** Only rows with stock on hand (or, for combinations, a kit on hand). */
  in_stock: ZBool.optional(),
  /** Only rows whose available is below the product's safety stock. */
  below_safety: ZBool.optional(),
});
export type TProductStockQuery = z.infer<typeof ZProductStockQuery>;
export const ZProductStockRow = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  barcode: z.string().nullable(),
  type: z.enum(['single', 'combination']),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  on_hand: z.number().int(),
  /** Null for combination products (their components are reserved, not the kit). */
  reserved: z.number().int().nullable(),
  available: z.number().int(),
  /** On hand that cannot be sold: defective/expired/staging locations and lots past their sellable date. */
  unsellable: z.number().int().nullable(),
  safety_stock: z.number().int(),
});
export type TProductStockRow = z.infer<typeof ZProductStockRow>;
export const ZProductStockPage = ZPage(ZProductStockRow).extend({
  /** True when a search matches more rows than PRODUCT_STOCK_SEARCH_COUNT_CAP: `count` is then the cap. */
  count_capped: z.boolean(),
});
export type TProductStockPage = z.infer<typeof ZProductStockPage>;

// ---- piles: /product-location, /location-stock, expiry candidates ----
export const ZBalanceRow = z.object({
  balance_id: ZId,
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  barcode: z.string().nullable(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  location_id: ZId,
  location_code: z.string(),
  location_kind: z.enum(LOCATION_KINDS_FOR_STOCK),
  shelf_code: z.string().nullable(),
  expiry_date: z.string().nullable(),
  sellable_until: z.string().nullable(),
  state: z.enum(LOT_STATES),
  on_hand: z.number().int(),
  reserved: z.number().int(),
  /** on_hand − reserved: what a transfer may move. */
  free: z.number().int(),
  received_at: z.string(),
});
export type TBalanceRow = z.infer<typeof ZBalanceRow>;

export const BALANCE_ORDERING = ['product_number', 'location_code', 'expiry_date', 'on_hand', 'received_at'] as const;
export const ZProductLocationQuery = ZListQuery.extend({
  product_id: ZId.optional(),
  warehouse_id: ZId.optional(),
  location_id: ZId.optional(),
  location_kind: z.enum(LOCATION_KINDS_FOR_STOCK).optional(),
  expiry_from: ZIsoDate.optional(),
  expiry_to: ZIsoDate.optional(),
});
export type TProductLocationQuery = z.infer<typeof ZProductLocationQuery>;
export const ZLocationStockQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  location_id: ZId.optional(),
  shelf_id: ZId.optional(),
  /** Exact location code (what a scanner read). */
  location_code: z.string().trim().max(40).optional(),
});
export type TLocationStockQuery = z.infer<typeof ZLocationStockQuery>;

// ---- /stock-log ----
export const ZStockLogQuery = ZListQuery.extend({
  product_id: ZId.optional(),
  location_id: ZId.optional(),
  warehouse_id: ZId.optional(),
  reason: z.enum(STOCK_REASONS).optional(),
  /** Exact document number (receipt, order, transfer …). */
  document_number: z.string().trim().max(40).optional(),
  /** Inclusive Taipei calendar days. */
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
export type TStockLogQuery = z.infer<typeof ZStockLogQuery>;
export const ZStockMovementRow = z.object({
  id: z.number().int(),
  created_at: z.string(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  warehouse_code: z.string(),
  location_id: ZId,
  location_code: z.string(),
  expiry_date: z.string().nullable(),
  quantity: z.number().int(),
  on_hand_after: z.number().int(),
  reason: z.enum(STOCK_REASONS),
  document_type: z.string(),
  document_number: z.string(),
  user_name: z.string().nullable(),
  note: z.string(),
});
export type TStockMovementRow = z.infer<typeof ZStockMovementRow>;
export const ZStockLogPage = ZPage(ZStockMovementRow).extend({
  /** True when more rows match than STOCK_LOG_COUNT_CAP: `count` is then the cap. */
  count_capped: z.boolean(),
});
export type TStockLogPage = z.infer<typeof ZStockLogPage>;

// ---- transfers ----
export const ZTransferLineInput = z.strictObject({
  /** The pile to move from (a row of /product-location or /location-stock). */
  balance_id: ZId,
  to_location_id: ZId,
  quantity: ZQuantityInput,
});
export type TTransferLineInput = z.infer<typeof ZTransferLineInput>;
export const ZStockTransferRequest = ZTransferLineInput.extend({ remark: z.string().trim().max(500).optional() });
export type TStockTransferRequest = z.infer<typeof ZStockTransferRequest>;
export const ZStockMultiTransferRequest = z.strictObject({
  lines: z.array(ZTransferLineInput).min(1).max(200),
  remark: z.string().trim().max(500).optional(),
});
export type TStockMultiTransferRequest = z.infer<typeof ZStockMultiTransferRequest>;
export const ZStockTransferResult = z.object({
  id: ZId,
  number: z.string(),
  kind: z.enum(['single', 'multi', 'expiry']),
  line_count: z.number().int(),
  unit_count: z.number().int(),
  lines: z.array(
    z.object({
      product_id: ZId,
      product_number: z.string(),
      expiry_date: z.string().nullable(),
      from_location_code: z.string(),
      to_location_code: z.string(),
      quantity: z.number().int(),
    }),
  ),
  /** Expiry transfer: units left behind because they are reserved. */
  reserved_left: z.number().int(),
});
export type TStockTransferResult = z.infer<typeof ZStockTransferResult>;

export const EXPIRY_MODES = ['expired', 'unsellable', 'expiring'] as const;
export const ZExpiryCandidatesQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  product_id: ZId.optional(),
  /** expired: past expiry; unsellable: past the sellable-until date; expiring: expiry within `days`. */
  mode: z.enum(EXPIRY_MODES).default('unsellable'),
  days: z.coerce.number().int().min(0).max(3650).default(30),
});
export type TExpiryCandidatesQuery = z.infer<typeof ZExpiryCandidatesQuery>;
export const ZExpiryTransferRequest = z.strictObject({
  to_location_id: ZId,
  balance_ids: z.array(ZId).min(1).max(500),
  remark: z.string().trim().max(500).optional(),
});
export type TExpiryTransferRequest = z.infer<typeof ZExpiryTransferRequest>;

export const stockRoutes = defineRoutes({
  productStock: {
    method: 'GET',
    path: '/api/product-stock/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZProductStockQuery,
    response: ZProductStockPage,
  },
  productLocation: {
    method: 'GET',
    path: '/api/product-location/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZProductLocationQuery,
    response: ZPage(ZBalanceRow),
  },
  locationStock: {
    method: 'GET',
    path: '/api/location-stock/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZLocationStockQuery,
    response: ZPage(ZBalanceRow),
  },
  stockLog: {
    method: 'GET',
    path: '/api/stock-log/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZStockLogQuery,
    response: ZStockLogPage,
  },
  exportStockLog: {
    method: 'GET',
    path: '/api/stock-log-export/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZStockLogQuery,
    response: z.unknown(),
  },
  transfer: {
    method: 'POST',
    path: '/api/stock-transfer/',
    auth: 'customer',
    perm: 'stock:write',
    body: ZStockTransferRequest,
    response: ZStockTransferResult,
  },
  multiTransfer: {
    method: 'POST',
    path: '/api/stock-multi-transfer/',
    auth: 'customer',
    perm: 'stock:write',
    body: ZStockMultiTransferRequest,
    response: ZStockTransferResult,
  },
  expiryCandidates: {
    method: 'GET',
    path: '/api/stock-expire-transfer/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZExpiryCandidatesQuery,
    response: ZPage(ZBalanceRow),
  },
  expiryTransfer: {
    method: 'POST',
    path: '/api/stock-expire-transfer/',
    auth: 'customer',
    perm: 'stock:write',
    body: ZExpiryTransferRequest,
    response: ZStockTransferResult,
  },
});
