import type { TOrderStatus } from '@wms/contracts';
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, insertJsonRows, queryRows, type Tx, uuidArray } from '../../db/client';
import {
  collection_batches,
  ecommerce_platforms,
  logistics_providers,
  outbound_order_lines,
  outbound_orders,
  products,
  warehouses,
} from '../../db/schema';
import type { TPurgeKind } from '../../platform/purge';
import { holdsStockSql } from '../stock';

/**
 * The SQL of orders and their lines (outbound_orders, outbound_order_lines): rows and views by id, number or code,
 * locks, the conditional status change, edits, the read models other modules use (through index.ts), ship-by and
 * retention. Every function takes the executor first.
 */

export type TOrderRow = typeof outbound_orders.$inferSelect;
export type TOrderInsert = typeof outbound_orders.$inferInsert;

/** The document type of an order in the stock engine's reservations and ledger. */
export const ORDER_DOCUMENT = 'outbound';

// ---- orders ----

// Qualified by hand: the subqueries must see the outer order row.
const lineCount = sql<number>`(select count(*)::int from outbound_order_lines ol where ol.order_id = "outbound_orders"."id")`;
const unitCount = sql<number>`(select coalesce(sum(ol.quantity), 0)::int from outbound_order_lines ol where ol.order_id = "outbound_orders"."id")`;

/** An order with the codes and names the API shows next to its ids. */
export const orderColumns = {
  order: outbound_orders,
  warehouse_code: warehouses.code,
  provider_code: logistics_providers.code,
  provider_name: logistics_providers.name,
  platform_code: ecommerce_platforms.code,
  platform_name: ecommerce_platforms.name,
  batch_number: collection_batches.number,
  line_count: lineCount,
  unit_count: unitCount,
};
export type TOrderView = {
  order: TOrderRow;
  warehouse_code: string | null;
  provider_code: string | null;
  provider_name: string | null;
  platform_code: string | null;
  platform_name: string | null;
  batch_number: string | null;
  line_count: number;
  unit_count: number;
};

export function orderViews(ex: Executor) {
  return ex
    .select(orderColumns)
    .from(outbound_orders)
    .leftJoin(warehouses, eq(warehouses.id, outbound_orders.warehouse_id))
    .leftJoin(logistics_providers, eq(logistics_providers.id, outbound_orders.logistics_provider_id))
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, outbound_orders.platform_id))
    .leftJoin(collection_batches, eq(collection_batches.id, outbound_orders.batch_id));
}

export async function findOrderViews(ex: Executor, customerId: string, ids: string[]): Promise<TOrderView[]> {
  if (ids.length === 0) return [];
  return orderViews(ex).where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

export async function findOrderView(ex: Executor, customerId: string, id: string): Promise<TOrderView | undefined> {
  const [row] = await findOrderViews(ex, customerId, [id]);
  return row;
}

/** An order by what a scanner or a user types: our number, the consignment number, or the platform's number. */
export async function findOrderIdByCode(ex: Executor, customerId: string, code: string): Promise<string | undefined> {
  const o = outbound_orders;
  const rows = await ex
    .select({ id: o.id, number: o.number, consignment: o.consignment_number })
    .from(o)
    .where(
      and(
        eq(o.customer_id, customerId),
        or(eq(o.number, code), eq(o.consignment_number, code), eq(o.platform_order_number, code)),
      ),
    )
    .limit(3);
  const exact = rows.find((r) => r.number === code) ?? rows.find((r) => r.consignment === code) ?? rows[0];
  return exact?.id;
}

/** An order by our number or the platform's order number (consignment files and forms name orders so). */
export async function findOrderByNumber(ex: Executor, customerId: string, code: string) {
  const o = outbound_orders;
  const [row] = await ex
    .select({ id: o.id, status: o.status })
    .from(o)
    .where(and(eq(o.customer_id, customerId), or(eq(o.number, code), eq(o.platform_order_number, code))))
    .limit(1);
  return row;
}

/** The seller's orders of these ids (rows; unknown ids left out): a read model for carriers. */
export async function findOrders(ex: Executor, customerId: string, ids: string[]): Promise<TOrderRow[]> {
  if (!ids.length) return [];
  return ex
    .select()
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

/** The seller's order with this number, or (when given) this consignment number: whom a carrier's notice is about. */
export async function findOrderIdByNumberOrConsignment(
  ex: Executor,
  customerId: string,
  number: string,
  consignment: string,
): Promise<string | undefined> {
  const [row] = await ex
    .select({ id: outbound_orders.id })
    .from(outbound_orders)
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        or(
          eq(outbound_orders.number, number),
          consignment ? eq(outbound_orders.consignment_number, consignment) : undefined,
        ),
      ),
    )
    .limit(1);
  return row?.id;
}

