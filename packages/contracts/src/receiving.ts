import { z } from 'zod';
import { ZId, ZIsoDate, ZListQuery, ZQuantityInput } from './common';

/**
 * What inbound receipts (inbound.ts) and return receipts (returns.ts) share: the life cycle of spec §4, the header
 * and line fields of the receiving routine, the confirmation of a line and the list filters. The server's routine
 * is apps/server/src/modules/receiving (modules/receiving/README.md).
 */

/** Spec §4: pending confirmation → confirmed → cancelled-confirmed (a confirmation undone; it can be confirmed again). */
export const RECEIPT_STATUSES = ['pending', 'confirmed', 'cancelled'] as const;
export type TReceiptStatus = (typeof RECEIPT_STATUSES)[number];
/** What a receipt's status allows (receiving.workflow.ts), so screens show the right buttons. */
export const RECEIPT_ACTIONS = ['edit', 'delete', 'confirm', 'cancel'] as const;
export type TReceiptAction = (typeof RECEIPT_ACTIONS)[number];
export const RECEIPT_MAX_LINES = 500;

/** Header fields every receipt answers with (each kind adds its category, totals and references). */
export const ZReceiptHeader = z.object({
  id: ZId,
  number: z.string(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  planned_date: z.string(),
  status: z.enum(RECEIPT_STATUSES),
  remark: z.string(),
  line_count: z.number().int(),
  confirmed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A receipt line: the product, the planned quantity and lot, and what the confirmation recorded. */
export const ZReceiptLine = z.object({
  id: ZId,
  line_no: z.number().int(),
  product_id: ZId,
  product_number: z.string(),
  product_name: z.string(),
  product_barcode: z.string().nullable(),
  quantity: z.number().int(),
  expiry_date: z.string().nullable(),
  accepted_quantity: z.number().int().nullable(),
  defective_quantity: z.number().int().nullable(),
  good_quantity: z.number().int().nullable(),
  location_id: ZId.nullable(),
  location_code: z.string().nullable(),
  defective_location_id: ZId.nullable(),
  defective_location_code: z.string().nullable(),
});
export type TReceiptLine = z.infer<typeof ZReceiptLine>;

/**
 * The confirmation of one line: accepted and defective (good = accepted − defective), where the good and the
 * defective stock go, and the lot actually received. The numbers are checked by the server (ABNORMAL_QUANTITY).
 */
export const ZConfirmLineInput = z.strictObject({
  line_id: ZId,
  accepted_quantity: ZQuantityInput,
  defective_quantity: ZQuantityInput.default(0),
  /** Optional cross-check: must equal accepted − defective. */
  good_quantity: ZQuantityInput.optional(),
  /** Where the good stock goes: a sellable location of the receipt's warehouse (required when good > 0). */
  location_id: ZId.nullable().optional(),
  /** Where the defective stock goes: a defective location of the warehouse (required when defective > 0). */
  defective_location_id: ZId.nullable().optional(),
  /** The lot actually received (shelf-life products); defaults to the line's. */
  expiry_date: ZIsoDate.nullable().optional(),
});
export type TConfirmLineInput = z.infer<typeof ZConfirmLineInput>;

/** List filters every receipt list has (each kind adds its category and more). */
export const ZReceiptListQuery = ZListQuery.extend({
  status: z.enum(RECEIPT_STATUSES).optional(),
  warehouse_id: ZId.optional(),
  /** Planned date range (inclusive). */
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
