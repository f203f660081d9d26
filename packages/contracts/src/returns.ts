import { z } from 'zod';
import { ZId, ZIdParams, ZIsoDate, ZListQuery, ZPage } from './common';
import type { TLanguage } from './errors';
import * as receiving from './receiving';
import { defineRoutes } from './routes';

/**
 * Return receipts (spec §2.2 Return, §2.3 /return-print/{id}, §3, §4) and return-to-supplier orders. The status rules
 * are written down in apps/server/src/modules/returns/README.md and enforced by apps/server/src/modules/returns/*.workflow.ts.
 */

type Messages = Record<TLanguage, string>;

const ZText = (max: number) => z.string().trim().max(max);

export const RETURN_CATEGORIES = ['customer_return', 'undeliverable', 'other'] as const;
export type TReturnCategory = (typeof RETURN_CATEGORIES)[number];
/** Spec §4 (receiving.ts): pending confirmation, confirmed, cancelled-confirmed (it can be confirmed again). */
export const RETURN_STATUSES = receiving.RECEIPT_STATUSES;
export type TReturnStatus = receiving.TReceiptStatus;
export const RETURN_ACTIONS = ['confirm', 'cancel_confirmation'] as const;
export type TReturnAction = (typeof RETURN_ACTIONS)[number];

/** Return-to-supplier: reserved (created, stock held) → dispatched, or → cancelled (stock released). */
export const SUPPLIER_RETURN_STATUSES = ['reserved', 'dispatched', 'cancelled'] as const;
export type TSupplierReturnStatus = (typeof SUPPLIER_RETURN_STATUSES)[number];
export const SUPPLIER_RETURN_ACTIONS = ['dispatch', 'cancel'] as const;
export type TSupplierReturnAction = (typeof SUPPLIER_RETURN_ACTIONS)[number];
export const SUPPLIER_RETURN_REASONS = ['defective', 'expired', 'overstock', 'wrong_item', 'other'] as const;
export type TSupplierReturnReason = (typeof SUPPLIER_RETURN_REASONS)[number];

export const MAX_RETURN_LINES = receiving.RECEIPT_MAX_LINES;
export const MAX_RETURN_QUANTITY = 100_000;

/** Labels of the enumerations (the web app and the Excel export use the same words). */
export const RETURN_VALUE_LABELS: {
  category: Record<TReturnCategory, Messages>;
  status: Record<TReturnStatus, Messages>;
  supplier_status: Record<TSupplierReturnStatus, Messages>;
  reason: Record<TSupplierReturnReason, Messages>;
  document: Record<'return' | 'supplier_return', Messages>;
} = {
  category: {
    customer_return: { 'zh-TW': '客戶退貨', ja: '顧客返品', en: 'Customer return' },
    undeliverable: { 'zh-TW': '無法投遞退回', ja: '配達不能返送', en: 'Undeliverable parcel' },
    other: { 'zh-TW': '其他', ja: 'その他', en: 'Other' },
  },
  status: {
    pending: { 'zh-TW': '待確認', ja: '確認待ち', en: 'Pending confirmation' },
    confirmed: { 'zh-TW': '已確認', ja: '確認済み', en: 'Confirmed' },
    cancelled: { 'zh-TW': '已取消確認', ja: '確認取消', en: 'Cancelled-confirmed' },
  },
  supplier_status: {
    reserved: { 'zh-TW': '已保留待出庫', ja: '引当済み・出庫待ち', en: 'Reserved' },
    dispatched: { 'zh-TW': '已出庫', ja: '出庫済み', en: 'Dispatched' },
    cancelled: { 'zh-TW': '已取消', ja: '取消済み', en: 'Cancelled' },
  },
  reason: {
    defective: { 'zh-TW': '瑕疵品', ja: '不良品', en: 'Defective' },
    expired: { 'zh-TW': '過期品', ja: '期限切れ', en: 'Expired' },
    overstock: { 'zh-TW': '庫存過多', ja: '過剰在庫', en: 'Overstock' },
    wrong_item: { 'zh-TW': '錯誤商品', ja: '誤納品', en: 'Wrong item' },
    other: { 'zh-TW': '其他', ja: 'その他', en: 'Other' },
  },
  document: {
    return: { 'zh-TW': '退貨單', ja: '返品伝票', en: 'Return receipt' },
    supplier_return: { 'zh-TW': '退供應商單', ja: '仕入先返品伝票', en: 'Return to supplier' },
  },
};

