import { z } from 'zod';
import { ZId, ZIdParams, ZIsoDate, ZListQuery, ZOk, ZPage, ZQuantityInput } from './common';
import * as receiving from './receiving';
import { defineRoutes } from './routes';

/** Receipt statuses of spec §4 (receiving.ts): pending confirmation → confirmed → cancelled-confirmed. */
export const INBOUND_STATUSES = receiving.RECEIPT_STATUSES;
export type TInboundStatus = receiving.TReceiptStatus;
export const INBOUND_CATEGORIES = ['purchase', 'consignment', 'transfer', 'return', 'other'] as const;
export type TInboundCategory = (typeof INBOUND_CATEGORIES)[number];
export const INBOUND_MAX_LINES = receiving.RECEIPT_MAX_LINES;
export const INBOUND_ORDERING = ['number', 'planned_date', 'status', 'created_at', 'confirmed_at'] as const;

export const ZInboundLineInput = z.strictObject({
  product_id: ZId,
  quantity: ZQuantityInput,
  /** Required for products with a shelf life; refused for others. */
  expiry_date: ZIsoDate.nullable().optional(),
});
export type TInboundLineInput = z.infer<typeof ZInboundLineInput>;

export const ZCreateInboundReceipt = z.strictObject({
  warehouse_id: ZId,
  category: z.enum(INBOUND_CATEGORIES).default('purchase'),
  planned_date: ZIsoDate,
  remark: z.string().trim().max(500).optional(),
  lines: z.array(ZInboundLineInput).min(1).max(INBOUND_MAX_LINES),
});
export type TCreateInboundReceipt = z.infer<typeof ZCreateInboundReceipt>;
/** Replaces header and lines; allowed while pending or cancelled-confirmed. */
export const ZUpdateInboundReceipt = ZCreateInboundReceipt;
export type TUpdateInboundReceipt = z.infer<typeof ZUpdateInboundReceipt>;

export const ZInboundLine = receiving.ZReceiptLine.extend({
  /** Non-null: the product has a shelf life, so the line needs an expiry date. */
  shelf_life_months: z.number().int().nullable(),
  /** Last day before which the lot can be sold (expiry minus the product's sellable-date rule). */
  sellable_until: z.string().nullable(),
  /** accepted − planned (null until confirmed). */
  difference: z.number().int().nullable(),
});
export type TInboundLine = z.infer<typeof ZInboundLine>;

export const ZInboundReceipt = receiving.ZReceiptHeader.extend({
  warehouse_name: z.string(),
  category: z.enum(INBOUND_CATEGORIES),
  quick: z.boolean(),
  total_quantity: z.number().int(),
  total_accepted: z.number().int().nullable(),
  total_good: z.number().int().nullable(),
  total_defective: z.number().int().nullable(),
});
export type TInboundReceipt = z.infer<typeof ZInboundReceipt>;
export const ZInboundReceiptDetail = ZInboundReceipt.extend({
  lines: z.array(ZInboundLine),
  /** What the current status allows (from receiving.workflow.ts), so screens show the right buttons. */
  actions: z.array(z.enum(receiving.RECEIPT_ACTIONS)),
});
export type TInboundReceiptDetail = z.infer<typeof ZInboundReceiptDetail>;

export const ZInboundListQuery = receiving.ZReceiptListQuery.extend({
  category: z.enum(INBOUND_CATEGORIES).optional(),
  /** Receipts with a line of this product. */
  product_id: ZId.optional(),
});
export type TInboundListQuery = z.infer<typeof ZInboundListQuery>;

export const ZConfirmInboundReceipt = z.strictObject({
  lines: z.array(receiving.ZConfirmLineInput).min(1).max(INBOUND_MAX_LINES),
});
export type TConfirmInboundReceipt = z.infer<typeof ZConfirmInboundReceipt>;

/** /entry-quick: scan a product (number or barcode), a quantity, a location code; created and confirmed at once. */
export const ZQuickInbound = z.strictObject({
  warehouse_id: ZId.optional(),
  code: z.string().trim().min(1).max(48),
  quantity: ZQuantityInput,
  location_code: z.string().trim().min(1).max(40),
  expiry_date: ZIsoDate.nullable().optional(),
  category: z.enum(INBOUND_CATEGORIES).default('purchase'),
  remark: z.string().trim().max(500).optional(),
});
export type TQuickInbound = z.infer<typeof ZQuickInbound>;

export const ZInboundCountQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  product_id: ZId.optional(),
  category: z.enum(INBOUND_CATEGORIES).optional(),
  status: z.enum(INBOUND_STATUSES).optional(),
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
export type TInboundCountQuery = z.infer<typeof ZInboundCountQuery>;
const ZUnits = z.object({
  receipts: z.number().int(),
  planned_units: z.number().int(),
  accepted_units: z.number().int(),
  good_units: z.number().int(),
  defective_units: z.number().int(),
});
export const ZInboundCounts = z.object({
  by_status: z.array(ZUnits.extend({ status: z.enum(INBOUND_STATUSES) })),
  total: ZUnits,
  /** Per product (paged with page/page_size), most units first. */
  by_product: ZPage(ZUnits.extend({ product_id: ZId, product_number: z.string(), product_name: z.string() })),
});
export type TInboundCounts = z.infer<typeof ZInboundCounts>;

