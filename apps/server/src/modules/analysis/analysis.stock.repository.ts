/**
 * The stock analysis queries: purchase advice, product turnover, stock age and location occupancy. Every figure is
 * aggregated by the database (the ledger is never read into Node). Shipments and the dashboard are in
 * analysis.repository.ts, with the SQL helpers both share.
 */
import type { TOccupancyQuery, TPurchaseAdviceQuery, TStockAgeQuery, TTurnoverQuery } from '@wms/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { taipeiMidnight } from '../../platform/calendar';
import { INFLOW_REASONS, limitSql, OUT_REASONS, searchSql, taipeiDate } from './analysis.repository';

// ---- /purchase-advice ---------------------------------------------------------------------------------------------

export interface TAdviceRaw {
  total: number;
  product_id: string;
  product_number: string;
  product_name: string;
  warehouse_id: string | null;
  warehouse_code: string | null;
  safety_stock: number;
  stocking_days: number;
  shelf_life: boolean;
  units_out: number;
  on_hand: number;
  available: number;
  incoming: number;
  below_safety: boolean;
  advised: number;
}

export async function purchaseAdvice(
  ex: Executor,
  customerId: string,
  q: TPurchaseAdviceQuery,
  sinceIso: string,
  all?: number,
): Promise<TAdviceRaw[]> {
  const wh = (col: string) => (q.warehouse_id ? sql`and ${sql.raw(col)} = ${q.warehouse_id}` : sql``);
  const filters: SQL[] = [searchSql(q.search)];
  if (q.below_safety) filters.push(sql`x.below_safety`);
  if (q.to_buy) filters.push(sql`x.advised > 0`);
  return queryRows<TAdviceRaw>(
    ex,
    sql`with out_units as (
          select m.product_id, m.warehouse_id, -sum(m.quantity)::int as units
          from stock_movements m
          where m.customer_id = ${customerId} and m.reason in (${OUT_REASONS})
            and m.created_at >= ${sinceIso}::timestamptz ${wh('m.warehouse_id')}
          group by 1, 2
        ), stock as (
          select b.product_id, b.warehouse_id, sum(b.on_hand)::int as on_hand,
                 sum(case when l.kind = 'sellable' and l.is_active then b.on_hand - b.reserved else 0 end)::int
                   as available
          from stock_balances b join storage_locations l on l.id = b.location_id
          where b.customer_id = ${customerId} and b.on_hand > 0 ${wh('b.warehouse_id')}
          group by 1, 2
        ), incoming as (
          select rl.product_id, r.warehouse_id, sum(rl.quantity)::int as units
          from inbound_receipts r join inbound_receipt_lines rl on rl.receipt_id = r.id
          where r.customer_id = ${customerId} and r.status = 'pending' ${wh('r.warehouse_id')}
          group by 1, 2
        ), keys as (
          select product_id, warehouse_id from out_units
          union select product_id, warehouse_id from stock
          union select product_id, warehouse_id from incoming
        ), a as (
          select p.id as product_id, p.number as product_number, p.name as product_name, p.barcode,
                 k.warehouse_id, w.code as warehouse_code, p.safety_stock, p.stocking_days,
                 p.shelf_life_months is not null as shelf_life,
                 coalesce(o.units, 0) as units_out, coalesce(s.on_hand, 0) as on_hand,
                 coalesce(s.available, 0) as available, coalesce(i.units, 0) as incoming,
                 (p.safety_stock > 0 and coalesce(s.available, 0) < p.safety_stock) as below_safety,
                 greatest(0, ceil(greatest(coalesce(o.units, 0), 0)::numeric * p.stocking_days / ${q.window})::int
                   + p.safety_stock - coalesce(s.available, 0) - coalesce(i.units, 0)) as advised
          from products p
          left join keys k on k.product_id = p.id
          left join warehouses w on w.id = k.warehouse_id
          left join out_units o on o.product_id = p.id and o.warehouse_id = k.warehouse_id
          left join stock s on s.product_id = p.id and s.warehouse_id = k.warehouse_id
          left join incoming i on i.product_id = p.id and i.warehouse_id = k.warehouse_id
          where p.customer_id = ${customerId} and p.type = 'single' and p.status = 'active'
        )
        select count(*) over ()::int as total, x.* from a x
        where ${sql.join(filters, sql` and `)}
        order by x.below_safety desc, x.advised desc, x.product_number, x.warehouse_code nulls last
        ${limitSql(q.page, q.page_size, all)}`,
  );
}

