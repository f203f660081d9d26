import type { TStocktakeScope, TStocktakeStatus, TStocktakeType } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { products, stocktake_locations, stocktake_products, stocktakes, storage_locations } from '../../db/schema';
import { likePattern, orderColumn } from '../../platform/listing';
import type { TPurgeKind } from '../../platform/purge';
import type { TRound } from './stocktake.workflow';

export type TSheetRow = typeof stocktakes.$inferSelect;

/**
 * count − book of a line's last round, as SQL over alias `l` (null while that round is not counted). The SQL form of
 * stocktake.workflow.ts `varianceOf`, used where lists filter and count; closing uses the workflow itself.
 */
export const DIFFERENCE_SQL = sql.raw(`(case l.last_round when 1 then l.count_1 - l.book_1
  when 2 then l.count_2 - l.book_2 else l.count_3 - l.book_3 end)`);

const col = (name: 'count' | 'book' | 'counted', round: TRound) =>
  sql.raw(name === 'counted' ? `counted_${round}_at` : `${name}_${round}`);

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

/** Serialise sheet creation per warehouse, so two new sheets never take the same location unseen. */
export async function lockWarehouseSheets(tx: Tx, warehouseId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stocktake:${warehouseId}`}))`);
}

/** Locations a full sheet counts: every active location of the warehouse, and inactive ones still holding stock. */
export async function fullScopeLocations(ex: Executor, customerId: string, warehouseId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    ex,
    sql`select l.id from storage_locations l
        where l.customer_id = ${customerId} and l.warehouse_id = ${warehouseId}
          and (l.is_active or exists (select 1 from stock_balances b where b.location_id = l.id and b.on_hand > 0))
        order by l.code`,
  );
  return rows.map((r) => r.id);
}

/** The given ids that are locations of this warehouse. */
export async function locationsOf(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select({ id: storage_locations.id })
    .from(storage_locations)
    .where(
      and(
        eq(storage_locations.customer_id, customerId),
        eq(storage_locations.warehouse_id, warehouseId),
        inArray(storage_locations.id, ids),
      ),
    );
  return rows.map((r) => r.id);
}

/** The given ids that are this seller's single (stockable) products. */
export async function singleProductsOf(ex: Executor, customerId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.customer_id, customerId), eq(products.type, 'single'), inArray(products.id, ids)));
  return rows.map((r) => r.id);
}

/** Products with stock on hand in the warehouse (what a random product sheet draws from). */
export async function productsWithStock(ex: Executor, customerId: string, warehouseId: string): Promise<string[]> {
  const rows = await queryRows<{ product_id: string }>(
    ex,
    sql`select distinct b.product_id from stock_balances b
        where b.customer_id = ${customerId} and b.warehouse_id = ${warehouseId} and b.on_hand > 0
        order by b.product_id`,
  );
  return rows.map((r) => r.product_id);
}

/** Locations of the warehouse holding any of these products. */
export async function locationsHolding(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  productIds: string[],
): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await queryRows<{ location_id: string }>(
    ex,
    sql`select distinct b.location_id from stock_balances b
        where b.customer_id = ${customerId} and b.warehouse_id = ${warehouseId} and b.on_hand > 0
          and b.product_id in ${productIds}`,
  );
  return rows.map((r) => r.location_id);
}

/** Open sheets that already hold one of these locations (the first few, for the error message). */
export async function openSheetsHolding(
  ex: Executor,
  customerId: string,
  locationIds: string[],
): Promise<Array<{ number: string; location_code: string }>> {
  if (locationIds.length === 0) return [];
  return queryRows(
    ex,
    sql`select s.number, l.code as location_code
        from stocktake_locations sl
          join stocktakes s on s.id = sl.stocktake_id
          join storage_locations l on l.id = sl.location_id
        where sl.customer_id = ${customerId} and s.status in ('first', 'review', 'third')
          and sl.location_id in ${locationIds}
        order by l.code limit 5`,
  );
}

const CHUNK = 1000;