// ---- return receipts ----

export const ZReturnLineInput = z.strictObject({
  product_id: ZId,
  quantity: z.number().int().min(1).max(MAX_RETURN_QUANTITY),
  /** Required for products with a shelf life (the lot), refused for others. */
  expiry_date: ZIsoDate.nullable().optional(),
});
export type TReturnLineInput = z.infer<typeof ZReturnLineInput>;

const returnFields = {
  warehouse_id: ZId,
  category: z.enum(RETURN_CATEGORIES),
  planned_date: ZIsoDate,
  /** The original outbound order (optional); its number is copied onto the receipt. */
  order_id: ZId.nullable(),
  /** Free-text reference when the order is not in the system (e.g. the platform's order number). */
  order_number: ZText(64),
  consignment_number: ZText(40),
  remark: ZText(500),
};

export const ZCreateReturnReceipt = z
  .strictObject(returnFields)
  .partial()
  .required({ warehouse_id: true, category: true, planned_date: true })
  .extend({ lines: z.array(ZReturnLineInput).min(1).max(MAX_RETURN_LINES) });
export type TCreateReturnReceipt = z.infer<typeof ZCreateReturnReceipt>;

/** Edit while pending confirmation; `lines`, when given, replace all lines. */
export const ZUpdateReturnReceipt = z
  .strictObject(returnFields)
  .partial()
  .extend({ lines: z.array(ZReturnLineInput).min(1).max(MAX_RETURN_LINES).optional() });
export type TUpdateReturnReceipt = z.infer<typeof ZUpdateReturnReceipt>;

export const ZReturnReceipt = receiving.ZReceiptHeader.extend({
  category: z.enum(RETURN_CATEGORIES),
  order_id: ZId.nullable(),
  order_number: z.string(),
  consignment_number: z.string(),
  quantity: z.number().int(),
  accepted_quantity: z.number().int().nullable(),
  defective_quantity: z.number().int().nullable(),
  good_quantity: z.number().int().nullable(),
});
export type TReturnReceipt = z.infer<typeof ZReturnReceipt>;

export const ZReturnReceiptLine = receiving.ZReceiptLine.extend({
  /** The product has a shelf life: a lot (expiry date) is required. */
  has_shelf_life: z.boolean(),
});
export type TReturnReceiptLine = z.infer<typeof ZReturnReceiptLine>;

export const ZReturnReceiptDetail = ZReturnReceipt.extend({
  warehouse_name: z.string(),
  /** What the receipt's status allows: edit, delete, confirm, cancel (the confirmation). */
  actions: z.array(z.enum(receiving.RECEIPT_ACTIONS)),
  /** The linked order's current status (null without a linked order). */
  order_status: z.string().nullable(),
  lines: z.array(ZReturnReceiptLine),
});
export type TReturnReceiptDetail = z.infer<typeof ZReturnReceiptDetail>;

/**
 * Confirm (/return-confirm): the receipt line confirmation (receiving.ts) with every number given, whole and within
 * MAX_RETURN_QUANTITY: per line, accepted = good + defective; good stock goes to a sellable location of the
 * receipt's warehouse, defective stock to a defective one. Every line is listed once.
 */
const ZReturnQuantity = z.number().int().min(0).max(MAX_RETURN_QUANTITY);
export const ZConfirmReturnLine = receiving.ZConfirmLineInput.extend({
  accepted_quantity: ZReturnQuantity,
  defective_quantity: ZReturnQuantity,
  good_quantity: ZReturnQuantity,
});
export const ZConfirmReturnReceipt = z.strictObject({
  lines: z.array(ZConfirmReturnLine).min(1).max(MAX_RETURN_LINES),
});
export type TConfirmReturnReceipt = z.infer<typeof ZConfirmReturnReceipt>;

