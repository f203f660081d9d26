import type { TShopeeArrangement } from '@wms/contracts';
import { and, eq, inArray, isNotNull, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { outbound_orders, shopee_orders, shopee_shops } from '../../db/schema';

/**
 * Shopee's data access (SQL only, the executor or transaction first): shopee_orders, shopee_shops, shopee_pushes.
 * One query reads another module's table: `lockShippedUnqueued` joins outbound_orders read-only (the safety-net scan
 * picks, under one lock, the Shopee orders whose order shipped).
 */

export type TShopeeOrderRow = typeof shopee_orders.$inferSelect;

/**
 * The seller's Shopee orders, by our order ids, whose channel Shopee arranges (their number and label come from
 * Shopee, not from a carrier of ours): a read model for carriers.
 */
export async function platformArrangedOrders(
  ex: Executor,
  customerId: string,
  orderIds: string[],
): Promise<TShopeeOrderRow[]> {
  if (!orderIds.length) return [];
  return ex
    .select()
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.customer_id, customerId),
        inArray(shopee_orders.order_id, orderIds),
        eq(shopee_orders.platform_logistics, true),
      ),
    );
}

/** The seller's Shopee order behind our order, if it came from Shopee: a read model for carriers. */
export async function shopeeOrderOf(
  ex: Executor,
  customerId: string,
  orderId: string,
): Promise<TShopeeOrderRow | undefined> {
  const [row] = await ex
    .select()
    .from(shopee_orders)
    .where(and(eq(shopee_orders.customer_id, customerId), eq(shopee_orders.order_id, orderId)));
  return row;
}

/** One Shopee order row by its id. */
export async function findShopeeOrder(ex: Executor, id: string): Promise<TShopeeOrderRow | undefined> {
  const [row] = await ex.select().from(shopee_orders).where(eq(shopee_orders.id, id));
  return row;
}

/** The seller's Shopee order behind our order when its channel is Shopee-arranged. */
export async function platformLogisticsOrderOf(
  ex: Executor,
  customerId: string,
  orderId: string,
): Promise<TShopeeOrderRow | undefined> {
  const [row] = await ex
    .select()
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.customer_id, customerId),
        eq(shopee_orders.order_id, orderId),
        eq(shopee_orders.platform_logistics, true),
      ),
    );
  return row;
}

/** Claims an unarranged order for one arranging run (no claim, or one older than `lapsedBefore`): the row, or none. */
export async function claimArranging(
  ex: Executor,
  id: string,
  lapsedBefore: Date,
): Promise<TShopeeOrderRow | undefined> {
  const [claimed] = await ex
    .update(shopee_orders)
    .set({ arranging_at: new Date() })
    .where(
      and(
        eq(shopee_orders.id, id),
        isNull(shopee_orders.arranged_at),
        or(isNull(shopee_orders.arranging_at), lt(shopee_orders.arranging_at, lapsedBefore)),
      ),
    )
    .returning();
  return claimed;
}

/** Shopee arranged the order: answers the row. */
export async function markArranged(
  ex: Executor,
  id: string,
  arrangement: TShopeeArrangement | null,
): Promise<TShopeeOrderRow> {
  const [done] = await ex
    .update(shopee_orders)
    .set({ arranged_at: new Date(), arrangement, updated_at: new Date() })
    .where(eq(shopee_orders.id, id))
    .returning();
  return done!;
}

/** The arranging claim set (a time) or dropped (null). */
export async function setArrangingAt(ex: Executor, id: string, at: Date | null): Promise<void> {
  await ex.update(shopee_orders).set({ arranging_at: at }).where(eq(shopee_orders.id, id));
}

export async function setTrackingNumber(ex: Executor, id: string, trackingNumber: string): Promise<void> {
  await ex
    .update(shopee_orders)
    .set({ tracking_number: trackingNumber, updated_at: new Date() })
    .where(eq(shopee_orders.id, id));
}

/** Shopee has the shipment (`shopee_status` too when given). */
export async function markShipped(ex: Executor, id: string, shopeeStatus?: string): Promise<void> {
  await ex
    .update(shopee_orders)
    .set({ shipped_at: new Date(), ...(shopeeStatus ? { shopee_status: shopeeStatus } : {}), updated_at: new Date() })
    .where(eq(shopee_orders.id, id));
}

/** The seller's Shopee order behind our order, not handed on yet, locked for the rest of the transaction. */
export async function lockUnqueuedShipment(tx: Tx, customerId: string, orderId: string) {
  const [row] = await tx
    .select({ id: shopee_orders.id })
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.customer_id, customerId),
        eq(shopee_orders.order_id, orderId),
        eq(shopee_orders.state, 'created'),
        isNull(shopee_orders.ship_queued_at),
      ),
    )
    .for('update');
  return row;
}