export async function insertSheetLocations(
  tx: Tx,
  customerId: string,
  sheetId: string,
  locationIds: string[],
): Promise<void> {
  for (let i = 0; i < locationIds.length; i += CHUNK) {
    await tx
      .insert(stocktake_locations)
      .values(
        locationIds
          .slice(i, i + CHUNK)
          .map((id) => ({ customer_id: customerId, stocktake_id: sheetId, location_id: id })),
      );
  }
}

export async function insertSheetProducts(
  tx: Tx,
  customerId: string,
  sheetId: string,
  productIds: string[],
): Promise<void> {
  for (let i = 0; i < productIds.length; i += CHUNK) {
    await tx
      .insert(stocktake_products)
      .values(
        productIds
          .slice(i, i + CHUNK)
          .map((id) => ({ customer_id: customerId, stocktake_id: sheetId, product_id: id })),
      );
  }
}

/** The sheet's lines as the book has them now: every pile with stock in its locations (its products only, if any). */
export async function insertBookLines(
  tx: Tx,
  customerId: string,
  sheetId: string,
  scope: TStocktakeScope,
): Promise<void> {
  const productFilter =
    scope === 'product'
      ? sql`and b.product_id in (select sp.product_id from stocktake_products sp where sp.stocktake_id = ${sheetId})`
      : sql``;
  await tx.execute(
    sql`insert into stocktake_lines (customer_id, stocktake_id, location_id, product_id, expiry_date, book_initial)
        select ${customerId}, ${sheetId}, b.location_id, b.product_id, b.expiry_date, b.on_hand
        from stock_balances b
          join stocktake_locations sl on sl.location_id = b.location_id and sl.stocktake_id = ${sheetId}
        where b.customer_id = ${customerId} and b.on_hand > 0 ${productFilter}`,
  );
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

export interface TSheetLocationView {
  location_id: string;
  location_code: string;
  location_name: string;
  location_kind: string;
  counted_1_at: Date | null;
  counted_2_at: Date | null;
  counted_3_at: Date | null;
  lines_in_round: number;
}

/** The sheet's locations with their lines in `round` (pending filter: still to count in that round). */
export async function listSheetLocations(
  ex: Executor,
  sheetId: string,
  round: TRound | null,
  opts: { pending?: boolean; search?: string; limit: number; offset: number },
): Promise<{ rows: TSheetLocationView[]; count: number }> {
  const r = round ?? 1;
  const inRound = sql`(select count(*)::int from stocktake_lines l
                       where l.stocktake_id = sl.stocktake_id and l.location_id = sl.location_id
                         and l.last_round = ${r})`;
  const pendingCond =
    round === null
      ? sql`false`
      : round === 1
        ? sql`sl.counted_1_at is null`
        : sql`sl.${col('counted', round)} is null and ${inRound} > 0`;
  const where = [sql`sl.stocktake_id = ${sheetId}`];
  if (opts.pending === true) where.push(pendingCond);
  if (opts.pending === false) where.push(sql`not (${pendingCond})`);
  if (opts.search) {
    const p = likePattern(opts.search);
    where.push(sql`(l2.code ilike ${p} or l2.name ilike ${p})`);
  }
  const cond = sql.join(where, sql` and `);
  const rows = await queryRows<TSheetLocationView>(
    ex,
    sql`select sl.location_id, l2.code as location_code, l2.name as location_name, l2.kind as location_kind,
          sl.counted_1_at, sl.counted_2_at, sl.counted_3_at, ${inRound} as lines_in_round
        from stocktake_locations sl join storage_locations l2 on l2.id = sl.location_id
        where ${cond}
        order by l2.pick_sequence, l2.code limit ${opts.limit} offset ${opts.offset}`,
  );
  const [total] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from stocktake_locations sl join storage_locations l2 on l2.id = sl.location_id
        where ${cond}`,
  );
  return { rows, count: Number(total?.n ?? 0) };
}

export interface TLineView {
  id: string;
  location_id: string;
  location_code: string;
  product_id: string;
  product_number: string;
  product_name: string;
  product_barcode: string | null;
  expiry_date: string | null;
  book_initial: number;
  last_round: number;
  count_1: number | null;
  book_1: number | null;
  count_2: number | null;
  book_2: number | null;
  count_3: number | null;
  book_3: number | null;
  difference: number | null;
  variance: number | null;
  on_hand_after: number | null;
}

export async function listLines(
  ex: Executor,
  sheetId: string,
  opts: {
    round?: number;
    locationId?: string;
    differing?: boolean;
    closed?: boolean;
    search?: string;
    limit: number;
    offset: number;
  },
): Promise<{ rows: TLineView[]; count: number }> {
  const where = [sql`l.stocktake_id = ${sheetId}`];
  if (opts.round) where.push(sql`l.last_round >= ${opts.round}`);
  if (opts.locationId) where.push(sql`l.location_id = ${opts.locationId}`);
  const differs = opts.closed ? sql`l.variance <> 0` : sql`${DIFFERENCE_SQL} <> 0`;
  if (opts.differing === true) where.push(differs);
  if (opts.differing === false) where.push(sql`not coalesce(${differs}, false)`);
  if (opts.search) {
    const p = likePattern(opts.search);
    where.push(sql`(loc.code ilike ${p} or p.number ilike ${p} or p.name ilike ${p} or p.barcode ilike ${p})`);
  }
  const cond = sql.join(where, sql` and `);
  const from = sql`from stocktake_lines l
    join storage_locations loc on loc.id = l.location_id
    join products p on p.id = l.product_id`;
  const rows = await queryRows<TLineView>(
    ex,
    sql`select l.id, l.location_id, loc.code as location_code, l.product_id, p.number as product_number,
          p.name as product_name, p.barcode as product_barcode, l.expiry_date::text as expiry_date, l.book_initial,
          l.last_round, l.count_1, l.book_1, l.count_2, l.book_2, l.count_3, l.book_3,
          ${DIFFERENCE_SQL} as difference, l.variance, l.on_hand_after
        ${from} where ${cond}
        order by loc.pick_sequence, loc.code, p.number, l.expiry_date nulls first
        limit ${opts.limit} offset ${opts.offset}`,
  );
  const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${from} where ${cond}`);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Find a location of the sheet by its code (what the scanner read); `lock` serialises counts of one location. */
export async function findSheetLocation(
  ex: Executor,
  sheetId: string,
  by: { code: string } | { id: string },
  lock = false,
): Promise<
  | { id: string; location_id: string; code: string; name: string; counted_at: [Date | null, Date | null, Date | null] }
  | undefined
> {
  const match = 'code' in by ? sql`l.code = ${by.code}` : sql`l.id = ${by.id}`;
  const [row] = await queryRows<{
    id: string;
    location_id: string;
    code: string;
    name: string;
    counted_1_at: Date | null;
    counted_2_at: Date | null;
    counted_3_at: Date | null;
  }>(
    ex,
    sql`select sl.id, sl.location_id, l.code, l.name, sl.counted_1_at, sl.counted_2_at, sl.counted_3_at
        from stocktake_locations sl join storage_locations l on l.id = sl.location_id
        where sl.stocktake_id = ${sheetId} and ${match}
        ${lock ? sql`for update of sl` : sql``}`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    location_id: row.location_id,
    code: row.code,
    name: row.name,
    counted_at: [row.counted_1_at, row.counted_2_at, row.counted_3_at],
  };
}

export async function findProductByCode(ex: Executor, customerId: string, code: string) {
  const rows = await queryRows<{
    id: string;
    number: string;
    name: string;
    barcode: string | null;
    type: string;
    shelf_life_months: number | null;
  }>(
    ex,
    sql`select id, number, name, barcode, type, shelf_life_months from products
        where customer_id = ${customerId} and (barcode = ${code} or number = ${code})
        order by (barcode = ${code}) desc nulls last, number limit 1`,
  );
  return rows[0];
}

export async function productsByIds(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return queryRows<{ id: string; number: string; type: string; shelf_life_months: number | null }>(
    ex,
    sql`select id, number, type, shelf_life_months from products
        where customer_id = ${customerId} and id in ${[...new Set(ids)]}`,
  );
}

export async function sheetHasProducts(ex: Executor, sheetId: string, productIds: string[]): Promise<Set<string>> {
  if (productIds.length === 0) return new Set();
  const rows = await queryRows<{ product_id: string }>(
    ex,
    sql`select product_id from stocktake_products where stocktake_id = ${sheetId} and product_id in ${productIds}`,
  );
  return new Set(rows.map((r) => r.product_id));
}

/** The products expected at a location in a round (no book quantities: counts are blind). */
export async function expectedAt(ex: Executor, sheetId: string, locationId: string, round: TRound) {
  return queryRows<{
    product_id: string;
    product_number: string;
    product_name: string;
    product_barcode: string | null;
    expiry_date: string | null;
    counted: number | null;
  }>(
    ex,
    sql`select l.product_id, p.number as product_number, p.name as product_name, p.barcode as product_barcode,
          l.expiry_date::text as expiry_date, l.${col('count', round)} as counted
        from stocktake_lines l join products p on p.id = l.product_id
        where l.stocktake_id = ${sheetId} and l.location_id = ${locationId} and l.last_round = ${round}
        order by p.number, l.expiry_date nulls first`,
  );
}

/**
 * Round 1: put on the sheet every pile of the location that the book held at `moment` (it may have been filled
 * after the sheet was made) and every scanned pile, so what is missing or extra is judged against the book.
 */
export async function addRoundOneLines(
  tx: Tx,
  customerId: string,
  sheetId: string,
  scope: TStocktakeScope,
  locationId: string,
  moment: string,
  scanned: Array<{ productId: string; expiryDate: string | null }>,
): Promise<void> {
  const productFilter =
    scope === 'product'
      ? sql`and b.product_id in (select sp.product_id from stocktake_products sp where sp.stocktake_id = ${sheetId})`
      : sql``;
  await tx.execute(
    sql`insert into stocktake_lines (customer_id, stocktake_id, location_id, product_id, expiry_date, book_initial)
        select ${customerId}, ${sheetId}, b.location_id, b.product_id, b.expiry_date, b.on_hand
        from stock_balances b
        where b.customer_id = ${customerId} and b.location_id = ${locationId} ${productFilter}
          and b.on_hand - coalesce((select sum(m.quantity) from stock_movements m
                                    where m.customer_id = ${customerId} and m.location_id = ${locationId}
                                      and m.balance_id = b.id and m.created_at > ${moment}::timestamptz), 0) <> 0
        on conflict on constraint stocktake_lines_key do nothing`,
  );
  if (scanned.length === 0) return;
  const values = sql.join(
    scanned.map((s) => sql`(${s.productId}::uuid, ${s.expiryDate}::date)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into stocktake_lines (customer_id, stocktake_id, location_id, product_id, expiry_date, book_initial)
        select ${customerId}, ${sheetId}, ${locationId}, v.product_id, v.expiry_date,
          coalesce((select b.on_hand from stock_balances b
                    where b.customer_id = ${customerId} and b.location_id = ${locationId}
                      and b.product_id = v.product_id and b.expiry_date is not distinct from v.expiry_date), 0)
        from (values ${values}) as v(product_id, expiry_date)
        on conflict on constraint stocktake_lines_key do nothing`,
  );
}

export interface TLineBook {
  id: string;
  product_id: string;
  expiry_date: string | null;
  /** The ledger's on_hand of the pile at the count moment (0 when the pile does not exist). */
  book: number;
}

/**
 * The lines of a location in a round with their book at `moment`: the pile's on_hand now minus every ledger row
 * written after that moment. One statement, so on_hand and the ledger rows are read from the same snapshot.
 */
export async function linesWithBookAt(
  tx: Tx,
  customerId: string,
  sheetId: string,
  locationId: string,
  round: TRound,
  moment: string,
): Promise<TLineBook[]> {
  const rows = await queryRows<TLineBook>(
    tx,
    sql`select l.id, l.product_id, l.expiry_date::text as expiry_date,
          (coalesce(b.on_hand, 0) - coalesce((select sum(m.quantity) from stock_movements m
                                              where m.customer_id = ${customerId} and m.location_id = ${locationId}
                                                and m.balance_id = b.id and m.created_at > ${moment}::timestamptz), 0))::int as book
        from stocktake_lines l
          left join stock_balances b on b.customer_id = l.customer_id and b.location_id = l.location_id
            and b.product_id = l.product_id and b.expiry_date is not distinct from l.expiry_date
        where l.stocktake_id = ${sheetId} and l.location_id = ${locationId} and l.last_round = ${round}`,
  );
  return rows.map((r) => ({ ...r, book: Number(r.book) }));
}

/** Write one round's count and book for lines; the location is marked counted in that round. */
export async function recordCounts(
  tx: Tx,
  sheetLocationId: string,
  round: TRound,
  userId: string | null,
  lines: Array<{ id: string; count: number; book: number }>,
): Promise<Date> {
  for (let i = 0; i < lines.length; i += CHUNK) {
    const values = sql.join(
      lines.slice(i, i + CHUNK).map((l) => sql`(${l.id}::uuid, ${l.count}::int, ${l.book}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`update stocktake_lines as l set ${col('count', round)} = v.count, ${col('book', round)} = v.book,
            ${col('counted', round)} = now(), ${sql.raw(`counted_${round}_by`)} = ${userId}, updated_at = now()
          from (values ${values}) as v(id, count, book) where l.id = v.id`,
    );
  }
  const [row] = await queryRows<{ at: Date }>(
    tx,
    sql`update stocktake_locations set ${col('counted', round)} = now(), updated_at = now()
        where id = ${sheetLocationId} returning ${col('counted', round)} as at`,
  );
  return new Date(row!.at);
}

/** Locations still to count in a round (round 1: every location; later: locations with lines in the round). */
export async function pendingLocations(ex: Executor, sheetId: string, round: TRound): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ex,
    round === 1
      ? sql`select count(*)::int as n from stocktake_locations where stocktake_id = ${sheetId} and counted_1_at is null`
      : sql`select count(distinct l.location_id)::int as n from stocktake_lines l
            where l.stocktake_id = ${sheetId} and l.last_round = ${round} and l.${col('count', round)} is null`,
  );
  return Number(row?.n ?? 0);
}

export interface TLineCountsRow {
  id: string;
  product_id: string;
  location_id: string;
  expiry_date: string | null;
  last_round: number;
  count_1: number | null;
  book_1: number | null;
  count_2: number | null;
  book_2: number | null;
  count_3: number | null;
  book_3: number | null;
}

/** Every line's counts (optionally only the lines of one round), for the workflow to judge. */
export async function lineCounts(ex: Executor, sheetId: string, round?: TRound): Promise<TLineCountsRow[]> {
  return queryRows<TLineCountsRow>(
    ex,
    sql`select id, product_id, location_id, expiry_date::text as expiry_date, last_round,
          count_1, book_1, count_2, book_2, count_3, book_3
        from stocktake_lines where stocktake_id = ${sheetId} ${round ? sql`and last_round = ${round}` : sql``}
        order by product_id, location_id, expiry_date nulls first`,
  );
}

export async function advanceLines(tx: Tx, ids: string[], round: TRound): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx.execute(
      sql`update stocktake_lines set last_round = ${round}, updated_at = now() where id in ${ids.slice(i, i + CHUNK)}`,
    );
  }
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

/** Record what closing posted: the variance of every line (0 when none) and the pile's on_hand after it. */
export async function recordVariances(
  tx: Tx,
  sheetId: string,
  posted: Array<{ id: string; variance: number; onHandAfter: number }>,
): Promise<void> {
  for (let i = 0; i < posted.length; i += CHUNK) {
    const values = sql.join(
      posted.slice(i, i + CHUNK).map((p) => sql`(${p.id}::uuid, ${p.variance}::int, ${p.onHandAfter}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`update stocktake_lines as l set variance = v.variance, on_hand_after = v.after, updated_at = now()
          from (values ${values}) as v(id, variance, after) where l.id = v.id`,
    );
  }
  await tx.execute(
    sql`update stocktake_lines set variance = 0, updated_at = now() where stocktake_id = ${sheetId} and variance is null`,
  );
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