// ---- /product-turnover --------------------------------------------------------------------------------------------

export interface TTurnoverRaw {
  total: number;
  product_id: string;
  product_number: string;
  product_name: string;
  units_out: number;
  /** Sum over the period's days of the end-of-day on-hand (÷ days = the average). */
  stock_days: number;
  on_hand: number;
  cost: string | null;
  last_out_at: string | null;
  slow: boolean;
  dead: boolean;
}

/**
 * Per product over [date_from, date_to] (Taipei days, N of them): units out and the average end-of-day on-hand from
 * the ledger. With H the on-hand now, the end of day d held H − Σ q(m) over the movements after d, so
 * Σ_d onhand(d) = N·H − Σ_m q(m)·clamp(day(m) − date_from, 0, N): one pass over the movements since date_from.
 */
export async function productTurnover(
  ex: Executor,
  customerId: string,
  q: TTurnoverQuery & { date_from: string; date_to: string },
  nowIso: string,
  all?: number,
): Promise<TTurnoverRaw[]> {
  const days = Math.round((Date.parse(q.date_to) - Date.parse(q.date_from)) / 86400_000) + 1;
  const fromIso = taipeiMidnight(q.date_from).toISOString();
  const endIso = taipeiMidnight(q.date_to, 1).toISOString();
  const deadSince = new Date(Date.parse(nowIso) - q.dead_days * 86400_000).toISOString();
  const wh = (col: string) => (q.warehouse_id ? sql`and ${sql.raw(col)} = ${q.warehouse_id}` : sql``);
  const filters: SQL[] = [searchSql(q.search)];
  if (q.only === 'slow') filters.push(sql`x.slow`);
  if (q.only === 'dead') filters.push(sql`x.dead`);
  return queryRows<TTurnoverRaw>(
    ex,
    sql`with moves as (
          select m.product_id,
                 -sum(case when m.reason in (${OUT_REASONS}) and m.created_at < ${endIso}::timestamptz
                      then m.quantity else 0 end)::int as units_out,
                 sum(m.quantity::bigint * least(greatest(${taipeiDate('m.created_at')} - ${q.date_from}::date, 0), ${days}))::bigint
                   as weighted
          from stock_movements m
          where m.customer_id = ${customerId} and m.created_at >= ${fromIso}::timestamptz ${wh('m.warehouse_id')}
          group by 1
        ), stock as (
          select b.product_id, sum(b.on_hand)::int as on_hand
          from stock_balances b
          where b.customer_id = ${customerId} and b.on_hand > 0 ${wh('b.warehouse_id')}
          group by 1
        ), a as (
          select p.id as product_id, p.number as product_number, p.name as product_name, p.barcode,
                 coalesce(mv.units_out, 0) as units_out, coalesce(s.on_hand, 0) as on_hand,
                 (${days}::bigint * coalesce(s.on_hand, 0) - coalesce(mv.weighted, 0))::bigint as stock_days,
                 p.cost::text as cost, lo.created_at as last_out_at
          from products p
          left join moves mv on mv.product_id = p.id
          left join stock s on s.product_id = p.id
          left join lateral (
            select lm.created_at from stock_movements lm
            where lm.customer_id = ${customerId} and lm.product_id = p.id and lm.reason = 'outbound' ${wh('lm.warehouse_id')}
            order by lm.created_at desc limit 1
          ) lo on true
          where p.customer_id = ${customerId} and p.type = 'single' and (mv.product_id is not null or s.product_id is not null)
        ), b as (
          select a.*,
                 (a.units_out > 0 and a.stock_days::numeric / a.units_out > ${q.dead_days}) as slow,
                 (a.on_hand > 0 and (a.last_out_at is null or a.last_out_at < ${deadSince}::timestamptz)) as dead
          from a
        )
        select count(*) over ()::int as total, x.product_id, x.product_number, x.product_name, x.units_out,
               x.stock_days, x.on_hand, x.cost, ${isoOf('x.last_out_at')} as last_out_at, x.slow, x.dead
        from b x
        where ${sql.join(filters, sql` and `)}
        order by x.dead desc, x.slow desc, x.units_out desc, x.product_number
        ${limitSql(q.page, q.page_size, all)}`,
  );
}

const isoOf = (col: string): SQL => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

// ---- /stock-age ---------------------------------------------------------------------------------------------------

