/**
 * The stock screens' reads (/product-stock, /product-location, /location-stock, expiry candidates), transfers and the
 * reads the engine's callers need. The stock log is in stock.log.repository.ts; the engine's own SQL in stock.engine.ts.
 */
import type {
  TExpiryCandidatesQuery,
  TLocationStockQuery,
  TProductLocationQuery,
  TProductStockQuery,
} from '@wms/contracts';
import { PRODUCT_STOCK_SEARCH_COUNT_CAP } from '@wms/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { stock_reservations, stock_transfers, storage_locations } from '../../db/schema';
import { countedPage, isoSql, likePattern, orderColumn, pageSql } from '../../platform/listing';
import { allocatableSql } from './stock.engine';
import { addDays } from './stock.rules';

/** Read queries of the stock screens. Writes go through stock.engine.ts only. */

// ---- /product-stock --------------------------------------------------------------------------------------------

export interface TProductStockRaw {
  product_id: string;
  product_number: string;
  product_name: string;
  barcode: string | null;
  type: 'single' | 'combination';
  warehouse_id: string;
  warehouse_code: string;
  warehouse_name: string;
  safety_stock: number;
  on_hand: number;
  reserved: number | null;
  available: number;
  unsellable: number | null;
}

/** Which product × warehouse pairs (aliases p, w) the screen's non-stock filters keep. */
function productWarehouseWhere(customerId: string, q: TProductStockQuery): SQL[] {
  const pw: SQL[] = [sql`p.customer_id = ${customerId}`, sql`w.customer_id = ${customerId}`];
  if (q.product_id) pw.push(sql`p.id = ${q.product_id}`);
  if (q.warehouse_id) pw.push(sql`w.id = ${q.warehouse_id}`);
  if (q.type) pw.push(sql`p.type = ${q.type}`);
  if (q.search) {
    const like = likePattern(q.search);
    pw.push(sql`(p.number ilike ${like} or p.name ilike ${like} or p.barcode = ${q.search})`);
  }
  return pw;
}

/**
 * One row per product and warehouse of the seller (products without stock show zeros). Singles aggregate their
 * piles; a combination product's on hand and available are derived per warehouse from its components:
 * min over components of floor(component / per kit) — the SQL twin of `kitQuantity` in stock.rules.ts.
 */
function productStockSql(
  customerId: string,
  q: TProductStockQuery,
  today: string,
  window?: { page: number; page_size: number },
): SQL {
  const pw = productWarehouseWhere(customerId, q);
  const outer: SQL[] = [sql`true`];
  if (q.in_stock === true) outer.push(sql`x.on_hand > 0`);
  if (q.in_stock === false) outer.push(sql`x.on_hand = 0`);
  if (q.below_safety === true) outer.push(sql`x.available < x.safety_stock`);
  const warehouseOfAgg = q.warehouse_id ? sql`and b.warehouse_id = ${q.warehouse_id}` : sql``;
  // With a window (no filter on stock figures), only the page's products and their components are aggregated.
  const windowed = window
    ? sql`pg as (
      select p.id as product_id, w.id as warehouse_id from products p cross join warehouses w
      where ${sql.join(pw, sql` and `)} order by p.number, w.code ${pageSql(window)}),
    ids as (
      select product_id from pg
      union select pc.component_id from product_components pc join pg on pg.product_id = pc.product_id),`
    : sql``;
  const aggScope = window ? sql`and b.product_id in (select product_id from ids)` : sql``;
  const kitScope = window ? sql`and pc.product_id in (select product_id from pg)` : sql``;
  const xWhere = window ? [...pw, sql`(p.id, w.id) in (select product_id, warehouse_id from pg)`] : pw;
  return sql`
    with ${windowed} agg as (
      select b.product_id, b.warehouse_id, sum(b.on_hand)::int as on_hand, sum(b.reserved)::int as reserved,
        sum(case when ${allocatableSql(today)} then b.on_hand - b.reserved else 0 end)::int as available
      from stock_balances b
        join storage_locations l on l.id = b.location_id
        join products p on p.id = b.product_id
      where b.customer_id = ${customerId} ${warehouseOfAgg} ${aggScope}
      group by b.product_id, b.warehouse_id),
    kit as (
      select pc.product_id, w.id as warehouse_id,
        min(coalesce(a.on_hand, 0) / pc.quantity)::int as on_hand,
        min(coalesce(a.available, 0) / pc.quantity)::int as available
      from product_components pc
        join warehouses w on w.customer_id = pc.customer_id
        left join agg a on a.product_id = pc.component_id and a.warehouse_id = w.id
      where pc.customer_id = ${customerId} ${kitScope}
      group by pc.product_id, w.id),
    x as (
      select p.id as product_id, p.number as product_number, p.name as product_name, p.barcode, p.type,
        w.id as warehouse_id, w.code as warehouse_code, w.name as warehouse_name, p.safety_stock,
        case when p.type = 'combination' then coalesce(k.on_hand, 0) else coalesce(a.on_hand, 0) end as on_hand,
        case when p.type = 'combination' then null else coalesce(a.reserved, 0) end as reserved,
        case when p.type = 'combination' then coalesce(k.available, 0) else coalesce(a.available, 0) end as available,
        case when p.type = 'combination' then null
             else coalesce(a.on_hand, 0) - coalesce(a.reserved, 0) - coalesce(a.available, 0) end as unsellable
      from products p
        cross join warehouses w
        left join agg a on a.product_id = p.id and a.warehouse_id = w.id
        left join kit k on k.product_id = p.id and k.warehouse_id = w.id
      where ${sql.join(xWhere, sql` and `)})
    select * from x where ${sql.join(outer, sql` and `)}`;
}

