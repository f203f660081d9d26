import type { TShopeeArrangement } from '@wms/contracts';
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { outbound_orders, shopee_orders, shopee_shops } from '../../db/schema';

/**
 * Shopee's orders (SQL only, the executor or transaction first): shopee_orders; the shops and pushes are in
 * shopee.shops.repository.ts.
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

/** How many of the shop's orders are abnormal. */
export async function abnormalCount(ex: Executor, shopRef: string): Promise<number> {
  const [abnormal] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(shopee_orders)
    .where(and(eq(shopee_orders.shop_ref, shopRef), eq(shopee_orders.state, 'abnormal')));
  return abnormal?.n ?? 0;
}

/** The shop's Shopee orders among these order_sn, with what became of them. */
export async function orderStates(ex: Executor, shopRef: string, orderSns: string[]) {
  if (!orderSns.length) return [];
  return ex
    .select({ order_sn: shopee_orders.order_sn, state: shopee_orders.state })
    .from(shopee_orders)
    .where(and(eq(shopee_orders.shop_ref, shopRef), inArray(shopee_orders.order_sn, orderSns)));
}

/** The order_sn among these that are settled (created, cancelled, flagged: anything but abnormal). */
export async function settledOrderSns(ex: Executor, shopRef: string, orderSns: string[]): Promise<string[]> {
  if (!orderSns.length) return [];
  const rows = await ex
    .select({ order_sn: shopee_orders.order_sn })
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.shop_ref, shopRef),
        inArray(shopee_orders.order_sn, orderSns),
        ne(shopee_orders.state, 'abnormal'),
      ),
    );
  return rows.map((r) => r.order_sn);
}

/** Records a page of Shopee orders: new ones inserted, abnormal ones overwritten, created ones never downgraded. */
export async function upsertShopeeOrders(tx: Tx, values: Array<typeof shopee_orders.$inferInsert>): Promise<void> {
  if (!values.length) return;
  await tx
    .insert(shopee_orders)
    .values(values)
    .onConflictDoUpdate({
      target: [shopee_orders.shop_ref, shopee_orders.order_sn],
      set: {
        shopee_status: sql`excluded.shopee_status`,
        state: sql`excluded.state`,
        order_id: sql`excluded.order_id`,
        problem: sql`excluded.problem`,
        logistics_channel_id: sql`excluded.logistics_channel_id`,
        logistics_channel_name: sql`excluded.logistics_channel_name`,
        platform_logistics: sql`excluded.platform_logistics`,
        updated_at: sql`now()`,
      },
      // Never downgrade an order already created (a concurrent sync of the same page).
      where: sql`${shopee_orders.state} = 'abnormal'`,
    });
}

/** The shop's orders among these order_sn still open to a cancellation (created or abnormal). */
export async function cancellableOrders(tx: Tx, shopRef: string, orderSns: string[]): Promise<TShopeeOrderRow[]> {
  if (!orderSns.length) return [];
  return tx
    .select()
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.shop_ref, shopRef),
        inArray(shopee_orders.order_sn, orderSns),
        inArray(shopee_orders.state, ['created', 'abnormal']),
      ),
    );
}

export async function setOrderState(tx: Tx, id: string, state: string, shopeeStatus: string): Promise<void> {
  await tx
    .update(shopee_orders)
    .set({ state, shopee_status: shopeeStatus, updated_at: new Date() })
    .where(eq(shopee_orders.id, id));
}

/** Per Shopee-arranged channel (at most 20), the latest of the shop's orders waiting to be arranged. */
export async function channelsAwaitingArrangement(ex: Executor, shopRef: string) {
  return ex
    .selectDistinctOn([shopee_orders.logistics_channel_id], {
      channel_id: shopee_orders.logistics_channel_id,
      channel_name: shopee_orders.logistics_channel_name,
      order_sn: shopee_orders.order_sn,
    })
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.shop_ref, shopRef),
        eq(shopee_orders.platform_logistics, true),
        eq(shopee_orders.state, 'created'),
        isNull(shopee_orders.arranged_at),
        isNotNull(shopee_orders.logistics_channel_id),
      ),
    )
    .orderBy(shopee_orders.logistics_channel_id, desc(shopee_orders.updated_at))
    .limit(20);
}

/** The order_sn of the seller's abnormal orders of the shop (these ids, or any), oldest first, at most 500. */
export async function abnormalOrderSns(
  ex: Executor,
  customerId: string,
  shopRef: string,
  ids?: string[],
): Promise<string[]> {
  const rows = await ex
    .select({ order_sn: shopee_orders.order_sn })
    .from(shopee_orders)
    .where(
      and(
        eq(shopee_orders.shop_ref, shopRef),
        eq(shopee_orders.customer_id, customerId),
        eq(shopee_orders.state, 'abnormal'),
        ids ? inArray(shopee_orders.id, ids) : undefined,
      ),
    )
    .orderBy(shopee_orders.updated_at)
    .limit(500);
  return rows.map((r) => r.order_sn);
}

/** A page of the seller's orders of the shop (those that need a person first) and how many match. */
export async function shopOrderPage(
  ex: Executor,
  customerId: string,
  shopRef: string,
  q: { state?: string | undefined; page: number; page_size: number },
) {
  const where = and(
    eq(shopee_orders.shop_ref, shopRef),
    eq(shopee_orders.customer_id, customerId),
    q.state ? eq(shopee_orders.state, q.state) : undefined,
  );
  const rows = await ex
    .select()
    .from(shopee_orders)
    .where(where)
    .orderBy(sql`${shopee_orders.state} = 'created'`, desc(shopee_orders.updated_at), desc(shopee_orders.order_sn))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  const [total] = await ex.select({ n: sql<number>`count(*)::int` }).from(shopee_orders).where(where);
  return { rows, count: total?.n ?? 0 };
}

/**
 * Retention: a Shopee order keeps its row when its order is purged (it keeps deduplicating the marketplace's order,
 * so a later sync never creates it again); the link is emptied.
 */
export async function unlinkShopeeOrders(tx: Tx, customerId: string, orderIds: string[]): Promise<void> {
  await tx
    .update(shopee_orders)
    .set({ order_id: null })
    .where(and(eq(shopee_orders.customer_id, customerId), inArray(shopee_orders.order_id, orderIds)));
}
