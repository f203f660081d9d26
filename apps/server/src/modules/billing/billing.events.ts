import { z } from 'zod';
import type { Executor } from '../../db/client';
import { defineEvent, publishEvent } from '../../platform/events';
import type * as repo from './billing.repository';
import type { TBillingDeps } from './billing.views';

/** The billing module's domain events (subscribers are listed in src/events.ts). */

/** A statement's payment succeeded: the usage module marks the statement paid (once; src/events.ts). */
export const statementPaid = defineEvent(
  'billing.statement-paid',
  z.object({
    statement_id: z.uuid(),
    payment_id: z.uuid(),
    customer_id: z.uuid(),
    order_number: z.string(),
    provider: z.enum(['tappay', 'newebpay']),
    amount: z.string(),
  }),
);
export type TStatementPaid = z.infer<typeof statementPaid.payload>;

const statementPaidOf = (p: repo.TPaymentRow): TStatementPaid => ({
  statement_id: p.statement_id!,
  payment_id: p.id,
  customer_id: p.customer_id,
  order_number: p.order_number,
  provider: p.provider as 'tappay' | 'newebpay',
  amount: p.amount,
});

export async function tellStatementPaid(deps: Pick<TBillingDeps, 'jobs'>, tx: Executor, p: repo.TPaymentRow) {
  await publishEvent(tx, deps.jobs, statementPaid, statementPaidOf(p), {
    customerId: p.customer_id,
    idempotencyKey: `statement-paid:${p.id}`,
  });
}
