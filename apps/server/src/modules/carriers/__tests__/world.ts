import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  carrier_events,
  carrier_labels,
  cvs_map_requests,
  logistics_providers,
  order_cvs_stores,
  outbound_orders,
} from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/**
 * A seller's ECPay logistics provider, one status callback in an order's tracking history, a stored label, and an
 * order's convenience store with the map request that chose it.
 */
export const carriersWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [provider] = await db
    .insert(logistics_providers)
    .values({ customer_id: s.customerId, code: 'ECPAY-WORLD', name: 'ECPay world', carrier_type: 'ecpay' })
    .returning();
  const [order] = await db
    .select({ id: outbound_orders.id })
    .from(outbound_orders)
    .where(eq(outbound_orders.customer_id, s.customerId))
    .limit(1);
  await db.insert(carrier_events).values({
    customer_id: s.customerId,
    logistics_provider_id: provider!.id,
    order_id: order?.id ?? null,
    carrier: 'ecpay',
    merchant_trade_no: 'WORLD1',
    status_code: '3024',
    status_text: 'world',
  });
  if (order) {
    await db.insert(order_cvs_stores).values({
      order_id: order.id,
      customer_id: s.customerId,
      subtype: 'UNIMARTC2C',
      store_id: '991182',
      store_name: 'World store',
      store_address: '臺北市',
      source: 'map',
    });
    await db.insert(cvs_map_requests).values({
      customer_id: s.customerId,
      order_id: order.id,
      logistics_provider_id: provider!.id,
      token: randomUUID().replace(/-/g, '').slice(0, 20),
      subtype: 'UNIMARTC2C',
    });
  }
  if (order)
    await db.insert(carrier_labels).values({
      order_id: order.id,
      customer_id: s.customerId,
      carrier: 'tcat',
      consignment_number: '905074230999',
      file_no: 'WORLD-FILE',
      content: Buffer.from('%PDF-1.4 world'),
    });
};
