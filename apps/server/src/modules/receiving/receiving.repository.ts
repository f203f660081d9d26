import type { TReceiptStatus } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import {
  inbound_receipt_lines,
  inbound_receipts,
  products,
  return_receipt_lines,
  return_receipts,
  storage_locations,
} from '../../db/schema';

/**
 * The tables of each kind of receipt. Both kinds have the same receiving columns (status, confirmed/cancelled
 * stamps; lines with the planned quantity and lot, accepted/defective/good and their locations), so one set of
 * queries serves both; what only one kind has (an inbound receipt's `quick`, a return's order) stays in its module.
 */
const TABLES = {
  inbound: { receipts: inbound_receipts, lines: inbound_receipt_lines },
  return: { receipts: return_receipts, lines: return_receipt_lines },
} as const;

export type TReceiptKind = keyof typeof TABLES;
type TReceiptTable<K extends TReceiptKind> = (typeof TABLES)[K]['receipts'];
export type TReceiptRow<K extends TReceiptKind> = TReceiptTable<K>['$inferSelect'];
export type TReceiptInsert<K extends TReceiptKind> = TReceiptTable<K>['$inferInsert'];
type TAnyReceiptTable = typeof inbound_receipts | typeof return_receipts;
/** The columns of a status change, the same in both kinds (the routine sets them without knowing the kind). */
type TStatusPatch = Partial<
  Pick<TReceiptInsert<TReceiptKind>, 'status' | 'confirmed_at' | 'confirmed_by' | 'cancelled_at' | 'cancelled_by'>
>;

// Drizzle cannot type one query over a union of tables; the kind's own row type is restored at the boundary.
const receiptsOf = (kind: TReceiptKind) => TABLES[kind].receipts as TAnyReceiptTable as typeof inbound_receipts;
const linesOf = (kind: TReceiptKind) => TABLES[kind].lines as unknown as typeof inbound_receipt_lines;

export async function findReceipt<K extends TReceiptKind>(
  ex: Executor,
  kind: K,
  customerId: string,
  id: string,
): Promise<TReceiptRow<K> | undefined> {
  const t = receiptsOf(kind);
  const [row] = await ex
    .select()
    .from(t)
    .where(and(eq(t.customer_id, customerId), eq(t.id, id)));
  return row as TReceiptRow<K> | undefined;
}

export async function insertReceipt<K extends TReceiptKind>(
  ex: Executor,
  kind: K,
  values: TReceiptInsert<K>,
): Promise<TReceiptRow<K>> {
  const [row] = await ex
    .insert(receiptsOf(kind))
    .values(values as TReceiptInsert<'inbound'>)
    .returning();
  return row as TReceiptRow<K>;
}

/**
 * The guarded write of every receipt action: update the row only while its status is one the action allows.
 * Returns the updated row, or undefined when the receipt is not this seller's or its status does not allow it.
 */
export async function updateReceiptInStatus<K extends TReceiptKind>(
  ex: Executor,
  kind: K,
  customerId: string,
  id: string,
  from: readonly TReceiptStatus[],
  patch: Partial<TReceiptInsert<K>> | TStatusPatch,
): Promise<TReceiptRow<K> | undefined> {
  const t = receiptsOf(kind);
  const [row] = await ex
    .update(t)
    .set({ ...(patch as Partial<TReceiptInsert<'inbound'>>), updated_at: new Date() })
    .where(and(eq(t.customer_id, customerId), eq(t.id, id), inArray(t.status, [...from])))
    .returning();
  return row as TReceiptRow<K> | undefined;
}

/** Delete the receipt (its lines cascade) only while its status allows it; the deleted row, or undefined. */
export async function deleteReceiptInStatus<K extends TReceiptKind>(
  ex: Executor,
  kind: K,
  customerId: string,
  id: string,
  from: readonly TReceiptStatus[],
): Promise<TReceiptRow<K> | undefined> {
  const t = receiptsOf(kind);
  const [row] = await ex
    .delete(t)
    .where(and(eq(t.customer_id, customerId), eq(t.id, id), inArray(t.status, [...from])))
    .returning();
  return row as TReceiptRow<K> | undefined;
}

