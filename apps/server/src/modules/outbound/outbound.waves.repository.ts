import type { TOrderStatus } from '@wms/contracts';
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, queryRows, type Tx, uuidArray } from '../../db/client';
import { areas, release_channels, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';
import { reservedOnlyInAreaSql, reservedUnitsSql } from '../stock';
import { ORDER_DOCUMENT } from './outbound.orders.repository';

/** The SQL of release by wave: a wave's candidate orders, its scope, and the saved release channels. */

// ---- release by wave ----

export interface TWaveCandidate {
  id: string;
  number: string;
  units: number;
}

/** Which orders a wave may take: a warehouse, and optionally carriers, a convenience-store chain, a zone, a ship-by. */
export interface TWaveScope {
  warehouseId: string;
  /** One carrier (an ad-hoc wave) or several (a channel); null or empty: every carrier. */
  providerIds: readonly string[] | null;
  areaId: string | null;
  /** Only orders delivered to a store of this chain (UNIMART, FAMI, HILIFE, OKMART; B2C and C2C alike). */
  cvsChain?: string | null;
  /** Only orders whose ship-by is before this instant. */
  shipByBefore?: Date | null;
  statuses: readonly TOrderStatus[];
}

/** The `where` of a wave's candidates (`o` is outbound_orders): also what a channel's open count counts. */
function waveWhere(customerId: string, opts: TWaveScope): SQL {
  const inArea = opts.areaId
    ? sql`and ${reservedOnlyInAreaSql(customerId, ORDER_DOCUMENT, sql`o.id`, opts.areaId)}`
    : sql``;
  const providers = opts.providerIds?.length
    ? opts.providerIds.length === 1
      ? sql`and o.logistics_provider_id = ${opts.providerIds[0]}`
      : sql`and o.logistics_provider_id = any(${uuidArray(opts.providerIds)})`
    : sql``;
  const chain = opts.cvsChain
    ? sql`and exists (select 1 from order_cvs_stores cs where cs.order_id = o.id
          and cs.subtype in (${opts.cvsChain}, ${`${opts.cvsChain}C2C`}))`
    : sql``;
  const shipBy = opts.shipByBefore ? sql`and o.ship_by < ${opts.shipByBefore.toISOString()}::timestamptz` : sql``;
  return sql`o.customer_id = ${customerId} and o.warehouse_id = ${opts.warehouseId} and o.batch_id is null
          and o.status in ${[...opts.statuses]} ${providers} ${chain} ${shipBy} ${inArea}`;
}

/**
 * The next exported orders outside any batch at a warehouse (and carriers, chain, ship-by; and whose reserved stock
 * all lies in one area), earliest ship-by first, locked for this transaction. Rows another transaction holds are
 * skipped (`SKIP LOCKED`): two waves released at once take different orders, and neither waits for the other. `units`
 * is what the picker carries: the order's reserved quantity.
 */
export async function lockWaveCandidates(
  tx: Tx,
  customerId: string,
  opts: TWaveScope & { exclude: string[]; limit: number },
): Promise<TWaveCandidate[]> {
  const rows = await queryRows<{ id: string; number: string; units: number | string }>(
    tx,
    sql`select o.id, o.number,
          ${reservedUnitsSql(customerId, ORDER_DOCUMENT, sql`o.id`)} as units
        from outbound_orders o
        where ${waveWhere(customerId, opts)}
          ${opts.exclude.length ? sql`and o.id not in ${opts.exclude}` : sql``}
        order by o.ship_by asc nulls last, o.number
        limit ${opts.limit}
        for update of o skip locked`,
  );
  return rows.map((r) => ({ id: r.id, number: r.number, units: Number(r.units) }));
}

/** How many orders a wave of this scope may take now (locked ones included). */
export async function countWaveCandidates(ex: Executor, customerId: string, opts: TWaveScope): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    ex,
    sql`select count(*)::int as n from outbound_orders o where ${waveWhere(customerId, opts)}`,
  );
  return Number(row?.n ?? 0);
}

