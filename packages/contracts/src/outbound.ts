import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZOk, ZPage, ZQuantityInput } from './common';
import type { TLanguage } from './errors';
import { ZJob } from './jobs';
import { defineRoutes } from './routes';
import { SHIP_DUE_FILTERS } from './ships';
import { ZBoolFilter, ZUploadBase64 } from './warehouse';

/**
 * Outbound orders and shipping (spec §2.2 Outbound, §2.3 deliver prints, §3 Order, §4 order statuses, §5, §8).
 * The transition rules are written down in apps/server/src/modules/outbound/README.md and enforced by
 * apps/server/src/modules/outbound/outbound.workflow.ts.
 */

type Messages = Record<TLanguage, string>;

/** Order statuses of spec §4, in their life-cycle order. */
export const ORDER_STATUSES = [
  'pending_export',
  'exported',
  'cancel_export',
  'online',
  'closed',
  'returned',
  'closed_returned',
  'cancelled',
] as const;
export type TOrderStatus = (typeof ORDER_STATUSES)[number];

/** Actions a seller's user takes on an order through the API (packing and shipping have their own routes). */
export const ORDER_ACTIONS = [
  'export',
  'request_cancel_export',
  'grant_cancel_export',
  'refuse_cancel_export',
  'start_packing',
  'cancel',
] as const;
export type TOrderAction = (typeof ORDER_ACTIONS)[number];

/** Where an order comes from. `ecommerce` orders name one of the seller's e-commerce platforms. */
export const ORDER_CHANNELS = ['ecommerce', 'store', 'api', 'manual', 'other'] as const;
export type TOrderChannel = (typeof ORDER_CHANNELS)[number];
export const ORDER_CATEGORIES = ['normal', 'presale', 'replacement', 'sample', 'wholesale', 'other'] as const;
export type TOrderCategory = (typeof ORDER_CATEGORIES)[number];
/** Requested arrival time slot; carrier codes: T-cat DeliveryTime 01/02/04, ECPay ScheduledDeliveryTime 1/2/4. */
export const TIME_SLOTS = ['morning', 'afternoon', 'any'] as const;
export type TTimeSlot = (typeof TIME_SLOTS)[number];
/** Volume (材積) as the carriers' package size codes (spec §9): 0001 60 cm … 0004 150 cm. */
export const PACKAGE_SIZES = ['0001', '0002', '0003', '0004'] as const;
export const PACKAGE_SIZE_CM: Record<(typeof PACKAGE_SIZES)[number], number> = {
  '0001': 60,
  '0002': 90,
  '0003': 120,
  '0004': 150,
};
export const EXPORT_FORMATS = ['standard', 'tcat', 'hct', 'ecpay'] as const;
export type TExportFormat = (typeof EXPORT_FORMATS)[number];
/** Sort orders of the delivery document and receipt prints (`/deliver-print-doc/{id}/{orderby}`). */
export const PRINT_ORDER_BY = ['number', 'location', 'product'] as const;
export type TPrintOrderBy = (typeof PRINT_ORDER_BY)[number];
export const ORDER_DATE_FIELDS = ['created_at', 'shipping_date', 'closed_at'] as const;

/** Labels of the enumerations a seller's file may spell out in any of our languages (import accepts them). */
export const ORDER_VALUE_LABELS: {
  status: Record<TOrderStatus, Messages>;
  channel: Record<TOrderChannel, Messages>;
  category: Record<TOrderCategory, Messages>;
  arrival_time_slot: Record<TTimeSlot, Messages>;
} = {
  status: {
    pending_export: { 'zh-TW': '待轉出', ja: '出庫指示待ち', en: 'Pending export' },
    exported: { 'zh-TW': '已轉出', ja: '出庫指示済み', en: 'Exported' },
    cancel_export: { 'zh-TW': '取消轉出', ja: '出庫指示取消申請', en: 'Cancel export' },
    online: { 'zh-TW': '作業中', ja: '作業中', en: 'Online' },
    closed: { 'zh-TW': '已結案', ja: '完了', en: 'Closed' },
    returned: { 'zh-TW': '退回', ja: '返品', en: 'Returned' },
    closed_returned: { 'zh-TW': '已結案退貨', ja: '返品完了', en: 'Closed-returned' },
    cancelled: { 'zh-TW': '已取消', ja: 'キャンセル', en: 'Cancelled' },
  },
  channel: {
    ecommerce: { 'zh-TW': '電商平台', ja: 'ECプラットフォーム', en: 'E-commerce platform' },
    store: { 'zh-TW': '線上商店', ja: 'オンラインストア', en: 'Online store' },
    api: { 'zh-TW': 'API', ja: 'API', en: 'API' },
    manual: { 'zh-TW': '手動建立', ja: '手動作成', en: 'Manual' },
    other: { 'zh-TW': '其他', ja: 'その他', en: 'Other' },
  },
  category: {
    normal: { 'zh-TW': '一般', ja: '通常', en: 'Normal' },
    presale: { 'zh-TW': '預購', ja: '予約', en: 'Pre-sale' },
    replacement: { 'zh-TW': '補寄換貨', ja: '再送・交換', en: 'Replacement' },
    sample: { 'zh-TW': '樣品', ja: 'サンプル', en: 'Sample' },
    wholesale: { 'zh-TW': '批發', ja: '卸売', en: 'Wholesale' },
    other: { 'zh-TW': '其他', ja: 'その他', en: 'Other' },
  },
  arrival_time_slot: {
    morning: { 'zh-TW': '13時前', ja: '13時前', en: 'Before 13:00' },
    afternoon: { 'zh-TW': '14-18時', ja: '14-18時', en: '14:00-18:00' },
    any: { 'zh-TW': '不指定', ja: '指定なし', en: 'Any time' },
  },
};

