/**
 * Analysis (spec §1 analysis, §2.2 /purchase-advice, /deliver-statistics, /product-turnover, /stock-age, /dashboard):
 * read-only figures computed by SQL aggregation over the stock ledger, the balances and the orders.
 */
import { z } from 'zod';
import { ZId, ZIsoDate, ZListQuery, ZPage } from './common';
import type { TLanguage } from './errors';
import { defineRoutes } from './routes';

const ZBool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Windows of average daily outbound offered by /purchase-advice. */
export const ADVICE_WINDOWS = [7, 30, 90] as const;
/** Age buckets of /stock-age, in days since receipt (upper bounds; the last one is open). */
export const STOCK_AGE_BUCKETS = ['d0_30', 'd31_60', 'd61_90', 'd91_180', 'd181_365', 'd365_plus'] as const;
export type TStockAgeBucket = (typeof STOCK_AGE_BUCKETS)[number];
/** Periods and dimensions of /deliver-statistics. */
export const DELIVER_PERIODS = ['day', 'week', 'month'] as const;
export const DELIVER_DIMENSIONS = ['none', 'channel', 'platform', 'logistics_provider', 'warehouse'] as const;
/** Days within which a lot counts as near expiry on the dashboard. */
export const NEAR_EXPIRY_DAYS = 30;

// ---- /purchase-advice ----
export const ZPurchaseAdviceQuery = ZListQuery.extend({
  window: z.coerce
    .number()
    .int()
    .refine((n) => (ADVICE_WINDOWS as readonly number[]).includes(n))
    .default(30),
  warehouse_id: ZId.optional(),
  /** Only rows whose available stock is below the product's safety stock. */
  below_safety: ZBool.optional(),
  /** Only rows with an advised quantity above zero. */
  to_buy: ZBool.optional(),
});
export type TPurchaseAdviceQuery = z.infer<typeof ZPurchaseAdviceQuery>;
export const ZPurchaseAdviceRow = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  warehouse_id: ZId.nullable(),
  warehouse_code: z.string().nullable(),
  safety_stock: z.number().int(),
  stocking_days: z.number().int(),
  /** The product has a shelf life (a receipt of it needs expiry dates). */
  shelf_life: z.boolean(),
  /** Units shipped in the window (combination products through their components), net of cancellations. */
  units_out: z.number().int(),
  /** units_out / window, two decimals. */
  avg_daily_out: z.number(),
  on_hand: z.number().int(),
  available: z.number().int(),
  /** Units on pending inbound receipts (not yet confirmed). */
  incoming: z.number().int(),
  /** available / avg_daily_out, one decimal; null when nothing went out. */
  days_left: z.number().nullable(),
  below_safety: z.boolean(),
  /** ceil(avg_daily_out × stocking_days) + safety_stock − available − incoming, at least 0. */
  advised: z.number().int(),
});
export type TPurchaseAdviceRow = z.infer<typeof ZPurchaseAdviceRow>;

// ---- /product-turnover ----
export const ZTurnoverQuery = ZListQuery.extend({
  /** The period (Taipei days); without it, the last 30 days up to today. */
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
  warehouse_id: ZId.optional(),
  /** A product without outbound for this many days while holding stock is dead stock. */
  dead_days: z.coerce.number().int().min(1).max(3650).default(90),
  only: z.enum(['slow', 'dead']).optional(),
});
export type TTurnoverQuery = z.infer<typeof ZTurnoverQuery>;
export const ZTurnoverRow = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  units_out: z.number().int(),
  /** Average of the end-of-day on-hand over the period's days, from the ledger; two decimals. */
  avg_stock: z.number(),
  on_hand: z.number().int(),
  /** units_out / avg_stock, two decimals; null when the average stock is 0. */
  turnover: z.number().nullable(),
  /** avg_stock / (units_out / days), one decimal; null when nothing went out. */
  days_of_supply: z.number().nullable(),
  cost: z.string().nullable(),
  /** on_hand × cost, two decimals; null without a cost. */
  stock_value: z.string().nullable(),
  last_out_at: z.string().nullable(),
  slow: z.boolean(),
  dead: z.boolean(),
});
export type TTurnoverRow = z.infer<typeof ZTurnoverRow>;

// ---- /stock-age ----
export const ZStockAgeQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  /** product: FIFO layers of the ledger per product and warehouse; location: each pile by its receipt date. */
  by: z.enum(['product', 'location']).default('product'),
});
export type TStockAgeQuery = z.infer<typeof ZStockAgeQuery>;
export const ZStockAgeRow = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  location_id: ZId.nullable(),
  location_code: z.string().nullable(),
  on_hand: z.number().int(),
  buckets: z.object(
    Object.fromEntries(STOCK_AGE_BUCKETS.map((b) => [b, z.number().int()])) as Record<TStockAgeBucket, z.ZodNumber>,
  ),
  /** Age in days of the oldest unit on hand. */
  oldest_days: z.number().int(),
  shelf_life_months: z.number().int().nullable(),
  sellable_rule_months: z.number().int().nullable(),
  /** Nearest expiry date of the stock on hand (shelf-life products). */
  nearest_expiry: ZIsoDate.nullable(),
});
export type TStockAgeRow = z.infer<typeof ZStockAgeRow>;