/** Lock an order row for the rest of the transaction (status checks then see the latest status). */
export async function lockOrder(tx: Tx, customerId: string, id: string): Promise<TOrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(outbound_orders)
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)))
    .for('update');
  return row;
}

/**
 * Lock an order (as `lockOrder`) and read it as a view in the same statement, with `extra` (e.g. the caller's grants,
 * `grantsToRead`) as one more column.
 */
export async function lockOrderView(
  tx: Tx,
  customerId: string,
  id: string,
  extra?: SQL,
): Promise<{ view: TOrderView; extra: string | null } | undefined> {
  const [row] = await tx
    .select({ ...orderColumns, extra: extra ? sql<string | null>`${extra}` : sql<null>`null` })
    .from(outbound_orders)
    .leftJoin(warehouses, eq(warehouses.id, outbound_orders.warehouse_id))
    .leftJoin(logistics_providers, eq(logistics_providers.id, outbound_orders.logistics_provider_id))
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, outbound_orders.platform_id))
    .leftJoin(collection_batches, eq(collection_batches.id, outbound_orders.batch_id))
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)))
    .for('update', { of: outbound_orders });
  if (!row) return undefined;
  const { extra: value, ...view } = row;
  return { view, extra: value };
}

export async function insertOrders(tx: Tx, values: TOrderInsert[]): Promise<TOrderRow[]> {
  if (values.length === 0) return [];
  return tx.insert(outbound_orders).values(values).returning();
}

/** The numbers of the seller's orders of these ids: id → number (a read model for Shopee's order list). */
export async function orderNumbersOf(ex: Executor, customerId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({ id: outbound_orders.id, number: outbound_orders.number })
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
  return new Map(rows.map((r) => [r.id, r.number]));
}

/** The seller's orders of one platform by platform order number: number → order id (a read model for Shopee). */
export async function orderIdsByPlatformNumber(
  ex: Executor,
  customerId: string,
  platformId: string,
  numbers: string[],
): Promise<Map<string, string>> {
  if (numbers.length === 0) return new Map();
  const rows = await ex
    .select({ id: outbound_orders.id, sn: outbound_orders.platform_order_number })
    .from(outbound_orders)
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        eq(outbound_orders.platform_id, platformId),
        inArray(outbound_orders.platform_order_number, numbers),
      ),
    );
  return new Map(rows.map((r) => [r.sn!, r.id]));
}

export async function updateOrder(tx: Tx, customerId: string, id: string, patch: Partial<TOrderInsert>) {
  await tx
    .update(outbound_orders)
    .set(patch)
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)));
}

