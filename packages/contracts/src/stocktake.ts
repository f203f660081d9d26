import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZPage } from './common';
import type { TLanguage } from './errors';
import { defineRoutes } from './routes';

/**
 * Stocktake (spec §2.2 /inventory, §3 stocktake sheet, §4 statuses): a sheet counted in up to three rounds. The rules
 * are written down in apps/server/src/modules/stocktake/README.md and enforced by
 * apps/server/src/modules/stocktake/stocktake.workflow.ts.
 */

type Messages = Record<TLanguage, string>;

const ZDay = z.iso.date();

/**
 * full: every active location of the warehouse; random: N locations or products drawn at random; first / review /
 * third: chosen locations or products, counted in at most one / two / three rounds.
 */
export const STOCKTAKE_TYPES = ['full', 'first', 'review', 'third', 'random'] as const;
export type TStocktakeType = (typeof STOCKTAKE_TYPES)[number];
/** Spec §4: first count, review count, third count, closed; plus cancelled (abandoned, nothing posted). */
export const STOCKTAKE_STATUSES = ['first', 'review', 'third', 'closed', 'cancelled'] as const;
export type TStocktakeStatus = (typeof STOCKTAKE_STATUSES)[number];
export const STOCKTAKE_SCOPES = ['location', 'product'] as const;
export type TStocktakeScope = (typeof STOCKTAKE_SCOPES)[number];
export const STOCKTAKE_ACTIONS = ['next_round', 'close', 'cancel'] as const;
export type TStocktakeAction = (typeof STOCKTAKE_ACTIONS)[number];

export const MAX_STOCKTAKE_SAMPLE = 10_000;
export const MAX_STOCKTAKE_SELECTION = 5_000;
export const MAX_COUNT_ITEMS = 1_000;
export const MAX_COUNT_QUANTITY = 1_000_000;

export const STOCKTAKE_VALUE_LABELS: {
  type: Record<TStocktakeType, Messages>;
  status: Record<TStocktakeStatus, Messages>;
  scope: Record<TStocktakeScope, Messages>;
} = {
  type: {
    full: { 'zh-TW': '全盤', ja: '全数棚卸', en: 'Full' },
    first: { 'zh-TW': '初盤', ja: '一次棚卸', en: 'First count' },
    review: { 'zh-TW': '複盤', ja: '再棚卸', en: 'Review count' },
    third: { 'zh-TW': '三盤', ja: '三次棚卸', en: 'Third count' },
    random: { 'zh-TW': '抽盤', ja: '抜き取り棚卸', en: 'Random' },
  },
  status: {
    first: { 'zh-TW': '初盤中', ja: '一次棚卸中', en: 'First count' },
    review: { 'zh-TW': '複盤中', ja: '再棚卸中', en: 'Review count' },
    third: { 'zh-TW': '三盤中', ja: '三次棚卸中', en: 'Third count' },
    closed: { 'zh-TW': '已結案', ja: '完了', en: 'Closed' },
    cancelled: { 'zh-TW': '已作廢', ja: '取消', en: 'Cancelled' },
  },
  scope: {
    location: { 'zh-TW': '依儲位', ja: 'ロケーション単位', en: 'By location' },
    product: { 'zh-TW': '依商品', ja: '商品単位', en: 'By product' },
  },
};

export const ZCreateStocktake = z.strictObject({
  warehouse_id: ZId,
  name: z.string().trim().min(1).max(100),
  /** Defaults to the current year (Asia/Taipei). */
  year: z.number().int().min(2000).max(2999).optional(),
  attribute: z.string().trim().max(50).optional(),
  type: z.enum(STOCKTAKE_TYPES),
  /** location (default): every product in the chosen locations; product: the chosen products wherever they lie. */
  scope: z.enum(STOCKTAKE_SCOPES).optional(),
  /** first / review / third with scope location: the locations to count. */
  location_ids: z.array(ZId).min(1).max(MAX_STOCKTAKE_SELECTION).optional(),
  /** first / review / third with scope product: the products to count. */
  product_ids: z.array(ZId).min(1).max(MAX_STOCKTAKE_SELECTION).optional(),
  /** random: how many locations (scope location) or products (scope product) to draw. */
  sample_size: z.number().int().min(1).max(MAX_STOCKTAKE_SAMPLE).optional(),
  remark: z.string().trim().max(500).optional(),
});
export type TCreateStocktake = z.infer<typeof ZCreateStocktake>;
export const ZUpdateStocktake = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    attribute: z.string().trim().max(50),
    remark: z.string().trim().max(500),
  })
  .partial();
export type TUpdateStocktake = z.infer<typeof ZUpdateStocktake>;

