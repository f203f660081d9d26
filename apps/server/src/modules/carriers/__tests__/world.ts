import { eq } from 'drizzle-orm';
import { carrier_events, carrier_labels, logistics_providers, outbound_orders } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/** A seller's ECPay logistics provider, one status callback in an order's tracking history and a stored label. */
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
