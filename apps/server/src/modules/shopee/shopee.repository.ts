import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { shopee_orders } from '../../db/schema';

/** Shopee's data access (SQL only, the executor or transaction first): shopee_orders, shopee_shops, shopee_pushes. */

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