export const ZStocktake = z.object({
  id: ZId,
  number: z.string(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  name: z.string(),
  year: z.number().int(),
  attribute: z.string(),
  type: z.enum(STOCKTAKE_TYPES),
  status: z.enum(STOCKTAKE_STATUSES),
  scope: z.enum(STOCKTAKE_SCOPES),
  sample_size: z.number().int().nullable(),
  remark: z.string(),
  /** The open round (1–3), null when closed or cancelled. */
  round: z.number().int().nullable(),
  /** The last round this sheet's type allows. */
  max_round: z.number().int(),
  location_count: z.number().int(),
  line_count: z.number().int(),
  /** Locations still to count in the open round. */
  pending_locations: z.number().int(),
  /** Lines with a variance (after close: posted; before: count ≠ book in their last counted round). */
  variance_lines: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
});
export type TStocktake = z.infer<typeof ZStocktake>;

export const ZStocktakeListQuery = ZListQuery.extend({
  status: z.enum(STOCKTAKE_STATUSES).optional(),
  type: z.enum(STOCKTAKE_TYPES).optional(),
  year: z.coerce.number().int().min(2000).max(2999).optional(),
  warehouse_id: ZId.optional(),
});
export const STOCKTAKE_ORDERING = ['number', 'name', 'year', 'status', 'type', 'created_at'] as const;

export const ZStocktakeLocation = z.object({
  location_id: ZId,
  location_code: z.string(),
  location_name: z.string(),
  location_kind: z.string(),
  counted_1_at: z.string().nullable(),
  counted_2_at: z.string().nullable(),
  counted_3_at: z.string().nullable(),
  /** Lines of this location in the open round. */
  lines_in_round: z.number().int(),
  /** Still to be counted in the open round. */
  pending: z.boolean(),
});
export type TStocktakeLocation = z.infer<typeof ZStocktakeLocation>;
export const ZStocktakeLocationQuery = ZListQuery.extend({
  pending: z.enum(['true', 'false']).optional(),
});

export const ZStocktakeLine = z.object({
  id: ZId,
  location_id: ZId,
  location_code: z.string(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  product_barcode: z.string().nullable(),
  expiry_date: z.string().nullable(),
  book_initial: z.number().int(),
  last_round: z.number().int(),
  count_1: z.number().int().nullable(),
  book_1: z.number().int().nullable(),
  count_2: z.number().int().nullable(),
  book_2: z.number().int().nullable(),
  count_3: z.number().int().nullable(),
  book_3: z.number().int().nullable(),
  /** count − book of the line's last counted round (null until counted). */
  difference: z.number().int().nullable(),
  /** Posted at close (null before). */
  variance: z.number().int().nullable(),
  on_hand_after: z.number().int().nullable(),
});
export type TStocktakeLine = z.infer<typeof ZStocktakeLine>;
export const ZStocktakeLineQuery = ZListQuery.extend({
  /** Only lines taking part in this round. */
  round: z.coerce.number().int().min(1).max(3).optional(),
  location_id: ZId.optional(),
  /** Only lines whose count differs from the book (or, after close, with a posted variance). */
  differing: z.enum(['true', 'false']).optional(),
});

/** Scanner-first: resolve a scanned location code on the sheet; `scanned_at` is then sent with the count. */
export const ZStocktakeScanQuery = z.object({ code: z.string().trim().min(1).max(100) });
export const ZStocktakeScannedLocation = z.object({
  location_id: ZId,
  location_code: z.string(),
  location_name: z.string(),
  round: z.number().int(),
  /** Server time of the scan: the count's book quantities are the ledger's at this moment. */
  scanned_at: z.string(),
  /** Whether this location has anything to count in the open round (review and third rounds recount some only). */
  in_round: z.boolean(),
  /** Already counted in this round (a new count replaces it). */
  counted_at: z.string().nullable(),
  /** The products expected here in this round (no book quantities: counts are blind). */
  expected: z.array(
    z.object({
      product_id: ZId,
      product_number: z.string(),
      product_name: z.string(),
      product_barcode: z.string().nullable(),
      expiry_date: z.string().nullable(),
      counted: z.number().int().nullable(),
    }),
  ),
});
export type TStocktakeScannedLocation = z.infer<typeof ZStocktakeScannedLocation>;
export const ZStocktakeScannedProduct = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  product_barcode: z.string().nullable(),
  has_shelf_life: z.boolean(),
});
export type TStocktakeScannedProduct = z.infer<typeof ZStocktakeScannedProduct>;

/**
 * One location's count in the open round: everything found there. Lines of this location in the round that are not
 * listed were not found (counted 0). Counting a location again in the same round replaces its count.
 */