// ---- /deliver-statistics ----
export const ZDeliverStatsQuery = z.object({
  /** The period of shipment (Taipei days); without it, the last 30 days up to today. */
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
  period: z.enum(DELIVER_PERIODS).default('day'),
  dimension: z.enum(DELIVER_DIMENSIONS).default('none'),
  warehouse_id: ZId.optional(),
});
export type TDeliverStatsQuery = z.infer<typeof ZDeliverStatsQuery>;
const ZDeliverFigures = z.object({
  orders: z.number().int(),
  lines: z.number().int(),
  units: z.number().int(),
  cod_orders: z.number().int(),
  cod_amount: z.string(),
  /** Average hours from import (order created) to shipment, one decimal; null without orders. */
  avg_hours_to_ship: z.number().nullable(),
});
export const ZDeliverStatsRow = ZDeliverFigures.extend({
  /** First day of the period (Taipei). */
  period: ZIsoDate,
  /** The dimension's value (channel, platform code, logistics provider code, warehouse code); null = none. */
  key: z.string().nullable(),
});
export type TDeliverStatsRow = z.infer<typeof ZDeliverStatsRow>;
export const ZDeliverStats = z.object({ rows: z.array(ZDeliverStatsRow), total: ZDeliverFigures });
export type TDeliverStats = z.infer<typeof ZDeliverStats>;

// ---- /location-stock, analysis view ----
export const OCCUPANCY_GROUPS = ['warehouse', 'area', 'shelf'] as const;
export const ZOccupancyQuery = z.object({
  group: z.enum(OCCUPANCY_GROUPS).default('warehouse'),
  warehouse_id: ZId.optional(),
});
export type TOccupancyQuery = z.infer<typeof ZOccupancyQuery>;
export const ZOccupancyRow = z.object({
  warehouse_code: z.string(),
  /** The area's or shelf's code (null: locations outside any area / shelf, or group = warehouse). */
  area_code: z.string().nullable(),
  shelf_code: z.string().nullable(),
  locations: z.number().int(),
  cells: z.number().int(),
  /** Locations without stock. */
  empty: z.number().int(),
  /** Locations holding stock with fewer piles than cells. */
  in_use: z.number().int(),
  /** Locations whose piles (product × lot) fill every cell. */
  full: z.number().int(),
  piles: z.number().int(),
  units: z.number().int(),
  /** Locations holding an expired lot, and (not expired) a lot past its sellable-until date. */
  expired_locations: z.number().int(),
  unsellable_locations: z.number().int(),
});
export type TOccupancyRow = z.infer<typeof ZOccupancyRow>;

// ---- /dashboard ----
export const ZOnTime = z.object({
  shipped: z.number().int(),
  on_time: z.number().int(),
  percent: z.number().nullable(),
});
export type TOnTimeRate = z.infer<typeof ZOnTime>;

export const ZDashboard = z.object({
  to_export: z.number().int(),
  to_pack: z.number().int(),
  to_ship: z.number().int(),
  receipts_pending: z.number().int(),
  below_safety: z.number().int(),
  near_expiry: z.number().int(),
  /**
   * The getting-started steps already done: company data filled in (tax id and invoice address), a warehouse, a
   * storage location, a product, an inbound receipt, an order.
   */
  setup: z.object({
    company: z.boolean(),
    warehouse: z.boolean(),
    location: z.boolean(),
    product: z.boolean(),
    receipt: z.boolean(),
    order: z.boolean(),
  }),
  /** Shipped orders per Taipei day of the last 30 days (oldest first, every day present). */
  shipped: z.array(z.object({ day: ZIsoDate, orders: z.number().int(), units: z.number().int() })),
  /** Shipped on time over the last 30 days: orders with a ship-by time shipped, of them by it, the percent (null: none). */
  on_time: ZOnTime,
});
export type TDashboard = z.infer<typeof ZDashboard>;

