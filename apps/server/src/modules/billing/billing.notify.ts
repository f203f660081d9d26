import type { TBillingPayment, TBillingPeriod } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { mailDelivery } from '../../platform/mail';
import type { TPaymentResult } from '../../platform/providers';
import { keepOrEndAuthorisation } from './billing.periodic';
import { mailSeller, recordResult } from './billing.record';
import * as repo from './billing.repository';
import { customerOf, newebpayOf, paymentViews, systemFor, type TBillingDeps, tappayOf } from './billing.views';
import { duePeriod, periodAmount } from './billing.workflow';

/**
 * The gateways' word on a payment: TapPay's and NewebPay's notifies, and the confirmation from the gateway's own record
 * (the job, the seller's /wait-tappay page). Whatever a notify says is recorded through billing.record.ts.
 */

/** A pending record's gateway has no such charge after this long: it never happened (the page was abandoned). */
export const ABANDONED_AFTER_MS = 20 * 60_000;

/**
 * Settle a pending record from the gateway's own record — TapPay transaction/query (by rec_trade_id, else our order
 * number), NewebPay QueryTradeInfo — never from what a browser says. Known → recorded paid or failed (once). Not
 * known yet → left pending (`settled: false`); a gateway with no such charge long after the attempt started
 * (ABANDONED_AFTER_MS: a prime lives 90 s, NewebPay's page 15 minutes) → failed, and the period is payable again.
 */
export async function confirmPayment(
  deps: TBillingDeps,
  payment: repo.TPaymentRow,
  now: Date = new Date(),
): Promise<{ payment: repo.TPaymentRow; settled: boolean }> {
  if (payment.status !== 'pending' || payment.kind === 'credit') return { payment, settled: true };
  let result: TPaymentResult;
  try {
    const provider = payment.provider === 'tappay' ? tappayOf(deps) : newebpayOf(deps);
    result = await provider.query!(
      {
        transactionId: payment.provider === 'tappay' ? payment.provider_transaction_id : null,
        orderNumber: payment.order_number,
        amount: Number(payment.amount),
      },
      { customerId: payment.customer_id, reference: payment.order_number },
    );
  } catch {
    return { payment, settled: false };
  }
  if (result.orderNumber && result.orderNumber !== payment.order_number) return { payment, settled: false };
  if (result.status === 'pending') {
    // Still unknown. Given up only when the gateway has no such charge, or it still waits for the card holder
    // (3-D Secure never completed), long after the attempt started; a later success is still recorded.
    const abandoned = result.notFound || result.awaitingBuyer;
    if (!abandoned || now.getTime() - new Date(payment.created_at).getTime() < ABANDONED_AFTER_MS)
      return { payment, settled: false };
    result = {
      status: 'failed',
      transactionId: result.awaitingBuyer ? result.transactionId : null,
      failure: result.awaitingBuyer
        ? '3-D Secure not completed'
        : payment.provider === 'tappay'
          ? 'no charge at TapPay'
          : 'not paid at NewebPay',
    };
  }
  const recorded = await recordResult(deps, payment.id, result);
  deps.jobs.kick(mailDelivery.name);
  return { payment: recorded, settled: recorded.status !== 'pending' };
}

/** A pending TapPay record read by the seller's page (/wait-tappay): asked of TapPay at once. */
async function confirmTapPay(deps: TBillingDeps, payment: repo.TPaymentRow): Promise<repo.TPaymentRow> {
  if (payment.status !== 'pending' || payment.provider !== 'tappay') return payment;
  return (await confirmPayment(deps, payment)).payment;
}

export async function getPayment(deps: TBillingDeps, actor: TActor, id: string): Promise<TBillingPayment> {
  const row = await repo.findPayment(deps.db, customerOf(actor), id);
  if (!row) throw notFound();
  const [view] = await paymentViews(deps.db, [await confirmTapPay(deps, row)]);
  return view!;
}

/** TapPay's backend notify: whatever it says is re-checked with transaction/query. Always 200 (TapPay retries). */
export async function receiveTapPayNotify(
  deps: TBillingDeps,
  body: { rec_trade_id?: string; order_number?: string },
): Promise<string> {
  const row =
    (body.rec_trade_id && (await repo.findPaymentByTransaction(deps.db, 'tappay', body.rec_trade_id))) ||
    (body.order_number && (await repo.findPaymentByOrderNumber(deps.db, body.order_number))) ||
    null;
  if (row) {
    const pending =
      row.status === 'pending' && !row.provider_transaction_id && body.rec_trade_id
        ? await recordResult(deps, row.id, { status: 'pending', transactionId: body.rec_trade_id })
        : row;
    await confirmTapPay(deps, pending);
    // Given up (3-D Secure not completed in time) but the bank confirmed after all: recorded from TapPay's record.
    if (row.status === 'failed' && row.provider === 'tappay') {
      const found = await tappayOf(deps).query!(
        { transactionId: row.provider_transaction_id, orderNumber: row.order_number },
        { customerId: row.customer_id, reference: row.order_number },
      ).catch(() => null);
      if (found?.status === 'succeeded' && (!found.orderNumber || found.orderNumber === row.order_number))
        await recordResult(deps, row.id, found);
    }
  }
  return 'OK';
}