export const ZReturnListQuery = receiving.ZReceiptListQuery.extend({
  category: z.enum(RETURN_CATEGORIES).optional(),
});
export type TReturnListQuery = z.infer<typeof ZReturnListQuery>;
export const RETURN_ORDERING = ['number', 'planned_date', 'status', 'category', 'created_at', 'confirmed_at'] as const;

/** /return-cnt: counts of receipts by status and category, and returned quantities per product, for a period. */
export const ZReturnCountsQuery = z.object({
  warehouse_id: ZId.optional(),
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
export const ZReturnCounts = z.object({
  total: z.number().int(),
  by_status: z.array(z.object({ status: z.enum(RETURN_STATUSES), count: z.number().int() })),
  by_category: z.array(z.object({ category: z.enum(RETURN_CATEGORIES), count: z.number().int() })),
  /** Confirmed receipts only: what came back, per product. */
  products: z.array(
    z.object({
      product_id: ZId,
      product_number: z.string(),
      product_name: z.string(),
      receipts: z.number().int(),
      accepted_quantity: z.number().int(),
      good_quantity: z.number().int(),
      defective_quantity: z.number().int(),
    }),
  ),
  supplier_returns: z.array(z.object({ status: z.enum(SUPPLIER_RETURN_STATUSES), count: z.number().int() })),
});
export type TReturnCounts = z.infer<typeof ZReturnCounts>;

/** Print data of /return-print/{id}: the document and its lines, barcodes as SVG (Code 128). */
export const ZReturnPrint = z.object({
  kind: z.enum(['return', 'supplier_return']),
  number: z.string(),
  number_barcode_svg: z.string(),
  title: z.string(),
  status_label: z.string(),
  company_name: z.string(),
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  /** Label/value pairs of the header in the caller's language. */
  fields: z.array(z.object({ label: z.string(), value: z.string() })),
  lines: z.array(
    z.object({
      line_no: z.number().int(),
      product_number: z.string(),
      product_name: z.string(),
      barcode: z.string().nullable(),
      barcode_svg: z.string().nullable(),
      expiry_date: z.string().nullable(),
      location_code: z.string().nullable(),
      quantity: z.number().int(),
      accepted_quantity: z.number().int().nullable(),
      good_quantity: z.number().int().nullable(),
      defective_quantity: z.number().int().nullable(),
    }),
  ),
  printed_at: z.string(),
});
export type TReturnPrint = z.infer<typeof ZReturnPrint>;

/** Prefill a return from its original order (found by order number, platform order number or consignment number). */
export const ZReturnOrderLookupQuery = z.object({ code: z.string().trim().min(1).max(64) });
export const ZReturnOrderLookup = z.object({
  order_id: ZId,
  order_number: z.string(),
  order_status: z.string(),
  consignment_number: z.string(),
  warehouse_id: ZId.nullable(),
  /** What actually left the warehouse for this order, per product and lot (combination products as components). */
  lines: z.array(
    z.object({
      product_id: ZId,
      product_number: z.string(),
      product_name: z.string(),
      expiry_date: z.string().nullable(),
      quantity: z.number().int(),
    }),
  ),
  /** Numbers of the return receipts already registered for this order. */
  returns: z.array(z.object({ id: ZId, number: z.string(), status: z.enum(RETURN_STATUSES) })),
});
export type TReturnOrderLookup = z.infer<typeof ZReturnOrderLookup>;

// ---- return-to-supplier orders ----

export const ZSupplierReturnLineInput = z.strictObject({
  /** The pile of stock (product, location, lot) to send back. */
  balance_id: ZId,
  quantity: z.number().int().min(1).max(MAX_RETURN_QUANTITY),
});

const supplierFields = {
  supplier_name: z.string().trim().min(1).max(100),
  supplier_contact: ZText(100),
  supplier_phone: ZText(30),
  supplier_address: ZText(300),
  reason: z.enum(SUPPLIER_RETURN_REASONS),
  planned_date: ZIsoDate,
  consignment_number: ZText(40),
  remark: ZText(500),
};

/** Create: the stock of every line is reserved at once (all lines or none). */
export const ZCreateSupplierReturn = z
  .strictObject({ warehouse_id: ZId, ...supplierFields })
  .partial()
  .required({ warehouse_id: true, supplier_name: true, reason: true, planned_date: true })
  .extend({ lines: z.array(ZSupplierReturnLineInput).min(1).max(MAX_RETURN_LINES) });
export type TCreateSupplierReturn = z.infer<typeof ZCreateSupplierReturn>;
/** Edit the header while reserved (the lines are fixed: cancel and create again to change them). */
export const ZUpdateSupplierReturn = z.strictObject(supplierFields).partial();
export type TUpdateSupplierReturn = z.infer<typeof ZUpdateSupplierReturn>;
export const ZDispatchSupplierReturn = z.strictObject({ consignment_number: ZText(40).optional() });

export const ZSupplierReturn = z.object({
  id: ZId,
  number: z.string(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  status: z.enum(SUPPLIER_RETURN_STATUSES),
  reason: z.enum(SUPPLIER_RETURN_REASONS),
  supplier_name: z.string(),
  supplier_contact: z.string(),
  supplier_phone: z.string(),
  supplier_address: z.string(),
  planned_date: z.string(),
  consignment_number: z.string(),
  remark: z.string(),
  line_count: z.number().int(),
  quantity: z.number().int(),
  dispatched_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TSupplierReturn = z.infer<typeof ZSupplierReturn>;
export const ZSupplierReturnDetail = ZSupplierReturn.extend({
  warehouse_name: z.string(),
  actions: z.array(z.enum(['edit', 'dispatch', 'cancel'])),
  lines: z.array(
    z.object({
      id: ZId,
      line_no: z.number().int(),
      balance_id: ZId,
      product_id: ZId,
      product_number: z.string(),
      product_name: z.string(),
      product_barcode: z.string().nullable(),
      location_id: ZId,
      location_code: z.string(),
      location_kind: z.string(),
      expiry_date: z.string().nullable(),
      quantity: z.number().int(),
    }),
  ),
});
export type TSupplierReturnDetail = z.infer<typeof ZSupplierReturnDetail>;

export const ZSupplierReturnListQuery = ZListQuery.extend({
  status: z.enum(SUPPLIER_RETURN_STATUSES).optional(),
  reason: z.enum(SUPPLIER_RETURN_REASONS).optional(),
  warehouse_id: ZId.optional(),
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
export const SUPPLIER_RETURN_ORDERING = ['number', 'planned_date', 'status', 'supplier_name', 'created_at'] as const;

/** Piles a return-to-supplier order can take: free stock (on hand − reserved) of a warehouse. */
export const ZSupplierReturnPileQuery = ZListQuery.extend({
  warehouse_id: ZId,
  location_kind: z.enum(['sellable', 'defective', 'expired', 'staging']).optional(),
});
export const ZSupplierReturnPile = z.object({
  balance_id: ZId,
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  location_id: ZId,
  location_code: z.string(),
  location_kind: z.string(),
  expiry_date: z.string().nullable(),
  on_hand: z.number().int(),
  reserved: z.number().int(),
  /** What a new return-to-supplier order can still take from this pile. */
  available: z.number().int(),
});
export type TSupplierReturnPile = z.infer<typeof ZSupplierReturnPile>;

export const returnRoutes = defineRoutes({
  listReturns: {
    method: 'GET',
    path: '/api/returns/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZReturnListQuery,
    response: ZPage(ZReturnReceipt),
  },
  createReturn: {
    method: 'POST',
    path: '/api/returns/',
    auth: 'customer',
    perm: 'returns:write',
    body: ZCreateReturnReceipt,
    response: ZReturnReceiptDetail,
  },
  exportReturns: {
    method: 'GET',
    path: '/api/returns/export/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZReturnListQuery,
    response: z.unknown(),
  },
  lookupReturnOrder: {
    method: 'GET',
    path: '/api/returns/order-lookup/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZReturnOrderLookupQuery,
    response: ZReturnOrderLookup,
  },
  returnCounts: {
    method: 'GET',
    path: '/api/returns/counts/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZReturnCountsQuery,
    response: ZReturnCounts,
  },
  getReturn: {
    method: 'GET',
    path: '/api/returns/:id/',
    auth: 'customer',
    perm: 'returns:read',
    params: ZIdParams,
    response: ZReturnReceiptDetail,
    tenantScoped: true,
  },
  updateReturn: {
    method: 'PATCH',
    path: '/api/returns/:id/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    body: ZUpdateReturnReceipt,
    response: ZReturnReceiptDetail,
    tenantScoped: true,
  },
  deleteReturn: {
    method: 'DELETE',
    path: '/api/returns/:id/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    response: z.object({ ok: z.literal(true) }),
    tenantScoped: true,
  },
  confirmReturn: {
    method: 'POST',
    path: '/api/returns/:id/confirm/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    body: ZConfirmReturnReceipt,
    response: ZReturnReceiptDetail,
    tenantScoped: true,
  },
  cancelReturnConfirmation: {
    method: 'POST',
    path: '/api/returns/:id/cancel-confirmation/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    response: ZReturnReceiptDetail,
    tenantScoped: true,
  },
  printReturn: {
    method: 'GET',
    path: '/api/returns/:id/print/',
    auth: 'customer',
    perm: 'returns:read',
    params: ZIdParams,
    response: ZReturnPrint,
    tenantScoped: true,
  },

  listSupplierReturns: {
    method: 'GET',
    path: '/api/supplier-returns/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZSupplierReturnListQuery,
    response: ZPage(ZSupplierReturn),
  },
  createSupplierReturn: {
    method: 'POST',
    path: '/api/supplier-returns/',
    auth: 'customer',
    perm: 'returns:write',
    body: ZCreateSupplierReturn,
    response: ZSupplierReturnDetail,
  },
  exportSupplierReturns: {
    method: 'GET',
    path: '/api/supplier-returns/export/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZSupplierReturnListQuery,
    response: z.unknown(),
  },
  listSupplierReturnPiles: {
    method: 'GET',
    path: '/api/supplier-returns/piles/',
    auth: 'customer',
    perm: 'returns:read',
    query: ZSupplierReturnPileQuery,
    response: ZPage(ZSupplierReturnPile),
  },
  getSupplierReturn: {
    method: 'GET',
    path: '/api/supplier-returns/:id/',
    auth: 'customer',
    perm: 'returns:read',
    params: ZIdParams,
    response: ZSupplierReturnDetail,
    tenantScoped: true,
  },
  updateSupplierReturn: {
    method: 'PATCH',
    path: '/api/supplier-returns/:id/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    body: ZUpdateSupplierReturn,
    response: ZSupplierReturnDetail,
    tenantScoped: true,
  },
  dispatchSupplierReturn: {
    method: 'POST',
    path: '/api/supplier-returns/:id/dispatch/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    body: ZDispatchSupplierReturn,
    response: ZSupplierReturnDetail,
    tenantScoped: true,
  },
  cancelSupplierReturn: {
    method: 'POST',
    path: '/api/supplier-returns/:id/cancel/',
    auth: 'customer',
    perm: 'returns:write',
    params: ZIdParams,
    response: ZSupplierReturnDetail,
    tenantScoped: true,
  },
  printSupplierReturn: {
    method: 'GET',
    path: '/api/supplier-returns/:id/print/',
    auth: 'customer',
    perm: 'returns:read',
    params: ZIdParams,
    response: ZReturnPrint,
    tenantScoped: true,
  },
});