export interface TStockAgeRaw {
  total: number;
  product_id: string;
  product_number: string;
  product_name: string;
  warehouse_id: string;
  warehouse_code: string;
  location_id: string | null;
  location_code: string | null;
  on_hand: number;
  d0_30: number;
  d31_60: number;
  d61_90: number;
  d91_180: number;
  d181_365: number;
  d365_plus: number;
  oldest_days: number;
  shelf_life_months: number | null;
  sellable_rule_months: number | null;
  nearest_expiry: string | null;
}

const bucketColumns = (age: string, qty: string): SQL =>
  sql.raw(`coalesce(sum(${qty}) filter (where ${age} <= 30), 0)::int as d0_30,
       coalesce(sum(${qty}) filter (where ${age} between 31 and 60), 0)::int as d31_60,
       coalesce(sum(${qty}) filter (where ${age} between 61 and 90), 0)::int as d61_90,
       coalesce(sum(${qty}) filter (where ${age} between 91 and 180), 0)::int as d91_180,
       coalesce(sum(${qty}) filter (where ${age} between 181 and 365), 0)::int as d181_365,
       coalesce(sum(${qty}) filter (where ${age} > 365), 0)::int as d365_plus,
       coalesce(max(${age}), 0)::int as oldest_days`);

/**
 * Stock on hand by age. `product`: per product and warehouse, the on-hand is the newest inflows of the ledger (FIFO:
 * what left was the oldest), walked newest first until they cover the on-hand; on-hand the inflows do not explain
 * (stock moved in from another warehouse) takes the age of the oldest pile. `location`: each pile by its FIFO date.
 */
export async function stockAge(
  ex: Executor,
  customerId: string,
  q: TStockAgeQuery,
  today: string,
  all?: number,
): Promise<TStockAgeRaw[]> {
  const wh = (col: string) => (q.warehouse_id ? sql`and ${sql.raw(col)} = ${q.warehouse_id}` : sql``);
  const filters: SQL[] = [searchSql(q.search, q.by === 'location' ? 'x' : 'p')];
  const tail = sql`where ${sql.join(filters, sql` and `)}
        order by x.oldest_days desc, x.product_number, x.warehouse_code, x.location_code nulls first
        ${limitSql(q.page, q.page_size, all)}`;
  if (q.by === 'location') {
    return queryRows<TStockAgeRaw>(
      ex,
      sql`with piles as (
            select b.product_id, b.warehouse_id, b.location_id, b.on_hand, b.expiry_date,
                   ${today}::date - ${taipeiDate('b.received_at')} as age
            from stock_balances b
            where b.customer_id = ${customerId} and b.on_hand > 0 ${wh('b.warehouse_id')}
          ), g as (
            select pl.product_id, pl.warehouse_id, pl.location_id, sum(pl.on_hand)::int as on_hand,
                   ${bucketColumns('pl.age', 'pl.on_hand')}, min(pl.expiry_date)::text as nearest_expiry
            from piles pl group by 1, 2, 3
          )
          select count(*) over ()::int as total, x.* from (
            select g.*, p.number as product_number, p.name as product_name, p.barcode, w.code as warehouse_code,
                   l.code as location_code, p.shelf_life_months, p.sellable_rule_months
            from g join products p on p.id = g.product_id join warehouses w on w.id = g.warehouse_id
            join storage_locations l on l.id = g.location_id
          ) x ${tail}`,
    );
  }
  // The page is chosen first (oldest pile first: a cheap aggregate of the balances), then only its rows walk the
  // ledger: each product × warehouse reads its own inflows through stock_movements_inflow_idx, newest first.
  return queryRows<TStockAgeRaw>(
    ex,
    sql`with stock as (
          select b.product_id, b.warehouse_id, sum(b.on_hand)::int as h, min(b.received_at) as oldest_pile,
                 min(b.expiry_date)::text as nearest_expiry
          from stock_balances b
          where b.customer_id = ${customerId} and b.on_hand > 0 ${wh('b.warehouse_id')}
          group by 1, 2
        ), page as (
          select s.*, p.number as product_number, p.name as product_name, p.barcode, w.code as warehouse_code,
                 p.shelf_life_months, p.sellable_rule_months, count(*) over ()::int as total
          from stock s join products p on p.id = s.product_id join warehouses w on w.id = s.warehouse_id
          where ${filters[0]!}
          order by s.oldest_pile, p.number, w.code
          ${limitSql(q.page, q.page_size, all)}
        ), layers as (
          select pg.product_id, pg.warehouse_id, l.created_at, least(l.quantity, pg.h - (l.cum - l.quantity))::int as qty
          from page pg cross join lateral (
            select m.created_at, m.quantity,
                   sum(m.quantity) over (order by m.created_at desc, m.id desc) as cum
            from stock_movements m
            where m.customer_id = ${customerId} and m.product_id = pg.product_id and m.warehouse_id = pg.warehouse_id
              and m.quantity > 0 and m.reason in (${INFLOW_REASONS})
          ) l
          where l.cum - l.quantity < pg.h
        ), rest as (
          select pg.product_id, pg.warehouse_id, pg.oldest_pile as created_at,
                 (pg.h - coalesce(sum(l.qty), 0))::int as qty
          from page pg left join layers l on l.product_id = pg.product_id and l.warehouse_id = pg.warehouse_id
          group by pg.product_id, pg.warehouse_id, pg.oldest_pile, pg.h
          having pg.h - coalesce(sum(l.qty), 0) > 0
        ), aged as (
          select u.product_id, u.warehouse_id, u.qty, ${today}::date - ${taipeiDate('u.created_at')} as age
          from (select * from layers union all select * from rest) u
        ), g as (
          select ag.product_id, ag.warehouse_id, ${bucketColumns('ag.age', 'ag.qty')}
          from aged ag group by 1, 2
        )
        select pg.total, pg.product_id, pg.product_number, pg.product_name, pg.warehouse_id, pg.warehouse_code,
               null::uuid as location_id, null::text as location_code, pg.h as on_hand,
               g.d0_30, g.d31_60, g.d61_90, g.d91_180, g.d181_365, g.d365_plus, g.oldest_days,
               pg.shelf_life_months, pg.sellable_rule_months, pg.nearest_expiry
        from page pg join g on g.product_id = pg.product_id and g.warehouse_id = pg.warehouse_id
        order by pg.oldest_pile, pg.product_number, pg.warehouse_code`,
  );
}

