/**
 * Stocktake sheets: find, insert, list, status changes, the database clock; the sheet's scope and lines are in
 * stocktake.scope.repository.ts and stocktake.lines.repository.ts.
 */
import type { TStocktakeStatus, TStocktakeType } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { stocktakes } from '../../db/schema';
import { likePattern, orderColumn } from '../../platform/listing';
import type { TPurgeKind } from '../../platform/purge';

export type TSheetRow = typeof stocktakes.$inferSelect;

/**
 * count − book of a line's last round, as SQL over alias `l` (null while that round is not counted). The SQL form of
 * stocktake.workflow.ts `varianceOf`, used where lists filter and count; closing uses the workflow itself.
 */
export const DIFFERENCE_SQL = sql.raw(`(case l.last_round when 1 then l.count_1 - l.book_1
  when 2 then l.count_2 - l.book_2 else l.count_3 - l.book_3 end)`);

/** A sheet of this seller; `lock` takes a row lock (`update` for round changes, `share` for counts). */
export async function findSheet(
  ex: Executor,
  customerId: string,
  id: string,
  lock?: 'update' | 'share',
): Promise<TSheetRow | undefined> {
  const q = ex
    .select()
    .from(stocktakes)
    .where(and(eq(stocktakes.id, id), eq(stocktakes.customer_id, customerId)));
  const [row] = lock === 'update' ? await q.for('update') : lock === 'share' ? await q.for('share') : await q;
  return row;
}

export async function insertSheet(tx: Tx, values: typeof stocktakes.$inferInsert): Promise<TSheetRow> {
  const [row] = await tx.insert(stocktakes).values(values).returning();
  return row!;
}

export interface TSheetSummary {
  location_count: number;
  line_count: number;
  pending_locations: number;
  variance_lines: number;
}

/** Counts shown with a sheet: locations, lines, locations still to count in the open round, lines with a variance. */
export async function sheetSummaries(
  ex: Executor,
  customerId: string,
  sheetIds: string[],
): Promise<Map<string, TSheetSummary>> {
  if (sheetIds.length === 0) return new Map();
  const rows = await queryRows<{ id: string } & TSheetSummary>(
    ex,
    sql`select s.id,
          (select count(*)::int from stocktake_locations sl where sl.stocktake_id = s.id) as location_count,
          (select count(*)::int from stocktake_lines l where l.stocktake_id = s.id) as line_count,
          case s.status
            when 'first' then (select count(*)::int from stocktake_locations sl
                               where sl.stocktake_id = s.id and sl.counted_1_at is null)
            when 'review' then (select count(distinct l.location_id)::int from stocktake_lines l
                                where l.stocktake_id = s.id and l.last_round = 2 and l.count_2 is null)
            when 'third' then (select count(distinct l.location_id)::int from stocktake_lines l
                               where l.stocktake_id = s.id and l.last_round = 3 and l.count_3 is null)
            else 0 end as pending_locations,
          case when s.status = 'closed'
            then (select count(*)::int from stocktake_lines l where l.stocktake_id = s.id and l.variance <> 0)
            else (select count(*)::int from stocktake_lines l
                  where l.stocktake_id = s.id and ${DIFFERENCE_SQL} <> 0) end as variance_lines
        from stocktakes s where s.customer_id = ${customerId} and s.id in ${sheetIds}`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        location_count: Number(r.location_count),
        line_count: Number(r.line_count),
        pending_locations: Number(r.pending_locations),
        variance_lines: Number(r.variance_lines),
      },
    ]),
  );
}

export async function warehouseOf(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<{ id: string; code: string; name: string }>(
    ex,
    sql`select id, code, name from warehouses where id = ${id} and customer_id = ${customerId}`,
  );
  return row;
}

export async function warehouseCodes(
  ex: Executor,
  ids: string[],
): Promise<Map<string, { code: string; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; code: string; name: string }>(
    ex,
    sql`select id, code, name from warehouses where id in ${[...new Set(ids)]}`,
  );
  return new Map(rows.map((r) => [r.id, { code: r.code, name: r.name }]));
}

export interface TSheetListFilter {
  status?: TStocktakeStatus;
  type?: TStocktakeType;
  year?: number;
  warehouse_id?: string;
  search?: string;
}

const ORDER_COLUMNS: Record<string, string> = {
  number: 's.number',
  name: 's.name',
  year: 's.year',
  status: 's.status',
  type: 's.type',
  created_at: 's.created_at',
};