export async function productStock(ex: Executor, customerId: string, q: TProductStockQuery, today: string) {
  const order = sql`order by s.product_number, s.warehouse_code`;
  if (q.in_stock !== undefined || q.below_safety === true) {
    // Filters on the figures: every pair's figures are needed to count and page.
    const base = productStockSql(customerId, q, today);
    const [n] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from (${base}) s`);
    const rows = await queryRows<TProductStockRaw>(ex, sql`select * from (${base}) s ${order} ${pageSql(q)}`);
    return { count: Number(n?.n ?? 0), capped: false, rows };
  }
  // One row per product × warehouse: count the pairs (a search's only up to the cap), aggregate the page's only.
  const pairs = sql`select 1 from products p cross join warehouses w
    where ${sql.join(productWarehouseWhere(customerId, q), sql` and `)}`;
  const cap = q.search ? PRODUCT_STOCK_SEARCH_COUNT_CAP : null;
  const counted =
    cap === null
      ? sql`select count(*)::int as n from (${pairs}) c`
      : sql`select count(*)::int as n from (${pairs} limit ${cap + 1}) c`;
  const { count, rows } = await countedPage<TProductStockRaw>(
    ex,
    counted,
    sql`select s.*, row_number() over (${order}) as page_key from (${productStockSql(customerId, q, today, q)}) s`,
  );
  return cap !== null && count > cap ? { count: cap, capped: true, rows } : { count, capped: false, rows };
}

// ---- piles: /product-location, /location-stock, expiry candidates ---------------------------------------------

export interface TBalanceRaw {
  balance_id: string;
  product_id: string;
  product_number: string;
  product_name: string;
  barcode: string | null;
  sellable_rule_months: number | null;
  warehouse_id: string;
  warehouse_code: string;
  location_id: string;
  location_code: string;
  location_kind: 'sellable' | 'defective' | 'expired' | 'staging';
  location_active: boolean;
  shelf_code: string | null;
  expiry_date: string | null;
  on_hand: number;
  reserved: number;
  free: number;
  received_at: string;
}

const BALANCE_SELECT = sql`
  select b.id as balance_id, b.product_id, p.number as product_number, p.name as product_name, p.barcode,
    p.sellable_rule_months, b.warehouse_id, w.code as warehouse_code, b.location_id, l.code as location_code,
    l.kind as location_kind, l.is_active as location_active, s.code as shelf_code, b.expiry_date::text as expiry_date,
    b.on_hand, b.reserved, (b.on_hand - b.reserved) as free, ${isoSql('b.received_at')} as received_at
  from stock_balances b
    join products p on p.id = b.product_id
    join storage_locations l on l.id = b.location_id
    join warehouses w on w.id = b.warehouse_id
    left join shelves s on s.id = l.shelf_id`;

const BALANCE_ORDER: Record<string, string> = {
  product_number: 'p.number',
  location_code: 'l.code',
  expiry_date: 'b.expiry_date',
  on_hand: 'b.on_hand',
  received_at: 'b.received_at',
};

function balanceOrder(ordering: string | undefined, fallback: string): SQL {
  if (!ordering) return sql.raw(fallback);
  const desc = ordering.startsWith('-');
  const col = orderColumn(BALANCE_ORDER, ordering.replace(/^-/, ''));
  return sql.raw(col ? `${col} ${desc ? 'desc' : 'asc'} nulls last, ${fallback}` : fallback);
}

async function balancesPage(
  ex: Executor,
  where: SQL[],
  q: { page: number; page_size: number; ordering?: string },
  fallbackOrder: string,
) {
  const cond = sql.join(where, sql` and `);
  const [n] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from stock_balances b
          join products p on p.id = b.product_id join storage_locations l on l.id = b.location_id
          left join shelves s on s.id = l.shelf_id
        where ${cond}`,
  );
  const rows = await queryRows<TBalanceRaw>(
    ex,
    sql`${BALANCE_SELECT} where ${cond} order by ${balanceOrder(q.ordering, fallbackOrder)} ${pageSql(q)}`,
  );
  return { count: Number(n?.n ?? 0), rows };
}

