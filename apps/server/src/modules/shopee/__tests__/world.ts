import { ecommerce_platforms, shopee_orders, shopee_shops } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/** A seller's connected Shopee shop (no tokens: nothing calls out) and one order_sn a sync kept as abnormal. */
export const shopeeWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const shopId = 900_000 + Math.floor(Math.random() * 99_999);
  const [platform] = await db
    .insert(ecommerce_platforms)
    .values({ customer_id: s.customerId, code: `SHOPEE-${shopId}`, name: `Shopee ${shopId}` })
    .returning();
  const [shop] = await db
    .insert(shopee_shops)
    .values({ customer_id: s.customerId, shop_id: shopId, name: `Shopee ${shopId}`, platform_id: platform!.id })
    .returning();
  await db.insert(shopee_orders).values({
    customer_id: s.customerId,
    shop_ref: shop!.id,
    order_sn: `WORLD${shopId}`,
    shopee_status: 'READY_TO_SHIP',
    state: 'abnormal',
    problem: { code: 'PRODUCT_ABNORMAL', field: 'product', value: 'GHOST' },
  });
};
