import { randomUUID } from 'node:crypto';
import {
  collection_batches,
  order_import_forms,
  outbound_column_settings,
  outbound_order_lines,
  outbound_orders,
  outbound_pack_items,
  outbound_packaging_uses,
  outbound_serials,
  packaging_materials,
  pick_scans,
  pick_totes,
  release_channels,
} from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';
import { stockFactory } from '../../stock/__tests__/factories';

/** Rows of every outbound table for the tenant isolation sweep: a batched order with a line, packing, a serial. */
export const outboundWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const f = stockFactory(db, s.customerId);
  const wh = await f.warehouse();
  const product = await f.product();
  const tag = randomUUID().slice(0, 6);
  const [batch] = await db
    .insert(collection_batches)
    .values({ customer_id: s.customerId, number: `CB-W-${tag}`, warehouse_id: wh.id })
    .returning();
  await db
    .insert(release_channels)
    .values({ customer_id: s.customerId, warehouse_id: wh.id, name: `Channel ${tag}`, max_orders: 20 });
  const [order] = await db
    .insert(outbound_orders)
    .values({
      customer_id: s.customerId,
      number: `SO-W-${tag}`,
      platform_order_number: `PO-W-${tag}`,
      consignment_number: `CN${tag}`,
      recipient_name: 'World recipient',
      recipient_phone: '0912345678',
      recipient_postcode: '100',
      recipient_address: 'Taipei',
      warehouse_id: wh.id,
      status: 'online',
      batch_id: batch!.id,
    })
    .returning();
  await db
    .insert(outbound_order_lines)
    .values({ customer_id: s.customerId, order_id: order!.id, line_no: 1, product_id: product.id, quantity: 1 });
  await db
    .insert(outbound_pack_items)
    .values({ customer_id: s.customerId, order_id: order!.id, product_id: product.id, expected: 1, packed: 1 });
  await db
    .insert(outbound_serials)
    .values({ customer_id: s.customerId, order_id: order!.id, product_id: product.id, serial: `IMEI-W-${tag}` });
  const location = await f.location(wh.id);
  await db.insert(pick_scans).values({
    customer_id: s.customerId,
    batch_id: batch!.id,
    scan_id: randomUUID(),
    order_id: order!.id,
    location_id: location.id,
    product_id: product.id,
    kind: 'pick',
    quantity: 1,
  });
  await db
    .insert(pick_totes)
    .values({ customer_id: s.customerId, batch_id: batch!.id, order_id: order!.id, slot: 1, tote_code: `T-W-${tag}` });
  const [box] = await db
    .insert(packaging_materials)
    .values({ customer_id: s.customerId, code: `BOX-W-${tag}`, quantity: 3 })
    .returning();
  await db
    .insert(outbound_packaging_uses)
    .values({ customer_id: s.customerId, order_id: order!.id, packaging_material_id: box!.id, quantity: 1 });
  await db.insert(order_import_forms).values({
    customer_id: s.customerId,
    name: 'World form',
    mapping: { platform_order_number: ['Order'], product: ['SKU'], quantity: ['Qty'] },
  });
  await db
    .insert(outbound_column_settings)
    .values({ customer_id: s.customerId, screen: 'deliver_list', columns: ['number', 'status'] });
};
