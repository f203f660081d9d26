import {
  NEAR_EXPIRY_DAYS,
  STOCK_AGE_BUCKETS,
  type TDashboard,
  type TDeliverStats,
  type TDeliverStatsQuery,
  type TOccupancyQuery,
  type TOccupancyRow,
  type TPurchaseAdviceQuery,
  type TPurchaseAdviceRow,
  type TStockAgeQuery,
  type TStockAgeRow,
  type TTurnoverQuery,
  type TTurnoverRow,
} from '@wms/contracts';
import { allOf, type Db } from '../../db/client';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { NO_SHIPMENTS, onTimeRates } from '../ships';
import * as repo from './analysis.repository';
import * as stockRepo from './analysis.stock.repository';

export interface TAnalysisDeps {
  db: Db;
  /** The clock (tests pin it); defaults to now. */
  now?: () => Date;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const nowOf = (deps: TAnalysisDeps) => (deps.now ? deps.now() : new Date());
/** A period of at most this many days (the charts and the ledger scan stay bounded). */
const MAX_PERIOD_DAYS = 366 * 2;

/** The period asked for, or the last 30 days up to today. */
function periodOf(
  deps: TAnalysisDeps,
  q: { date_from?: string; date_to?: string },
): { date_from: string; date_to: string } {
  const to = q.date_to ?? taipeiToday(nowOf(deps));
  return { date_from: q.date_from ?? taipeiToday(taipeiMidnight(to, -29)), date_to: to };
}

function checkPeriod(from: string, to: string): number {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86400_000) + 1;
  if (days < 1) throw new AppError('INVALID_FIELD', { field: 'date_to' });
  if (days > MAX_PERIOD_DAYS) throw new AppError('INVALID_FIELD', { field: 'date_from' });
  return days;
}

function adviceRow(r: stockRepo.TAdviceRaw, window: number): TPurchaseAdviceRow {
  const unitsOut = Number(r.units_out);
  const avg = unitsOut > 0 ? unitsOut / window : 0;
  const available = Number(r.available);
  return {
    product_id: r.product_id,
    product_number: r.product_number,
    product_name: r.product_name,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    safety_stock: Number(r.safety_stock),
    stocking_days: Number(r.stocking_days),
    shelf_life: Boolean(r.shelf_life),
    units_out: unitsOut,
    avg_daily_out: round(avg, 2),
    on_hand: Number(r.on_hand),
    available,
    incoming: Number(r.incoming),
    days_left: avg > 0 ? round(Math.max(available, 0) / avg, 1) : null,
    below_safety: Boolean(r.below_safety),
    advised: Number(r.advised),
  };
}

/** /purchase-advice: the window starts `window` Taipei days before today's midnight (today included). */
export async function purchaseAdvice(deps: TAnalysisDeps, actor: TActor, q: TPurchaseAdviceQuery, all?: number) {
  const today = taipeiToday(nowOf(deps));
  const since = taipeiMidnight(today, 1 - q.window).toISOString();
  const rows = await stockRepo.purchaseAdvice(deps.db, tenantOf(actor), q, since, all);
  return { count: rows[0] ? Number(rows[0].total) : 0, results: rows.map((r) => adviceRow(r, q.window)) };
}

export const exportPurchaseAdvice = (deps: TAnalysisDeps, actor: TActor, q: TPurchaseAdviceQuery) =>
  purchaseAdvice(deps, actor, { ...q, page: 1 }, EXPORT_MAX_ROWS).then((p) => p.results);

function turnoverRow(r: stockRepo.TTurnoverRaw, days: number): TTurnoverRow {
  const unitsOut = Number(r.units_out);
  const avgStock = Number(r.stock_days) / days;
  const onHand = Number(r.on_hand);
  return {
    product_id: r.product_id,
    product_number: r.product_number,
    product_name: r.product_name,
    units_out: unitsOut,
    avg_stock: round(avgStock, 2),
    on_hand: onHand,
    turnover: avgStock > 0 ? round(unitsOut / avgStock, 2) : null,
    days_of_supply: unitsOut > 0 ? round((avgStock * days) / unitsOut, 1) : null,
    cost: r.cost === null ? null : String(Number(r.cost)),
    stock_value: r.cost === null ? null : (onHand * Number(r.cost)).toFixed(2),
    last_out_at: r.last_out_at,
    slow: Boolean(r.slow),
    dead: Boolean(r.dead),
  };
}

export async function productTurnover(deps: TAnalysisDeps, actor: TActor, query: TTurnoverQuery, all?: number) {
  const q = { ...query, ...periodOf(deps, query) };
  const days = checkPeriod(q.date_from, q.date_to);
  const rows = await stockRepo.productTurnover(deps.db, tenantOf(actor), q, nowOf(deps).toISOString(), all);
  return { count: rows[0] ? Number(rows[0].total) : 0, results: rows.map((r) => turnoverRow(r, days)) };
}

export const exportProductTurnover = (deps: TAnalysisDeps, actor: TActor, q: TTurnoverQuery) =>
  productTurnover(deps, actor, { ...q, page: 1 }, EXPORT_MAX_ROWS).then((p) => p.results);

