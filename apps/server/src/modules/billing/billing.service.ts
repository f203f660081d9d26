import {
  formatTwd,
  type TBillingContract,
  type TBillingContractInput,
  type TBillingOverview,
  type TBillingPaymentQuery,
  type TBillingPeriod,
  type TBillingPlan,
  type TBillingPlanInput,
  type TContractRequestInput,
  ZBillingContractInput,
  ZBillingPlanInput,
  ZContractRequestInput,
} from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { createTicket } from '../support';
import { endPeriodicLater } from './billing.periodic';
import * as repo from './billing.repository';
import {
  contractView,
  customerOf,
  paymentView,
  paymentViews,
  planView,
  type TBillingDeps,
  type TUserActor,
} from './billing.views';
import { duePeriod, paidThrough, periodAmount, periodOn } from './billing.workflow';

/**
 * Billing use cases: the seller's contract (set by an EMPLOYEE in the CRM), what is due, paying it with TapPay or
 * NewebPay, and the transaction records. A gateway is called outside any transaction: the pending record is
 * committed first, the gateway called, its answer recorded in a second transaction with its audit row. A result is
 * recorded once: a record leaves `pending` once, and a gateway transaction id is unique per gateway.
 *
 * One concern per file: this one holds the contract (CRM), the seller's view and the plans; billing.charge.ts pays a
 * contract's period, billing.statements.ts a usage statement, billing.record.ts records a gateway's answer,
 * billing.notify.ts takes the gateways' notifies and confirms from their records, billing.periodic.ts ends NewebPay
 * periodic authorisations, billing.refunds.ts refunds; billing.views.ts is what they share.
 */

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

export type { TBillingDeps as TBillingPayDeps };
