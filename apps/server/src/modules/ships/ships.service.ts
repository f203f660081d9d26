import {
  DEFAULT_WORKING_DAYS,
  type TCvsChain,
  type TSaveWarehouseShipping,
  type TShipSettings,
  type TShipSla,
  type TShipsToday,
  type TWarehouseShipping,
} from '@wms/contracts';
import { allOf, type Db, type Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { computeShipBy, DEFAULT_CUTOFF, DEFAULT_SLA, isWorkingDay } from './ships.calc';
import * as repo from './ships.repository';

export interface TShipsDeps {
  db: Db;
}

type TCalendars = Awaited<ReturnType<typeof repo.calendarsOf>>;

function slaOfRow(row: { kind: string; before_time: string | null } | undefined): TShipSla {
  if (!row) return DEFAULT_SLA;
  return { kind: row.kind as TShipSla['kind'], before_time: row.before_time };
}

function warehouseShipping(w: { id: string; code: string; name: string }, [cutoffs, holidays, days]: TCalendars) {
  return {
    warehouse_id: w.id,
    warehouse_code: w.code,
    warehouse_name: w.name,
    cutoffs: cutoffs
      .filter((c) => c.warehouse_id === w.id)
      .map((c) => ({
        logistics_provider_id: c.logistics_provider_id,
        cvs_chain: (c.cvs_chain || null) as TCvsChain | null,
        provider_code: c.provider_code,
        provider_name: c.provider_name,
        cutoff_time: c.cutoff_time,
        pickup_time: c.pickup_time,
      })),
    working_days: days.find((d) => d.warehouse_id === w.id)?.weekdays ?? [...DEFAULT_WORKING_DAYS],
    holidays: holidays.filter((h) => h.warehouse_id === w.id).map((h) => h.day),
  } satisfies TWarehouseShipping;
}

export async function getShipSettings(deps: TShipsDeps, actor: TActor): Promise<TShipSettings> {
  const customerId = tenantOf(actor);
  const [sla, list, calendars] = await allOf(deps.db, [
    () => repo.slaOf(deps.db, customerId),
    () => repo.warehousesOf(deps.db, customerId),
    () => repo.calendarsOf(deps.db, customerId),
  ]);
  return {
    sla: slaOfRow(sla),
    default_cutoff: { ...DEFAULT_CUTOFF },
    warehouses: list.map((w) => warehouseShipping(w, calendars)),
  };
}

export async function saveShipSla(deps: TShipsDeps, actor: TActor, sla: TShipSla): Promise<{ ok: true }> {
  const customerId = tenantOf(actor);
  const beforeTime = sla.kind === 'same_day' ? sla.before_time : null;
  await withTx(deps.db, async (tx) => {
    const before = await repo.slaOf(tx, customerId);
    await repo.upsertSla(tx, customerId, sla.kind, beforeTime);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'ship_sla',
      entityId: customerId,
      before: before ?? null,
      after: { kind: sla.kind, before_time: beforeTime },
    });
  });
  return { ok: true };
}

export async function saveWarehouseShipping(
  deps: TShipsDeps,
  actor: TActor,
  warehouseId: string,
  body: TSaveWarehouseShipping,
): Promise<TWarehouseShipping> {
  const customerId = tenantOf(actor);
  const seen = new Set<string>();
  const keys = new Set<string>();
  body.cutoffs.forEach((c, i) => {
    // One cut-off per carrier, and one per carrier and convenience-store chain.
    const key = `${c.logistics_provider_id}|${c.cvs_chain ?? ''}`;
    if (keys.has(key))
      throw new AppError('DUPLICATE_VALUE', {
        field: c.cvs_chain ? `cutoffs.${i}.cvs_chain` : `cutoffs.${i}.logistics_provider_id`,
      });
    keys.add(key);
    seen.add(c.logistics_provider_id);
  });
  const holidays = [...new Set(body.holidays)].sort();
  const weekdays = [...new Set(body.working_days ?? DEFAULT_WORKING_DAYS)].sort();
  return withTx(deps.db, async (tx) => {
    const w = await repo.lockWarehouse(tx, customerId, warehouseId);
    if (!w) throw notFound();
    const own = await repo.ownProviderIds(tx, customerId, [...seen]);
    body.cutoffs.forEach((c, i) => {
      if (!own.has(c.logistics_provider_id))
        throw new AppError('INVALID_FIELD', { field: `cutoffs.${i}.logistics_provider_id` });
    });
    const before = warehouseShipping(w, await repo.calendarsOf(tx, customerId, warehouseId));
    await repo.replaceCalendar(tx, customerId, warehouseId, body.cutoffs, holidays, weekdays);
    const after = warehouseShipping(w, await repo.calendarsOf(tx, customerId, warehouseId));
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'warehouse_shipping',
      entityId: warehouseId,
      before: { cutoffs: before.cutoffs, working_days: before.working_days, holidays: before.holidays },
      after: { cutoffs: after.cutoffs, working_days: after.working_days, holidays: after.holidays },
    });
    return after;
  });
}