export const ZInboundPrint = z.object({
  receipt: ZInboundReceiptDetail,
  /** Code128 SVG of the receipt number (server-rendered, vector). */
  number_barcode_svg: z.string(),
  /** Per line: the product's barcode (EAN-13 when valid, else Code128 of the barcode or product number). */
  line_barcodes: z.array(z.object({ line_id: ZId, value: z.string(), svg: z.string() })),
  company: z.object({ name: z.string(), phone: z.string().nullable(), address: z.string().nullable() }),
  printed_at: z.string(),
});
export type TInboundPrint = z.infer<typeof ZInboundPrint>;
export const ZInboundQrLabel = z.object({
  id: ZId,
  number: z.string(),
  warehouse_code: z.string(),
  planned_date: z.string(),
  status: z.enum(INBOUND_STATUSES),
  line_count: z.number().int(),
  total_quantity: z.number().int(),
  /** What the QR code encodes: the receipt number (the dock scans it into /entry-confirm). */
  qr_text: z.string(),
  qr_data_url: z.string(),
});
export type TInboundQrLabel = z.infer<typeof ZInboundQrLabel>;

export const inboundRoutes = defineRoutes({
  listReceipts: {
    method: 'GET',
    path: '/api/entry/',
    auth: 'customer',
    perm: 'inbound:read',
    query: ZInboundListQuery,
    response: ZPage(ZInboundReceipt),
  },
  createReceipt: {
    method: 'POST',
    path: '/api/entry/',
    auth: 'customer',
    perm: 'inbound:write',
    body: ZCreateInboundReceipt,
    response: ZInboundReceiptDetail,
  },
  getReceipt: {
    method: 'GET',
    path: '/api/entry/:id/',
    auth: 'customer',
    perm: 'inbound:read',
    params: ZIdParams,
    response: ZInboundReceiptDetail,
    tenantScoped: true,
  },
  updateReceipt: {
    method: 'PUT',
    path: '/api/entry/:id/',
    auth: 'customer',
    perm: 'inbound:write',
    params: ZIdParams,
    body: ZUpdateInboundReceipt,
    response: ZInboundReceiptDetail,
    tenantScoped: true,
  },
  deleteReceipt: {
    method: 'DELETE',
    path: '/api/entry/:id/',
    auth: 'customer',
    perm: 'inbound:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  confirmReceipt: {
    method: 'POST',
    path: '/api/entry-confirm/:id/',
    auth: 'customer',
    perm: 'inbound:write',
    params: ZIdParams,
    body: ZConfirmInboundReceipt,
    response: ZInboundReceiptDetail,
    tenantScoped: true,
  },
  cancelConfirmation: {
    method: 'POST',
    path: '/api/entry-cancel-confirm/:id/',
    auth: 'customer',
    perm: 'inbound:write',
    params: ZIdParams,
    response: ZInboundReceiptDetail,
    tenantScoped: true,
  },
  quickInbound: {
    method: 'POST',
    path: '/api/entry-quick/',
    auth: 'customer',
    perm: 'inbound:write',
    body: ZQuickInbound,
    response: ZInboundReceiptDetail,
  },
  exportReceipts: {
    method: 'GET',
    path: '/api/entry-export/',
    auth: 'customer',
    perm: 'inbound:read',
    query: ZInboundListQuery,
    response: z.unknown(),
  },
  countReceipts: {
    method: 'GET',
    path: '/api/entry-cnt/',
    auth: 'customer',
    perm: 'inbound:read',
    query: ZInboundCountQuery,
    response: ZInboundCounts,
  },
  printReceipt: {
    method: 'GET',
    path: '/api/entry-print/:id/',
    auth: 'customer',
    perm: 'inbound:read',
    params: ZIdParams,
    response: ZInboundPrint,
    tenantScoped: true,
  },
  receiptQrLabel: {
    method: 'GET',
    path: '/api/entry-qrcode/:id/',
    auth: 'customer',
    perm: 'inbound:read',
    params: ZIdParams,
    response: ZInboundQrLabel,
    tenantScoped: true,
  },
});

type TLabels = Record<'zh-TW' | 'ja' | 'en', string>;
/** Status and category names as exports and prints show them (the web app has the same words in its i18n). */
export const INBOUND_STATUS_LABELS: Record<TInboundStatus, TLabels> = {
  pending: { 'zh-TW': '待確認', ja: '確認待ち', en: 'Pending confirmation' },
  confirmed: { 'zh-TW': '已確認', ja: '確認済み', en: 'Confirmed' },
  cancelled: { 'zh-TW': '取消確認', ja: '確認取消', en: 'Cancelled confirmation' },
};
export const INBOUND_CATEGORY_LABELS: Record<TInboundCategory, TLabels> = {
  purchase: { 'zh-TW': '採購入庫', ja: '仕入入庫', en: 'Purchase' },
  consignment: { 'zh-TW': '寄倉入庫', ja: '委託入庫', en: 'Consignment' },
  transfer: { 'zh-TW': '調撥入庫', ja: '移動入庫', en: 'Transfer' },
  return: { 'zh-TW': '退貨入庫', ja: '返品入庫', en: 'Return' },
  other: { 'zh-TW': '其他', ja: 'その他', en: 'Other' },
};