function searchCond(search: string | undefined): SQL[] {
  if (!search) return [];
  const like = likePattern(search);
  return [sql`(p.number ilike ${like} or p.name ilike ${like} or p.barcode = ${search} or l.code ilike ${like})`];
}

export async function productLocations(ex: Executor, customerId: string, q: TProductLocationQuery) {
  const where: SQL[] = [sql`b.customer_id = ${customerId}`, sql`b.on_hand > 0`, ...searchCond(q.search)];
  if (q.product_id) where.push(sql`b.product_id = ${q.product_id}`);
  if (q.warehouse_id) where.push(sql`b.warehouse_id = ${q.warehouse_id}`);
  if (q.location_id) where.push(sql`b.location_id = ${q.location_id}`);
  if (q.location_kind) where.push(sql`l.kind = ${q.location_kind}`);
  if (q.expiry_from) where.push(sql`b.expiry_date >= ${q.expiry_from}::date`);
  if (q.expiry_to) where.push(sql`b.expiry_date <= ${q.expiry_to}::date`);
  return balancesPage(ex, where, q, 'p.number, l.code, b.expiry_date nulls first, b.id');
}

export async function locationStock(ex: Executor, customerId: string, q: TLocationStockQuery) {
  const where: SQL[] = [sql`b.customer_id = ${customerId}`, sql`b.on_hand > 0`, ...searchCond(q.search)];
  if (q.warehouse_id) where.push(sql`b.warehouse_id = ${q.warehouse_id}`);
  if (q.location_id) where.push(sql`b.location_id = ${q.location_id}`);
  if (q.shelf_id) where.push(sql`l.shelf_id = ${q.shelf_id}`);
  if (q.location_code) where.push(sql`l.code = ${q.location_code}`);
  return balancesPage(ex, where, q, 'l.code, p.number, b.expiry_date nulls first, b.id');
}

/** Piles with an expiry that are expired, past their sellable-until date, or expiring within `days`; not yet in an expired location. */
export async function expiryCandidates(ex: Executor, customerId: string, q: TExpiryCandidatesQuery, today: string) {
  const where: SQL[] = [
    sql`b.customer_id = ${customerId}`,
    sql`b.on_hand > 0`,
    sql`b.expiry_date is not null`,
    sql`l.kind <> 'expired'`,
    ...searchCond(q.search),
  ];
  if (q.warehouse_id) where.push(sql`b.warehouse_id = ${q.warehouse_id}`);
  if (q.product_id) where.push(sql`b.product_id = ${q.product_id}`);
  if (q.mode === 'expired') where.push(sql`b.expiry_date <= ${today}::date`);
  if (q.mode === 'unsellable')
    where.push(
      sql`(b.expiry_date - make_interval(months => coalesce(p.sellable_rule_months, 0)))::date <= ${today}::date`,
    );
  if (q.mode === 'expiring') where.push(sql`b.expiry_date <= ${addDays(today, q.days)}::date`);
  return balancesPage(ex, where, q, 'b.expiry_date, p.number, l.code, b.id');
}

