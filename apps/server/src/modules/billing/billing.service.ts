import {
  formatTwd,
  type TBillingContract,
  type TBillingContractInput,
  type TBillingOverview,
  type TBillingPayment,
  type TBillingPaymentQuery,
  type TBillingPeriod,
  type TBillingPlan,
  type TBillingPlanInput,
  type TBillingRefund,
  type TBillingRefundInput,
  type TContractRequestInput,
  type TLanguage,
  type TNewebPayCheckout,
  type TTapPayCheckout,
  ZBillingContractInput,
  ZBillingPlanInput,
  ZBillingRefundInput,
  ZContractRequestInput,
} from '@wms/contracts';
import { z } from 'zod';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { decryptSecret, encryptSecret, randomToken } from '../../platform/crypto';
import { AppError, notFound } from '../../platform/errors';
import { defineEvent, publishEvent } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs';
import { EXPORT_MAX_ROWS, iso } from '../../platform/listing';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import { defineOutboxTopic, writeOutbox } from '../../platform/outbox';
import type { ProviderRegistry, TPaymentProvider, TPaymentResult } from '../../platform/providers';
import { createTicket } from '../support';
import * as repo from './billing.repository';
import { duePeriod, newOrderNumber, paidThrough, periodAmount, periodOn, periodText } from './billing.workflow';

/**
 * Billing use cases: the seller's contract (set by an EMPLOYEE in the CRM), what is due, paying it with TapPay or
 * NewebPay, and the transaction records. A gateway is called outside any transaction: the pending record is
 * committed first, the gateway called, its answer recorded in a second transaction with its audit row. A result is
 * recorded once: a record leaves `pending` once, and a gateway transaction id is unique per gateway.
 */

export interface TBillingDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
  providers: ProviderRegistry;
}

type TUserActor = Extract<TActor, { kind: 'user' }>;

const systemFor = (customerId: string): TActor => ({ kind: 'system', id: null, customerId });

function customerOf(actor: TActor): string {
  if (!actor.customerId) throw new AppError('FORBIDDEN');
  return actor.customerId;
}

// ---- gateways

export function tappayOf(deps: Pick<TBillingDeps, 'config' | 'providers'>): TPaymentProvider {
  const c = deps.config.tappay;
  if (!c.partnerKey || !c.merchantId) throw new AppError('PAYMENT_NOT_CONFIGURED', { provider: 'TapPay' });
  return deps.providers.resolve('payment', 'tappay', {
    baseUrl: c.baseUrl,
    partnerKey: c.partnerKey,
    merchantId: c.merchantId,
    threeDomainSecure: c.threeDomainSecure,
  });
}

export function newebpayOf(deps: Pick<TBillingDeps, 'config' | 'providers'>): TPaymentProvider {
  const c = deps.config.newebpay;
  if (!c.merchantId || !c.hashKey || !c.hashIv) throw new AppError('PAYMENT_NOT_CONFIGURED', { provider: 'NewebPay' });
  return deps.providers.resolve('payment', 'newebpay', {
    baseUrl: c.baseUrl,
    merchantId: c.merchantId,
    hashKey: c.hashKey,
    hashIv: c.hashIv,
    version: c.version,
  });
}

// ---- views

export function contractView(row: repo.TContractRow): TBillingContract {
  const a = periodAmount(row.price, row.tax_rate);
  return {
    id: row.id,
    customer_id: row.customer_id,
    plan: row.plan,
    price: row.price,
    tax_rate: row.tax_rate,
    tax: String(a.tax),
    total: String(a.total),
    period: row.period as TBillingPeriod,
    start_date: row.start_date,
    payment_terms: row.payment_terms as TBillingContract['payment_terms'],
    note: row.note,
    auto_renew: (row.auto_renew as TBillingContract['auto_renew']) ?? null,
    card_last_four: row.card_last_four,
    overdue_since: iso(row.overdue_since),
    updated_at: iso(row.updated_at)!,
  };
}

