import { formatTwd, type TBillingRefund, type TBillingRefundInput, ZBillingRefundInput } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import * as repo from './billing.repository';
import { newebpayOf, refundView, type TBillingDeps, tappayOf } from './billing.views';

// ---- refunds (CRM)

/**
 * The operator's staff refund a seller's payment, fully (no amount) or in part, with a reason — once per idempotency
 * key. Write, then call: under the payment's row lock the refund is checked (the payment succeeded; no other refund
 * waiting for its answer; the amount within what is left) and committed pending with its audit row; the gateway is
 * called outside any transaction (TapPay transaction/refund, NewebPay CreditCard/Close); its answer is recorded on
 * the refund. The same key again answers the same refund without calling the gateway. No answer: the refund stays
 * pending (never sent again blindly) and further refunds of the payment wait.
 */
export async function refundPayment(
  deps: TBillingDeps,
  actor: TActor,
  customerId: string,
  paymentId: string,
  input: TBillingRefundInput,
): Promise<TBillingRefund> {
  const body = ZBillingRefundInput.parse(input);
  const started = await withTx(deps.db, async (tx) => {
    const payment = await repo.lockPayment(tx, paymentId);
    if (!payment || payment.customer_id !== customerId) throw notFound();
    const same = await repo.findRefundByKey(tx, payment.id, body.idempotency_key);
    if (same) return { refund: same, payment, fresh: false };
    if (payment.status !== 'succeeded')
      throw new AppError('PAYMENT_NOT_REFUNDABLE', { order_number: payment.order_number });
    const earlier = (await repo.refundsOf(tx, [payment.id])).get(payment.id) ?? [];
    if (earlier.some((r) => r.status === 'pending'))
      throw new AppError('REFUND_IN_PROGRESS', { order_number: payment.order_number });
    const remaining =
      Number(payment.amount) -
      earlier.filter((r) => r.status === 'succeeded').reduce((n, r) => n + Number(r.amount), 0);
    const amount = body.amount ? Number(body.amount) : remaining;
    if (amount <= 0 || amount > remaining)
      throw new AppError('REFUND_EXCEEDS_REMAINING', {
        field: 'amount',
        amount: formatTwd(amount),
        remaining: formatTwd(remaining),
      });
    const refund = await repo.insertRefund(tx, {
      customer_id: customerId,
      payment_id: payment.id,
      amount: String(amount),
      reason: body.reason,
      status: 'pending',
      idempotency_key: body.idempotency_key,
      created_by: actor.kind === 'user' ? actor.id : null,
    });
    await writeAudit(tx, actor, {
      action: 'billing.refund.start',
      entity: 'billing_refund',
      entityId: refund.id,
      customerId,
      after: { payment: payment.order_number, amount: refund.amount, reason: refund.reason },
    });
    return { refund, payment, fresh: true };
  });
  if (!started.fresh) return refundView(started.refund);
  const { refund, payment } = started;
  const provider = payment.provider === 'tappay' ? tappayOf(deps) : newebpayOf(deps);
  let answer: { status: 'succeeded' | 'failed' | 'pending'; refundId: string | null; answer: string };
  try {
    answer = await provider.refund!(
      {
        transactionId: payment.provider_transaction_id,
        orderNumber: payment.order_number,
        amount: Number(refund.amount),
      },
      { customerId, reference: refund.id },
    );
  } catch (err) {
    answer = { status: 'pending', refundId: null, answer: err instanceof AppError ? err.code : 'no answer' };
  }
  return withTx(deps.db, async (tx) => {
    const updated = await repo.updateRefund(tx, refund.id, {
      status: answer.status,
      provider_refund_id: answer.refundId,
      gateway_answer: answer.answer,
    });
    await writeAudit(tx, actor, {
      action: `billing.refund.${answer.status}`,
      entity: 'billing_refund',
      entityId: refund.id,
      customerId,
      before: { status: 'pending' },
      after: { status: answer.status, gateway_answer: answer.answer, provider_refund_id: answer.refundId },
    });
    return refundView(updated);
  });
}
