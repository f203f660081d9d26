import type { TInboundCountQuery, TInboundListQuery, TInboundStatus } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { inbound_receipts, storage_locations } from '../../db/schema';
import { isoSql, likePattern, orderColumn } from '../../platform/listing';
import type { TPurgeKind } from '../../platform/purge';
import { receiptLinesFrom } from '../receiving';

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
  const col = orderColumn(ORDER_COLUMNS, key) ?? 'r.created_at';
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

export async function findLocationsByCode(ex: Executor, customerId: string, code: string, warehouseId?: string) {
  const conds = [eq(storage_locations.customer_id, customerId), eq(storage_locations.code, code)];
  if (warehouseId) conds.push(eq(storage_locations.warehouse_id, warehouseId));
  return ex
    .select()
    .from(storage_locations)
    .where(and(...conds))
    .limit(2);
}

/** The seller's company (print header): the account module's read model. */
export { findCustomer as findCompany } from '../account';

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
        ${receiptLinesFrom('inbound')}
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

/** Retention (/database-clean): the seller's inbound receipts finished before the cut-off, purged by this module. */
export const inboundReceiptsPurge: TPurgeKind = {
  table: 'inbound_receipts',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.status = 'confirmed' and t.confirmed_at < ${cutoff}`,
  exportSelect: sql`t.number as ref, t.status as status, t.confirmed_at as at, t.remark as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(inbound_receipts)
      .where(and(eq(inbound_receipts.customer_id, c), inArray(inbound_receipts.id, ids)))
      .returning({ id: inbound_receipts.id });
    return gone.length;
  },
};
