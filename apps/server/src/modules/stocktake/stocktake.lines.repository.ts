/**
 * A stocktake sheet's locations and lines: what is expected at a location, scanned products, counts per round,
 * the rounds' advance and the variances posted at close.
 */
import type { TStocktakeScope } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { likePattern } from '../../platform/listing';
import { DIFFERENCE_SQL } from './stocktake.repository';
import { CHUNK } from './stocktake.scope.repository';
import type { TRound } from './stocktake.workflow';

const col = (name: 'count' | 'book' | 'counted', round: TRound) =>
  sql.raw(name === 'counted' ? `counted_${round}_at` : `${name}_${round}`);

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
