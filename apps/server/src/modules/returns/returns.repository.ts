/**
 * Customer return receipts: list, summaries, the returns of an order, export and counts, retention purge; and the
 * lookups both return documents share. Returns to suppliers are in supplier-returns.repository.ts.
 */
import type { TReturnCategory, TReturnListQuery, TReturnStatus, TSupplierReturnStatus } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { return_receipts } from '../../db/schema';
import { likePattern, orderColumn } from '../../platform/listing';
import type { TPurgeKind } from '../../platform/purge';
import { receiptLinesFrom } from '../receiving';

export function orderBy(ordering: string | undefined, columns: Record<string, string>, fallback: string): SQL | null {
  const raw = ordering ?? fallback;
  const column = orderColumn(columns, raw.replace(/^-/, ''));
  if (!column) return null;
  return sql.raw(`${column} ${raw.startsWith('-') ? 'desc' : 'asc'} nulls last, r.id asc`);
}

// ---------------------------------------------------------------------------------------------------------------
// Return receipts

export interface TReturnSummaryRow {
  id: string;
  number: string;
  warehouse_id: string;
  warehouse_code: string;
  warehouse_name: string;
  category: TReturnCategory;
  planned_date: string;
  status: TReturnStatus;
  order_id: string | null;
  order_number: string;
  order_status: string | null;
  consignment_number: string;
  remark: string;
  line_count: number;
  quantity: number;
  accepted_quantity: number | null;
  defective_quantity: number | null;
  good_quantity: number | null;
  confirmed_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const RETURN_SUMMARY = sql.raw(`r.id, r.number, r.warehouse_id, w.code as warehouse_code, w.name as warehouse_name,
  r.category, r.planned_date::text as planned_date, r.status, r.order_id, r.order_number, o.status as order_status,
  r.consignment_number, r.remark,
  (select count(*)::int from return_receipt_lines l where l.receipt_id = r.id) as line_count,
  (select coalesce(sum(l.quantity), 0)::int from return_receipt_lines l where l.receipt_id = r.id) as quantity,
  (select sum(l.accepted_quantity)::int from return_receipt_lines l where l.receipt_id = r.id) as accepted_quantity,
  (select sum(l.defective_quantity)::int from return_receipt_lines l where l.receipt_id = r.id) as defective_quantity,
  (select sum(l.good_quantity)::int from return_receipt_lines l where l.receipt_id = r.id) as good_quantity,
  r.confirmed_at, r.cancelled_at, r.created_at, r.updated_at`);
const RETURN_FROM = sql.raw(`from return_receipts r
  join warehouses w on w.id = r.warehouse_id
  left join outbound_orders o on o.id = r.order_id`);

const RETURN_ORDERING: Record<string, string> = {
  number: 'r.number',
  planned_date: 'r.planned_date',
  status: 'r.status',
  category: 'r.category',
  created_at: 'r.created_at',
  confirmed_at: 'r.confirmed_at',
};

export function returnOrder(ordering: string | undefined): SQL | null {
  return orderBy(ordering, RETURN_ORDERING, '-created_at');
}

function returnWhere(customerId: string, q: Partial<TReturnListQuery>): SQL {
  const where = [sql`r.customer_id = ${customerId}`];
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.category) where.push(sql`r.category = ${q.category}`);
  if (q.warehouse_id) where.push(sql`r.warehouse_id = ${q.warehouse_id}`);
  if (q.date_from) where.push(sql`r.planned_date >= ${q.date_from}::date`);
  if (q.date_to) where.push(sql`r.planned_date <= ${q.date_to}::date`);
  if (q.search) {
    const p = likePattern(q.search);
    where.push(
      sql`(r.number ilike ${p} or r.order_number ilike ${p} or r.consignment_number ilike ${p} or r.remark ilike ${p}
        or exists (select 1 from return_receipt_lines l join products p on p.id = l.product_id
                   where l.receipt_id = r.id and (p.number ilike ${p} or p.name ilike ${p} or p.barcode ilike ${p})))`,
    );
  }
  return sql.join(where, sql` and `);
}

/**
 * One page of a return list and its count: `select <columns> <from> where … order by … limit … offset …` and
 * `select count(*) from <table> r where …` (customer returns and returns to suppliers alike).
 */
export async function pageOf<T>(
  ex: Executor,
  list: { columns: SQL; from: SQL; table: SQL },
  where: SQL,
  order: SQL,
  limit: number,
  offset: number,
): Promise<{ rows: T[]; count: number }> {
  const rows = await queryRows<T>(
    ex,
    sql`select ${list.columns} ${list.from} where ${where} order by ${order} limit ${limit} offset ${offset}`,
  );
  const [total] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from ${list.table} r where ${where}`,
  );
  return { rows, count: Number(total?.n ?? 0) };
}

export function listReturns(
  ex: Executor,
  customerId: string,
  q: Partial<TReturnListQuery>,
  order: SQL,
  limit: number,
  offset: number,
): Promise<{ rows: TReturnSummaryRow[]; count: number }> {
  return pageOf<TReturnSummaryRow>(
    ex,
    { columns: RETURN_SUMMARY, from: RETURN_FROM, table: sql`return_receipts` },
    returnWhere(customerId, q),
    order,
    limit,
    offset,
  );
}

export async function findReturnSummary(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<TReturnSummaryRow>(
    ex,
    sql`select ${RETURN_SUMMARY} ${RETURN_FROM} where r.customer_id = ${customerId} and r.id = ${id}`,
  );
  return row;
}

/** Confirmed returns of an order other than `exceptId` (only the first confirmed return moves the order). */
export async function otherConfirmedReturns(
  ex: Executor,
  customerId: string,
  orderId: string,
  exceptId: string,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from return_receipts
        where customer_id = ${customerId} and order_id = ${orderId} and id <> ${exceptId} and status = 'confirmed'`,
  );
  return Number(row?.n ?? 0);
}

