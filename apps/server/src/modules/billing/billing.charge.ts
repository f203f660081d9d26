import type { TBillingPeriod, TNewebPayCheckout, TTapPayCheckout } from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { encryptSecret, randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { mailDelivery } from '../../platform/mail';
import type { TPaymentProvider, TPaymentResult } from '../../platform/providers';
import { billingConfirmJob, CONFIRM_NEWEBPAY_AFTER_S, CONFIRM_TAPPAY_AFTER_S, recordResult } from './billing.record';
import * as repo from './billing.repository';
import {
  callUrl,
  customerOf,
  newebpayOf,
  paymentView,
  type TBillingDeps,
  type TUserActor,
  tappayOf,
} from './billing.views';
import { duePeriod, newOrderNumber, paidThrough, periodAmount, periodOn, periodText } from './billing.workflow';

/**
 * Paying a contract's due period: the pending record (committed before any gateway is called), TapPay pay-by-prime and
 * the NewebPay MPG form (one-off or periodic).
 */

// ---- paying

/**
 * The pending record of the due period (committed before any gateway is called). The contract row is locked, so
 * attempts for one seller queue here; a period already paid, or held by a payment in flight, is refused (409) — and
 * the database's unique key on (contract, period) for pending and succeeded records refuses it even if this did not.
 * `periodStart`: the period the caller means to pay (the one the seller's page showed); any other is refused.
 */
export async function startPayment(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  actor: TActor,
  customerId: string,
  provider: 'tappay' | 'newebpay',
  opts: { kind: 'checkout' | 'renewal' | 'periodic'; remember?: boolean; attempt?: number; periodStart?: string },
): Promise<{ payment: repo.TPaymentRow; contract: repo.TContractRow }> {
  const contract = await repo.findContract(tx, customerId, true);
  if (!contract) throw new AppError('BILLING_NO_CONTRACT');
  const period = contract.period as TBillingPeriod;
  const paid = await repo.paidPeriodStarts(tx, contract.id);
  const held = await repo.heldPeriods(tx, contract.id);
  const today = taipeiToday();
  const named = opts.periodStart ? periodOn(contract.start_date, period, opts.periodStart) : null;
  if (opts.periodStart && named?.start === opts.periodStart) {
    if (paid.has(named.start)) throw new AppError('PERIOD_ALREADY_PAID', { period: periodText(named) });
    const busy = held.get(named.start);
    if (busy) throw new AppError('PAYMENT_IN_PROGRESS', { period: periodText(named), order_number: busy.order_number });
  }
  const due = duePeriod(contract.start_date, period, today, paid);
  if (!due) {
    if (today < contract.start_date) throw new AppError('BILLING_NOT_STARTED', { start_date: contract.start_date });
    // Everything up to the next period is paid: name the last period paid.
    const through = paidThrough(contract.start_date, period, paid);
    const last = through ? periodOn(contract.start_date, period, through) : null;
    throw new AppError('PERIOD_ALREADY_PAID', { period: last ? periodText(last) : '' });
  }
  if (opts.periodStart && opts.periodStart !== due.start)
    throw new AppError('PERIOD_NOT_DUE', { period: opts.periodStart, due: periodText(due) });
  const busy = held.get(due.start);
  if (busy) throw new AppError('PAYMENT_IN_PROGRESS', { period: periodText(due), order_number: busy.order_number });
  const amount = periodAmount(contract.price, contract.tax_rate);
  const payment = await repo.insertHoldingPayment(tx, {
    customer_id: customerId,
    contract_id: contract.id,
    order_number: newOrderNumber(
      new Date(),
      randomToken(9)
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 8)
        .toUpperCase(),
    ),
    provider,
    kind: opts.kind,
    period_start: due.start,
    period_end: due.end,
    amount: String(amount.total),
    tax: String(amount.tax),
    status: 'pending',
    attempt: opts.attempt ?? 1,
    remember: opts.remember ?? false,
  });
  // Whatever happens next (no answer, a 421, a crash before the answer is recorded, an abandoned payment page), this
  // job settles the record from the gateway's own record, with back-off until the gateway knows.
  await deps.jobs.enqueueByName(
    tx,
    billingConfirmJob,
    { payment_id: payment.id },
    {
      customerId,
      singletonKey: payment.id,
      startAfter: provider === 'tappay' ? CONFIRM_TAPPAY_AFTER_S : CONFIRM_NEWEBPAY_AFTER_S,
    },
  );
  await writeAudit(tx, actor, {
    action: 'billing.payment.start',
    entity: 'billing_payment',
    entityId: payment.id,
    customerId,
    after: { order_number: payment.order_number, provider, kind: opts.kind, amount: payment.amount, period: due.start },
  });
  return { payment, contract };
}