// ---- Taiwan formats (PRINTING-AND-FORMATS.md) ----

/**
 * A Taiwan phone as stored: mobiles `09` + 8 digits, landlines `0` + area code + number (9–10 digits in all), an
 * extension after `#`; `+886` (or `886` as platform exports write it) becomes the leading 0, spaces, dashes and
 * brackets are dropped. Null when it is not a Taiwan number.
 */
const PLAIN_PHONE = /^0\d{8,9}$/;

export function toTaiwanPhone(raw: string): string | null {
  // Already plain digits (most phones of an import file): the answer of the general path below, without its copies.
  if (PLAIN_PHONE.test(raw)) return raw.startsWith('09') && raw.length !== 10 ? null : raw;
  const [main = '', ext] = raw.split(/#|ext\.?|分機/i).map((s) => s.trim());
  let digits = main.replace(/[\s\-().\u3000]/g, '');
  if (digits.startsWith('+886')) digits = `0${digits.slice(4).replace(/^0/, '')}`;
  else if (/^886[2-9]\d{7,8}$/.test(digits)) digits = `0${digits.slice(3)}`;
  if (!/^0\d{8,9}$/.test(digits)) return null;
  if (digits.startsWith('09') && digits.length !== 10) return null;
  if (ext !== undefined && !/^\d{1,6}$/.test(ext)) return null;
  return ext ? `${digits}#${ext}` : digits;
}

export function isTaiwanMobile(normalized: string): boolean {
  return /^09\d{8}$/.test(normalized);
}

/** Postcodes: 3 digits, 3+2 or 3+3 (since 2020-03-02); a dash between the parts is accepted and dropped. */
/**
 * A Taiwan postcode as written: 3 digits, optionally one dash or space and 2 or 3 more (100, 10001, 100-01, 100 012),
 * answered without the separator. Anything else (`-100`, `1-0-0`) is answered as typed, so `isTaiwanPostcode`
 * refuses it rather than a stray dash being stripped into a valid code.
 */
export function normalizeTaiwanPostcode(raw: string): string {
  const typed = raw.trim();
  const m = /^(\d{3})(?:[ -]?(\d{2}|\d{3}))?$/.exec(typed);
  return m ? m[1]! + (m[2] ?? '') : typed;
}
export function isTaiwanPostcode(normalized: string): boolean {
  return /^\d{3}(\d{2}|\d{3})?$/.test(normalized);
}

// ---- schemas ----

/** Text a user typed: trimmed, bounded, and free of NUL (PostgreSQL text cannot hold it). */
export const ZText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !s.includes('\u0000'), { message: 'NUL' });
const ZRequiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !s.includes('\u0000'), { message: 'NUL' });
export const ZDate = z.iso.date();
/** Amounts of an order: a decimal string with at most 2 decimals, never negative. */
export const ZAmount = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/);
/** A consignment (tracking) number as carriers print it: letters, digits and dashes. */
export const ZConsignmentNumber = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/);
export const ZPieceCount = z.number().int().min(1).max(99);
export const MAX_ORDER_LINES = 500;
export const MAX_LINE_QUANTITY = 100_000;

/** A line's quantity is whole and 1…MAX_LINE_QUANTITY; otherwise the API and the file import answer ABNORMAL_QUANTITY. */
export function isOrderLineQuantity(quantity: number): boolean {
  return Number.isSafeInteger(quantity) && quantity >= 1 && quantity <= MAX_LINE_QUANTITY;
}

export const ZOrderLineInput = z.strictObject({
  product_id: ZId,
  // Any number here: the server checks isOrderLineQuantity and answers ABNORMAL_QUANTITY, as for receipt lines.
  quantity: ZQuantityInput,
  unit_price: ZAmount.nullable().optional(),
});
export type TOrderLineInput = z.infer<typeof ZOrderLineInput>;

/** Longest text each order field takes (the API and the file import check the same bounds). */
export const ORDER_TEXT_LIMITS = {
  platform_order_number: 64,
  third_party_number: 64,
  recipient_name: 100,
  recipient_phone: 30,
  recipient_mobile: 30,
  recipient_postcode: 10,
  recipient_address: 300,
  sender_name: 100,
  sender_phone: 30,
  sender_postcode: 10,
  sender_address: 300,
  shipping_remark: 500,
} as const;
const L = ORDER_TEXT_LIMITS;

