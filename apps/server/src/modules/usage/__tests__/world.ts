import { randomUUID } from 'node:crypto';
import {
  usage_charges,
  usage_disputes,
  usage_rate_cards,
  usage_statements,
  usage_storage_snapshots,
} from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/**
 * Rows of every usage table for the tenant isolation sweep: the seller's own rate card, a storage snapshot, an issued
 * statement, one charge it bills and a dispute of its line.
 */
export const usageWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [card] = await db
    .insert(usage_rate_cards)
    .values({ customer_id: s.customerId, valid_from: '2026-01-01', rates: { pick_order: '12' } })
    .returning();
  const [snapshot] = await db
    .insert(usage_storage_snapshots)
    .values({
      warehouse_id: randomUUID(),
      customer_id: s.customerId,
      day: '2026-01-01',
      locations: 1,
      units: 5,
      litres: 2,
      charged_locations: 1,
      charged_units: 5,
      charged_litres: 2,
      free_days: 0,
    })
    .returning();
  const [charge] = await db
    .insert(usage_charges)
    .values({
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
    })
    .returning();
  const [statement] = await db
    .insert(usage_statements)
    .values({
      customer_id: s.customerId,
      month: '2026-01',
      number: `ST-WORLD-${snapshot!.id.slice(0, 8)}`,
      status: 'issued',
      lines: [{ kind: 'pick_order', events: 1, quantity: 1, amount: '12' }],
      subtotal: '12',
      minimum_fee: '0',
      tax_rate: '0.05',
      tax: '1',
      total: '13',
      issued_at: new Date('2026-02-01T01:00:00Z'),
      billed_through: charge!.seq,
    })
    .returning();
  await db.insert(usage_disputes).values({
    customer_id: s.customerId,
    statement_id: statement!.id,
    kind: 'pick_order',
    event_id: charge!.id,
    ticket_id: randomUUID(),
    reason: 'Two picks were charged for one order',
  });
};