/** `ordering` from the whitelist (anything else is refused by the caller before this point). */
export function orderClause(ordering: string | undefined): SQL | null {
  const raw = ordering ?? '-created_at';
  const key = raw.replace(/^-/, '');
  const column = orderColumn(ORDER_COLUMNS, key);
  if (!column) return null;
  return sql.raw(`${column} ${raw.startsWith('-') ? 'desc' : 'asc'}, s.id asc`);
}

export async function listSheets(
  ex: Executor,
  customerId: string,
  f: TSheetListFilter,
  order: SQL,
  limit: number,
  offset: number,
): Promise<{ rows: TSheetRow[]; count: number }> {
  const where = [sql`s.customer_id = ${customerId}`];
  if (f.status) where.push(sql`s.status = ${f.status}`);
  if (f.type) where.push(sql`s.type = ${f.type}`);
  if (f.year) where.push(sql`s.year = ${f.year}`);
  if (f.warehouse_id) where.push(sql`s.warehouse_id = ${f.warehouse_id}`);
  if (f.search) {
    const p = likePattern(f.search);
    where.push(sql`(s.number ilike ${p} or s.name ilike ${p} or s.attribute ilike ${p})`);
  }
  const cond = sql.join(where, sql` and `);
  const ids = await queryRows<{ id: string }>(
    ex,
    sql`select s.id from stocktakes s where ${cond} order by ${order} limit ${limit} offset ${offset}`,
  );
  const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from stocktakes s where ${cond}`);
  if (ids.length === 0) return { rows: [], count: Number(total?.n ?? 0) };
  const rows = await ex
    .select()
    .from(stocktakes)
    .where(
      inArray(
        stocktakes.id,
        ids.map((r) => r.id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { rows: ids.map((r) => byId.get(r.id)!), count: Number(total?.n ?? 0) };
}

/** A conditional status change: zero rows when the sheet is no longer in one of `from`. */
export async function moveStatus(
  tx: Tx,
  customerId: string,
  id: string,
  from: readonly TStocktakeStatus[],
  set: Partial<typeof stocktakes.$inferInsert>,
): Promise<TSheetRow | undefined> {
  if (from.length === 0) return undefined;
  const [row] = await tx
    .update(stocktakes)
    .set({ ...set, updated_at: new Date() })
    .where(and(eq(stocktakes.id, id), eq(stocktakes.customer_id, customerId), inArray(stocktakes.status, [...from])))
    .returning();
  return row;
}

export async function updateSheet(
  tx: Tx,
  customerId: string,
  id: string,
  from: readonly TStocktakeStatus[],
  set: Partial<typeof stocktakes.$inferInsert>,
): Promise<TSheetRow | undefined> {
  return moveStatus(tx, customerId, id, from, set);
}

export async function dbNow(ex: Executor): Promise<Date> {
  const [row] = await queryRows<{ now: Date }>(ex, sql`select now() as now`);
  return new Date(row!.now);
}

const ISO_MICROS = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`);

/** The transaction's start (what its own ledger rows would be stamped with) as ISO text with microseconds. */
export async function txMoment(tx: Tx): Promise<string> {
  const [row] = await queryRows<{ at: string }>(tx, sql`select to_char(now() at time zone 'UTC', ${ISO_MICROS}) as at`);
  return row!.at;
}

/**
 * The moment of a location scan as ISO text with microseconds (a JS Date would drop them), answered only once the
 * database clock has moved past it: every ledger row of a transaction that starts after the answer is stamped later
 * (PGlite's clock has millisecond steps), and every row committed before it is stamped no later.
 */
export async function scanMoment(ex: Executor): Promise<string> {
  const [row] = await queryRows<{ at: string }>(
    ex,
    sql`select to_char(clock_timestamp() at time zone 'UTC', ${ISO_MICROS}) as at`,
  );
  const at = row!.at;
  for (let i = 0; i < 100; i++) {
    const [tick] = await queryRows<{ past: boolean }>(ex, sql`select clock_timestamp() > ${at}::timestamptz as past`);
    if (tick?.past) break;
    await new Promise((r) => setTimeout(r, 1));
  }
  return at;
}

/** The seller's company name on print-outs: the account module's read model. */
export { customerName as companyName } from '../account';

/** Retention (/database-clean): the seller's stocktakes finished before the cut-off, purged by this module. */
export const stocktakesPurge: TPurgeKind = {
  table: 'stocktakes',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.status in ('closed', 'cancelled')
    and coalesce(t.closed_at, t.cancelled_at) < ${cutoff}`,
  exportSelect: sql`t.number as ref, t.status as status, coalesce(t.closed_at, t.cancelled_at) as at,
    t.name as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(stocktakes)
      .where(and(eq(stocktakes.customer_id, c), inArray(stocktakes.id, ids)))
      .returning({ id: stocktakes.id });
    return gone.length;
  },
};
