import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, billing_payments } from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { billingConfirmSweep } from '../billing.jobs';
import { addDays, addMonths } from '../billing.workflow';
import { startBillingWithGateways, type TBillingGateways } from './gateways';

/**
 * An unknown outcome is not a failure: TapPay's 421, a connection that closes with no answer, a payment page whose
 * Notify never came — the record stays pending (holding its period) and the confirmation job settles it from the
 * gateway's own record. No 3-D Secure here: TapPay answers the charge itself.
 */

let ctx: TTestContext;
let tappay: TFakeTapPay;
let newebpay: TFakeNewebPay;

let gateways: TBillingGateways;
beforeAll(async () => {
  gateways = await startBillingWithGateways({
    TAPPAY_3DS: '0',
    // The confirmation job's back-off (30 s, 1 min, …) is about a second here.
    JOB_RETRY_DELAY_SCALE: '0.0003',
  });
  ({ ctx, tappay, newebpay } = gateways);
});
afterAll(() => gateways?.close());

const today = () => taipeiToday();
const cardholder = { name: '王小明', email: 'a@b.tw', phone: '0912345678' };

const sellerWithContract = (start: string, period?: 'quarterly' | 'annual') =>
  gateways.sellerWithContract(start, period);

const rowOf = async (id: string) =>
  (await ctx.deps.database.db.select().from(billing_payments).where(eq(billing_payments.id, id)))[0]!;

/** Let the queued confirmation jobs run now (instead of in 30 s / after their back-off) until `id` is settled. */
async function confirmed(id: string, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  let status = (await rowOf(id)).status;
  while (status === 'pending' && Date.now() < deadline) {
    await ctx.deps.database.db.execute(
      sql`update pgboss.job set start_after = now() where name = 'billing.confirm' and state in ('created', 'retry')`,
    );
    ctx.deps.jobs.kick('billing.confirm');
    await new Promise((r) => setTimeout(r, 100));
    status = (await rowOf(id)).status;
  }
  return status;
}

/** One run of the queued confirmation job now (a retry consumed), then the record's status. */
async function confirmOnce(id: string): Promise<string> {
  await ctx.deps.database.db.execute(
    sql`update pgboss.job set start_after = now() where name = 'billing.confirm' and state in ('created', 'retry')`,
  );
  ctx.deps.jobs.kick('billing.confirm');
  await new Promise((r) => setTimeout(r, 1500));
  return (await rowOf(id)).status;
}

/** The charges the fake TapPay holds for an order number (whatever their outcome). */
const tradesOf = (order: string) => tappay.trades.filter((t) => t.order_number === order);

describe('TapPay: an unknown outcome', () => {
  it('a 421 that did charge: pending confirmation (no new attempt meanwhile), paid after the job, charged once', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    tappay.timeoutNext({ charged: true, answer: '421' });
    const res = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { payment } = res.json();
    expect(res.json()).toMatchObject({ payment_url: null, payment: { status: 'pending', period_start: start } });

    // While its outcome is unknown the period is held: the seller's page says so, and no new attempt is made.
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.in_progress).toMatchObject({ id: payment.id, status: 'pending' });
    const again = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(again.statusCode).toBe(409);
    expect(again.error().code).toBe('PAYMENT_IN_PROGRESS');

    expect(await confirmed(payment.id)).toBe('succeeded');
    const row = await rowOf(payment.id);
    expect(row.provider_transaction_id).toBe(tradesOf(payment.order_number)[0]!.rec_trade_id);
    // TapPay was asked by our order number (the 421 carried no rec_trade_id), and charged once.
    expect(
      tappay.requests.some(
        (r) =>
          r.path === '/tpc/transaction/query' &&
          (r.body.filters as { order_number?: string }).order_number === payment.order_number,
      ),
    ).toBe(true);
    expect(tradesOf(payment.order_number)).toHaveLength(1);
    const charges = tappay.requests.filter(
      (r) => r.path === '/tpc/payment/pay-by-prime' && r.body.order_number === payment.order_number,
    );
    expect(charges).toHaveLength(1);
    const after = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(after).toMatchObject({ paid_through: addDays(addMonths(start, 3), -1), in_progress: null });
    const paidAgain = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(paidAgain.error().code).toBe('PERIOD_ALREADY_PAID');
  });

  it('a 421 that did not charge: failed after the job (the bank’s reason), the period payable again', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    tappay.timeoutNext({ charged: false, answer: '421' });
    const res = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { payment } = res.json();
    expect(payment.status).toBe('pending');
    expect(await confirmed(payment.id)).toBe('failed');
    expect((await rowOf(payment.id)).failure).toBe('TIMEOUT Bank timeout');

    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view).toMatchObject({ due: { start }, in_progress: null });
    const retry = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().payment.status).toBe('succeeded');
    const records = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(records.map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
    const audits = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, seller.customerId), eq(audit_logs.action, 'billing.payment.failed')));
    expect(audits).toHaveLength(1);
  });

  it('no answer at all after TapPay charged: 503, pending, then paid from TapPay’s record', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    tappay.timeoutNext({ charged: true, answer: 'drop' });
    const res = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(res.statusCode).toBe(503);
    expect(res.error().code).toBe('PAYMENT_UNAVAILABLE');
    const [row] = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(row!.status).toBe('pending');
    expect(await confirmed(row!.id)).toBe('succeeded');
    expect(tradesOf(row!.order_number)).toHaveLength(1);
  });

  it('no answer and no charge at TapPay: pending while it may still come, failed once long abandoned', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    tappay.timeoutNext({ charged: false, answer: 'drop' });
    const res = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(res.statusCode).toBe(503);
    const [row] = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    // TapPay has no record yet: still unknown, the job keeps asking (retried).
    expect(await confirmOnce(row!.id)).toBe('pending');
    expect(
      (
        await ctx.api.billingRoutes.payTapPay({
          body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
          token: seller.token,
        })
      ).error().code,
    ).toBe('PAYMENT_IN_PROGRESS');
    // Twenty minutes on, TapPay still has no such charge: it never happened.
    await ctx.deps.database.db
      .update(billing_payments)
      .set({ created_at: new Date(Date.now() - 3_600_000) })
      .where(eq(billing_payments.id, row!.id));
    expect(await confirmed(row!.id)).toBe('failed');
    expect((await rowOf(row!.id)).failure).toBe('no charge at TapPay');
    const retry = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().payment.status).toBe('succeeded');
  });
});