const orderFields = {
  platform_order_number: ZText(L.platform_order_number).nullable(),
  third_party_number: ZText(L.third_party_number).nullable(),
  consignment_number: ZConsignmentNumber.nullable(),
  shipping_date: ZDate.nullable(),
  category: z.enum(ORDER_CATEGORIES),
  channel: z.enum(ORDER_CHANNELS),
  is_cross_border: z.boolean(),
  recipient_name: ZRequiredText(L.recipient_name),
  recipient_phone: ZText(L.recipient_phone),
  recipient_mobile: ZText(L.recipient_mobile),
  recipient_postcode: ZRequiredText(L.recipient_postcode),
  recipient_address: ZRequiredText(L.recipient_address),
  sender_name: ZText(L.sender_name),
  sender_phone: ZText(L.sender_phone),
  sender_postcode: ZText(L.sender_postcode),
  sender_address: ZText(L.sender_address),
  shipping_remark: ZText(L.shipping_remark),
  warehouse_id: ZId.nullable(),
  arrival_date: ZDate.nullable(),
  arrival_time_slot: z.enum(TIME_SLOTS).nullable(),
  logistics_provider_id: ZId.nullable(),
  platform_id: ZId.nullable(),
  cod: z.boolean(),
  cod_amount: ZAmount.nullable(),
  total_amount: ZAmount.nullable(),
  piece_count: ZPieceCount,
  volume: z.enum(PACKAGE_SIZES).nullable(),
};

/** Create an order by hand: recipient and lines are required, everything else has a default. */
export const ZCreateOrder = z
  .strictObject(orderFields)
  .partial()
  .required({ recipient_name: true, recipient_postcode: true, recipient_address: true })
  .extend({ lines: z.array(ZOrderLineInput).min(1).max(MAX_ORDER_LINES) });
export type TCreateOrder = z.infer<typeof ZCreateOrder>;
/** Edit while pending export; `lines`, when given, replace all lines. */
export const ZUpdateOrder = z
  .strictObject(orderFields)
  .partial()
  .extend({ lines: z.array(ZOrderLineInput).min(1).max(MAX_ORDER_LINES).optional() });
export type TUpdateOrder = z.infer<typeof ZUpdateOrder>;

export const ZAbnormal = z.object({ code: z.string(), params: z.record(z.string(), z.unknown()) });