/** A seller's ship-by rules, loaded once for a batch of new orders. */
export interface TShipRules {
  sla: TShipSla;
  /** By `warehouse|carrier|chain` (chain '' for the carrier's own cut-off). */
  cutoffs: Map<string, { cutoff_time: string; pickup_time: string }>;
  holidays: Map<string, Set<string>>;
  weekdays: Map<string, Set<number>>;
}

const NO_HOLIDAYS: ReadonlySet<string> = new Set();
/** A Taipei day and `HH:MM` as the instant it is. */
const atTaipei = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+08:00`);

/**
 * The seller's promise, cut-offs and holidays (from the day before `at` on), for `shipByOf`. Read in the caller's
 * transaction (order creation).
 */
export async function loadShipRules(ex: Executor, customerId: string, at: Date): Promise<TShipRules> {
  const from = taipeiToday(new Date(at.getTime() - 86400_000));
  const sla = await repo.slaOf(ex, customerId);
  const [cutoffs, holidays, days] = await repo.calendarsOf(ex, customerId, undefined, from);
  const rules: TShipRules = {
    sla: slaOfRow(sla),
    cutoffs: new Map(),
    holidays: new Map(),
    weekdays: new Map(days.map((d) => [d.warehouse_id, new Set(d.weekdays)])),
  };
  for (const c of cutoffs)
    rules.cutoffs.set(`${c.warehouse_id}|${c.logistics_provider_id}|${c.cvs_chain}`, {
      cutoff_time: c.cutoff_time,
      pickup_time: c.pickup_time,
    });
  for (const h of holidays) {
    const set = rules.holidays.get(h.warehouse_id);
    if (set) set.add(h.day);
    else rules.holidays.set(h.warehouse_id, new Set([h.day]));
  }
  return rules;
}

/**
 * The cut-off of a carrier at a warehouse for an order delivered to a store of `chain` (when given): the chain's own
 * when the warehouse has one, else the carrier's, else the default.
 */
function cutoffOf(rules: TShipRules, warehouseId: string | null, providerId: string | null, chain?: string | null) {
  if (!warehouseId || !providerId) return DEFAULT_CUTOFF;
  return (
    (chain && rules.cutoffs.get(`${warehouseId}|${providerId}|${chain}`)) ||
    rules.cutoffs.get(`${warehouseId}|${providerId}|`) ||
    DEFAULT_CUTOFF
  );
}

/**
 * The ship-by time of an order that arrived at `at` for this warehouse and carrier (either may be missing), delivered
 * to a store of the convenience-store chain `chain` (UNIMART, FAMI, HILIFE, OKMART) when it is.
 */
export function shipByOf(
  rules: TShipRules,
  warehouseId: string | null,
  providerId: string | null,
  at: Date,
  chain?: string | null,
): Date {
  const cutoff = cutoffOf(rules, warehouseId, providerId, chain);
  const holidays = (warehouseId && rules.holidays.get(warehouseId)) || NO_HOLIDAYS;
  const weekdays = (warehouseId && rules.weekdays.get(warehouseId)) || undefined;
  return computeShipBy(at, rules.sla, { cutoff, holidays, weekdays });
}

/**
 * A release channel's next cut-off after `now`: its own time when set, else the earliest cut-off of its carriers (and
 * chain) at the warehouse — of every carrier there when it names none — or the default; today's when `now` is before it
 * on a working day, else the next working day's.
 */
export function nextCutoffAt(
  rules: TShipRules,
  warehouseId: string,
  providerIds: readonly string[],
  chain: string | null,
  cutoffTime: string | null,
  now: Date,
): Date {
  let time = cutoffTime;
  if (!time) {
    const times: string[] = [];
    if (providerIds.length) for (const p of providerIds) times.push(cutoffOf(rules, warehouseId, p, chain).cutoff_time);
    else
      for (const [key, c] of rules.cutoffs) {
        const [w, , ch] = key.split('|');
        if (w === warehouseId && (ch === '' || ch === chain)) times.push(c.cutoff_time);
      }
    time = times.sort()[0] ?? DEFAULT_CUTOFF.cutoff_time;
  }
  const holidays = rules.holidays.get(warehouseId) ?? NO_HOLIDAYS;
  const weekdays = rules.weekdays.get(warehouseId);
  let day = taipeiToday(now);
  for (let i = 0; i < 60; i++) {
    const at = atTaipei(day, time);
    if (isWorkingDay(day, holidays, weekdays) && at.getTime() > now.getTime()) return at;
    day = taipeiToday(new Date(atTaipei(day, '00:00').getTime() + 86400_000));
  }
  return atTaipei(day, time);
}

// ---- the floor board (/ships-today) ----

const LATE_LIST = 50;

/**
 * The floor board: per warehouse and carrier the orders due today or earlier and not shipped by stage (waiting for
 * release, to pick, to pack), today's shipped ones and the late ones, with today's cut-off and pick-up there; and the
 * earliest late orders. One call (two reads of orders, one of the calendars).
 */
export async function shipsToday(deps: TShipsDeps, actor: TActor, now: Date = new Date()): Promise<TShipsToday> {
  const customerId = tenantOf(actor);
  const day = taipeiToday(now);
  const [counts, late, calendars] = await allOf(deps.db, [
    () => repo.boardCounts(deps.db, customerId, taipeiMidnight(day), taipeiMidnight(day, 1), now),
    () => repo.lateOrders(deps.db, customerId, now, LATE_LIST),
    () => repo.calendarsOf(deps.db, customerId, undefined, day),
  ]);
  const [cutoffs, holidays, days] = calendars;
  const closed = new Set(holidays.filter((h) => h.day === day).map((h) => h.warehouse_id));
  const weekdaysOf = new Map(days.map((d) => [d.warehouse_id, new Set(d.weekdays)]));
  const rows = counts.map((c) => {
    const working =
      !!c.warehouse_id &&
      !closed.has(c.warehouse_id) &&
      isWorkingDay(day, new Set<string>(), weekdaysOf.get(c.warehouse_id));
    const own = cutoffs.find(
      (x) =>
        x.warehouse_id === c.warehouse_id && x.logistics_provider_id === c.logistics_provider_id && x.cvs_chain === '',
    );
    const times = own ?? DEFAULT_CUTOFF;
    return {
      ...c,
      cutoff_at: working ? atTaipei(day, times.cutoff_time).toISOString() : null,
      pickup_at: working ? atTaipei(day, times.pickup_time).toISOString() : null,
    };
  });
  return { now: now.toISOString(), day, rows, late_orders: late };
}

// ---- on-time shipping (the seller's and the CRM dashboards) ----

export interface TOnTime {
  /** Orders with a ship-by time shipped in the window. */
  shipped: number;
  /** Of them, shipped by their ship-by time. */
  on_time: number;
  /** on_time / shipped in percent, one decimal; null when nothing shipped. */
  percent: number | null;
}

export const ON_TIME_DAYS = 30;

/** The on-time rate over the last 30 days up to `now`, per seller (all sellers, or these). */
export async function onTimeRates(
  ex: Executor,
  customerIds: string[] | null,
  now: Date = new Date(),
): Promise<Map<string, TOnTime>> {
  const since = new Date(now.getTime() - ON_TIME_DAYS * 86400_000);
  const rows = await repo.onTimeCounts(ex, customerIds, since);
  return new Map(
    rows.map((r) => {
      const shipped = Number(r.shipped);
      const onTime = Number(r.on_time);
      return [
        r.customer_id,
        { shipped, on_time: onTime, percent: shipped ? Math.round((onTime * 1000) / shipped) / 10 : null },
      ];
    }),
  );
}

export const NO_SHIPMENTS: TOnTime = { shipped: 0, on_time: 0, percent: null };