describe('the hourly sweep', () => {
  it('re-queues the confirmation of a record left pending without a queued job (retries spent), which then settles it', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    tappay.timeoutNext({ charged: true, answer: 'drop' });
    expect(
      (
        await ctx.api.billingRoutes.payTapPay({
          body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
          token: seller.token,
        })
      ).statusCode,
    ).toBe(503);
    const [row] = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    // Its own job is gone (as after its last retry), and the record is older than 10 minutes.
    await ctx.deps.database.db.execute(
      sql`delete from pgboss.job where name = 'billing.confirm' and singleton_key = ${row!.id}`,
    );
    await ctx.deps.database.db
      .update(billing_payments)
      .set({ created_at: new Date(Date.now() - 15 * 60_000) })
      .where(eq(billing_payments.id, row!.id));
    const jobsOf = async () =>
      (
        (await ctx.deps.database.db.execute(
          sql`select count(*)::int as n from pgboss.job where name = 'billing.confirm' and singleton_key = ${row!.id}`,
        )) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]!.n;
    expect(await jobsOf()).toBe(0);
    await ctx.deps.database.db.transaction((tx) =>
      ctx.deps.jobs.enqueue(tx, billingConfirmSweep, {}, { customerId: null }),
    );
    ctx.deps.jobs.kick(billingConfirmSweep.name);
    await ctx.deps.jobs.whenIdle();
    expect(await jobsOf()).toBe(1);
    expect(await confirmed(row!.id)).toBe('succeeded');
  });
});

describe('NewebPay: a Notify that never came', () => {
  async function checkout(token: string, start: string) {
    const res = await ctx.api.billingRoutes.payNewebPay({ body: { period_start: start }, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      payment: { id: string; order_number: string };
      action: string;
      fields: Record<string, string>;
    };
  }

  it('paid at NewebPay but our server missed the Notify: QueryTradeInfo settles it as paid', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    const form = await checkout(seller.token, start);
    await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    }).then((r) => r.text());
    newebpay.payQuietly(form.payment.order_number);
    expect(await confirmed(form.payment.id)).toBe('succeeded');
    const row = await rowOf(form.payment.id);
    expect(row.provider_transaction_id).toBe(
      newebpay.trades.find((t) => t.merchantOrderNo === form.payment.order_number)!.tradeNo,
    );
    // The Notify arriving late after all changes nothing.
    const late = await newebpay.notify(
      `${ctx.config.publicUrl}/api/billing/newebpay/notify/`,
      newebpay.resultFields(form.payment.order_number),
    );
    expect(late.map((d) => d.status)).toEqual([200]);
    const rows = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(rows.map((r) => [r.status, r.kind])).toEqual([['succeeded', 'checkout']]);
  });

  it('a payment page never opened: no trade at NewebPay (TRA10001), failed once abandoned, the period payable again', async () => {
    const start = addDays(today(), -2);
    const seller = await sellerWithContract(start);
    const form = await checkout(seller.token, start);
    expect(await confirmOnce(form.payment.id)).toBe('pending');
    await ctx.deps.database.db
      .update(billing_payments)
      .set({ created_at: new Date(Date.now() - 3_600_000) })
      .where(eq(billing_payments.id, form.payment.id));
    expect(await confirmed(form.payment.id)).toBe('failed');
    expect((await rowOf(form.payment.id)).failure).toBe('not paid at NewebPay');
    const again = await checkout(seller.token, start);
    expect(again.payment.order_number).not.toBe(form.payment.order_number);
  });
});