export const ZSubmitStocktakeCount = z.strictObject({
  location_id: ZId,
  /** `scanned_at` of the location scan; defaults to now. */
  started_at: z.iso.datetime({ offset: true }).optional(),
  items: z
    .array(
      z.strictObject({
        product_id: ZId,
        expiry_date: ZDay.nullable().optional(),
        quantity: z.number().int().min(0).max(MAX_COUNT_QUANTITY),
      }),
    )
    .max(MAX_COUNT_ITEMS),
});
export type TSubmitStocktakeCount = z.infer<typeof ZSubmitStocktakeCount>;
export const ZStocktakeCountResult = z.object({
  location_id: ZId,
  round: z.number().int(),
  lines_counted: z.number().int(),
  units_counted: z.number().int(),
  counted_at: z.string(),
});

export const ZStocktakeDetail = ZStocktake.extend({
  warehouse_name: z.string(),
  /** What the sheet's status and type allow now. */
  actions: z.array(z.enum(['edit', 'count', 'next_round', 'close', 'cancel'])),
});
export type TStocktakeDetail = z.infer<typeof ZStocktakeDetail>;

/** The variance report: every line with a difference (or, after close, a posted variance). */
export const ZStocktakeReport = z.object({
  stocktake: ZStocktakeDetail,
  company_name: z.string(),
  lines: z.array(ZStocktakeLine),
  totals: z.object({
    lines: z.number().int(),
    counted_lines: z.number().int(),
    variance_lines: z.number().int(),
    units_over: z.number().int(),
    units_short: z.number().int(),
  }),
  printed_at: z.string(),
});
export type TStocktakeReport = z.infer<typeof ZStocktakeReport>;

export const stocktakeRoutes = defineRoutes({
  listStocktakes: {
    method: 'GET',
    path: '/api/stocktakes/',
    auth: 'customer',
    perm: 'stock:read',
    query: ZStocktakeListQuery,
    response: ZPage(ZStocktake),
  },
  createStocktake: {
    method: 'POST',
    path: '/api/stocktakes/',
    auth: 'customer',
    perm: 'stock:write',
    body: ZCreateStocktake,
    response: ZStocktakeDetail,
  },
  getStocktake: {
    method: 'GET',
    path: '/api/stocktakes/:id/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    response: ZStocktakeDetail,
    tenantScoped: true,
  },
  updateStocktake: {
    method: 'PATCH',
    path: '/api/stocktakes/:id/',
    auth: 'customer',
    perm: 'stock:write',
    params: ZIdParams,
    body: ZUpdateStocktake,
    response: ZStocktakeDetail,
    tenantScoped: true,
  },
  listStocktakeLocations: {
    method: 'GET',
    path: '/api/stocktakes/:id/locations/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    query: ZStocktakeLocationQuery,
    response: ZPage(ZStocktakeLocation),
    tenantScoped: true,
  },
  listStocktakeLines: {
    method: 'GET',
    path: '/api/stocktakes/:id/lines/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    query: ZStocktakeLineQuery,
    response: ZPage(ZStocktakeLine),
    tenantScoped: true,
  },
  scanStocktakeLocation: {
    method: 'GET',
    path: '/api/stocktakes/:id/scan-location/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    query: ZStocktakeScanQuery,
    response: ZStocktakeScannedLocation,
    tenantScoped: true,
  },
  scanStocktakeProduct: {
    method: 'GET',
    path: '/api/stocktakes/:id/scan-product/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    query: ZStocktakeScanQuery,
    response: ZStocktakeScannedProduct,
    tenantScoped: true,
  },
  submitStocktakeCount: {
    method: 'POST',
    path: '/api/stocktakes/:id/counts/',
    auth: 'customer',
    perm: 'stock:write',
    params: ZIdParams,
    body: ZSubmitStocktakeCount,
    response: ZStocktakeCountResult,
    tenantScoped: true,
  },
  nextStocktakeRound: {
    method: 'POST',
    path: '/api/stocktakes/:id/next-round/',
    auth: 'customer',
    perm: 'stock:write',
    params: ZIdParams,
    response: ZStocktakeDetail,
    tenantScoped: true,
  },
  closeStocktake: {
    method: 'POST',
    path: '/api/stocktakes/:id/close/',
    auth: 'customer',
    perm: 'stock:write',
    params: ZIdParams,
    response: ZStocktakeDetail,
    tenantScoped: true,
  },
  cancelStocktake: {
    method: 'POST',
    path: '/api/stocktakes/:id/cancel/',
    auth: 'customer',
    perm: 'stock:write',
    params: ZIdParams,
    response: ZStocktakeDetail,
    tenantScoped: true,
  },
  stocktakeReport: {
    method: 'GET',
    path: '/api/stocktakes/:id/report/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    response: ZStocktakeReport,
    tenantScoped: true,
  },
  exportStocktakeReport: {
    method: 'GET',
    path: '/api/stocktakes/:id/report/export/',
    auth: 'customer',
    perm: 'stock:read',
    params: ZIdParams,
    response: z.unknown(),
    tenantScoped: true,
  },
});