/** Stamps these Shopee orders as handed on (their `shopee.ship` message written). */
export async function markShipQueued(tx: Tx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await tx.update(shopee_orders).set({ ship_queued_at: sql`now()` }).where(inArray(shopee_orders.id, ids));
}

/**
 * Up to `limit` Shopee orders not handed on whose order shipped out (`statuses`) with a consignment number, locked
 * (skipping rows another scan holds).
 */
export async function lockShippedUnqueued(tx: Tx, statuses: readonly string[], limit: number) {
  return tx
    .select({
      id: shopee_orders.id,
      customer_id: shopee_orders.customer_id,
      tracking: outbound_orders.consignment_number,
    })
    .from(shopee_orders)
    .innerJoin(outbound_orders, eq(outbound_orders.id, shopee_orders.order_id))
    .where(
      and(
        eq(shopee_orders.state, 'created'),
        isNull(shopee_orders.ship_queued_at),
        isNotNull(outbound_orders.consignment_number),
        inArray(outbound_orders.status, [...statuses]),
      ),
    )
    .limit(limit)
    .for('update', { of: shopee_orders, skipLocked: true });
}

/** The seller's abnormal orders waiting for an unknown product code, in shops that still sync. */
export async function abnormalForProduct(ex: Executor, customerId: string) {
  return ex
    .select({
      shop: shopee_orders.shop_ref,
      order_sn: shopee_orders.order_sn,
      value: sql<string | null>`${shopee_orders.problem}->>'value'`,
    })
    .from(shopee_orders)
    .innerJoin(shopee_shops, eq(shopee_shops.id, shopee_orders.shop_ref))
    .where(
      and(
        eq(shopee_orders.customer_id, customerId),
        eq(shopee_orders.state, 'abnormal'),
        sql`${shopee_orders.problem}->>'code' = 'PRODUCT_ABNORMAL'`,
        notInArray(shopee_shops.state, ['disconnected', 'reauthorize']),
      ),
    );
}

/** The product codes the seller's abnormal orders wait for (any shop). */
export async function awaitedProductCodes(ex: Executor, customerId: string) {
  return ex
    .selectDistinct({ value: sql<string | null>`${shopee_orders.problem}->>'value'` })
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.customer_id, customerId),
        eq(shopee_orders.state, 'abnormal'),
        sql`${shopee_orders.problem}->>'code' = 'PRODUCT_ABNORMAL'`,
      ),
    );
}

export type TShopRow = typeof shopee_shops.$inferSelect;

/** Shops by id (any seller's: the caller has the ids from the seller's own rows). */
export async function shopsByIds(ex: Executor, ids: string[]): Promise<TShopRow[]> {
  if (!ids.length) return [];
  return ex.select().from(shopee_shops).where(inArray(shopee_shops.id, ids));
}


/** One shop by id. */
export async function findShop(ex: Executor, id: string): Promise<TShopRow | undefined> {
  const [row] = await ex.select().from(shopee_shops).where(eq(shopee_shops.id, id));
  return row;
}

/** A shop's columns changed (tokens, sync stamps, settings…). */
export async function updateShop(ex: Executor, id: string, patch: Partial<typeof shopee_shops.$inferInsert>) {
  await ex.update(shopee_shops).set(patch).where(eq(shopee_shops.id, id));
}

/** The last failure on the shop: state "error", unless it is disconnected or waits to be authorised again. */
export async function setShopError(ex: Executor, id: string, error: { code: string; message: string }) {
  await ex
    .update(shopee_shops)
    .set({
      state: sql`case when ${shopee_shops.state} in ('disconnected', 'reauthorize') then ${shopee_shops.state} else 'error' end`,
      last_error_code: error.code,
      last_error_message: error.message,
      last_error_at: new Date(),
    })
    .where(eq(shopee_shops.id, id));
}

/** The shop waits to be authorised again (unless disconnected meanwhile). */
export async function setShopReauthorize(ex: Executor, id: string, error: { code: string; message: string }) {
  await ex
    .update(shopee_shops)
    .set({
      state: 'reauthorize',
      last_error_code: error.code,
      last_error_message: error.message,
      last_error_at: new Date(),
    })
    .where(and(eq(shopee_shops.id, id), ne(shopee_shops.state, 'disconnected')));
}

/** How many of the shop's orders are abnormal. */
export async function abnormalCount(ex: Executor, shopRef: string): Promise<number> {
  const [abnormal] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(shopee_orders)
    .where(and(eq(shopee_orders.shop_ref, shopRef), eq(shopee_orders.state, 'abnormal')));
  return abnormal?.n ?? 0;
}