// ---- /location-stock analysis view -------------------------------------------------------------------------------

export interface TOccupancyRaw {
  warehouse_code: string;
  area_code: string | null;
  shelf_code: string | null;
  locations: number;
  cells: number;
  empty: number;
  in_use: number;
  full: number;
  piles: number;
  units: number;
  expired_locations: number;
  unsellable_locations: number;
}

/** Per warehouse, area or shelf: locations empty, in use and full (piles ≥ cells), and those holding bad lots. */
export async function locationOccupancy(ex: Executor, customerId: string, q: TOccupancyQuery, today: string) {
  const area = q.group === 'area' ? sql`a.code` : sql`null::text`;
  const shelf = q.group === 'shelf' ? sql`s.code` : sql`null::text`;
  return queryRows<TOccupancyRaw>(
    ex,
    sql`with per_location as (
          select l.id, l.warehouse_id, l.area_id, l.shelf_id, l.cells,
                 count(b.id)::int as piles, coalesce(sum(b.on_hand), 0)::int as units,
                 bool_or(b.expiry_date <= ${today}::date) as has_expired,
                 bool_or(b.expiry_date > ${today}::date and p.sellable_rule_months is not null
                         and (b.expiry_date - make_interval(months => p.sellable_rule_months))::date <= ${today}::date)
                   as has_unsellable
          from storage_locations l
          left join stock_balances b on b.location_id = l.id and b.on_hand > 0
          left join products p on p.id = b.product_id
          where l.customer_id = ${customerId} and l.is_active ${q.warehouse_id ? sql`and l.warehouse_id = ${q.warehouse_id}` : sql``}
          group by l.id
        )
        select w.code as warehouse_code, ${area} as area_code, ${shelf} as shelf_code,
               count(*)::int as locations, sum(pl.cells)::int as cells,
               (count(*) filter (where pl.piles = 0))::int as empty,
               (count(*) filter (where pl.piles > 0 and pl.piles < pl.cells))::int as in_use,
               (count(*) filter (where pl.piles > 0 and pl.piles >= pl.cells))::int as full,
               sum(pl.piles)::int as piles, sum(pl.units)::int as units,
               (count(*) filter (where pl.has_expired))::int as expired_locations,
               (count(*) filter (where pl.has_unsellable))::int as unsellable_locations
        from per_location pl
        join warehouses w on w.id = pl.warehouse_id
        left join areas a on a.id = pl.area_id
        left join shelves s on s.id = pl.shelf_id
        group by 1, 2, 3 order by 1, 2 nulls last, 3 nulls last`,
  );
}
