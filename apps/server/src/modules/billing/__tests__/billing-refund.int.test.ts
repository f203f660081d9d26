import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs } from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { addDays } from '../billing.workflow';
import { startBillingWithGateways, type TBillingGateways } from './gateways';

/** Refunds from the CRM by the operator's staff: full or partial, with a reason, once, the gateway's answer kept. */

let ctx: TTestContext;
let tappay: TFakeTapPay;
let newebpay: TFakeNewebPay;
let staff: { token: string };

let gateways: TBillingGateways;
beforeAll(async () => {
  gateways = await startBillingWithGateways({
    TAPPAY_3DS: '0',
  });
  ({ ctx, tappay, newebpay, staff } = gateways);
});
afterAll(() => gateways?.close());

const today = () => taipeiToday();
const cardholder = { name: '王小明', email: 'a@b.tw', phone: '0912345678' };

async function paidSeller(provider: 'tappay' | 'newebpay') {
  const start = addDays(today(), -2);
  const seller = await ctx.newCustomer();
  const set = await ctx.api.billingRoutes.crmSetContract({
    params: { id: seller.customerId },
    body: { plan: '標準方案', price: '3000', period: 'quarterly', start_date: start, payment_terms: '11' },
    token: staff.token,
  });
  expect(set.statusCode, set.body).toBe(200);
  if (provider === 'tappay') {
    const res = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(res.json().payment.status, res.body).toBe('succeeded');
    return { seller, payment: res.json().payment as { id: string; order_number: string } };
  }
  const res = (await ctx.api.billingRoutes.payNewebPay({ body: { period_start: start }, token: seller.token })).json();
  await fetch(res.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(res.fields).toString(),
  }).then((r) => r.text());
  expect((await newebpay.pay(res.payment.order_number)).map((d) => d.status)).toEqual([200]);
  return { seller, payment: res.payment as { id: string; order_number: string } };
}

describe('refunds', () => {
  it('TapPay: a partial refund, asked twice at once, is one refund at TapPay; more than is left is refused; the rest', async () => {
    const { seller, payment } = await paidSeller('tappay');
    const recTradeId = tappay.trades.find((t) => t.order_number === payment.order_number)!.rec_trade_id;

    // The same staff action arrives five times at once (a double click, a retried request): one refund.
    const key = `refund-${payment.id}`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        ctx.api.billingRoutes.crmRefundPayment({
          params: { id: seller.customerId, payment_id: payment.id },
          body: { amount: '1000', reason: '服務中斷補償', idempotency_key: key },
          token: staff.token,
        }),
      ),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect(tappay.refunds.filter((r) => r.rec_trade_id === recTradeId)).toEqual([
      { refund_id: expect.any(String), rec_trade_id: recTradeId, amount: 1000 },
    ]);
    const done = answers.find((a) => a.json().status === 'succeeded')!.json();
    expect(done).toMatchObject({ amount: '1000.0000', reason: '服務中斷補償', gateway_answer: '0 Success' });
    expect(done.provider_refund_id).toBe(tappay.refunds.at(-1)!.refund_id);
    expect(tappay.requests.filter((r) => r.path === '/tpc/transaction/refund').at(-1)!.body).toMatchObject({
      rec_trade_id: recTradeId,
      amount: 1000,
    });

    // 3150 − 1000 = 2150 left: asking 2151 is refused, nothing sent to TapPay.
    const sent = tappay.requests.filter((r) => r.path === '/tpc/transaction/refund').length;
    const over = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: {
        amount: '2151',
        reason: 'x',
        idempotency_key: `${key}-2`,
      },
      token: staff.token,
    });
    expect(over.statusCode).toBe(409);
    expect(over.error()).toMatchObject({
      code: 'REFUND_EXCEEDS_REMAINING',
      params: { remaining: 'NT$2,150', amount: 'NT$2,151' },
    });
    expect(tappay.requests.filter((r) => r.path === '/tpc/transaction/refund')).toHaveLength(sent);
    // No amount: the rest.
    const rest = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: { reason: '解約', idempotency_key: `${key}-3` },
      token: staff.token,
    });
    expect(rest.json()).toMatchObject({ status: 'succeeded', amount: '2150.0000' });
    expect(tappay.trades.find((t) => t.rec_trade_id === recTradeId)!.record_status).toBe(3);
    const none = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: { reason: 'again', idempotency_key: `${key}-4` },
      token: staff.token,
    });
    expect(none.error().code).toBe('REFUND_EXCEEDS_REMAINING');

    // The seller sees it on the record; the audit has each step.
    const seen = (await ctx.api.billingRoutes.getPayment({ params: { id: payment.id }, token: seller.token })).json();
    expect(seen).toMatchObject({ status: 'succeeded', refunded: '3150' });
    expect(seen.refunds.map((r: { reason: string; status: string }) => [r.reason, r.status])).toEqual([
      ['服務中斷補償', 'succeeded'],
      ['解約', 'succeeded'],
    ]);
    const list = (await ctx.api.billingRoutes.listPayments({ token: seller.token })).json();
    expect(list.results[0]).toMatchObject({ id: payment.id, refunded: '3150' });
    const audits = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, seller.customerId), eq(audit_logs.entity, 'billing_refund')));
    expect(audits.map((a) => a.action).sort()).toEqual(
      ['billing.refund.start', 'billing.refund.start', 'billing.refund.succeeded', 'billing.refund.succeeded'].sort(),
    );
  });

  it('the gateway’s refusal is recorded with its answer; only staff refund, and only the seller’s own payment', async () => {
    const { seller, payment } = await paidSeller('tappay');
    // Refunded at TapPay already (from its back office): TapPay refuses ours, and we keep what it said.
    tappay.trades.find((t) => t.order_number === payment.order_number)!.refunded_amount = 3150;
    const res = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: {
        amount: '100',
        reason: 'x',
        idempotency_key: 'refused-refund-1',
      },
      token: staff.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'failed',
      gateway_answer: '10004 Refund amount exceeds the remaining amount',
    });
    // The seller cannot refund; another seller's payment is not found under this seller.
    const self = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: { reason: 'x', idempotency_key: 'seller-self-1' },
      token: seller.token,
    });
    expect(self.statusCode).toBe(403);
    const other = await ctx.newCustomer();
    const wrong = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: other.customerId, payment_id: payment.id },
      body: { reason: 'x', idempotency_key: 'other-seller-1' },
      token: staff.token,
    });
    expect(wrong.statusCode).toBe(404);
  });

  it('NewebPay: a credit card refund (CreditCard/Close) in part', async () => {
    const { seller, payment } = await paidSeller('newebpay');
    const res = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: {
        amount: '150',
        reason: '折讓',
        idempotency_key: 'nwp-refund-1',
      },
      token: staff.token,
    });
    expect(res.json()).toMatchObject({ status: 'succeeded', amount: '150.0000', gateway_answer: 'SUCCESS 退款成功' });
    expect(newebpay.refunds).toContainEqual({ merchantOrderNo: payment.order_number, amount: 150 });
    const again = await ctx.api.billingRoutes.crmRefundPayment({
      params: { id: seller.customerId, payment_id: payment.id },
      body: {
        amount: '150',
        reason: '折讓',
        idempotency_key: 'nwp-refund-1',
      },
      token: staff.token,
    });
    expect(again.json().id).toBe(res.json().id);
    expect(newebpay.refunds.filter((r) => r.merchantOrderNo === payment.order_number)).toHaveLength(1);
  });
});
