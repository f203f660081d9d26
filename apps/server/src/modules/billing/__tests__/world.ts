import { randomUUID } from 'node:crypto';
import { billing_contracts, billing_payments, billing_reconciliation_items, billing_refunds } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/** Billing: a contract, one transaction record, a refund of it, a reconciliation difference (isolation sweep). */
export const billingWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [contract] = await db
    .insert(billing_contracts)
    .values({
      customer_id: s.customerId,
      plan: 'world',
      price: '1000',
      period: 'quarterly',
      start_date: '2026-01-01',
      payment_terms: '11',
    })
    .returning();
  const [payment] = await db
    .insert(billing_payments)
    .values({
      customer_id: s.customerId,
      contract_id: contract!.id,
      order_number: `BW_${randomUUID().slice(0, 8)}`,
      provider: 'newebpay',
      kind: 'checkout',
      period_start: '2026-01-01',
      period_end: '2026-03-31',
      amount: '1050',
      tax: '50',
      status: 'succeeded',
      provider_transaction_id: randomUUID().slice(0, 12),
    })
    .returning();
  await db.insert(billing_refunds).values({
    customer_id: s.customerId,
    payment_id: payment!.id,
    amount: '100',
    reason: 'world',
    status: 'succeeded',
    idempotency_key: randomUUID(),
  });
  await db.insert(billing_reconciliation_items).values({
    day: '2026-01-02',
    provider: 'newebpay',
    kind: 'not_found_there',
    customer_id: s.customerId,
    payment_id: payment!.id,
    order_number: `BW_${randomUUID().slice(0, 8)}`,
  });
};