export async function balancesByIds(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return queryRows<TBalanceRaw>(ex, sql`${BALANCE_SELECT} where b.customer_id = ${customerId} and b.id in ${ids}`);
}

// ---- transfers -----------------------------------------------------------------------------------------------

export async function insertTransfer(ex: Executor, values: typeof stock_transfers.$inferInsert) {
  const [row] = await ex.insert(stock_transfers).values(values).returning();
  return row!;
}

export async function findLocations(ex: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select()
    .from(storage_locations)
    .where(and(eq(storage_locations.customer_id, customerId), inArray(storage_locations.id, [...new Set(ids)])));
}

/**
 * Retention: the emptied reservations (quantity 0, left by shipping) of documents being purged; a reservation still
 * holding stock is never touched (the purge excludes its document).
 */
export async function deleteEmptyReservations(tx: Tx, customerId: string, documentIds: string[]): Promise<void> {
  await tx
    .delete(stock_reservations)
    .where(
      and(
        eq(stock_reservations.customer_id, customerId),
        inArray(stock_reservations.document_id, documentIds),
        eq(stock_reservations.quantity, 0),
      ),
    );
}

/** What one seller held on one location of a warehouse at a moment, per product: see `storedAt`. */
export interface TStoredRow {
  customer_id: string;
  location_id: string;
  product_id: string;
  /** Units held at the moment. */
  held: number;
  /** Of those, units received (inbound) since the seller's free-storage start: at most `held`. */
  fresh: number;
  /** One unit's volume in cm³ (length × width × height; 0 without dimensions). */
  unit_cm3: string;
}

/**
 * What every seller held in a warehouse at `end` (the stock ledger read back from today's balances: on hand minus
 * the movements from `end` on), per location and product, with how many of those units were received since
 * `freeSince[customer]` (or `defaultFreeSince`). Rows holding nothing are left out.
 */
export async function storedAt(
  ex: Executor,
  warehouseId: string,
  end: Date,
  freeSince: Record<string, string>,
  defaultFreeSince: Date,
): Promise<TStoredRow[]> {
  const endIso = end.toISOString();
  return queryRows<TStoredRow>(
    ex,
    sql`with fs as (select key::uuid as customer_id, value::timestamptz as since from jsonb_each_text(${JSON.stringify(freeSince)}::jsonb)),
      later as (
        select m.balance_id, sum(m.quantity)::int as q from stock_movements m
        where m.warehouse_id = ${warehouseId} and m.created_at >= ${endIso}::timestamptz group by m.balance_id),
      fresh as (
        select m.balance_id, sum(m.quantity)::int as q from stock_movements m left join fs on fs.customer_id = m.customer_id
        where m.warehouse_id = ${warehouseId} and m.reason = 'inbound' and m.quantity > 0
          and m.created_at < ${endIso}::timestamptz
          and m.created_at >= coalesce(fs.since, ${defaultFreeSince.toISOString()}::timestamptz)
        group by m.balance_id),
      held as (
        select b.customer_id, b.location_id, b.product_id, b.on_hand - coalesce(l.q, 0) as held, coalesce(f.q, 0) as fresh
        from stock_balances b left join later l on l.balance_id = b.id left join fresh f on f.balance_id = b.id
        where b.warehouse_id = ${warehouseId})
      select h.customer_id, h.location_id, h.product_id, sum(h.held)::int as held,
             least(sum(h.fresh), sum(h.held))::int as fresh,
             (coalesce(p.length_cm, 0) * coalesce(p.width_cm, 0) * coalesce(p.height_cm, 0))::text as unit_cm3
      from held h join products p on p.id = h.product_id
      where h.held > 0
      group by h.customer_id, h.location_id, h.product_id, p.length_cm, p.width_cm, p.height_cm
      order by h.customer_id, h.location_id, h.product_id`,
  );
}

/** The warehouses that hold or held any stock (the storage snapshot's warehouses). */
export async function stockWarehouses(ex: Executor): Promise<string[]> {
  const rows = await queryRows<{ warehouse_id: string }>(ex, sql`select distinct warehouse_id from stock_balances`);
  return rows.map((r) => r.warehouse_id);
}