export const ZOrder = z.object({
  id: ZId,
  number: z.string(),
  platform_order_number: z.string().nullable(),
  third_party_number: z.string().nullable(),
  consignment_number: z.string().nullable(),
  shipping_date: z.string().nullable(),
  category: z.enum(ORDER_CATEGORIES),
  channel: z.enum(ORDER_CHANNELS),
  is_cross_border: z.boolean(),
  recipient_name: z.string(),
  recipient_phone: z.string(),
  recipient_mobile: z.string(),
  recipient_postcode: z.string(),
  recipient_address: z.string(),
  sender_name: z.string(),
  sender_phone: z.string(),
  sender_postcode: z.string(),
  sender_address: z.string(),
  shipping_remark: z.string(),
  warehouse_id: ZId.nullable(),
  warehouse_code: z.string().nullable(),
  arrival_date: z.string().nullable(),
  arrival_time_slot: z.enum(TIME_SLOTS).nullable(),
  logistics_provider_id: ZId.nullable(),
  logistics_provider_code: z.string().nullable(),
  logistics_provider_name: z.string().nullable(),
  platform_id: ZId.nullable(),
  platform_code: z.string().nullable(),
  platform_name: z.string().nullable(),
  cod: z.boolean(),
  cod_amount: z.string().nullable(),
  total_amount: z.string().nullable(),
  piece_count: z.number().int(),
  volume: z.enum(PACKAGE_SIZES).nullable(),
  status: z.enum(ORDER_STATUSES),
  /** When the order must leave the warehouse (ISO; the carrier's pick-up on its ship day), set at creation. */
  ship_by: z.string().nullable(),
  /** Why the last export failed (e.g. INVENTORY_SHORTAGE with the product); cleared by a successful export. */
  abnormal: ZAbnormal.nullable(),
  batch_id: ZId.nullable(),
  batch_number: z.string().nullable(),
  line_count: z.number().int(),
  unit_count: z.number().int(),
  exported_at: z.string().nullable(),
  online_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TOrder = z.infer<typeof ZOrder>;

export const ZOrderLine = z.object({
  id: ZId,
  line_no: z.number().int(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  product_type: z.enum(['single', 'combination']),
  barcode: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: z.string().nullable(),
});
export type TOrderLine = z.infer<typeof ZOrderLine>;

/** Stock held for the order: what to pick where (combinations appear as their components). */
export const ZOrderAllocation = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  location_id: ZId,
  location_code: z.string(),
  expiry_date: z.string().nullable(),
  quantity: z.number().int(),
});
export type TOrderAllocation = z.infer<typeof ZOrderAllocation>;

export const ZOrderSerial = z.object({
  id: ZId,
  serial: z.string(),
  order_id: ZId,
  order_number: z.string(),
  platform_order_number: z.string().nullable(),
  consignment_number: z.string().nullable(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  shipped_at: z.string().nullable(),
  returned_at: z.string().nullable(),
  created_at: z.string(),
});
export type TOrderSerial = z.infer<typeof ZOrderSerial>;

export const ZPackagingUse = z.object({
  packaging_material_id: ZId,
  code: z.string(),
  name: z.string(),
  quantity: z.number().int(),
});

/** One product to pack (combinations exploded into their components) and how many units were scanned. */
export const ZPackItem = z.object({
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  barcode: z.string().nullable(),
  requires_serial: z.boolean(),
  expected: z.number().int(),
  packed: z.number().int(),
  serials: z.array(z.string()),
});
export type TPackItem = z.infer<typeof ZPackItem>;

export const ZOrderDetail = ZOrder.extend({
  lines: z.array(ZOrderLine),
  allocations: z.array(ZOrderAllocation),
  pack_items: z.array(ZPackItem),
  serials: z.array(ZOrderSerial),
  packaging: z.array(ZPackagingUse),
});
export type TOrderDetail = z.infer<typeof ZOrderDetail>;

export const ZOrderListQuery = ZListQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
  date_field: z.enum(ORDER_DATE_FIELDS).optional(),
  date_from: ZDate.optional(),
  date_to: ZDate.optional(),
  channel: z.enum(ORDER_CHANNELS).optional(),
  platform_id: ZId.optional(),
  logistics_provider_id: ZId.optional(),
  warehouse_id: ZId.optional(),
  batch_id: ZId.optional(),
  /** Only orders whose last export failed (true) or none of them (false). */
  abnormal: ZBoolFilter.optional(),
  /** Only orders already in a collection batch (true) or not yet (false). */
  in_batch: ZBoolFilter.optional(),
  /** Only orders with (true) or without (false) a consignment number. */
  has_consignment: ZBoolFilter.optional(),
  /** Only orders due to ship today (Taipei day of their ship-by) or late (ship-by passed, not shipped, not cancelled). */
  due: z.enum(SHIP_DUE_FILTERS).optional(),
  /** Several ids at once (comma separated): exports and prints of a selection. */
  ids: z
    .string()
    .max(37 * 1000)
    .regex(/^[0-9a-fA-F,-]*$/)
    .optional(),
});
export type TOrderListQuery = z.infer<typeof ZOrderListQuery>;
/**
 * The order list counts at most this many orders (and pages up to them): counting a seller's 100,000 orders on every
 * page costs more than the page. `count_capped` then says more match; narrow the filters (or sort the other way) to
 * reach the rest.
 */
export const ORDER_LIST_COUNT_CAP = 10_000;
export const ZOrderPage = ZPage(ZOrder).extend({
  /** True when more orders match than ORDER_LIST_COUNT_CAP: `count` is then the cap. */
  count_capped: z.boolean(),
});
export type TOrderPage = z.infer<typeof ZOrderPage>;
export const ORDER_ORDERING = [
  'number',
  'platform_order_number',
  'consignment_number',
  'status',
  'shipping_date',
  'recipient_name',
  'created_at',
  'closed_at',
] as const;

export const ZExportFileQuery = ZOrderListQuery.extend({ format: z.enum(EXPORT_FORMATS).default('standard') });