export const analysisRoutes = defineRoutes({
  purchaseAdvice: {
    method: 'GET',
    path: '/api/purchase-advice/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZPurchaseAdviceQuery,
    response: ZPage(ZPurchaseAdviceRow),
  },
  exportPurchaseAdvice: {
    method: 'GET',
    path: '/api/purchase-advice-export/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZPurchaseAdviceQuery,
    response: z.unknown(),
  },
  productTurnover: {
    method: 'GET',
    path: '/api/product-turnover/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZTurnoverQuery,
    response: ZPage(ZTurnoverRow),
  },
  exportProductTurnover: {
    method: 'GET',
    path: '/api/product-turnover-export/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZTurnoverQuery,
    response: z.unknown(),
  },
  stockAge: {
    method: 'GET',
    path: '/api/stock-age/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZStockAgeQuery,
    response: ZPage(ZStockAgeRow),
  },
  exportStockAge: {
    method: 'GET',
    path: '/api/stock-age-export/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZStockAgeQuery,
    response: z.unknown(),
  },
  deliverStatistics: {
    method: 'GET',
    path: '/api/deliver-statistics/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZDeliverStatsQuery,
    response: ZDeliverStats,
  },
  exportDeliverStatistics: {
    method: 'GET',
    path: '/api/deliver-statistics-export/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZDeliverStatsQuery,
    response: z.unknown(),
  },
  locationOccupancy: {
    method: 'GET',
    path: '/api/location-occupancy/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZOccupancyQuery,
    response: z.object({ results: z.array(ZOccupancyRow) }),
  },
  exportLocationOccupancy: {
    method: 'GET',
    path: '/api/location-occupancy-export/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZOccupancyQuery,
    response: z.unknown(),
  },
  dashboard: {
    method: 'GET',
    path: '/api/dashboard/',
    auth: 'customer',
    perm: 'self',
    response: ZDashboard,
  },
});

/**
 * Column headers of the analysis Excel exports that are not field labels elsewhere (the server's writer takes them
 * before FIELD_LABELS). Kept out of FIELD_LABELS so the web app's first load does not carry them.
 */
export const ANALYSIS_COLUMN_LABELS: Record<string, Record<TLanguage, string>> = {
  units_out: { 'zh-TW': '出庫數', ja: '出庫数', en: 'Units out' },
  avg_daily_out: { 'zh-TW': '日均出庫', ja: '日平均出庫', en: 'Avg. daily out' },
  incoming: { 'zh-TW': '在途數', ja: '入荷予定数', en: 'Incoming' },
  days_left: { 'zh-TW': '可售天數', ja: '在庫残日数', en: 'Days left' },
  advised: { 'zh-TW': '建議採購數', ja: '推奨発注数', en: 'Advised quantity' },
  avg_stock: { 'zh-TW': '平均庫存', ja: '平均在庫', en: 'Avg. stock' },
  turnover: { 'zh-TW': '周轉率', ja: '回転率', en: 'Turnover' },
  days_of_supply: { 'zh-TW': '庫存天數', ja: '在庫日数', en: 'Days of supply' },
  stock_value: { 'zh-TW': '庫存金額', ja: '在庫金額', en: 'Stock value' },
  last_out_at: { 'zh-TW': '最後出庫', ja: '最終出庫', en: 'Last outbound' },
  slow: { 'zh-TW': '慢動', ja: '低回転', en: 'Slow mover' },
  dead: { 'zh-TW': '呆滯', ja: '不動', en: 'Dead stock' },
  d0_30: { 'zh-TW': '0–30 天', ja: '0〜30 日', en: '0–30 days' },
  d31_60: { 'zh-TW': '31–60 天', ja: '31〜60 日', en: '31–60 days' },
  d61_90: { 'zh-TW': '61–90 天', ja: '61〜90 日', en: '61–90 days' },
  d91_180: { 'zh-TW': '91–180 天', ja: '91〜180 日', en: '91–180 days' },
  d181_365: { 'zh-TW': '181–365 天', ja: '181〜365 日', en: '181–365 days' },
  d365_plus: { 'zh-TW': '超過 365 天', ja: '365 日超', en: 'Over 365 days' },
  oldest_days: { 'zh-TW': '最久庫齡（天）', ja: '最長在庫日数', en: 'Oldest (days)' },
  nearest_expiry: { 'zh-TW': '最近效期', ja: '直近の賞味期限', en: 'Nearest expiry' },
  period: { 'zh-TW': '期間', ja: '期間', en: 'Period' },
  key: { 'zh-TW': '分組', ja: '内訳', en: 'Group' },
  orders: { 'zh-TW': '訂單數', ja: '注文数', en: 'Orders' },
  units: { 'zh-TW': '件數', ja: '個数', en: 'Units' },
  cod_orders: { 'zh-TW': '貨到付款單數', ja: '代引き注文数', en: 'COD orders' },
  avg_hours_to_ship: { 'zh-TW': '平均出貨時數', ja: '出荷までの平均時間', en: 'Avg. hours to ship' },
  locations: { 'zh-TW': '儲位數', ja: 'ロケーション数', en: 'Locations' },
  empty: { 'zh-TW': '空儲位', ja: '空きロケーション', en: 'Empty' },
  in_use: { 'zh-TW': '使用中', ja: '使用中', en: 'In use' },
  full: { 'zh-TW': '已滿', ja: '満杯', en: 'Full' },
  piles: { 'zh-TW': '批號堆數', ja: 'ロット数', en: 'Piles' },
  expired_locations: {
    'zh-TW': '有過期品的儲位',
    ja: '期限切れロットのあるロケーション',
    en: 'Locations with expired lots',
  },
  unsellable_locations: {
    'zh-TW': '有不可售批號的儲位',
    ja: '販売不可ロットのあるロケーション',
    en: 'Locations with unsellable lots',
  },
};
