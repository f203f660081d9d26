import type { TInboundCountQuery, TInboundListQuery, TInboundStatus } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import {
  customers,
  inbound_receipt_lines,
  inbound_receipts,
  products,
  storage_locations,
  warehouses,
} from '../../db/schema';
import { isoSql, likePattern } from '../../platform/listing';

export type TReceiptRow = typeof inbound_receipts.$inferSelect;

export interface TReceiptSummaryRow {
  id: string;
  number: string;
  warehouse_id: string;
  warehouse_code: string;
  warehouse_name: string;
  category: string;
  planned_date: string;
  status: TInboundStatus;
  remark: string;
  quick: boolean;
  line_count: number;
  total_quantity: number;
  total_accepted: number | null;
  total_good: number | null;
  total_defective: number | null;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
  cancelled_at: string | null;
}

export interface TLineRow {
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

const SUMMARY_SELECT = sql`
  select r.id, r.number, r.warehouse_id, w.code as warehouse_code, w.name as warehouse_name, r.category,
    r.planned_date::text as planned_date, r.status, r.remark, r.quick,
    coalesce(a.line_count, 0)::int as line_count, coalesce(a.total_quantity, 0)::int as total_quantity,
    a.total_accepted::int as total_accepted, a.total_good::int as total_good, a.total_defective::int as total_defective,
    ${isoSql('r.created_at')} as created_at, ${isoSql('r.updated_at')} as updated_at,
    ${isoSql('r.confirmed_at')} as confirmed_at, ${isoSql('r.cancelled_at')} as cancelled_at
  from inbound_receipts r
    join warehouses w on w.id = r.warehouse_id
    left join lateral (
      select count(*) as line_count, sum(l.quantity) as total_quantity, sum(l.accepted_quantity) as total_accepted,
        sum(l.good_quantity) as total_good, sum(l.defective_quantity) as total_defective
      from inbound_receipt_lines l where l.receipt_id = r.id) a on true`;

function listWhere(customerId: string, q: Partial<TInboundListQuery>): SQL {
  const parts: SQL[] = [sql`r.customer_id = ${customerId}`];
  if (q.status) parts.push(sql`r.status = ${q.status}`);
  if (q.category) parts.push(sql`r.category = ${q.category}`);
  if (q.warehouse_id) parts.push(sql`r.warehouse_id = ${q.warehouse_id}`);
  if (q.date_from) parts.push(sql`r.planned_date >= ${q.date_from}::date`);
  if (q.date_to) parts.push(sql`r.planned_date <= ${q.date_to}::date`);
  if (q.product_id)
    parts.push(
      sql`exists (select 1 from inbound_receipt_lines l where l.receipt_id = r.id and l.product_id = ${q.product_id})`,
    );
  if (q.search) {
    const like = likePattern(q.search);
    parts.push(sql`(r.number ilike ${like} or r.remark ilike ${like} or exists (
      select 1 from inbound_receipt_lines l join products p on p.id = l.product_id
      where l.receipt_id = r.id and (p.number ilike ${like} or p.name ilike ${like} or p.barcode = ${q.search})))`);
  }
  return sql.join(parts, sql` and `);
}

const ORDER_COLUMNS: Record<string, string> = {
  number: 'r.number',
  planned_date: 'r.planned_date',
  status: 'r.status',
  created_at: 'r.created_at',
  confirmed_at: 'r.confirmed_at',
};

function orderBy(ordering: string | undefined): SQL {
  const desc = ordering?.startsWith('-') ?? true;
  const key = ordering?.replace(/^-/, '') ?? 'created_at';
  const col = ORDER_COLUMNS[key] ?? 'r.created_at';
  return sql.raw(`${col} ${desc ? 'desc' : 'asc'} nulls last, r.id desc`);
}

export async function listReceipts(ex: Executor, customerId: string, q: TInboundListQuery) {
  const where = listWhere(customerId, q);
  const [count] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from inbound_receipts r where ${where}`,
  );
  const rows = await queryRows<TReceiptSummaryRow>(
    ex,
    sql`${SUMMARY_SELECT} where ${where} order by ${orderBy(q.ordering)}
        limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`,
  );
  return { count: Number(count?.n ?? 0), rows };
}

export async function findReceiptSummary(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<TReceiptSummaryRow>(
    ex,
    sql`${SUMMARY_SELECT} where r.customer_id = ${customerId} and r.id = ${id}`,
  );
  return row;
}

export async function findReceipt(ex: Executor, customerId: string, id: string) {
  const [row] = await ex
    .select()
    .from(inbound_receipts)
    .where(and(eq(inbound_receipts.customer_id, customerId), eq(inbound_receipts.id, id)));
  return row;
}

export async function findLines(ex: Executor, customerId: string, receiptId: string): Promise<TLineRow[]> {
  return queryRows<TLineRow>(
    ex,
    sql`select l.id, l.line_no, l.product_id, p.number as product_number, p.name as product_name,
          p.barcode as product_barcode, p.type as product_type, p.shelf_life_months, p.sellable_rule_months,
          l.quantity, l.expiry_date::text as expiry_date, l.accepted_quantity, l.defective_quantity, l.good_quantity,
          l.location_id, gl.code as location_code, l.defective_location_id, dl.code as defective_location_code
        from inbound_receipt_lines l
          join products p on p.id = l.product_id
          left join storage_locations gl on gl.id = l.location_id
          left join storage_locations dl on dl.id = l.defective_location_id
        where l.customer_id = ${customerId} and l.receipt_id = ${receiptId}
        order by l.line_no`,
  );
}

export async function insertReceipt(ex: Executor, values: typeof inbound_receipts.$inferInsert) {
  const [row] = await ex.insert(inbound_receipts).values(values).returning();
  return row!;
}

export async function replaceLines(
  ex: Executor,
  customerId: string,
  receiptId: string,
  lines: Array<{ product_id: string; quantity: number; expiry_date: string | null }>,
) {
  await ex
    .delete(inbound_receipt_lines)
    .where(and(eq(inbound_receipt_lines.customer_id, customerId), eq(inbound_receipt_lines.receipt_id, receiptId)));
  await ex.insert(inbound_receipt_lines).values(
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

/**
 * The guarded write of every receipt action: update the row only while its status is one the action allows.
 * Returns the updated row, or undefined when the receipt is not this seller's or its status does not allow it.
 */
export async function updateReceiptInStatus(
  ex: Executor,
  customerId: string,
  id: string,
  from: readonly TInboundStatus[],
  patch: Partial<typeof inbound_receipts.$inferInsert>,
) {
  const [row] = await ex
    .update(inbound_receipts)
    .set({ ...patch, updated_at: new Date() })
    .where(
      and(
        eq(inbound_receipts.customer_id, customerId),
        eq(inbound_receipts.id, id),
        inArray(inbound_receipts.status, [...from]),
      ),
    )
    .returning();
  return row;
}

export async function deleteReceiptInStatus(
  ex: Executor,
  customerId: string,
  id: string,
  from: readonly TInboundStatus[],
) {
  const rows = await ex
    .delete(inbound_receipts)
    .where(
      and(
        eq(inbound_receipts.customer_id, customerId),
        eq(inbound_receipts.id, id),
        inArray(inbound_receipts.status, [...from]),
      ),
    )
    .returning({ id: inbound_receipts.id });
  return rows.length === 1;
}

export async function setLineConfirmation(
  ex: Executor,
  customerId: string,
  lineId: string,
  values: Pick<
    typeof inbound_receipt_lines.$inferInsert,
    | 'accepted_quantity'
    | 'defective_quantity'
    | 'good_quantity'
    | 'location_id'
    | 'defective_location_id'
    | 'expiry_date'
  >,
) {
  await ex
    .update(inbound_receipt_lines)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(inbound_receipt_lines.customer_id, customerId), eq(inbound_receipt_lines.id, lineId)));
}

export async function findWarehouse(ex: Executor, customerId: string, id: string) {
  const [row] = await ex
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.customer_id, customerId), eq(warehouses.id, id)));
  return row;
}

export async function findProducts(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select({
      id: products.id,
      number: products.number,
      type: products.type,
      shelfLifeMonths: products.shelf_life_months,
    })
    .from(products)
    .where(and(eq(products.customer_id, customerId), inArray(products.id, [...new Set(ids)])));
}

export async function findLocations(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select()
    .from(storage_locations)
    .where(and(eq(storage_locations.customer_id, customerId), inArray(storage_locations.id, [...new Set(ids)])));
}

export async function findLocationsByCode(ex: Executor, customerId: string, code: string, warehouseId?: string) {
  const conds = [eq(storage_locations.customer_id, customerId), eq(storage_locations.code, code)];
  if (warehouseId) conds.push(eq(storage_locations.warehouse_id, warehouseId));
  return ex
    .select()
    .from(storage_locations)
    .where(and(...conds))
    .limit(2);
}

export async function findCompany(ex: Executor, customerId: string) {
  const [row] = await ex.select().from(customers).where(eq(customers.id, customerId));
  return row;
}

export interface TExportRow {
  receipt_number: string;
  category: string;
  status: TInboundStatus;
  warehouse_code: string;
  planned_date: string;
  line_no: number;
  product_number: string;
  product_name: string;
  barcode: string | null;
  quantity: number;
  expiry_date: string | null;
  accepted_quantity: number | null;
  defective_quantity: number | null;
  good_quantity: number | null;
  location_code: string | null;
  defective_location_code: string | null;
  remark: string;
  confirmed_at: string | null;
}

/** One row per receipt line, for the Excel export (capped by the caller). */
export async function exportLines(ex: Executor, customerId: string, q: TInboundListQuery, limit: number) {
  return queryRows<TExportRow>(
    ex,
    sql`select r.number as receipt_number, r.category, r.status, w.code as warehouse_code,
          r.planned_date::text as planned_date, l.line_no, p.number as product_number, p.name as product_name,
          p.barcode, l.quantity, l.expiry_date::text as expiry_date, l.accepted_quantity, l.defective_quantity,
          l.good_quantity, gl.code as location_code, dl.code as defective_location_code, r.remark,
          ${isoSql('r.confirmed_at')} as confirmed_at
        from inbound_receipts r
          join warehouses w on w.id = r.warehouse_id
          join inbound_receipt_lines l on l.receipt_id = r.id
          join products p on p.id = l.product_id
          left join storage_locations gl on gl.id = l.location_id
          left join storage_locations dl on dl.id = l.defective_location_id
        where ${listWhere(customerId, q)}
        order by ${orderBy(q.ordering)}, l.line_no
        limit ${limit}`,
  );
}

function countWhere(customerId: string, q: TInboundCountQuery): SQL {
  const parts: SQL[] = [sql`r.customer_id = ${customerId}`];
  if (q.warehouse_id) parts.push(sql`r.warehouse_id = ${q.warehouse_id}`);
  if (q.category) parts.push(sql`r.category = ${q.category}`);
  if (q.status) parts.push(sql`r.status = ${q.status}`);
  if (q.date_from) parts.push(sql`r.planned_date >= ${q.date_from}::date`);
  if (q.date_to) parts.push(sql`r.planned_date <= ${q.date_to}::date`);
  if (q.product_id) parts.push(sql`l.product_id = ${q.product_id}`);
  return sql.join(parts, sql` and `);
}

const UNITS = sql`count(distinct r.id)::int as receipts, coalesce(sum(l.quantity), 0)::int as planned_units,
  coalesce(sum(l.accepted_quantity), 0)::int as accepted_units, coalesce(sum(l.good_quantity), 0)::int as good_units,
  coalesce(sum(l.defective_quantity), 0)::int as defective_units`;

type TUnitsRow = {
  receipts: number;
  planned_units: number;
  accepted_units: number;
  good_units: number;
  defective_units: number;
};

export async function countByStatus(ex: Executor, customerId: string, q: TInboundCountQuery) {
  return queryRows<TUnitsRow & { status: TInboundStatus }>(
    ex,
    sql`select r.status, ${UNITS}
        from inbound_receipts r join inbound_receipt_lines l on l.receipt_id = r.id
        where ${countWhere(customerId, q)} group by r.status`,
  );
}

export async function countTotal(ex: Executor, customerId: string, q: TInboundCountQuery) {
  const [row] = await queryRows<TUnitsRow>(
    ex,
    sql`select ${UNITS} from inbound_receipts r join inbound_receipt_lines l on l.receipt_id = r.id
        where ${countWhere(customerId, q)}`,
  );
  return row!;
}

export async function countByProduct(ex: Executor, customerId: string, q: TInboundCountQuery) {
  const where = countWhere(customerId, q);
  const [n] = await queryRows<{ n: number }>(
    ex,
    sql`select count(distinct l.product_id)::int as n
        from inbound_receipts r join inbound_receipt_lines l on l.receipt_id = r.id where ${where}`,
  );
  const rows = await queryRows<TUnitsRow & { product_id: string; product_number: string; product_name: string }>(
    ex,
    sql`select l.product_id, p.number as product_number, p.name as product_name, ${UNITS}
        from inbound_receipts r join inbound_receipt_lines l on l.receipt_id = r.id join products p on p.id = l.product_id
        where ${where}
        group by l.product_id, p.number, p.name
        order by sum(l.quantity) desc, p.number
        limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`,
  );
  return { count: Number(n?.n ?? 0), rows };
}