export function paymentView(row: repo.TPaymentRow, refunds: repo.TRefundRow[] = []): TBillingPayment {
  return {
    id: row.id,
    order_number: row.order_number,
    provider: row.provider as TBillingPayment['provider'],
    kind: row.kind as TBillingPayment['kind'],
    period_start: row.period_start,
    period_end: row.period_end,
    amount: row.amount,
    tax: row.tax,
    status: row.status as TBillingPayment['status'],
    provider_transaction_id: row.provider_transaction_id,
    failure: row.failure,
    card_last_four: row.card_last_four,
    attempt: row.attempt,
    paid_at: iso(row.paid_at),
    created_at: iso(row.created_at)!,
    refunded: String(refunds.filter((r) => r.status === 'succeeded').reduce((n, r) => n + Number(r.amount), 0)),
    refunds: refunds.map(refundView),
  };
}

export function refundView(row: repo.TRefundRow): TBillingRefund {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: row.amount,
    reason: row.reason,
    status: row.status as TBillingRefund['status'],
    provider_refund_id: row.provider_refund_id,
    gateway_answer: row.gateway_answer,
    created_at: iso(row.created_at)!,
  };
}

/** Payment views with their refunds (one query for the page). */
async function paymentViews(ex: Executor, rows: repo.TPaymentRow[]): Promise<TBillingPayment[]> {
  const refunds = await repo.refundsOf(
    ex,
    rows.map((r) => r.id),
  );
  return rows.map((r) => paymentView(r, refunds.get(r.id)));
}

// ---- contract (CRM)

export async function crmGetContract(deps: TBillingDeps, customerId: string) {
  if (!(await repo.findCustomer(deps.db, customerId))) throw notFound();
  const contract = await repo.findContract(deps.db, customerId);
  const payments = await repo.latestPayments(deps.db, customerId, 20);
  return { contract: contract ? contractView(contract) : null, payments: await paymentViews(deps.db, payments) };
}

/** The operator sets a seller's contract (plan, price per period, period, start date, terms); one audit row. */
export async function crmSetContract(
  deps: TBillingDeps,
  actor: TActor,
  customerId: string,
  input: TBillingContractInput,
): Promise<TBillingContract> {
  const body = ZBillingContractInput.parse(input);
  return withTx(deps.db, async (tx) => {
    if (!(await repo.findCustomer(tx, customerId))) throw notFound();
    const before = await repo.findContract(tx, customerId, true);
    const row = await repo.upsertContract(tx, customerId, {
      plan: body.plan,
      price: body.price,
      tax_rate: body.tax_rate,
      period: body.period,
      // The server decides the start when none is given: today in Asia/Taipei (a browser on UTC is a day behind
      // until 08:00), or the existing contract's.
      start_date: body.start_date ?? before?.start_date ?? taipeiToday(),
      payment_terms: body.payment_terms,
      note: body.note,
    });
    const pick = (r: repo.TContractRow | null) =>
      r && {
        plan: r.plan,
        price: r.price,
        tax_rate: r.tax_rate,
        period: r.period,
        start_date: r.start_date,
        payment_terms: r.payment_terms,
      };
    await writeAudit(tx, actor, {
      action: before ? 'billing.contract.update' : 'billing.contract.create',
      entity: 'billing_contract',
      entityId: row.id,
      customerId,
      before: pick(before),
      after: pick(row),
    });
    return contractView(row);
  });
}

// ---- the seller's view

export async function overview(deps: TBillingDeps, actor: TActor): Promise<TBillingOverview> {
  const customerId = customerOf(actor);
  const customer = await repo.findCustomer(deps.db, customerId);
  const contract = await repo.findContract(deps.db, customerId);
  const c = deps.config;
  const base = {
    providers: {
      tappay: {
        enabled: !!(c.tappay.partnerKey && c.tappay.merchantId),
        app_id: c.tappay.appId,
        app_key: c.tappay.appKey,
        environment: c.tappay.environment,
      },
      newebpay: { enabled: !!(c.newebpay.merchantId && c.newebpay.hashKey && c.newebpay.hashIv) },
    },
    company: {
      name: customer?.name ?? '',
      tax_id: customer?.tax_id ?? '',
      invoice_title: customer?.invoice_title ?? '',
      invoice_address: customer?.invoice_address ?? '',
    },
  };
  if (!contract)
    return { contract: null, current_period: null, due: null, paid_through: null, in_progress: null, ...base };
  const today = taipeiToday();
  const period = contract.period as TBillingPeriod;
  const paid = await repo.paidPeriodStarts(deps.db, contract.id);
  const due = duePeriod(contract.start_date, period, today, paid);
  const held = due ? (await repo.heldPeriods(deps.db, contract.id)).get(due.start) : undefined;
  const amount = periodAmount(contract.price, contract.tax_rate);
  return {
    contract: contractView(contract),
    current_period: periodOn(contract.start_date, period, today),
    due: due && {
      start: due.start,
      end: due.end,
      amount: String(amount.total),
      tax: String(amount.tax),
      due_date: due.start,
      overdue: due.overdue,
    },
    paid_through: paidThrough(contract.start_date, period, paid),
    in_progress: held ? paymentView(held) : null,
    ...base,
  };
}

