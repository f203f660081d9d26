import { and, asc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, queryRows, type Tx } from '../../db/client';
import {
  logistics_providers,
  seller_ship_slas,
  ship_cutoffs,
  ship_manifest_parcels,
  ship_manifests,
  warehouse_holidays,
  warehouse_ship_days,
  warehouses,
} from '../../db/schema';

/** The ships module's SQL: its own tables, and the seller's warehouses and carriers read next to them. */

export async function slaOf(ex: Executor, customerId: string) {
  const [row] = await ex
    .select({ kind: seller_ship_slas.kind, before_time: seller_ship_slas.before_time })
    .from(seller_ship_slas)
    .where(eq(seller_ship_slas.customer_id, customerId));
  return row;
}

export async function upsertSla(tx: Tx, customerId: string, kind: string, beforeTime: string | null): Promise<void> {
  await tx
    .insert(seller_ship_slas)
    .values({ customer_id: customerId, kind, before_time: beforeTime })
    .onConflictDoUpdate({
      target: seller_ship_slas.customer_id,
      set: { kind, before_time: beforeTime, updated_at: sql`now()` },
    });
}

/** The seller's warehouses (all, or one), by code. */
export async function warehousesOf(ex: Executor, customerId: string, id?: string) {
  const w = warehouses;
  return ex
    .select({ id: w.id, code: w.code, name: w.name })
    .from(w)
    .where(id ? and(eq(w.customer_id, customerId), eq(w.id, id)) : eq(w.customer_id, customerId))
    .orderBy(asc(w.code));
}

/** Lock one of the seller's warehouses (two saves of its calendar one after the other); undefined when not the seller's. */
export async function lockWarehouse(tx: Tx, customerId: string, id: string) {
  const [row] = await tx
    .select({ id: warehouses.id, code: warehouses.code, name: warehouses.name })
    .from(warehouses)
    .where(and(eq(warehouses.customer_id, customerId), eq(warehouses.id, id)))
    .for('update');
  return row;
}