/**
 * Pay the due period with TapPay: the prime of the card form goes to pay-by-prime. With 3-D Secure TapPay answers a
 * payment_url; the browser goes there and comes back to /wait-tappay, which asks `getPayment` (confirmed with
 * transaction/query). A remembered card's key and token are stored encrypted on the contract.
 */
export async function payTapPay(deps: TBillingDeps, actor: TUserActor, body: TTapPayCheckout) {
  const customerId = customerOf(actor);
  const provider = tappayOf(deps);
  const { payment } = await withTx(deps.db, (tx) =>
    startPayment(deps, tx, actor, customerId, 'tappay', {
      kind: 'checkout',
      remember: body.remember ?? false,
      periodStart: body.period_start,
    }),
  );
  return chargeByPrime(deps, actor, provider, payment, body);
}

/**
 * Charge a committed pending record with a TPDirect prime and record TapPay's answer: the one way a seller's card is
 * charged, for a contract's period (payTapPay) and for a usage statement (payStatementTapPay).
 */
export async function chargeByPrime(
  deps: TBillingDeps,
  actor: TUserActor,
  provider: TPaymentProvider,
  payment: repo.TPaymentRow,
  body: Pick<TTapPayCheckout, 'prime' | 'cardholder' | 'remember'>,
) {
  const customerId = payment.customer_id;
  let result: TPaymentResult;
  try {
    result = await provider.charge!(
      {
        orderNumber: payment.order_number,
        amount: Number(payment.amount),
        description: payment.statement_id
          ? `WMS usage ${payment.period_start.slice(0, 7)}`
          : `WMS ${payment.period_start} ~ ${payment.period_end}`,
        source: { prime: body.prime },
        cardholder: body.cardholder,
        remember: body.remember ?? false,
        returnUrl: callUrl(deps.config, `/wait-tappay?payment=${payment.id}`),
        notifyUrl: callUrl(deps.config, '/api/billing/tappay/notify/'),
      },
      { customerId, reference: payment.order_number },
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    // No answer (a network timeout, a 5xx): the outcome is unknown. The record stays pending — holding the period —
    // and the confirmation job queued with it settles it from TapPay's record (by our order number).
    deps.jobs.kick(billingConfirmJob);
    throw new AppError('PAYMENT_UNAVAILABLE');
  }
  if (result.card && body.remember && payment.contract_id) {
    await withTx(deps.db, async (tx) => {
      const key = deps.config.encryptionKey;
      await repo.updateContract(tx, payment.contract_id!, {
        card_key_enc: encryptSecret(key, result.card!.key),
        card_token_enc: encryptSecret(key, result.card!.token),
        card_last_four: result.cardLastFour ?? null,
      });
      await writeAudit(tx, actor, {
        action: 'billing.card.remember',
        entity: 'billing_contract',
        entityId: payment.contract_id!,
        customerId,
        after: { card_last_four: result.cardLastFour ?? null },
      });
    });
  }
  const recorded = await recordResult(deps, payment.id, result, { actor });
  deps.jobs.kick(mailDelivery.name);
  // TapPay 421: pending confirmation; the job asks TapPay's record now, and /wait-tappay asks on each read.
  if (recorded.status === 'pending' && !result.redirectUrl) deps.jobs.kick(billingConfirmJob);
  return {
    payment: paymentView(recorded),
    payment_url: recorded.status === 'pending' ? (result.redirectUrl ?? null) : null,
  };
}

/** The NewebPay MPG form (or the periodic authorisation form) of the due period, for the browser to post. */
export async function payNewebPay(deps: TBillingDeps, actor: TUserActor, body: TNewebPayCheckout) {
  const customerId = customerOf(actor);
  const provider = newebpayOf(deps);
  const contact = await repo.billingContact(deps.db, customerId);
  const { payment, contract } = await withTx(deps.db, (tx) =>
    startPayment(deps, tx, actor, customerId, 'newebpay', {
      kind: body.periodic ? 'periodic' : 'checkout',
      periodStart: body.period_start,
    }),
  );
  const months = contract.period === 'annual' ? 12 : 3;
  const form = provider.checkoutForm!({
    orderNumber: payment.order_number,
    amount: Number(payment.amount),
    description: `WMS ${payment.period_start}~${payment.period_end}`,
    email: contact?.email ?? '',
    returnUrl: callUrl(deps.config, '/api/billing/newebpay/return/'),
    notifyUrl: callUrl(deps.config, '/api/billing/newebpay/notify/'),
    clientBackUrl: callUrl(deps.config, '/billing'),
    periodic: body.periodic ? { months, times: months === 12 ? 9 : 99, firstDay: payment.period_start } : null,
  });
  return { payment: paymentView(payment), action: form.action, fields: form.fields };
}
