import { randomUUID } from 'node:crypto';
import {
  outbound_orders,
  return_receipt_lines,
  return_receipts,
  supplier_return_lines,
  supplier_returns,
} from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { TWorldBuilder } from '../../../test/world';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';

/** Rows of every returns table for the tenant isolation sweep: a return of an order, a reserved return-to-supplier. */
export const returnsWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const f = stockFactory(db, s.customerId);
  const wh = await f.warehouse();
  const loc = await f.location(wh.id);
  const product = await f.product();
  const tag = randomUUID().slice(0, 6);
  const [order] = await db
    .insert(outbound_orders)
    .values({
      customer_id: s.customerId,
      number: `SO-RW-${tag}`,
      recipient_name: 'Return world',
      recipient_postcode: '100',
      recipient_address: 'Taipei',
      warehouse_id: wh.id,
      status: 'closed',
    })
    .returning();
  const [receipt] = await db
    .insert(return_receipts)
    .values({
      customer_id: s.customerId,
      number: `RT-W-${tag}`,
      warehouse_id: wh.id,
      category: 'customer_return',
      planned_date: '2026-11-22',
      order_id: order!.id,
      order_number: order!.number,
    })
    .returning();
  await db.insert(return_receipt_lines).values({
    customer_id: s.customerId,
    receipt_id: receipt!.id,
    line_no: 1,
    product_id: product.id,
    quantity: 2,
  });
  const [doc] = await db
    .insert(supplier_returns)
    .values({
      customer_id: s.customerId,
      number: `RS-W-${tag}`,
      warehouse_id: wh.id,
      supplier_name: 'World supplier',
      planned_date: '2026-11-22',
    })
    .returning();
  const who = { customerId: s.customerId, userId: s.userId };
  await withTx(db, async (tx) => {
    const [moved] = await engine.postInbound(tx, who, {
      document: { type: 'inbound', id: null, number: `IN-RW-${tag}` },
      lines: [{ productId: product.id, locationId: loc.id, expiryDate: null, quantity: 5 }],
    });
    await engine.reserve(tx, who, {
      document: { type: 'supplier_return', id: doc!.id, number: doc!.number },
      lines: [{ balanceId: moved!.balanceId, quantity: 1 }],
    });
    await tx.insert(supplier_return_lines).values({
      customer_id: s.customerId,
      supplier_return_id: doc!.id,
      line_no: 1,
      balance_id: moved!.balanceId,
      product_id: product.id,
      location_id: loc.id,
      quantity: 1,
    });
  });
};