/**
 * NewebPay's Notify (and the browser's Return): TradeSha verified, TradeInfo decrypted, recorded once however often
 * NewebPay sends it. A periodic authorisation's later results (same merchant order number, a new TradeNo) become
 * records of the next due periods, each recorded once by its TradeNo.
 */
export async function receiveNewebPay(deps: TBillingDeps, fields: Record<string, string>): Promise<repo.TPaymentRow> {
  const result = newebpayOf(deps).readNotification!(fields);
  if (!result?.orderNumber) throw new AppError('PAYMENT_SIGNATURE_INVALID');
  const orderNumber = result.orderNumber;
  const payment = await repo.findPaymentByOrderNumber(deps.db, orderNumber);
  if (!payment) throw notFound();
  if (
    payment.status === 'pending' ||
    !result.transactionId ||
    payment.provider_transaction_id === result.transactionId ||
    // Given up as not paid (no charge at NewebPay then), paid after all: recorded, never lost.
    (payment.status === 'failed' && !payment.provider_transaction_id)
  ) {
    const recorded = await recordResult(deps, payment.id, result);
    deps.jobs.kick(mailDelivery.name);
    return recorded;
  }
  if (payment.kind !== 'periodic' || !payment.contract_id) return payment;
  // A later charge of a periodic authorisation.
  const existing = await repo.findPaymentByTransaction(deps.db, 'newebpay', result.transactionId);
  if (existing) return existing;
  const row = await withTx(deps.db, async (tx) => {
    const contract = (await repo.findContractById(tx, payment.contract_id!, true))!;
    if (result.periodNo) await keepOrEndAuthorisation(deps, tx, contract, orderNumber, result.periodNo);
    // Booked onto the next period neither paid nor held by a payment in flight; none due: the seller's credit.
    const paid = await repo.paidPeriodStarts(tx, contract.id);
    const held = await repo.heldPeriods(tx, contract.id);
    const today = taipeiToday();
    const due = duePeriod(
      contract.start_date,
      contract.period as TBillingPeriod,
      today,
      new Set([...paid, ...held.keys()]),
    );
    const amount = periodAmount(contract.price, contract.tax_rate);
    const ok = result.status === 'succeeded' && (result.amount == null || result.amount === amount.total);
    const credit = !due && ok;
    const inserted = await repo.insertPaymentOnce(tx, {
      customer_id: contract.customer_id,
      contract_id: contract.id,
      order_number: `${orderNumber}_${result.transactionId}`.slice(0, 60),
      provider: 'newebpay',
      kind: credit ? 'credit' : 'periodic',
      period_start: due?.start ?? today,
      period_end: due?.end ?? today,
      amount: String(result.amount ?? amount.total),
      tax: String(amount.tax),
      status: ok ? 'succeeded' : 'failed',
      provider_transaction_id: result.transactionId,
      failure: ok ? null : (result.failure ?? 'amount'),
      card_last_four: result.cardLastFour ?? null,
      paid_at: ok ? new Date() : null,
    });
    if (!inserted) return null;
    if (ok && !credit && contract.overdue_since) await repo.updateContract(tx, contract.id, { overdue_since: null });
    await writeAudit(tx, systemFor(contract.customer_id), {
      action: ok ? 'billing.payment.succeeded' : 'billing.payment.failed',
      entity: 'billing_payment',
      entityId: inserted.id,
      customerId: contract.customer_id,
      after: {
        status: inserted.status,
        provider_transaction_id: inserted.provider_transaction_id,
        kind: inserted.kind,
        period: inserted.kind === 'credit' ? null : inserted.period_start,
        amount: inserted.amount,
      },
    });
    await mailSeller(deps, tx, contract.customer_id, ok ? 'billing_paid' : 'billing_failed', inserted, null);
    return inserted;
  });
  deps.jobs.kick(mailDelivery.name);
  return row ?? (await repo.findPaymentByTransaction(deps.db, 'newebpay', result.transactionId)) ?? payment;
}