export interface TReceiptLineRow {
  id: string;
  line_no: number;
  product_id: string;
  product_number: string;
  product_name: string;
  product_barcode: string | null;
  product_type: string;
  shelf_life_months: number | null;
  sellable_rule_months: number | null;
  quantity: number;
  expiry_date: string | null;
  accepted_quantity: number | null;
  defective_quantity: number | null;
  good_quantity: number | null;
  location_id: string | null;
  location_code: string | null;
  defective_location_id: string | null;
  defective_location_code: string | null;
}

/**
 * The `from` of one row per receipt line (the detail's lines, the exports): receipt `r`, its warehouse `w`, the line
 * `l`, its product `p`, the location of its good stock `gl` and of its defective stock `dl`.
 */
export function receiptLinesFrom(kind: TReceiptKind): SQL {
  return sql`from ${receiptsOf(kind)} r
    join warehouses w on w.id = r.warehouse_id
    join ${linesOf(kind)} l on l.receipt_id = r.id
    join products p on p.id = l.product_id
    left join storage_locations gl on gl.id = l.location_id
    left join storage_locations dl on dl.id = l.defective_location_id`;
}

/** The lines of a receipt in line order, with their product and the codes of the locations they went to. */
export async function findLines(
  ex: Executor,
  kind: TReceiptKind,
  customerId: string,
  receiptId: string,
): Promise<TReceiptLineRow[]> {
  return queryRows<TReceiptLineRow>(
    ex,
    sql`select l.id, l.line_no, l.product_id, p.number as product_number, p.name as product_name,
          p.barcode as product_barcode, p.type as product_type, p.shelf_life_months, p.sellable_rule_months,
          l.quantity, l.expiry_date::text as expiry_date, l.accepted_quantity, l.defective_quantity, l.good_quantity,
          l.location_id, gl.code as location_code, l.defective_location_id, dl.code as defective_location_code
        ${receiptLinesFrom(kind)}
        where l.customer_id = ${customerId} and l.receipt_id = ${receiptId}
        order by l.line_no`,
  );
}

/** Replace every line of a receipt (numbered from 1 in the given order). */
export async function replaceLines(
  ex: Executor,
  kind: TReceiptKind,
  customerId: string,
  receiptId: string,
  lines: Array<{ product_id: string; quantity: number; expiry_date: string | null }>,
): Promise<void> {
  const t = linesOf(kind);
  await ex.delete(t).where(and(eq(t.customer_id, customerId), eq(t.receipt_id, receiptId)));
  await ex.insert(t).values(
    lines.map((l, i) => ({
      customer_id: customerId,
      receipt_id: receiptId,
      line_no: i + 1,
      product_id: l.product_id,
      quantity: l.quantity,
      expiry_date: l.expiry_date,
    })),
  );
}

/** Record what the confirmation found on one line and where its good and defective stock went. */
export async function setLineConfirmation(
  ex: Executor,
  kind: TReceiptKind,
  customerId: string,
  lineId: string,
  values: {
    accepted_quantity: number;
    defective_quantity: number;
    good_quantity: number;
    location_id: string | null;
    defective_location_id: string | null;
    expiry_date: string | null;
  },
): Promise<void> {
  const t = linesOf(kind);
  await ex
    .update(t)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(t.customer_id, customerId), eq(t.id, lineId)));
}

/** This seller's products among `ids`, with what the lot rule needs. */
export async function findProducts(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select({
      id: products.id,
      number: products.number,
      name: products.name,
      type: products.type,
      shelfLifeMonths: products.shelf_life_months,
    })
    .from(products)
    .where(and(eq(products.customer_id, customerId), inArray(products.id, [...new Set(ids)])));
}

/** This seller's storage locations among `ids`. */
export async function findLocations(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select({
      id: storage_locations.id,
      warehouse_id: storage_locations.warehouse_id,
      code: storage_locations.code,
      kind: storage_locations.kind,
      is_active: storage_locations.is_active,
    })
    .from(storage_locations)
    .where(and(eq(storage_locations.customer_id, customerId), inArray(storage_locations.id, [...new Set(ids)])));
}
