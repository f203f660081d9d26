/**
 * Returns to suppliers: their list, documents and lines, the piles they may take and what open orders claim of them,
 * and the export. Customer return receipts are in returns.repository.ts.
 */
import type { TSupplierReturnReason, TSupplierReturnStatus } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { supplier_return_lines, supplier_returns } from '../../db/schema';
import { likePattern } from '../../platform/listing';
import { orderBy, pageOf } from './returns.repository';

export type TSupplierReturnRow = typeof supplier_returns.$inferSelect;

// ---------------------------------------------------------------------------------------------------------------
// Return-to-supplier orders

export interface TSupplierSummaryRow {
  id: string;
  number: string;
  warehouse_id: string;
  warehouse_code: string;
  warehouse_name: string;
  status: TSupplierReturnStatus;
  reason: TSupplierReturnReason;
  supplier_name: string;
  supplier_contact: string;
  supplier_phone: string;
  supplier_address: string;
  planned_date: string;
  consignment_number: string;
  remark: string;
  line_count: number;
  quantity: number;
  dispatched_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SUPPLIER_SUMMARY = sql.raw(`r.id, r.number, r.warehouse_id, w.code as warehouse_code, w.name as warehouse_name,
  r.status, r.reason, r.supplier_name, r.supplier_contact, r.supplier_phone, r.supplier_address,
  r.planned_date::text as planned_date, r.consignment_number, r.remark,
  (select count(*)::int from supplier_return_lines l where l.supplier_return_id = r.id) as line_count,
  (select coalesce(sum(l.quantity), 0)::int from supplier_return_lines l where l.supplier_return_id = r.id) as quantity,
  r.dispatched_at, r.cancelled_at, r.created_at, r.updated_at`);
const SUPPLIER_FROM = sql.raw('from supplier_returns r join warehouses w on w.id = r.warehouse_id');

const SUPPLIER_ORDERING: Record<string, string> = {
  number: 'r.number',
  planned_date: 'r.planned_date',
  status: 'r.status',
  supplier_name: 'r.supplier_name',
  created_at: 'r.created_at',
};

export function supplierOrder(ordering: string | undefined): SQL | null {
  return orderBy(ordering, SUPPLIER_ORDERING, '-created_at');
}

export interface TSupplierListFilter {
  status?: TSupplierReturnStatus;
  reason?: TSupplierReturnReason;
  warehouse_id?: string;
  date_from?: string;
  date_to?: string;
  search?: string;
}

function supplierWhere(customerId: string, q: TSupplierListFilter): SQL {
  const where = [sql`r.customer_id = ${customerId}`];
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.reason) where.push(sql`r.reason = ${q.reason}`);
  if (q.warehouse_id) where.push(sql`r.warehouse_id = ${q.warehouse_id}`);
  if (q.date_from) where.push(sql`r.planned_date >= ${q.date_from}::date`);
  if (q.date_to) where.push(sql`r.planned_date <= ${q.date_to}::date`);
  if (q.search) {
    const p = likePattern(q.search);
    where.push(
      sql`(r.number ilike ${p} or r.supplier_name ilike ${p} or r.consignment_number ilike ${p} or r.remark ilike ${p}
        or exists (select 1 from supplier_return_lines l join products p on p.id = l.product_id
                   where l.supplier_return_id = r.id and (p.number ilike ${p} or p.name ilike ${p})))`,
    );
  }
  return sql.join(where, sql` and `);
}

export function listSupplierReturns(
  ex: Executor,
  customerId: string,
  q: TSupplierListFilter,
  order: SQL,
  limit: number,
  offset: number,
): Promise<{ rows: TSupplierSummaryRow[]; count: number }> {
  return pageOf<TSupplierSummaryRow>(
    ex,
    { columns: SUPPLIER_SUMMARY, from: SUPPLIER_FROM, table: sql`supplier_returns` },
    supplierWhere(customerId, q),
    order,
    limit,
    offset,
  );
}

export async function findSupplierSummary(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<TSupplierSummaryRow>(
    ex,
    sql`select ${SUPPLIER_SUMMARY} ${SUPPLIER_FROM} where r.customer_id = ${customerId} and r.id = ${id}`,
  );
  return row;
}

export async function findSupplierReturn(ex: Executor, customerId: string, id: string) {
  const [row] = await ex
    .select()
    .from(supplier_returns)
    .where(and(eq(supplier_returns.id, id), eq(supplier_returns.customer_id, customerId)));
  return row;
}

export interface TSupplierLineRow {
  id: string;
  line_no: number;
  balance_id: string;
  product_id: string;
  product_number: string;
  product_name: string;
  product_barcode: string | null;
  location_id: string;
  location_code: string;
  location_kind: string;
  expiry_date: string | null;
  quantity: number;
}

export async function findSupplierLines(ex: Executor, customerId: string, docId: string): Promise<TSupplierLineRow[]> {
  return queryRows<TSupplierLineRow>(
    ex,
    sql`select l.id, l.line_no, l.balance_id, l.product_id, p.number as product_number, p.name as product_name,
          p.barcode as product_barcode, l.location_id, loc.code as location_code, loc.kind as location_kind,
          l.expiry_date::text as expiry_date, l.quantity
        from supplier_return_lines l
          join products p on p.id = l.product_id
          join storage_locations loc on loc.id = l.location_id
        where l.customer_id = ${customerId} and l.supplier_return_id = ${docId}
        order by l.line_no`,
  );
}