/** Which of these carrier ids are the seller's. */
export async function ownProviderIds(ex: Executor, customerId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex
    .select({ id: logistics_providers.id })
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), inArray(logistics_providers.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Cut-offs (with the carrier's code and name), holidays and working weekdays of the seller's warehouses (all, or
 * one).
 */
export async function calendarsOf(ex: Executor, customerId: string, warehouseId?: string, holidaysFrom?: string) {
  const c = ship_cutoffs;
  const h = warehouse_holidays;
  const d = warehouse_ship_days;
  return allOf(ex, [
    () =>
      ex
        .select({
          warehouse_id: c.warehouse_id,
          logistics_provider_id: c.logistics_provider_id,
          cvs_chain: c.cvs_chain,
          cutoff_time: c.cutoff_time,
          pickup_time: c.pickup_time,
          provider_code: logistics_providers.code,
          provider_name: logistics_providers.name,
        })
        .from(c)
        .innerJoin(logistics_providers, eq(logistics_providers.id, c.logistics_provider_id))
        .where(and(eq(c.customer_id, customerId), warehouseId ? eq(c.warehouse_id, warehouseId) : undefined))
        .orderBy(asc(logistics_providers.code), asc(c.cvs_chain)),
    () =>
      ex
        .select({ warehouse_id: h.warehouse_id, day: h.day })
        .from(h)
        .where(
          and(
            eq(h.customer_id, customerId),
            warehouseId ? eq(h.warehouse_id, warehouseId) : undefined,
            holidaysFrom ? gte(h.day, holidaysFrom) : undefined,
          ),
        )
        .orderBy(asc(h.day)),
    () =>
      ex
        .select({ warehouse_id: d.warehouse_id, weekdays: d.weekdays })
        .from(d)
        .where(and(eq(d.customer_id, customerId), warehouseId ? eq(d.warehouse_id, warehouseId) : undefined)),
  ]);
}

/** Replace a warehouse's cut-offs, holidays and working weekdays with these. */
export async function replaceCalendar(
  tx: Tx,
  customerId: string,
  warehouseId: string,
  cutoffs: Array<{
    logistics_provider_id: string;
    cvs_chain?: string | null;
    cutoff_time: string;
    pickup_time: string;
  }>,
  holidays: string[],
  weekdays: number[],
): Promise<void> {
  await tx
    .insert(warehouse_ship_days)
    .values({ warehouse_id: warehouseId, customer_id: customerId, weekdays })
    .onConflictDoUpdate({ target: warehouse_ship_days.warehouse_id, set: { weekdays, updated_at: sql`now()` } });
  await tx
    .delete(ship_cutoffs)
    .where(and(eq(ship_cutoffs.customer_id, customerId), eq(ship_cutoffs.warehouse_id, warehouseId)));
  await tx
    .delete(warehouse_holidays)
    .where(and(eq(warehouse_holidays.customer_id, customerId), eq(warehouse_holidays.warehouse_id, warehouseId)));
  if (cutoffs.length)
    await tx.insert(ship_cutoffs).values(
      cutoffs.map((c) => ({
        ...c,
        cvs_chain: c.cvs_chain ?? '',
        customer_id: customerId,
        warehouse_id: warehouseId,
      })),
    );
  if (holidays.length)
    await tx
      .insert(warehouse_holidays)
      .values(holidays.map((day) => ({ customer_id: customerId, warehouse_id: warehouseId, day })));
}

// ---- the floor board: the seller's orders due today, read from outbound_orders (outbound's table; read only) ----

/** Statuses of an order that has not left yet (outbound's workflow: before `ship`, not cancelled). */
const NOT_SHIPPED = sql.raw(`('pending_export', 'exported', 'cancel_export', 'online')`);

export interface TBoardCounts {
  warehouse_id: string | null;
  warehouse_code: string | null;
  logistics_provider_id: string | null;
  provider_code: string | null;
  provider_name: string | null;
  waiting: number;
  to_pick: number;
  to_pack: number;
  shipped: number;
  handed_over: number;
  late: number;
}

/**
 * Per warehouse and carrier: the orders due today (ship-by in [dayStart, dayEnd)) by stage, and the late ones (not
 * shipped, ship-by before `now`, any day). One statement on the (customer_id, ship_by) index.
 */
export async function boardCounts(
  ex: Executor,
  customerId: string,
  dayStart: Date,
  dayEnd: Date,
  now: Date,
): Promise<TBoardCounts[]> {
  const start = sql`${dayStart.toISOString()}::timestamptz`;
  const end = sql`${dayEnd.toISOString()}::timestamptz`;
  const at = sql`${now.toISOString()}::timestamptz`;
  return queryRows<TBoardCounts>(
    ex,
    sql`
    select o.warehouse_id, w.code as warehouse_code, o.logistics_provider_id, lp.code as provider_code,
      lp.name as provider_name,
      count(*) filter (where o.status = 'pending_export')::int as waiting,
      count(*) filter (where o.status in ('exported', 'cancel_export'))::int as to_pick,
      count(*) filter (where o.status = 'online')::int as to_pack,
      count(*) filter (where o.status not in ${NOT_SHIPPED} and o.ship_by >= ${start})::int as shipped,
      count(*) filter (where o.ship_by >= ${start} and exists (
        select 1 from ship_manifest_parcels mp join ship_manifests m on m.id = mp.manifest_id
        where mp.order_id = o.id and m.status = 'closed'))::int as handed_over,
      count(*) filter (where o.status in ${NOT_SHIPPED} and o.ship_by < ${at})::int as late
    from outbound_orders o
    left join warehouses w on w.id = o.warehouse_id
    left join logistics_providers lp on lp.id = o.logistics_provider_id
    where o.customer_id = ${customerId} and o.ship_by < ${end} and o.status <> 'cancelled'
      and (o.ship_by >= ${start} or o.status in ${NOT_SHIPPED})
    group by o.warehouse_id, w.code, o.logistics_provider_id, lp.code, lp.name
    order by w.code nulls last, lp.code nulls last`,
  );
}

/** The earliest late orders (not shipped, ship-by before `now`). */
export async function lateOrders(ex: Executor, customerId: string, now: Date, limit: number) {
  return queryRows<{
    id: string;
    number: string;
    platform_order_number: string | null;
    warehouse_code: string | null;
    provider_name: string | null;
    status: string;
    ship_by: string;
  }>(
    ex,
    sql`
    select o.id, o.number, o.platform_order_number, w.code as warehouse_code, lp.name as provider_name, o.status,
      to_char(o.ship_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ship_by
    from outbound_orders o
    left join warehouses w on w.id = o.warehouse_id
    left join logistics_providers lp on lp.id = o.logistics_provider_id
    where o.customer_id = ${customerId} and o.ship_by < ${now.toISOString()}::timestamptz
      and o.status in ${NOT_SHIPPED}
    order by o.ship_by, o.number
    limit ${limit}`,
  );
}

// ---- manifests (handover scans): ship_manifests and ship_manifest_parcels, with the orders' numbers read next to them ----

export interface TManifestRow {
  id: string;
  number: string;
  warehouse_id: string;
  warehouse_code: string;
  logistics_provider_id: string;
  provider_code: string;
  provider_name: string;
  status: 'open' | 'closed';
  parcel_count: number;
  created_at: string;
  closed_at: string | null;
}

const ISO = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

function manifestSelect(where: SQL, tail: SQL = sql``) {
  return sql`
    select m.id, m.number, m.warehouse_id, w.code as warehouse_code, m.logistics_provider_id,
      lp.code as provider_code, lp.name as provider_name, m.status,
      (select count(*) from ship_manifest_parcels p where p.manifest_id = m.id)::int as parcel_count,
      ${ISO('m.created_at')} as created_at, ${ISO('m.closed_at')} as closed_at
    from ship_manifests m
      join warehouses w on w.id = m.warehouse_id
      join logistics_providers lp on lp.id = m.logistics_provider_id
    where ${where} ${tail}`;
}

export async function findManifest(ex: Executor, customerId: string, id: string) {
  const [row] = await queryRows<TManifestRow>(ex, manifestSelect(sql`m.customer_id = ${customerId} and m.id = ${id}`));
  return row;
}

/** The open manifest of a warehouse and carrier and the latest closed ones. */
export async function manifestsOf(ex: Executor, customerId: string, warehouseId: string, providerId: string) {
  const scope = sql`m.customer_id = ${customerId} and m.warehouse_id = ${warehouseId}
    and m.logistics_provider_id = ${providerId}`;
  return allOf(ex, [
    () => queryRows<TManifestRow>(ex, manifestSelect(sql`${scope} and m.status = 'open'`)),
    () =>
      queryRows<TManifestRow>(
        ex,
        manifestSelect(sql`${scope} and m.status = 'closed'`, sql`order by m.closed_at desc limit 20`),
      ),
  ]);
}

export async function manifestParcels(ex: Executor, customerId: string, manifestId: string) {
  return queryRows<{
    order_id: string;
    order_number: string;
    platform_order_number: string | null;
    consignment_number: string | null;
    recipient_name: string;
    scanned_code: string;
    scanned_at: string;
  }>(
    ex,
    sql`select p.order_id, o.number as order_number, o.platform_order_number, o.consignment_number,
          o.recipient_name, p.scanned_code, ${ISO('p.scanned_at')} as scanned_at
        from ship_manifest_parcels p join outbound_orders o on o.id = p.order_id
        where p.customer_id = ${customerId} and p.manifest_id = ${manifestId}
        order by p.scanned_at, o.number`,
  );
}

/** Lock the open manifest of a warehouse and carrier (undefined when there is none). */
export async function lockOpenManifest(tx: Tx, customerId: string, warehouseId: string, providerId: string) {
  const [row] = await tx
    .select({ id: ship_manifests.id, number: ship_manifests.number })
    .from(ship_manifests)
    .where(
      and(
        eq(ship_manifests.customer_id, customerId),
        eq(ship_manifests.warehouse_id, warehouseId),
        eq(ship_manifests.logistics_provider_id, providerId),
        eq(ship_manifests.status, 'open'),
      ),
    )
    .for('update');
  return row;
}

/** Open a manifest; nothing when one is open already (a scan at the same moment opened it). */
export async function insertOpenManifest(tx: Tx, values: typeof ship_manifests.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(ship_manifests)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: ship_manifests.id });
  return rows.length > 0;
}

