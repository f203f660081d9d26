import { randomUUID } from 'node:crypto';
import { inbound_receipt_lines, inbound_receipts, stock_transfers } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { TWorldBuilder } from '../../../test/world';
import * as engine from '../stock.engine';
import { stockFactory } from './factories';

/** Rows of the stock and inbound tables for the tenant isolation sweep: stock on hand, a reservation, a transfer, a receipt. */
export const stockWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const f = stockFactory(db, s.customerId);
  const wh = await f.warehouse();
  const loc = await f.location(wh.id);
  const other = await f.location(wh.id);
  const product = await f.product();
  const who = { customerId: s.customerId, userId: s.userId };
  const [receipt] = await db
    .insert(inbound_receipts)
    .values({
      customer_id: s.customerId,
      number: `IN-W-${randomUUID().slice(0, 6)}`,
      warehouse_id: wh.id,
      planned_date: '2026-11-22',
    })
    .returning();
  await db.insert(inbound_receipt_lines).values({
    customer_id: s.customerId,
    receipt_id: receipt!.id,
    line_no: 1,
    product_id: product.id,
    quantity: 10,
  });
  const [transferDoc] = await db
    .insert(stock_transfers)
    .values({
      customer_id: s.customerId,
      number: `TR-W-${randomUUID().slice(0, 6)}`,
      kind: 'single',
      line_count: 1,
      unit_count: 2,
    })
    .returning();
  await withTx(db, async (tx) => {
    await engine.postInbound(tx, who, {
      document: { type: 'inbound', id: receipt!.id, number: receipt!.number },
      lines: [{ productId: product.id, locationId: loc.id, expiryDate: null, quantity: 10 }],
    });
    const [b] = (await engine.reserveForOrder(tx, who, {
      document: { type: 'outbound', id: randomUUID(), number: 'OUT-W' },
      lines: [{ productId: product.id, quantity: 3 }],
    })) as engine.TAllocation[];
    await engine.transfer(tx, who, {
      document: { type: 'transfer', id: transferDoc!.id, number: transferDoc!.number },
      lines: [{ balanceId: b!.balanceId, toLocationId: other.id, quantity: 2 }],
    });
  });
};
