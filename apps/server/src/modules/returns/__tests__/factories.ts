import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { queryRows } from '../../../db/client';
import { outbound_order_lines, outbound_orders } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import * as engine from '../../stock/stock.engine';

/**
 * Test data for the returns suites, through drizzle and the stock engine (the outbound and catalog APIs are other
 * modules'; these tests must not depend on their screens).
 */
export function returnsFactory(db: Db, who: { customerId: string; userId: string }) {
  return {
    /** Put stock into a location (an inbound posting). */
    async put(productId: string, locationId: string, quantity: number, expiryDate: string | null = null) {
      const [m] = await withTx(db, (tx) =>
        engine.postInbound(tx, who, {
          document: { type: 'test', id: null, number: `T-${randomUUID().slice(0, 6)}` },
          lines: [{ productId, locationId, expiryDate, quantity }],
        }),
      );
      return m!.balanceId;
    },

    /**
     * An order that has shipped (status closed) the given quantities: its stock was reserved and consumed through
     * the engine under the order's document, as outbound does, so the ledger knows what left for it.
     */
    async shippedOrder(
      warehouseId: string,
      lines: Array<{ productId: string; quantity: number }>,
      status: 'closed' | 'exported' | 'online' = 'closed',
    ) {
      const tag = randomUUID().slice(0, 6);
      const [order] = await db
        .insert(outbound_orders)
        .values({
          customer_id: who.customerId,
          number: `OUT-T-${tag}`,
          consignment_number: `CN${tag}`,
          recipient_name: 'Return test',
          recipient_postcode: '100',
          recipient_address: 'Taipei',
          warehouse_id: warehouseId,
          status,
        })
        .returning();
      await db.insert(outbound_order_lines).values(
        lines.map((l, i) => ({
          customer_id: who.customerId,
          order_id: order!.id,
          line_no: i + 1,
          product_id: l.productId,
          quantity: l.quantity,
        })),
      );
      if (status === 'closed')
        await withTx(db, async (tx) => {
          const document = { type: 'outbound', id: order!.id, number: order!.number };
          await engine.reserveForOrder(tx, who, { document, warehouseId, lines });
          await engine.consumeReserved(tx, who, { document });
        });
      return order!;
    },

    async orderStatus(orderId: string): Promise<string> {
      const [row] = await queryRows<{ status: string }>(
        db,
        sql`select status from outbound_orders where id = ${orderId}`,
      );
      return row!.status;
    },

    async onHand(productId: string, locationId: string) {
      const [row] = await queryRows<{ on_hand: number; reserved: number }>(
        db,
        sql`select coalesce(sum(on_hand), 0)::int as on_hand, coalesce(sum(reserved), 0)::int as reserved
            from stock_balances where product_id = ${productId} and location_id = ${locationId}`,
      );
      return { onHand: Number(row?.on_hand ?? 0), reserved: Number(row?.reserved ?? 0) };
    },

    async movementsOf(documentId: string) {
      return queryRows<{ product_id: string; location_id: string; quantity: number; reason: string }>(
        db,
        sql`select product_id, location_id, quantity, reason from stock_movements
            where document_id = ${documentId} order by id`,
      );
    },
  };
}