function ageRow(r: stockRepo.TStockAgeRaw): TStockAgeRow {
  return {
    product_id: r.product_id,
    product_number: r.product_number,
    product_name: r.product_name,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    location_id: r.location_id,
    location_code: r.location_code,
    on_hand: Number(r.on_hand),
    buckets: Object.fromEntries(STOCK_AGE_BUCKETS.map((b) => [b, Number(r[b])])) as TStockAgeRow['buckets'],
    oldest_days: Number(r.oldest_days),
    shelf_life_months: r.shelf_life_months === null ? null : Number(r.shelf_life_months),
    sellable_rule_months: r.sellable_rule_months === null ? null : Number(r.sellable_rule_months),
    nearest_expiry: r.nearest_expiry,
  };
}

export async function stockAge(deps: TAnalysisDeps, actor: TActor, q: TStockAgeQuery, all?: number) {
  const rows = await stockRepo.stockAge(deps.db, tenantOf(actor), q, taipeiToday(nowOf(deps)), all);
  return { count: rows[0] ? Number(rows[0].total) : 0, results: rows.map(ageRow) };
}

export const exportStockAge = (deps: TAnalysisDeps, actor: TActor, q: TStockAgeQuery) =>
  stockAge(deps, actor, { ...q, page: 1 }, EXPORT_MAX_ROWS).then((p) => p.results);

export async function deliverStatistics(
  deps: TAnalysisDeps,
  actor: TActor,
  query: TDeliverStatsQuery,
): Promise<TDeliverStats> {
  const q = { ...query, ...periodOf(deps, query) };
  checkPeriod(q.date_from, q.date_to);
  const raw = await repo.deliverStatistics(deps.db, tenantOf(actor), q);
  const total = { orders: 0, lines: 0, units: 0, cod_orders: 0, cod_cents: 0n, hours: 0 };
  const rows = raw.map((r) => {
    const orders = Number(r.orders);
    total.orders += orders;
    total.lines += Number(r.lines);
    total.units += Number(r.units);
    total.cod_orders += Number(r.cod_orders);
    total.cod_cents += BigInt(r.cod_amount.replace('.', ''));
    total.hours += Number(r.hours ?? 0);
    return {
      period: r.period,
      key: r.key,
      orders,
      lines: Number(r.lines),
      units: Number(r.units),
      cod_orders: Number(r.cod_orders),
      cod_amount: r.cod_amount,
      avg_hours_to_ship: orders > 0 ? round(Number(r.hours ?? 0) / orders, 1) : null,
    };
  });
  const cents = total.cod_cents.toString().padStart(3, '0');
  return {
    rows,
    total: {
      orders: total.orders,
      lines: total.lines,
      units: total.units,
      cod_orders: total.cod_orders,
      cod_amount: `${cents.slice(0, -2)}.${cents.slice(-2)}`,
      avg_hours_to_ship: total.orders > 0 ? round(total.hours / total.orders, 1) : null,
    },
  };
}

/** /dashboard: the seller's work queues, stock alerts and the shipments of the last 30 days (every day listed). */
export async function dashboard(deps: TAnalysisDeps, actor: TActor): Promise<TDashboard> {
  const customerId = tenantOf(actor);
  const today = taipeiToday(nowOf(deps));
  const fromDay = taipeiToday(taipeiMidnight(today, -29));
  const nearUntil = taipeiToday(taipeiMidnight(today, NEAR_EXPIRY_DAYS));
  const [counts, shipped, onTime] = await allOf(deps.db, [
    () => repo.dashboardCounts(deps.db, customerId, nearUntil),
    () => repo.shippedPerDay(deps.db, customerId, fromDay),
    () => onTimeRates(deps.db, [customerId], nowOf(deps)),
  ]);
  const byDay = new Map(shipped.map((s) => [s.day, s]));
  const days = Array.from({ length: 30 }, (_, i) => taipeiToday(taipeiMidnight(fromDay, i)));
  return {
    to_export: Number(counts.to_export),
    to_pack: Number(counts.to_pack),
    to_ship: Number(counts.to_ship),
    receipts_pending: Number(counts.receipts_pending),
    below_safety: Number(counts.below_safety),
    near_expiry: Number(counts.near_expiry),
    setup: {
      company: counts.setup_company === true,
      warehouse: counts.setup_warehouse === true,
      location: counts.setup_location === true,
      product: counts.setup_product === true,
      receipt: counts.setup_receipt === true,
      order: counts.setup_order === true,
    },
    shipped: days.map((day) => ({
      day,
      orders: Number(byDay.get(day)?.orders ?? 0),
      units: Number(byDay.get(day)?.units ?? 0),
    })),
    on_time: onTime.get(customerId) ?? NO_SHIPMENTS,
  };
}

/** /location-stock's analysis view: occupancy per warehouse, area or shelf. */
export async function locationOccupancy(
  deps: TAnalysisDeps,
  actor: TActor,
  q: TOccupancyQuery,
): Promise<{ results: TOccupancyRow[] }> {
  const rows = await stockRepo.locationOccupancy(deps.db, tenantOf(actor), q, taipeiToday(nowOf(deps)));
  const ints = ['locations', 'cells', 'empty', 'in_use', 'full', 'piles', 'units', 'expired_locations'] as const;
  return {
    results: rows.map((r) => ({
      ...r,
      ...Object.fromEntries(ints.map((k) => [k, Number(r[k])])),
      unsellable_locations: Number(r.unsellable_locations),
    })) as TOccupancyRow[],
  };
}