/** Take the consignment numbers off these orders (before setting new ones: two orders may swap numbers). */
export async function clearConsignments(tx: Tx, customerId: string, ids: string[]): Promise<void> {
  await tx
    .update(outbound_orders)
    .set({ consignment_number: null })
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

/**
 * The status change of the workflow as one conditional statement: only from the allowed statuses. Zero rows
 * (someone else changed the order first) is the caller's 409.
 */
export async function changeStatus(
  tx: Tx,
  customerId: string,
  id: string,
  from: readonly TOrderStatus[],
  set: Partial<TOrderInsert> & { status: TOrderStatus },
): Promise<TOrderRow | undefined> {
  const [row] = await tx
    .update(outbound_orders)
    .set(set)
    .where(
      and(
        eq(outbound_orders.id, id),
        eq(outbound_orders.customer_id, customerId),
        inArray(outbound_orders.status, [...from]),
      ),
    )
    .returning();
  return row;
}

// ---- lines ----

export const LINE_COLUMNS = [
  'customer_id',
  'order_id',
  'line_no',
  'product_id',
  'quantity',
  'unit_price',
  'source_row',
] as const;

/** Insert order lines in one statement (the rows as one JSON parameter: an import writes thousands at a time). */
export async function insertLines(
  tx: Tx,
  values: Array<
    Pick<typeof outbound_order_lines.$inferInsert, 'customer_id' | 'order_id' | 'line_no' | 'product_id' | 'quantity'> &
      Partial<Pick<typeof outbound_order_lines.$inferInsert, 'unit_price' | 'source_row'>>
  >,
): Promise<void> {
  await insertJsonRows(tx, outbound_order_lines, LINE_COLUMNS, values);
}

export async function deleteLines(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx
    .delete(outbound_order_lines)
    .where(and(eq(outbound_order_lines.order_id, orderId), eq(outbound_order_lines.customer_id, customerId)));
}

export async function orderLines(ex: Executor, customerId: string, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  const l = outbound_order_lines;
  return ex
    .select({
      id: l.id,
      order_id: l.order_id,
      line_no: l.line_no,
      product_id: l.product_id,
      quantity: l.quantity,
      unit_price: l.unit_price,
      source_row: l.source_row,
      product_number: products.number,
      product_name: products.name,
      product_type: products.type,
      barcode: products.barcode,
    })
    .from(l)
    .innerJoin(products, eq(products.id, l.product_id))
    .where(and(eq(l.customer_id, customerId), sql`${l.order_id} = any(${uuidArray(orderIds)})`))
    .orderBy(asc(l.order_id), asc(l.line_no));
}

/** Orders holding any of these consignment numbers (imports and consignment inputs check their numbers against them). */
export async function ordersByConsignment(ex: Executor, customerId: string, numbers: string[]) {
  const rows: Array<{
    id: string;
    consignment_number: string;
    platform_id: string | null;
    platform_order_number: string | null;
  }> = [];
  for (let i = 0; i < numbers.length; i += 1000) {
    const found = await ex
      .select({
        id: outbound_orders.id,
        consignment_number: outbound_orders.consignment_number,
        platform_id: outbound_orders.platform_id,
        platform_order_number: outbound_orders.platform_order_number,
      })
      .from(outbound_orders)
      .where(
        and(
          eq(outbound_orders.customer_id, customerId),
          inArray(outbound_orders.consignment_number, numbers.slice(i, i + 1000)),
        ),
      );
    rows.push(...(found as typeof rows));
  }
  return rows;
}

/**
 * Retention (/database-clean): the seller's finished orders (closed, returned or cancelled) before the cut-off. An
 * order still holding stock (a reservation above zero) is never purged: its balance's `reserved` needs it. `purge`
 * deletes the orders (their lines, pack items, serials, packaging uses and carrier labels cascade); the rows of other
 * modules that point at them are handled by those modules first (retention.kinds.ts).
 */
export const outboundOrdersPurge: TPurgeKind = {
  table: 'outbound_orders',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.status in ('closed', 'closed_returned', 'cancelled')
      and coalesce(t.closed_at, t.cancelled_at, t.updated_at) < ${cutoff}
      and not ${holdsStockSql(sql`t.id`)}`,
  exportSelect: sql`t.number as ref, t.status as status, coalesce(t.closed_at, t.cancelled_at, t.updated_at) as at,
      t.recipient_name as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(outbound_orders)
      .where(and(eq(outbound_orders.customer_id, c), inArray(outbound_orders.id, ids)))
      .returning({ id: outbound_orders.id });
    return gone.length;
  },
};

/** What an order's ship-by time is computed from, locked (the caller's transaction). */
export async function lockOrderShipping(ex: Executor, customerId: string, orderId: string) {
  const o = outbound_orders;
  const [row] = await ex
    .select({
      status: o.status,
      warehouse_id: o.warehouse_id,
      logistics_provider_id: o.logistics_provider_id,
      created_at: o.created_at,
    })
    .from(o)
    .where(and(eq(o.id, orderId), eq(o.customer_id, customerId)))
    .for('update');
  return row;
}

/** The convenience-store chain an order is delivered to (UNIMART, FAMI, HILIFE, OKMART), or null. */
export async function cvsChainOfOrder(ex: Executor, customerId: string, orderId: string): Promise<string | null> {
  const [row] = await queryRows<{ subtype: string }>(
    ex,
    sql`select subtype from order_cvs_stores where customer_id = ${customerId} and order_id = ${orderId}`,
  );
  return row ? row.subtype.replace(/C2C$/, '') : null;
}

/** Set an order's ship-by time. */
export async function setShipBy(tx: Executor, customerId: string, orderId: string, shipBy: Date): Promise<void> {
  await tx
    .update(outbound_orders)
    .set({ ship_by: shipBy })
    .where(and(eq(outbound_orders.customer_id, customerId), eq(outbound_orders.id, orderId)));
}