export async function listPayments(deps: TBillingDeps, actor: TActor, q: TBillingPaymentQuery) {
  const { count, rows } = await repo.listPayments(deps.db, customerOf(actor), q);
  return { count, results: await paymentViews(deps.db, rows) };
}

export async function exportPayments(deps: TBillingDeps, actor: TActor, q: TBillingPaymentQuery) {
  const { rows } = await repo.listPayments(deps.db, customerOf(actor), { ...q, page: 1, all: EXPORT_MAX_ROWS });
  return paymentViews(deps.db, rows);
}

// ---- paying

/**
 * The pending record of the due period (committed before any gateway is called). The contract row is locked, so
 * attempts for one seller queue here; a period already paid, or held by a payment in flight, is refused (409) — and
 * the database's unique key on (contract, period) for pending and succeeded records refuses it even if this did not.
 * `periodStart`: the period the caller means to pay (the one the seller's page showed); any other is refused.
 */
async function startPayment(
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

/** The confirmation job (billing.jobs.ts), queued by name here: the jobs module imports this one. */
const billingConfirmJob = 'billing.confirm';
/** When the confirmation job first asks: TapPay answers a charge in seconds; NewebPay's page takes the seller longer. */
const CONFIRM_TAPPAY_AFTER_S = 30;
const CONFIRM_NEWEBPAY_AFTER_S = 5 * 60;

type TAfterRecord = (tx: Executor, payment: repo.TPaymentRow, contract: repo.TContractRow) => Promise<void>;

/**
 * Record a gateway's answer on a pending record, once: a record that already left `pending` is answered as it is
 * (a repeated Notify, a second poll). Success clears the overdue mark; a remembered card becomes the renewal method.
 */
export async function recordResult(
  deps: Pick<TBillingDeps, 'db' | 'config' | 'jobs'>,
  paymentId: string,
  result: TPaymentResult,
  opts: { actor?: TActor; after?: TAfterRecord } = {},
): Promise<repo.TPaymentRow> {
  return withTx(deps.db, async (tx) => {
    const payment = await repo.lockPayment(tx, paymentId);
    if (!payment) throw notFound();
    if (payment.status === 'failed' && result.status === 'succeeded' && payment.kind !== 'credit')
      return recordLateSuccess(deps, tx, opts.actor ?? systemFor(payment.customer_id), payment, result);
    if (payment.status !== 'pending') return payment;
    if (result.status === 'pending') {
      if (result.transactionId && !payment.provider_transaction_id)
        return repo.updatePayment(tx, payment.id, { provider_transaction_id: result.transactionId });
      return payment;
    }
    let status = result.status;
    let failure = result.failure ?? null;
    // The gateway's amount must be ours (a Notify for another amount is not a payment of this period).
    if (status === 'succeeded' && result.amount != null && result.amount !== Number(payment.amount)) {
      status = 'failed';
      failure = `amount ${result.amount} ≠ ${Number(payment.amount)}`;
    }
    const updated = await repo.updatePayment(tx, payment.id, {
      status,
      failure,
      provider_transaction_id: result.transactionId ?? payment.provider_transaction_id,
      card_last_four: result.cardLastFour ?? payment.card_last_four,
      paid_at: status === 'succeeded' ? new Date() : null,
    });
    if (!payment.contract_id) {
      // A usage statement's payment: no contract, no period; its success tells the usage module (statementPaid).
      await writeAudit(tx, opts.actor ?? systemFor(payment.customer_id), {
        action: status === 'succeeded' ? 'billing.payment.succeeded' : 'billing.payment.failed',
        entity: 'billing_payment',
        entityId: payment.id,
        customerId: payment.customer_id,
        before: { status: payment.status },
        after: { status, failure, provider_transaction_id: updated.provider_transaction_id, amount: updated.amount },
      });
      if (status === 'succeeded') await tellStatementPaid(deps, tx, updated);
      return updated;
    }
    let contract = (await repo.findContractById(tx, payment.contract_id, true))!;
    if (status === 'succeeded') {
      const changes: Partial<repo.TContractRow> = {};
      if (contract.overdue_since) changes.overdue_since = null;
      if (payment.remember && payment.provider === 'tappay' && contract.card_key_enc) {
        changes.auto_renew = 'tappay';
        // A card now renews: an earlier NewebPay periodic authorisation would charge the same periods again.
        if (contract.newebpay_period_order) {
          await endPeriodicLater(deps, tx, contract);
          changes.newebpay_period_order = null;
          changes.newebpay_period_no = null;
        }
      }
      if (
        payment.kind === 'periodic' &&
        payment.provider === 'newebpay' &&
        contract.newebpay_period_order !== payment.order_number
      ) {
        // A new periodic authorisation replaces the one before it (ended at NewebPay).
        if (contract.newebpay_period_order) await endPeriodicLater(deps, tx, contract);
        changes.auto_renew = 'newebpay';
        changes.newebpay_period_order = payment.order_number;
        changes.newebpay_period_no = result.periodNo ?? null;
      }
      if (Object.keys(changes).length) contract = await repo.updateContract(tx, contract.id, changes);
    }
    await writeAudit(tx, opts.actor ?? systemFor(payment.customer_id), {
      action: status === 'succeeded' ? 'billing.payment.succeeded' : 'billing.payment.failed',
      entity: 'billing_payment',
      entityId: payment.id,
      customerId: payment.customer_id,
      before: { status: payment.status },
      after: {
        status,
        failure,
        provider_transaction_id: updated.provider_transaction_id,
        amount: updated.amount,
      },
    });
    if (status === 'succeeded') await mailSeller(deps, tx, payment.customer_id, 'billing_paid', updated, null);
    if (opts.after) await opts.after(tx, updated, contract);
    return updated;
  });
}

/**
 * The gateway took the money after we had recorded the attempt failed (a payment page paid after we gave it up, a
 * bank's late answer): never lost, never a second payment of a period. It pays its period if that is still free,
 * else it is the seller's credit.
 */
async function recordLateSuccess(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  actor: TActor,
  payment: repo.TPaymentRow,
  result: TPaymentResult,
): Promise<repo.TPaymentRow> {
  let taken: boolean;
  if (payment.contract_id) {
    await repo.findContractById(tx, payment.contract_id, true);
    taken =
      (await repo.paidPeriodStarts(tx, payment.contract_id)).has(payment.period_start) ||
      (await repo.heldPeriods(tx, payment.contract_id)).has(payment.period_start);
  } else {
    // A statement's: another payment of it paid it (or holds it) meanwhile → this one is the seller's credit.
    const other = await repo.statementPayment(tx, payment.statement_id!);
    taken = !!other && other.id !== payment.id;
  }
  const updated = await repo.updatePayment(tx, payment.id, {
    status: 'succeeded',
    kind: taken ? 'credit' : payment.kind,
    failure: null,
    provider_transaction_id: result.transactionId ?? payment.provider_transaction_id,
    card_last_four: result.cardLastFour ?? payment.card_last_four,
    paid_at: new Date(),
  });
  if (!taken && updated.statement_id) await tellStatementPaid(deps, tx, updated);
  await writeAudit(tx, actor, {
    action: 'billing.payment.late_success',
    entity: 'billing_payment',
    entityId: payment.id,
    customerId: payment.customer_id,
    before: { status: payment.status, failure: payment.failure },
    after: { status: 'succeeded', kind: updated.kind, provider_transaction_id: updated.provider_transaction_id },
  });
  return updated;
}

/** Queue a billing mail to the seller's first user, in their language (sent by platform.mail after the commit). */
export async function mailSeller(
  deps: Pick<TBillingDeps, 'config' | 'jobs'>,
  tx: Executor,
  customerId: string,
  kind: 'billing_paid' | 'billing_failed' | 'billing_overdue',
  payment: repo.TPaymentRow,
  reason: string | null,
): Promise<void> {
  const contact = await repo.billingContact(tx, customerId);
  const customer = await repo.findCustomer(tx, customerId);
  if (!contact) return;
  const lang = (['zh-TW', 'ja', 'en'].includes(contact.language) ? contact.language : 'zh-TW') as TLanguage;
  const mail = renderMail(kind, lang, {
    name: contact.name,
    company: customer?.name ?? '',
    period: `${payment.period_start} ~ ${payment.period_end}`,
    amount: formatTwd(payment.amount),
    provider: payment.provider === 'tappay' ? 'TapPay' : 'NewebPay',
    reason: reason ?? payment.failure ?? '',
    url: deps.config.publicUrl.replace(/\/+$/, ''),
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: contact.email, ...mail });
}

const callUrl = (config: TConfig, path: string) => `${config.publicUrl.replace(/\/+$/, '')}${path}`;

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
async function chargeByPrime(
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

const ZEndPeriodic = z.object({
  contract_id: z.uuid(),
  order_number: z.string().min(1).max(60),
  period_no: z.string().min(1).max(60),
});

/**
 * "Write, then call": end a NewebPay periodic authorisation at the gateway after the commit that dropped it (renewal
 * stopped, or replaced by a card or a new authorisation), retried with back-off; a refusal leaves the outbox message
 * failed with NewebPay's answer for a person. The audit row says when NewebPay confirmed it.
 */
export const newebpayPeriodicEnd = defineOutboxTopic(
  'billing.newebpay.period-end',
  ZEndPeriodic,
  async ({ db, message, payload, services }) => {
    await newebpayOf({ config: services.config, providers: services.providers }).endPeriodic!(
      { orderNumber: payload.order_number, periodNo: payload.period_no },
      { customerId: message.customer_id, reference: message.id },
    );
    await writeAudit(db, systemFor(message.customer_id!), {
      action: 'billing.periodic.ended',
      entity: 'billing_contract',
      entityId: payload.contract_id,
      customerId: message.customer_id,
      after: { order_number: payload.order_number, period_no: payload.period_no },
    });
    return { ended: payload.order_number };
  },
);

/**
 * A later charge names its authorisation's PeriodNo. The contract's own authorisation keeps it if it has none yet
 * (authorised before PeriodNo was stored, so nothing could end it). An authorisation the contract no longer holds
 * (dropped while its PeriodNo was unknown) should not charge at all: it is ended now.
 */
async function keepOrEndAuthorisation(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  contract: repo.TContractRow,
  orderNumber: string,
  periodNo: string,
) {
  if (contract.newebpay_period_order === orderNumber) {
    if (!contract.newebpay_period_no) await repo.updateContract(tx, contract.id, { newebpay_period_no: periodNo });
    return;
  }
  await endPeriodicLater(deps, tx, { ...contract, newebpay_period_order: orderNumber, newebpay_period_no: periodNo });
}

/** In the caller's transaction: queue the end of the contract's NewebPay periodic authorisation at the gateway. */
async function endPeriodicLater(deps: Pick<TBillingDeps, 'jobs'>, tx: Executor, contract: repo.TContractRow) {
  if (!contract.newebpay_period_order || !contract.newebpay_period_no) return;
  await writeOutbox(
    tx,
    deps.jobs,
    newebpayPeriodicEnd,
    { contract_id: contract.id, order_number: contract.newebpay_period_order, period_no: contract.newebpay_period_no },
    { customerId: contract.customer_id, idempotencyKey: `newebpay.period-end:${contract.newebpay_period_order}` },
  );
}

/**
 * Forget the remembered card and the periodic authorisation: due periods are then paid on the payment pages. The
 * periodic authorisation is ended at NewebPay too (after the commit, through the outbox), so it charges no more.
 */
export async function stopAutoRenew(deps: TBillingDeps, actor: TActor): Promise<TBillingOverview> {
  const customerId = customerOf(actor);
  await withTx(deps.db, async (tx) => {
    const contract = await repo.findContract(tx, customerId, true);
    if (!contract) throw new AppError('BILLING_NO_CONTRACT');
    await endPeriodicLater(deps, tx, contract);
    await repo.updateContract(tx, contract.id, {
      auto_renew: null,
      card_key_enc: null,
      card_token_enc: null,
      card_last_four: null,
      newebpay_period_order: null,
      newebpay_period_no: null,
    });
    await writeAudit(tx, actor, {
      action: 'billing.auto_renew.stop',
      entity: 'billing_contract',
      entityId: contract.id,
      customerId,
      before: { auto_renew: contract.auto_renew, card_last_four: contract.card_last_four },
      after: { auto_renew: null },
    });
  });
  return overview(deps, actor);
}

/** The remembered card of a contract, decrypted for one charge (never logged, never answered). */
export function cardOf(config: TConfig, contract: repo.TContractRow): { cardKey: string; cardToken: string } | null {
  if (!contract.card_key_enc || !contract.card_token_enc) return null;
  return {
    cardKey: decryptSecret(config.encryptionKey, contract.card_key_enc),
    cardToken: decryptSecret(config.encryptionKey, contract.card_token_enc),
  };
}

export { startPayment };

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

// ---- plans a seller can see

export function planView(row: repo.TListPriceRow): TBillingPlan {
  const a = periodAmount(row.price, row.tax_rate);
  return {
    period: row.period as TBillingPeriod,
    plan: row.plan,
    price: row.price,
    tax_rate: row.tax_rate,
    tax: String(a.tax),
    total: String(a.total),
    updated_at: iso(row.updated_at)!,
  };
}

/** The operator's list prices (quarterly first). */
export async function plans(deps: Pick<TBillingDeps, 'db'>): Promise<{ plans: TBillingPlan[] }> {
  const rows = await repo.listPrices(deps.db);
  const order = { quarterly: 0, annual: 1 } as Record<string, number>;
  return { plans: rows.sort((a, b) => (order[a.period] ?? 9) - (order[b.period] ?? 9)).map(planView) };
}

/** The staff set the list price of one period; one audit row with before and after. */
export async function crmSetPlan(deps: TBillingDeps, actor: TActor, input: TBillingPlanInput): Promise<TBillingPlan> {
  const body = ZBillingPlanInput.parse(input);
  return withTx(deps.db, async (tx) => {
    const before = (await repo.listPrices(tx)).find((r) => r.period === body.period) ?? null;
    const row = await repo.upsertListPrice(tx, {
      period: body.period,
      plan: body.plan,
      price: body.price,
      tax_rate: body.tax_rate,
      updated_by: actor.kind === 'user' ? actor.id : null,
    });
    const pick = (r: repo.TListPriceRow | null) => r && { plan: r.plan, price: r.price, tax_rate: r.tax_rate };
    await writeAudit(tx, actor, {
      action: 'billing.plan.set',
      entity: 'billing_list_price',
      entityId: null,
      before: pick(before),
      after: { period: row.period, ...pick(row) },
    });
    return planView(row);
  });
}

/**
 * A seller without a contract asks for one on a plan: a support request (kind `request`) for the operator's staff,
 * naming the plan, its list price and the seller's note. A seller with a contract is told it has one.
 */
export async function requestContract(deps: TBillingDeps, actor: TUserActor, input: TContractRequestInput) {
  const body = ZContractRequestInput.parse(input);
  const customerId = customerOf(actor);
  if (await repo.findContract(deps.db, customerId)) throw new AppError('BILLING_HAS_CONTRACT');
  const plan = (await repo.listPrices(deps.db)).find((r) => r.period === body.period);
  if (!plan) throw new AppError('BILLING_NO_PLAN', { period: body.period });
  const v = planView(plan);
  const period = { quarterly: '季繳 quarterly', annual: '年繳 annual' }[v.period];
  const ticket = await createTicket(deps, actor, {
    kind: 'request',
    subject: `合約申請 Contract request：${v.plan}（${period}）`,
    body: [
      `方案 Plan：${v.plan}`,
      `期間 Period：${period}`,
      `牌價 List price：${formatTwd(v.price)} + 稅 tax ${formatTwd(v.tax)} = ${formatTwd(v.total)}`,
      body.note ? `備註 Note：${body.note}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  });
  return { ticket_id: ticket.id };
}

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

async function tellStatementPaid(deps: Pick<TBillingDeps, 'jobs'>, tx: Executor, p: repo.TPaymentRow) {
  await publishEvent(tx, deps.jobs, statementPaid, statementPaidOf(p), {
    customerId: p.customer_id,
    idempotencyKey: `statement-paid:${p.id}`,
  });
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

export type { TBillingDeps as TBillingPayDeps };
