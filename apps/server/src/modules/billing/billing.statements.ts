import type { TTapPayCheckout } from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { chargeByPrime } from './billing.charge';
import { billingConfirmJob, CONFIRM_NEWEBPAY_AFTER_S, CONFIRM_TAPPAY_AFTER_S } from './billing.record';
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
import { newOrderNumber } from './billing.workflow';

/**
 * Paying an issued usage statement (issue #35), by card (TapPay) or at NewebPay: the usage module locks the statement
 * and hands it over; its success is told back through the `statementPaid` event.
 */

// ---- usage statements (issue #35): the seller pays an issued statement by card or at NewebPay

/** What the usage module hands over of the statement to pay (read under its row lock). */
export interface TStatementToPay {
  id: string;
  customer_id: string;
  number: string;
  month: string;
  /** Decimal strings, TWD, tax included / the tax. */
  total: string;
  tax: string;
}

/** Whole TWD a statement's payment takes (the gateways take integers): its total rounded half up. */
export function statementPayAmount(total: string): string {
  const [int = '0', frac = ''] = total.split('.');
  return String(BigInt(int) + (Number(frac.slice(0, 1) || '0') >= 5 ? 1n : 0n));
}

/** The payment paying or holding a statement (the usage module refuses to void or mark paid under it). */
export function statementPayment(ex: Executor, statementId: string) {
  return repo.statementPayment(ex, statementId);
}

/**
 * The pending record of a statement's payment, in the caller's transaction, after `lock` (the usage module's: the
 * statement's row locked and found issued — so a void or a staff mark waits for it). A statement already paid or held
 * by a payment in flight is refused; the unique key over pending and succeeded records refuses it even if not.
 */
async function startStatementPayment(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  actor: TActor,
  provider: 'tappay' | 'newebpay',
  lock: (tx: Executor) => Promise<TStatementToPay>,
): Promise<repo.TPaymentRow> {
  const s = await lock(tx);
  const refuse = (held: repo.TPaymentRow) =>
    held.status === 'succeeded'
      ? new AppError('STATEMENT_ALREADY_PAID', { number: s.number })
      : new AppError('STATEMENT_PAYMENT_IN_PROGRESS', { number: s.number, order_number: held.order_number });
  const held = await repo.statementPayment(tx, s.id);
  if (held) throw refuse(held);
  const [y, m] = s.month.split('-').map(Number) as [number, number];
  let payment: repo.TPaymentRow;
  try {
    payment = await repo.insertPayment(tx, {
      customer_id: s.customer_id,
      contract_id: null,
      statement_id: s.id,
      order_number: newOrderNumber(
        new Date(),
        randomToken(9)
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 8)
          .toUpperCase(),
      ),
      provider,
      kind: 'statement',
      period_start: `${s.month}-01`,
      period_end: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10),
      amount: statementPayAmount(s.total),
      tax: statementPayAmount(s.tax),
      status: 'pending',
    });
  } catch (err) {
    if (repo.isStatementTaken(err))
      throw new AppError('STATEMENT_PAYMENT_IN_PROGRESS', { number: s.number, order_number: '' });
    throw err;
  }
  await deps.jobs.enqueueByName(
    tx,
    billingConfirmJob,
    { payment_id: payment.id },
    {
      customerId: s.customer_id,
      singletonKey: payment.id,
      startAfter: provider === 'tappay' ? CONFIRM_TAPPAY_AFTER_S : CONFIRM_NEWEBPAY_AFTER_S,
    },
  );
  await writeAudit(tx, actor, {
    action: 'billing.payment.start',
    entity: 'billing_payment',
    entityId: payment.id,
    customerId: s.customer_id,
    after: {
      order_number: payment.order_number,
      provider,
      kind: 'statement',
      amount: payment.amount,
      statement: s.number,
    },
  });
  return payment;
}

/** Pay an issued usage statement with TapPay (pay-by-prime), as a contract's period is paid (payTapPay). */
export async function payStatementTapPay(
  deps: TBillingDeps,
  actor: TUserActor,
  lock: (tx: Executor) => Promise<TStatementToPay>,
  body: Pick<TTapPayCheckout, 'prime' | 'cardholder'>,
) {
  const provider = tappayOf(deps);
  const payment = await withTx(deps.db, (tx) => startStatementPayment(deps, tx, actor, 'tappay', lock));
  return chargeByPrime(deps, actor, provider, payment, { ...body, remember: false });
}

/** The NewebPay MPG form paying an issued usage statement (its Notify is recorded as any other: receiveNewebPay). */
export async function payStatementNewebPay(
  deps: TBillingDeps,
  actor: TUserActor,
  lock: (tx: Executor) => Promise<TStatementToPay>,
) {
  const provider = newebpayOf(deps);
  const contact = await repo.billingContact(deps.db, customerOf(actor));
  const payment = await withTx(deps.db, (tx) => startStatementPayment(deps, tx, actor, 'newebpay', lock));
  const form = provider.checkoutForm!({
    orderNumber: payment.order_number,
    amount: Number(payment.amount),
    description: `WMS usage ${payment.period_start.slice(0, 7)}`,
    email: contact?.email ?? '',
    returnUrl: callUrl(deps.config, '/api/billing/newebpay/return/'),
    notifyUrl: callUrl(deps.config, '/api/billing/newebpay/notify/'),
    clientBackUrl: callUrl(deps.config, '/billing'),
    periodic: null,
  });
  return { payment: paymentView(payment), action: form.action, fields: form.fields };
}