export async function insertSupplierReturn(
  tx: Tx,
  values: typeof supplier_returns.$inferInsert,
): Promise<TSupplierReturnRow> {
  const [row] = await tx.insert(supplier_returns).values(values).returning();
  return row!;
}

export async function insertSupplierLines(tx: Tx, values: Array<typeof supplier_return_lines.$inferInsert>) {
  await tx.insert(supplier_return_lines).values(values);
}

export async function updateSupplierInStatus(
  tx: Tx,
  customerId: string,
  id: string,
  from: readonly TSupplierReturnStatus[],
  set: Partial<typeof supplier_returns.$inferInsert>,
): Promise<TSupplierReturnRow | undefined> {
  const [row] = await tx
    .update(supplier_returns)
    .set({ ...set, updated_at: new Date() })
    .where(
      and(
        eq(supplier_returns.id, id),
        eq(supplier_returns.customer_id, customerId),
        inArray(supplier_returns.status, [...from]),
      ),
    )
    .returning();
  return row;
}

/** What open (reserved) return-to-supplier orders claim of these piles, except one order. */
export async function claimedOn(
  ex: Executor,
  customerId: string,
  balanceIds: string[],
  exceptDocId: string | null,
): Promise<Map<string, number>> {
  if (balanceIds.length === 0) return new Map();
  const rows = await queryRows<{ balance_id: string; quantity: number }>(
    ex,
    sql`select l.balance_id, sum(l.quantity)::int as quantity
        from supplier_return_lines l join supplier_returns r on r.id = l.supplier_return_id
        where l.customer_id = ${customerId} and r.status = 'reserved' and l.balance_id in ${balanceIds}
          ${exceptDocId ? sql`and r.id <> ${exceptDocId}` : sql``}
        group by l.balance_id`,
  );
  return new Map(rows.map((r) => [r.balance_id, Number(r.quantity)]));
}

export interface TPileRow {
  balance_id: string;
  product_id: string;
  product_number: string;
  product_name: string;
  location_id: string;
  location_code: string;
  location_kind: string;
  expiry_date: string | null;
  on_hand: number;
  reserved: number;
  claimed: number;
}

/** Piles of a warehouse a return-to-supplier order could take: on hand − reserved − claimed > 0. */
export async function listPiles(
  ex: Executor,
  customerId: string,
  q: { warehouse_id: string; location_kind?: string; search?: string },
  limit: number,
  offset: number,
): Promise<{ rows: TPileRow[]; count: number }> {
  const claimed = sql`coalesce((select sum(l.quantity) from supplier_return_lines l
      join supplier_returns r on r.id = l.supplier_return_id
      where l.balance_id = b.id and r.status = 'reserved' and loc.kind <> 'sellable'), 0)::int`;
  const where = [
    sql`b.customer_id = ${customerId}`,
    sql`b.warehouse_id = ${q.warehouse_id}`,
    sql`b.on_hand - b.reserved - ${claimed} > 0`,
  ];
  if (q.location_kind) where.push(sql`loc.kind = ${q.location_kind}`);
  if (q.search) {
    const p = likePattern(q.search);
    where.push(sql`(p.number ilike ${p} or p.name ilike ${p} or p.barcode ilike ${p} or loc.code ilike ${p})`);
  }
  const cond = sql.join(where, sql` and `);
  const from = sql`from stock_balances b
    join products p on p.id = b.product_id
    join storage_locations loc on loc.id = b.location_id`;
  const rows = await queryRows<TPileRow>(
    ex,
    sql`select b.id as balance_id, b.product_id, p.number as product_number, p.name as product_name,
          b.location_id, loc.code as location_code, loc.kind as location_kind, b.expiry_date::text as expiry_date,
          b.on_hand, b.reserved, ${claimed} as claimed
        ${from} where ${cond}
        order by p.number, loc.code, b.expiry_date nulls first limit ${limit} offset ${offset}`,
  );
  const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${from} where ${cond}`);
  return { rows, count: Number(total?.n ?? 0) };
}

export interface TSupplierExportRow {
  number: string;
  warehouse_code: string;
  status: TSupplierReturnStatus;
  reason: TSupplierReturnReason;
  supplier_name: string;
  planned_date: string;
  consignment_number: string;
  remark: string;
  dispatched_at: Date | null;
  line_no: number;
  product_number: string;
  product_name: string;
  location_code: string;
  expiry_date: string | null;
  quantity: number;
}

export async function exportSupplierLines(
  ex: Executor,
  customerId: string,
  q: TSupplierListFilter,
  order: SQL,
  limit: number,
): Promise<TSupplierExportRow[]> {
  return queryRows<TSupplierExportRow>(
    ex,
    sql`select r.number, w.code as warehouse_code, r.status, r.reason, r.supplier_name,
          r.planned_date::text as planned_date, r.consignment_number, r.remark, r.dispatched_at, l.line_no,
          p.number as product_number, p.name as product_name, loc.code as location_code,
          l.expiry_date::text as expiry_date, l.quantity
        from supplier_returns r
          join warehouses w on w.id = r.warehouse_id
          join supplier_return_lines l on l.supplier_return_id = r.id
          join products p on p.id = l.product_id
          join storage_locations loc on loc.id = l.location_id
        where ${supplierWhere(customerId, q)}
        order by ${order}, l.line_no limit ${limit}`,
  );
}