/** Whether the warehouse, carrier and area of a wave are the seller's (and the area is in that warehouse). */
export async function waveScopeOk(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  providerId: string | null,
  areaId: string | null,
): Promise<{ warehouse: boolean; provider: boolean; area: boolean }> {
  const [row] = await queryRows<{ warehouse: boolean; provider: boolean; area: boolean }>(
    ex,
    sql`select
          exists (select 1 from warehouses where id = ${warehouseId} and customer_id = ${customerId}) as warehouse,
          ${providerId ? sql`exists (select 1 from logistics_providers where id = ${providerId} and customer_id = ${customerId})` : sql`true`} as provider,
          ${areaId ? sql`exists (select 1 from areas where id = ${areaId} and customer_id = ${customerId} and warehouse_id = ${warehouseId})` : sql`true`} as area`,
  );
  return row!;
}

// ---- saved release channels ----

export type TChannelRow = typeof release_channels.$inferSelect;
export type TChannelView = TChannelRow & {
  warehouse_code: string;
  area_code: string | null;
  provider_names: string[];
};

const channelSelect = {
  ...getTableColumns(release_channels),
  warehouse_code: warehouses.code,
  area_code: areas.code,
  provider_names: sql<
    string[]
  >`(select coalesce(array_agg(lp.name order by array_position(${release_channels.logistics_provider_ids}, lp.id)), '{}')
      from logistics_providers lp where lp.id = any(${release_channels.logistics_provider_ids}))`,
};

export async function listChannels(
  ex: Executor,
  customerId: string,
  q: TPageOpts & { warehouse_id?: string; active?: boolean },
): Promise<{ rows: TChannelView[]; count: number }> {
  const c = release_channels;
  const where = and(
    eq(c.customer_id, customerId),
    q.warehouse_id ? eq(c.warehouse_id, q.warehouse_id) : undefined,
    q.active === undefined ? undefined : eq(c.active, q.active),
    searchWhere(q.search, [c.name, warehouses.code]),
  );
  const order = orderingOf(
    q.ordering,
    { sequence: c.sequence, name: c.name, warehouse_code: warehouses.code, created_at: c.created_at },
    'sequence',
    c.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(ex, [
    () =>
      ex
        .select(channelSelect)
        .from(c)
        .innerJoin(warehouses, eq(warehouses.id, c.warehouse_id))
        .leftJoin(areas, eq(areas.id, c.area_id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => ex.select({ n: countAll }).from(c).innerJoin(warehouses, eq(warehouses.id, c.warehouse_id)).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findChannel(
  ex: Executor,
  customerId: string,
  id: string,
  lock = false,
): Promise<TChannelView | undefined> {
  const c = release_channels;
  const query = ex
    .select(channelSelect)
    .from(c)
    .innerJoin(warehouses, eq(warehouses.id, c.warehouse_id))
    .leftJoin(areas, eq(areas.id, c.area_id))
    .where(and(eq(c.customer_id, customerId), eq(c.id, id)));
  const [row] = lock ? await query.for('update', { of: c }) : await query;
  return row;
}

export async function insertChannel(tx: Tx, values: typeof release_channels.$inferInsert): Promise<string> {
  const [row] = await tx.insert(release_channels).values(values).returning({ id: release_channels.id });
  return row!.id;
}

export async function updateChannel(
  tx: Tx,
  customerId: string,
  id: string,
  patch: Partial<typeof release_channels.$inferInsert>,
): Promise<void> {
  await tx
    .update(release_channels)
    .set(patch)
    .where(and(eq(release_channels.customer_id, customerId), eq(release_channels.id, id)));
}

export async function deleteChannel(tx: Tx, customerId: string, id: string): Promise<number> {
  const rows = await tx
    .delete(release_channels)
    .where(and(eq(release_channels.customer_id, customerId), eq(release_channels.id, id)))
    .returning({ id: release_channels.id });
  return rows.length;
}
