import type { TBillingContract, TBillingPayment, TBillingPeriod, TBillingPlan, TBillingRefund } from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import type { TActor } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { iso } from '../../platform/listing';
import type { ProviderRegistry, TPaymentProvider } from '../../platform/providers';
import * as repo from './billing.repository';
import { periodAmount } from './billing.workflow';

/**
 * What every billing use case shares: its deps, the actor's tenant, the two gateways (TapPay, NewebPay) as
 * configured, and rows → contract shapes (contract, payment with its refunds, refund, plan).
 */

export interface TBillingDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
  providers: ProviderRegistry;
}

export type TUserActor = Extract<TActor, { kind: 'user' }>;

export const systemFor = (customerId: string): TActor => ({ kind: 'system', id: null, customerId });

export function customerOf(actor: TActor): string {
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
export async function paymentViews(ex: Executor, rows: repo.TPaymentRow[]): Promise<TBillingPayment[]> {
  const refunds = await repo.refundsOf(
    ex,
    rows.map((r) => r.id),
  );
  return rows.map((r) => paymentView(r, refunds.get(r.id)));
}

export const callUrl = (config: TConfig, path: string) => `${config.publicUrl.replace(/\/+$/, '')}${path}`;

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
