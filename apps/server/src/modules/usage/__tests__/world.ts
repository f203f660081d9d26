import { randomUUID } from 'node:crypto';
import { usage_charges, usage_rate_cards } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/** Rows of every usage table for the tenant isolation sweep: the seller's own rate card and one charge it priced. */
export const usageWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [card] = await db
    .insert(usage_rate_cards)
    .values({ customer_id: s.customerId, valid_from: '2026-01-01', rates: { pick_order: '12' } })
    .returning();
  await db.insert(usage_charges).values({
    customer_id: s.customerId,
    kind: 'pick_order',
    source_type: 'outbound_order',
    source_id: randomUUID(),
    document_number: 'SO-WORLD',
    occurred_at: new Date('2026-01-02T02:00:00Z'),
    day: '2026-01-02',
    quantity: 1,
    unit_price: '12',
    amount: '12',
    rate_card_id: card!.id,
  });
};