export async function returnsOfOrder(ex: Executor, customerId: string, orderId: string) {
  return queryRows<{ id: string; number: string; status: TReturnStatus }>(
    ex,
    sql`select id, number, status from return_receipts
        where customer_id = ${customerId} and order_id = ${orderId} order by created_at`,
  );
}

export interface TReturnExportRow {
  number: string;
  warehouse_code: string;
  category: TReturnCategory;
  planned_date: string;
  status: TReturnStatus;
  order_number: string;
  consignment_number: string;
  remark: string;
  confirmed_at: Date | null;
  line_no: number;
  product_number: string;
  product_name: string;
  expiry_date: string | null;
  quantity: number;
  accepted_quantity: number | null;
  good_quantity: number | null;
  defective_quantity: number | null;
  location_code: string | null;
  defective_location_code: string | null;
}

/** One row per line of the receipts the list's filters select (for /return-export). */
export async function exportReturnLines(
  ex: Executor,
  customerId: string,
  q: Partial<TReturnListQuery>,
  order: SQL,
  limit: number,
): Promise<TReturnExportRow[]> {
  return queryRows<TReturnExportRow>(
    ex,
    sql`select r.number, w.code as warehouse_code, r.category, r.planned_date::text as planned_date, r.status,
          r.order_number, r.consignment_number, r.remark, r.confirmed_at, l.line_no, p.number as product_number,
          p.name as product_name, l.expiry_date::text as expiry_date, l.quantity, l.accepted_quantity,
          l.good_quantity, l.defective_quantity, gl.code as location_code, dl.code as defective_location_code
        ${receiptLinesFrom('return')}
        where ${returnWhere(customerId, q)}
        order by ${order}, l.line_no limit ${limit}`,
  );
}

export async function countReturns(
  ex: Executor,
  customerId: string,
  q: { warehouse_id?: string; date_from?: string; date_to?: string },
) {
  const where = returnWhere(customerId, q);
  const byStatus = await queryRows<{ status: TReturnStatus; count: number }>(
    ex,
    sql`select r.status, count(*)::int as count from return_receipts r where ${where} group by r.status`,
  );
  const byCategory = await queryRows<{ category: TReturnCategory; count: number }>(
    ex,
    sql`select r.category, count(*)::int as count from return_receipts r where ${where} group by r.category`,
  );
  const products = await queryRows<{
    product_id: string;
    product_number: string;
    product_name: string;
    receipts: number;
    accepted_quantity: number;
    good_quantity: number;
    defective_quantity: number;
  }>(
    ex,
    sql`select l.product_id, p.number as product_number, p.name as product_name,
          count(distinct r.id)::int as receipts, sum(l.accepted_quantity)::int as accepted_quantity,
          sum(l.good_quantity)::int as good_quantity, sum(l.defective_quantity)::int as defective_quantity
        from return_receipts r
          join return_receipt_lines l on l.receipt_id = r.id
          join products p on p.id = l.product_id
        where ${where} and r.status = 'confirmed'
        group by l.product_id, p.number, p.name
        order by sum(l.accepted_quantity) desc, p.number
        limit 200`,
  );
  const sWhere = [sql`s.customer_id = ${customerId}`];
  if (q.warehouse_id) sWhere.push(sql`s.warehouse_id = ${q.warehouse_id}`);
  if (q.date_from) sWhere.push(sql`s.planned_date >= ${q.date_from}::date`);
  if (q.date_to) sWhere.push(sql`s.planned_date <= ${q.date_to}::date`);
  const supplier = await queryRows<{ status: TSupplierReturnStatus; count: number }>(
    ex,
    sql`select s.status, count(*)::int as count from supplier_returns s where ${sql.join(sWhere, sql` and `)}
        group by s.status`,
  );
  return { byStatus, byCategory, products, supplier };
}

// ---------------------------------------------------------------------------------------------------------------
// Lookups shared by both documents

export async function findWarehouse(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<{ id: string; code: string; name: string }>(
    ex,
    sql`select id, code, name from warehouses where id = ${id} and customer_id = ${customerId}`,
  );
  return row;
}

/** The seller's company name on print-outs: the account module's read model. */
export { customerName as companyName } from '../account';

/** Retention (/database-clean): the seller's return receipts finished before the cut-off, purged by this module. */
export const returnReceiptsPurge: TPurgeKind = {
  table: 'return_receipts',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.status = 'confirmed' and t.confirmed_at < ${cutoff}`,
  exportSelect: sql`t.number as ref, t.status as status, t.confirmed_at as at, t.order_number as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(return_receipts)
      .where(and(eq(return_receipts.customer_id, c), inArray(return_receipts.id, ids)))
      .returning({ id: return_receipts.id });
    return gone.length;
  },
};

/** Retention: a return receipt keeps its row (and `order_number`) when its order is purged; the link is emptied. */
export async function unlinkReturnsFromOrders(tx: Tx, customerId: string, orderIds: string[]): Promise<void> {
  await tx
    .update(return_receipts)
    .set({ order_id: null })
    .where(and(eq(return_receipts.customer_id, customerId), inArray(return_receipts.order_id, orderIds)));
}
