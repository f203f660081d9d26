import type { TOrderStatus } from '@wms/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { allOf, type Executor, queryRows, type Tx } from '../../db/client';
import { collection_batches, outbound_orders, pick_scans, pick_totes, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere } from '../../platform/listing';
import { SHIPPED_STATUSES } from './outbound.workflow';

/** The SQL of collection batches and the handheld pick walk (collection_batches, pick_scans, pick_totes). */

export type TBatchRow = typeof collection_batches.$inferSelect;

// ---- collection batches ----

export async function insertBatch(tx: Tx, values: typeof collection_batches.$inferInsert): Promise<TBatchRow> {
  const [row] = await tx.insert(collection_batches).values(values).returning();
  return row!;
}

/** Put unbatched orders in one of `statuses` into a batch by one conditional statement; returns the ids that moved. */
export async function assignBatch(
  tx: Tx,
  customerId: string,
  batchId: string,
  orderIds: string[],
  statuses: readonly TOrderStatus[],
): Promise<string[]> {
  const rows = await tx
    .update(outbound_orders)
    .set({ batch_id: batchId })
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        inArray(outbound_orders.id, orderIds),
        inArray(outbound_orders.status, [...statuses]),
        isNull(outbound_orders.batch_id),
      ),
    )
    .returning({ id: outbound_orders.id });
  return rows.map((r) => r.id);
}

/** Take orders in one of `statuses` out of a batch by one conditional statement; returns the ids that left. */
export async function unassignBatch(
  tx: Tx,
  customerId: string,
  batchId: string,
  orderIds: string[],
  statuses: readonly TOrderStatus[],
) {
  const rows = await tx
    .update(outbound_orders)
    .set({ batch_id: null })
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        eq(outbound_orders.batch_id, batchId),
        inArray(outbound_orders.id, orderIds),
        inArray(outbound_orders.status, [...statuses]),
      ),
    )
    .returning({ id: outbound_orders.id });
  return rows.map((r) => r.id);
}

const batchCounts = {
  order_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id")`,
  exported_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status = 'exported')`,
  online_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status = 'online')`,
  closed_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status in ${SHIPPED_STATUSES})`,
  unit_count: sql<number>`(select coalesce(sum(l.quantity), 0)::int from outbound_order_lines l join outbound_orders o on o.id = l.order_id where o.batch_id = "collection_batches"."id")`,
};

export type TBatchView = {
  batch: TBatchRow;
  warehouse_code: string | null;
  order_count: number;
  exported_count: number;
  online_count: number;
  closed_count: number;
  unit_count: number;
};

function batchViews(ex: Executor) {
  return ex
    .select({ batch: collection_batches, warehouse_code: warehouses.code, ...batchCounts })
    .from(collection_batches)
    .leftJoin(warehouses, eq(warehouses.id, collection_batches.warehouse_id));
}

/** One page of a seller's collection batches (search on number and remark) and how many match. */
export async function listBatchViews(
  ex: Executor,
  customerId: string,
  q: { page: number; page_size: number; search?: string; ordering?: string },
): Promise<{ rows: TBatchView[]; count: number }> {
  const b = collection_batches;
  const where = and(eq(b.customer_id, customerId), searchWhere(q.search, [b.number, b.remark]));
  const order = orderingOf(q.ordering, { number: b.number, created_at: b.created_at }, '-created_at', b.id);
  const window = pageWindow(q);
  const [rows, [total]] = await allOf(ex, [
    () =>
      batchViews(ex)
        .where(where)
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset),
    () => ex.select({ n: countAll }).from(collection_batches).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findBatchView(ex: Executor, customerId: string, id: string): Promise<TBatchView | undefined> {
  const [row] = await batchViews(ex).where(
    and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)),
  );
  return row;
}

export async function lockBatch(tx: Tx, customerId: string, id: string): Promise<TBatchRow | undefined> {
  const [row] = await tx
    .select()
    .from(collection_batches)
    .where(and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)))
    .for('update');
  return row;
}

export async function batchOrderIds(ex: Executor, customerId: string, batchId: string): Promise<string[]> {
  const rows = await ex
    .select({ id: outbound_orders.id })
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), eq(outbound_orders.batch_id, batchId)))
    .orderBy(asc(outbound_orders.number));
  return rows.map((r) => r.id);
}

export async function markBatchPicking(tx: Tx, customerId: string, id: string): Promise<void> {
  await tx
    .update(collection_batches)
    .set({ picking_started_at: sql`coalesce(${collection_batches.picking_started_at}, now())` })
    .where(and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)));
}

// ---- the handheld pick walk (pick_scans, pick_totes) ----

export type TPickScanInsert = typeof pick_scans.$inferInsert;
export type TPickTally = {
  order_id: string;
  location_id: string;
  product_id: string;
  expiry_date: string | null;
  picked: number;
  short: number;
};

/** What the pick walk of a batch recorded, summed per order and pile. */
export async function pickTallies(ex: Executor, customerId: string, batchId: string): Promise<TPickTally[]> {
  const rows = await queryRows<TPickTally>(
    ex,
    sql`select order_id, location_id, product_id, expiry_date::text as expiry_date,
          coalesce(sum(quantity) filter (where kind = 'pick'), 0)::int as picked,
          coalesce(sum(quantity) filter (where kind = 'short'), 0)::int as short
        from pick_scans where customer_id = ${customerId} and batch_id = ${batchId}
        group by order_id, location_id, product_id, expiry_date`,
  );
  return rows.map((r) => ({ ...r, picked: Number(r.picked), short: Number(r.short) }));
}

/** Whether a scan of this id was already counted (the handheld sent it again). */
export async function pickScanSeen(tx: Tx, customerId: string, scanId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: pick_scans.id })
    .from(pick_scans)
    .where(and(eq(pick_scans.customer_id, customerId), eq(pick_scans.scan_id, scanId)))
    .limit(1);
  return !!row;
}

/** Record a scan's rows; none when its id is already there (the unique key backs the batch lock). */
export async function insertPickScans(tx: Tx, rows: TPickScanInsert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const done = await tx.insert(pick_scans).values(rows).onConflictDoNothing().returning({ id: pick_scans.id });
  return done.length;
}

export type TPickToteRow = typeof pick_totes.$inferSelect;

export async function batchTotes(ex: Executor, customerId: string, batchId: string): Promise<TPickToteRow[]> {
  return ex
    .select()
    .from(pick_totes)
    .where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.batch_id, batchId)))
    .orderBy(asc(pick_totes.slot));
}

/** The order a tote code belongs to now, with its status. */
export async function findTote(ex: Executor, customerId: string, code: string) {
  const [row] = await ex
    .select({ order_id: pick_totes.order_id, status: outbound_orders.status, number: outbound_orders.number })
    .from(pick_totes)
    .innerJoin(outbound_orders, eq(outbound_orders.id, pick_totes.order_id))
    .where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.tote_code, code)));
  return row;
}

export async function deleteTote(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx.delete(pick_totes).where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.order_id, orderId)));
}

/** Put an order into a tote (or move it to another), keeping its cart slot. */
export async function upsertTote(tx: Tx, row: typeof pick_totes.$inferInsert): Promise<void> {
  await tx
    .insert(pick_totes)
    .values(row)
    .onConflictDoUpdate({ target: pick_totes.order_id, set: { tote_code: row.tote_code } });
}
