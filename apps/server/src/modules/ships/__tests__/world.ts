import { eq } from 'drizzle-orm';
import {
  logistics_providers,
  outbound_orders,
  seller_ship_slas,
  ship_cutoffs,
  ship_manifest_parcels,
  ship_manifests,
  warehouse_holidays,
  warehouse_ship_days,
  warehouses,
} from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/**
 * Ship-by promises: a cut-off of the seller's carrier at its warehouse, its weekdays and a holiday, the seller's promise;
 * a manifest of that carrier with one of the seller's orders on it.
 */
export const shipsWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [wh] = await db.select().from(warehouses).where(eq(warehouses.customer_id, s.customerId)).limit(1);
  const [carrier] = await db
    .select()
    .from(logistics_providers)
    .where(eq(logistics_providers.customer_id, s.customerId))
    .limit(1);
  await db.insert(ship_cutoffs).values({
    customer_id: s.customerId,
    warehouse_id: wh!.id,
    logistics_provider_id: carrier!.id,
    cutoff_time: '12:30',
    pickup_time: '16:00',
  });
  await db.insert(warehouse_holidays).values({ customer_id: s.customerId, warehouse_id: wh!.id, day: '2027-01-01' });
  await db
    .insert(warehouse_ship_days)
    .values({ customer_id: s.customerId, warehouse_id: wh!.id, weekdays: [1, 2, 3, 4, 5, 6] });
  await db.insert(seller_ship_slas).values({ customer_id: s.customerId, kind: 'same_day', before_time: '12:00' });
  const [order] = await db.select().from(outbound_orders).where(eq(outbound_orders.customer_id, s.customerId)).limit(1);
  const [manifest] = await db
    .insert(ship_manifests)
    .values({
      customer_id: s.customerId,
      warehouse_id: wh!.id,
      logistics_provider_id: carrier!.id,
      number: `MF-W-${s.customerId.slice(0, 8)}`,
    })
    .returning();
  await db.insert(ship_manifest_parcels).values({
    order_id: order!.id,
    manifest_id: manifest!.id,
    customer_id: s.customerId,
    scanned_code: order!.number,
  });
};