export const ZTransition = z.strictObject({ action: z.enum(ORDER_ACTIONS) });
export const ZBulkTransition = z.strictObject({
  action: z.enum(ORDER_ACTIONS),
  ids: z.array(ZId).min(1).max(1000),
});
export const ZBulkResult = z.object({
  results: z.array(
    z.object({
      id: ZId,
      number: z.string().nullable(),
      ok: z.boolean(),
      status: z.enum(ORDER_STATUSES).nullable(),
      error: ZAbnormal.nullable(),
    }),
  ),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type TBulkResult = z.infer<typeof ZBulkResult>;

// ---- consignment numbers (/deliver-operation) ----
export const ZSetConsignment = z.strictObject({
  consignment_number: ZConsignmentNumber.nullable(),
  shipping_date: ZDate.nullable().optional(),
  piece_count: ZPieceCount.optional(),
});
export type TSetConsignment = z.infer<typeof ZSetConsignment>;
/** Several at once (scanned or typed): `order` is our order number or the platform order number. */
export const ZConsignmentItem = z.strictObject({
  order: ZRequiredText(64),
  consignment_number: ZConsignmentNumber,
  shipping_date: ZDate.nullable().optional(),
  piece_count: ZPieceCount.optional(),
});
export type TConsignmentItem = z.infer<typeof ZConsignmentItem>;
export const ZConsignmentBatch = z.strictObject({ items: z.array(ZConsignmentItem).min(1).max(20_000) });
export const ZFileUpload = z.strictObject({
  file_base64: ZUploadBase64,
  file_name: ZText(200).optional(),
});
export const ZConsignmentResult = z.object({ updated: z.number().int() });

// ---- import (/deliver: "Order data is being imported") ----
/** Fields of an order file, order-level first, then line-level. A seller's own layout maps its columns onto these. */
export const IMPORT_FIELDS = [
  'platform_order_number',
  'third_party_number',
  'consignment_number',
  'shipping_date',
  'category',
  'channel',
  'platform',
  'is_cross_border',
  'recipient_name',
  'recipient_phone',
  'recipient_mobile',
  'recipient_postcode',
  'recipient_address',
  'sender_name',
  'sender_phone',
  'sender_postcode',
  'sender_address',
  'shipping_remark',
  'warehouse',
  'arrival_date',
  'arrival_time_slot',
  'logistics_provider',
  'cod',
  'cod_amount',
  'total_amount',
  'piece_count',
  'volume',
  'cvs_subtype',
  'cvs_store_id',
  'cvs_store_name',
  'product',
  'quantity',
  'unit_price',
] as const;
export type TImportField = (typeof IMPORT_FIELDS)[number];
export const IMPORT_LINE_FIELDS: readonly TImportField[] = ['product', 'quantity', 'unit_price'];
export const IMPORT_REQUIRED_FIELDS: readonly TImportField[] = [
  'platform_order_number',
  'recipient_name',
  'recipient_postcode',
  'recipient_address',
  'product',
  'quantity',
];

/** Column mapping: for each field, the file's header(s) to read, in fallback order (e.g. two SKU columns). */
export const ZImportMapping = z.partialRecord(z.enum(IMPORT_FIELDS), z.array(ZRequiredText(200)).min(1).max(5));
export type TImportMapping = z.infer<typeof ZImportMapping>;

export const ZImportRequest = ZFileUpload.extend({
  /** The channel (e-commerce platform) of the file: its saved column mapping is used, and it is the orders' platform. */
  platform_id: ZId.nullable().optional(),
  /** Export (reserve stock for) every imported order right away; shortages are reported by row. */
  export_after_import: z.boolean().optional(),
});
export type TImportRequest = z.infer<typeof ZImportRequest>;

/** What a finished import job stores as its result. */
export const ZImportResult = z.object({
  rows: z.number().int(),
  orders: z.number().int(),
  created: z.number().int(),
  skipped_duplicates: z.number().int(),
  exported: z.number().int(),
  shortages: z.array(
    z.object({ row: z.number().int(), order: z.string(), code: z.string(), params: z.record(z.string(), z.unknown()) }),
  ),
});
export type TImportResult = z.infer<typeof ZImportResult>;

// ---- custom upload forms (/deliver-customize-form) ----
export const ZImportForm = z.object({
  id: ZId,
  name: z.string(),
  platform_id: ZId.nullable(),
  platform_code: z.string().nullable(),
  platform_name: z.string().nullable(),
  header_row: z.number().int(),
  mapping: ZImportMapping,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TImportForm = z.infer<typeof ZImportForm>;
export const ZCreateImportForm = z.strictObject({
  name: ZRequiredText(100),
  platform_id: ZId.nullable().optional(),
  header_row: z.number().int().min(1).max(50).optional(),
  mapping: ZImportMapping,
});
export type TCreateImportForm = z.infer<typeof ZCreateImportForm>;
export const ZUpdateImportForm = ZCreateImportForm.partial();
export type TUpdateImportForm = z.infer<typeof ZUpdateImportForm>;
export const ZInspectFile = ZFileUpload.extend({ header_row: z.number().int().min(1).max(50).optional() });
export const ZInspectResult = z.object({
  headers: z.array(z.string()),
  samples: z.array(z.array(z.string())),
  /** A mapping guessed from the headers (our template in any language, Shopee Taiwan's export). */
  suggested: ZImportMapping,
});
export type TInspectResult = z.infer<typeof ZInspectResult>;

// ---- /customize: columns of the seller's order list and exports ----
export const ORDER_COLUMNS = [
  'number',
  'platform_order_number',
  'third_party_number',
  'consignment_number',
  'status',
  'shipping_date',
  'category',
  'channel',
  'platform',
  'is_cross_border',
  'recipient_name',
  'recipient_phone',
  'recipient_mobile',
  'recipient_postcode',
  'recipient_address',
  'sender_name',
  'sender_phone',
  'sender_postcode',
  'sender_address',
  'shipping_remark',
  'warehouse',
  'arrival_date',
  'arrival_time_slot',
  'logistics_provider',
  'cod',
  'cod_amount',
  'total_amount',
  'piece_count',
  'volume',
  'batch',
  'line_count',
  'unit_count',
  'created_at',
  'exported_at',
  'closed_at',
] as const;
export type TOrderColumn = (typeof ORDER_COLUMNS)[number];
export const COLUMN_SCREENS = ['deliver_list', 'deliver_export'] as const;
export const DEFAULT_COLUMNS: Record<(typeof COLUMN_SCREENS)[number], TOrderColumn[]> = {
  deliver_list: [
    'number',
    'platform_order_number',
    'status',
    'recipient_name',
    'logistics_provider',
    'consignment_number',
    'unit_count',
    'created_at',
  ],
  deliver_export: [...ORDER_COLUMNS],
};
export const ZColumnSettings = z.object({
  deliver_list: z.array(z.enum(ORDER_COLUMNS)),
  deliver_export: z.array(z.enum(ORDER_COLUMNS)),
});
export type TColumnSettings = z.infer<typeof ZColumnSettings>;
export const ZSaveColumns = z.strictObject({
  screen: z.enum(COLUMN_SCREENS),
  columns: z.array(z.enum(ORDER_COLUMNS)).min(1).max(ORDER_COLUMNS.length),
});

// ---- collection batches (/deliver-opser) ----
export const ZBatch = z.object({
  id: ZId,
  number: z.string(),
  warehouse_id: ZId.nullable(),
  warehouse_code: z.string().nullable(),
  remark: z.string(),
  order_count: z.number().int(),
  exported_count: z.number().int(),
  online_count: z.number().int(),
  closed_count: z.number().int(),
  unit_count: z.number().int(),
  picking_started_at: z.string().nullable(),
  created_at: z.string(),
});
export type TBatch = z.infer<typeof ZBatch>;
export const ZBatchDetail = ZBatch.extend({ orders: z.array(ZOrder) });
export type TBatchDetail = z.infer<typeof ZBatchDetail>;
export const ZCreateBatch = z.strictObject({
  order_ids: z.array(ZId).min(1).max(2000),
  remark: ZText(200).optional(),
});
export const ZBatchOrders = z.strictObject({ order_ids: z.array(ZId).min(1).max(2000) });

/** One line of a pick list: a product at a location, summed over the orders (walking order of the locations). */
export const ZPickRow = z.object({
  location_id: ZId.nullable(),
  location_code: z.string().nullable(),
  pick_sequence: z.number().int().nullable(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  barcode: z.string().nullable(),
  expiry_date: z.string().nullable(),
  quantity: z.number().int(),
  order_count: z.number().int(),
});
export type TPickRow = z.infer<typeof ZPickRow>;

export const ZPrintOrder = ZOrder.extend({
  lines: z.array(ZOrderLine),
  allocations: z.array(ZOrderAllocation),
});
export type TPrintOrder = z.infer<typeof ZPrintOrder>;
/** Everything the print screens need: a batch's (or a selection's) pick rows and its orders in print order. */
export const ZPrintData = z.object({
  batch: ZBatch.nullable(),
  pick_rows: z.array(ZPickRow),
  total_units: z.number().int(),
  orders: z.array(ZPrintOrder),
  company: z.object({ name: z.string(), phone: z.string().nullable(), address: z.string().nullable() }),
  /** Code128 SVGs (server-rendered with bwip-js) by value: the batch number, order and consignment numbers. */
  barcodes: z.record(z.string(), z.string()),
  printed_at: z.string(),
});
export type TPrintData = z.infer<typeof ZPrintData>;
export const ZPrintQuery = z.object({
  orderby: z.enum(PRINT_ORDER_BY).default('number'),
  ids: z
    .string()
    .max(37 * 1000)
    .regex(/^[0-9a-fA-F,-]*$/)
    .optional(),
});

// ---- packing station ----
export const ZPackView = z.object({
  order: ZOrder,
  items: z.array(ZPackItem),
  complete: z.boolean(),
});
export type TPackView = z.infer<typeof ZPackView>;
export const ZLookupQuery = z.object({ code: ZRequiredText(64) });
export const ZPackScan = z.strictObject({
  barcode: ZRequiredText(64),
  /** The IMEI/serial of this unit, required for products that need one. */
  serial: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/)
    .optional(),
});
export type TPackScan = z.infer<typeof ZPackScan>;
export const ZShipOrder = z.strictObject({
  packaging: z
    .array(z.strictObject({ packaging_material_id: ZId, quantity: z.number().int().min(1).max(1000) }))
    .max(20)
    .optional(),
});
export type TShipOrder = z.infer<typeof ZShipOrder>;

// ---- handheld pick walk of a batch (/deliver-pick) ----

/**
 * One pile to pick: an order's reserved units of a product (and lot) at a location, in walking order. `picked` and
 * `short` are what the pick walk recorded; the rest is still to pick. In a cluster pick `tote_slot`/`tote_code` say
 * which tote the units go into.
 */
export const ZPickLine = z.object({
  order_id: ZId,
  order_number: z.string(),
  tote_slot: z.number().int().nullable(),
  tote_code: z.string().nullable(),
  location_id: ZId,
  location_code: z.string(),
  pick_sequence: z.number().int(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  barcode: z.string().nullable(),
  expiry_date: z.string().nullable(),
  quantity: z.number().int(),
  picked: z.number().int(),
  short: z.number().int(),
});
export type TPickLine = z.infer<typeof ZPickLine>;
export const ZPickTote = z.object({
  order_id: ZId,
  order_number: z.string(),
  slot: z.number().int(),
  tote_code: z.string().nullable(),
});
export type TPickTote = z.infer<typeof ZPickTote>;
export const ZPickView = z.object({
  batch: ZBatch,
  /** A cluster pick: every order has its tote (assigned before the walk starts). */
  cluster: z.boolean(),
  /** The batch's orders with their cart slot and tote, in slot order. */
  totes: z.array(ZPickTote),
  lines: z.array(ZPickLine),
  total_units: z.number().int(),
  picked_units: z.number().int(),
  short_units: z.number().int(),
  complete: z.boolean(),
});
export type TPickView = z.infer<typeof ZPickView>;
const ZScanCode = z.string().trim().min(1).max(64);
/**
 * One scan of the pick walk: `quantity` units of the product (barcode or product number) taken from the location (its
 * code, as scanned). `scan_id` is made by the handheld for this scan: sent again (a flaky network), it counts once.
 */
export const ZPickScan = z.strictObject({
  scan_id: ZId,
  location_code: ZScanCode,
  barcode: ZScanCode,
  quantity: z.number().int().min(1).max(10_000).default(1),
  /** Cluster pick: the tote the units go into (the screen names it); by default the first order that needs them. */
  order_id: ZId.optional(),
});
export type TPickScan = z.infer<typeof ZPickScan>;
/** "Short pick": what is still to pick of this product at this location is not there (for one order, or all). */
export const ZPickShort = z.strictObject({
  scan_id: ZId,
  location_id: ZId,
  product_id: ZId,
  order_id: ZId.optional(),
});
export type TPickShort = z.infer<typeof ZPickShort>;
/** Cluster pick: put an order of the batch into a tote (its scanned code). */
export const ZPickToteAssign = z.strictObject({ order_id: ZId, tote_code: ZScanCode });
export type TPickToteAssign = z.infer<typeof ZPickToteAssign>;

// ---- IMEI (/deliver-imei) ----
export const ZSerialListQuery = ZListQuery.extend({
  serial: ZText(64).optional(),
  order_id: ZId.optional(),
  product_id: ZId.optional(),
});

// ---- counts (/deliver-cnt) ----
export const ZCountsQuery = z.object({
  date_field: z.enum(ORDER_DATE_FIELDS).default('created_at'),
  date_from: ZDate.optional(),
  date_to: ZDate.optional(),
});
export const ZCountRow = z.object({
  key: z.string().nullable(),
  label: z.string().nullable(),
  count: z.number().int(),
});
export const ZOrderCounts = z.object({
  total: z.number().int(),
  by_status: z.array(ZCountRow),
  by_date: z.array(ZCountRow),
  by_channel: z.array(ZCountRow),
  by_carrier: z.array(ZCountRow),
});
export type TOrderCounts = z.infer<typeof ZOrderCounts>;

const P = ZIdParams;
export const outboundRoutes = defineRoutes({
  listOrders: {
    method: 'GET',
    path: '/api/outbound-orders/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZOrderListQuery,
    response: ZOrderPage,
  },
  createOrder: {
    method: 'POST',
    path: '/api/outbound-orders/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZCreateOrder,
    response: ZOrderDetail,
  },
  lookupOrder: {
    method: 'GET',
    path: '/api/outbound-orders/lookup/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZLookupQuery,
    response: ZOrder,
  },
  orderCounts: {
    method: 'GET',
    path: '/api/outbound-orders/counts/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZCountsQuery,
    response: ZOrderCounts,
  },
  exportFile: {
    method: 'GET',
    path: '/api/outbound-orders/export-file/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZExportFileQuery,
    response: z.unknown(),
  },
  importTemplate: {
    method: 'GET',
    path: '/api/outbound-orders/import-template/',
    auth: 'customer',
    perm: 'orders:read',
    response: z.unknown(),
  },
  importOrders: {
    method: 'POST',
    path: '/api/outbound-orders/import/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZImportRequest,
    response: ZJob,
  },
  bulkTransition: {
    method: 'POST',
    path: '/api/outbound-orders/bulk-transition/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZBulkTransition,
    response: ZBulkResult,
  },
  setConsignments: {
    method: 'POST',
    path: '/api/outbound-orders/consignments/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZConsignmentBatch,
    response: ZConsignmentResult,
  },
  uploadConsignments: {
    method: 'POST',
    path: '/api/outbound-orders/consignments/upload/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZFileUpload,
    response: ZConsignmentResult,
  },
  getOrder: {
    method: 'GET',
    path: '/api/outbound-orders/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZOrderDetail,
    tenantScoped: true,
  },
  updateOrder: {
    method: 'PATCH',
    path: '/api/outbound-orders/:id/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZUpdateOrder,
    response: ZOrderDetail,
    tenantScoped: true,
  },
  transitionOrder: {
    method: 'POST',
    path: '/api/outbound-orders/:id/transition/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZTransition,
    response: ZOrderDetail,
    tenantScoped: true,
  },
  setConsignment: {
    method: 'PATCH',
    path: '/api/outbound-orders/:id/consignment/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZSetConsignment,
    response: ZOrder,
    tenantScoped: true,
  },
  packView: {
    method: 'GET',
    path: '/api/outbound-orders/:id/pack/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZPackView,
    tenantScoped: true,
  },
  packScan: {
    method: 'POST',
    path: '/api/outbound-orders/:id/pack/scan/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZPackScan,
    response: ZPackView,
    tenantScoped: true,
  },
  packReset: {
    method: 'POST',
    path: '/api/outbound-orders/:id/pack/reset/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    response: ZPackView,
    tenantScoped: true,
  },
  shipOrder: {
    method: 'POST',
    path: '/api/outbound-orders/:id/ship/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZShipOrder,
    response: ZOrderDetail,
    tenantScoped: true,
  },

  listBatches: {
    method: 'GET',
    path: '/api/collection-batches/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZListQuery,
    response: ZPage(ZBatch),
  },
  createBatch: {
    method: 'POST',
    path: '/api/collection-batches/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZCreateBatch,
    response: ZBatchDetail,
  },
  getBatch: {
    method: 'GET',
    path: '/api/collection-batches/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZBatchDetail,
    tenantScoped: true,
  },
  startBatchPicking: {
    method: 'POST',
    path: '/api/collection-batches/:id/start-picking/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    response: ZBatchDetail,
    tenantScoped: true,
  },
  removeBatchOrders: {
    method: 'POST',
    path: '/api/collection-batches/:id/remove-orders/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZBatchOrders,
    response: ZBatchDetail,
    tenantScoped: true,
  },
  batchPickList: {
    method: 'GET',
    path: '/api/collection-batches/:id/pick-list/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZPrintData,
    tenantScoped: true,
  },

  pickView: {
    method: 'GET',
    path: '/api/collection-batches/:id/pick/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZPickView,
    tenantScoped: true,
  },
  pickScan: {
    method: 'POST',
    path: '/api/collection-batches/:id/pick/scan/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZPickScan,
    response: ZPickView,
    tenantScoped: true,
  },
  pickShort: {
    method: 'POST',
    path: '/api/collection-batches/:id/pick/short/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZPickShort,
    response: ZPickView,
    tenantScoped: true,
  },
  pickTote: {
    method: 'POST',
    path: '/api/collection-batches/:id/pick/tote/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZPickToteAssign,
    response: ZPickView,
    tenantScoped: true,
  },

  /** Print data for `/deliver-print-*`: `:id` is a collection batch or an order. */
  printData: {
    method: 'GET',
    path: '/api/outbound-print/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    query: ZPrintQuery,
    response: ZPrintData,
    tenantScoped: true,
  },
  /** Print data for a selection of orders (`?ids=`). */
  printSelection: {
    method: 'GET',
    path: '/api/outbound-print/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZPrintQuery,
    response: ZPrintData,
  },

  listSerials: {
    method: 'GET',
    path: '/api/outbound-serials/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZSerialListQuery,
    response: ZPage(ZOrderSerial),
  },

  listImportForms: {
    method: 'GET',
    path: '/api/order-import-forms/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZListQuery,
    response: ZPage(ZImportForm),
  },
  createImportForm: {
    method: 'POST',
    path: '/api/order-import-forms/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZCreateImportForm,
    response: ZImportForm,
  },
  inspectImportFile: {
    method: 'POST',
    path: '/api/order-import-forms/inspect/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZInspectFile,
    response: ZInspectResult,
  },
  getImportForm: {
    method: 'GET',
    path: '/api/order-import-forms/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: P,
    response: ZImportForm,
    tenantScoped: true,
  },
  updateImportForm: {
    method: 'PATCH',
    path: '/api/order-import-forms/:id/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    body: ZUpdateImportForm,
    response: ZImportForm,
    tenantScoped: true,
  },
  deleteImportForm: {
    method: 'DELETE',
    path: '/api/order-import-forms/:id/',
    auth: 'customer',
    perm: 'orders:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },

  getColumnSettings: {
    method: 'GET',
    path: '/api/outbound-settings/columns/',
    auth: 'customer',
    perm: 'orders:read',
    response: ZColumnSettings,
  },
  saveColumnSettings: {
    method: 'PUT',
    path: '/api/outbound-settings/columns/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZSaveColumns,
    response: ZColumnSettings,
  },
});