/** Add a parcel; false when the order is on a manifest already (its primary key). */
export async function insertParcel(tx: Tx, values: typeof ship_manifest_parcels.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(ship_manifest_parcels)
    .values(values)
    .onConflictDoNothing({ target: ship_manifest_parcels.order_id })
    .returning({ id: ship_manifest_parcels.order_id });
  return rows.length > 0;
}

/** The manifest an order is on (its number). */
export async function manifestOfOrder(ex: Executor, customerId: string, orderId: string) {
  const [row] = await ex
    .select({ number: ship_manifests.number })
    .from(ship_manifest_parcels)
    .innerJoin(ship_manifests, eq(ship_manifests.id, ship_manifest_parcels.manifest_id))
    .where(and(eq(ship_manifest_parcels.customer_id, customerId), eq(ship_manifest_parcels.order_id, orderId)));
  return row;
}

export async function lockManifest(tx: Tx, customerId: string, id: string) {
  const [row] = await tx
    .select({ id: ship_manifests.id, number: ship_manifests.number, status: ship_manifests.status })
    .from(ship_manifests)
    .where(and(eq(ship_manifests.customer_id, customerId), eq(ship_manifests.id, id)))
    .for('update');
  return row;
}

export async function countParcels(ex: Executor, customerId: string, manifestId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from ship_manifest_parcels where customer_id = ${customerId} and manifest_id = ${manifestId}`,
  );
  return Number(row?.n ?? 0);
}

/** Close an open manifest (conditional: a closed one stays as it is); true when it closed now. */
export async function closeManifest(tx: Tx, customerId: string, id: string, by: string | null): Promise<boolean> {
  const rows = await tx
    .update(ship_manifests)
    .set({ status: 'closed', closed_at: sql`now()`, closed_by: by })
    .where(
      and(eq(ship_manifests.customer_id, customerId), eq(ship_manifests.id, id), eq(ship_manifests.status, 'open')),
    )
    .returning({ id: ship_manifests.id });
  return rows.length > 0;
}

// ---- on-time shipping: outbound_orders read only ----

/**
 * Per seller (all, or these), the orders shipped since `since` that had a ship-by time, and how many of them shipped by
 * it (shipped = closed_at, when the order left).
 */
export async function onTimeCounts(ex: Executor, customerIds: string[] | null, since: Date) {
  if (customerIds && customerIds.length === 0) return [];
  return queryRows<{ customer_id: string; shipped: number; on_time: number }>(
    ex,
    sql`select o.customer_id, count(*)::int as shipped,
          count(*) filter (where o.closed_at <= o.ship_by)::int as on_time
        from outbound_orders o
        where o.closed_at >= ${since.toISOString()}::timestamptz and o.ship_by is not null
          ${customerIds ? sql`and o.customer_id in ${customerIds}` : sql``}
        group by o.customer_id`,
  );
}
