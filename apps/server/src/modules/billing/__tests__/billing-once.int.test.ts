import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing_contracts, billing_payments } from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { addDays, addMonths } from '../billing.workflow';
import { startBillingWithGateways, type TBillingGateways } from './gateways';

/** A period is paid at most once: by the database's unique key, whatever the requests race. */

let ctx: TTestContext;
let tappay: TFakeTapPay;
let newebpay: TFakeNewebPay;
let staff: { token: string };

let gateways: TBillingGateways;
beforeAll(async () => {
  gateways = await startBillingWithGateways();
  ({ ctx, tappay, newebpay, staff } = gateways);
});
afterAll(() => gateways?.close());

const today = () => taipeiToday();
const cardholder = { name: '王小明', email: 'a@b.tw', phone: '0912345678' };

const sellerWithContract = (start: string, period?: 'quarterly' | 'annual') =>
  gateways.sellerWithContract(start, period);

async function recordsOf(customerId: string) {
  return ctx.deps.database.db.select().from(billing_payments).where(eq(billing_payments.customer_id, customerId));
}

/** The charges the fake TapPay took for this seller's order numbers (record_status 0/1: money taken or authorised). */
async function chargesAtTapPay(customerId: string) {
  const orders = new Set((await recordsOf(customerId)).map((r) => r.order_number));
  return tappay.trades.filter((t) => orders.has(t.order_number));
}

describe('a period is paid at most once', () => {
  it('20 parallel pay attempts for one period: one charge at the gateway, the rest 409 naming the period', async () => {
    const start = addDays(today(), -3);
    const end = addDays(addMonths(start, 3), -1);
    const seller = await sellerWithContract(start);

    // Ten by card, ten at NewebPay, all at once, for the same period.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? ctx.api.billingRoutes.payTapPay({
              body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
              token: seller.token,
            })
          : ctx.api.billingRoutes.payNewebPay({ body: { period_start: start, periodic: false }, token: seller.token }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.error()).toMatchObject({
        code: 'PAYMENT_IN_PROGRESS',
        params: { period: `${start} ~ ${end}` },
      });
    }
    const rows = await recordsOf(seller.customerId);
    expect(rows.map((r) => [r.period_start, r.status])).toEqual([[start, 'pending']]);

    // The one attempt that went through is paid at its gateway (3-D Secure confirmed, or NewebPay's page).
    // A card payment answers its 3-D Secure URL, a NewebPay one the form to post: one of the two shapes.
    const winner = ok[0]!.json() as {
      payment: { id: string; order_number: string };
      payment_url?: string | null;
      action: string;
      fields: Record<string, string>;
    };
    if (winner.payment_url) {
      await fetch(winner.payment_url, { redirect: 'manual' });
      const read = await ctx.api.billingRoutes.getPayment({ params: { id: winner.payment.id }, token: seller.token });
      expect(read.json().status).toBe('succeeded');
    } else {
      await fetch(winner.action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(winner.fields).toString(),
      }).then((r) => r.text());
      expect((await newebpay.pay(winner.payment.order_number)).map((d) => d.status)).toEqual([200]);
    }

    // Paid: 20 more attempts for the same period (a stale page, a double click) are refused as already paid.
    const again = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? ctx.api.billingRoutes.payTapPay({
              body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
              token: seller.token,
            })
          : ctx.api.billingRoutes.payNewebPay({ body: { period_start: start, periodic: false }, token: seller.token }),
      ),
    );
    for (const r of again) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.error()).toMatchObject({ code: 'PERIOD_ALREADY_PAID', params: { period: `${start} ~ ${end}` } });
    }
    const after = await recordsOf(seller.customerId);
    expect(after.map((r) => [r.period_start, r.status])).toEqual([[start, 'succeeded']]);
    // At the gateways: exactly one charge for this seller.
    const tappayCharges = await chargesAtTapPay(seller.customerId);
    const newebpayCharges = newebpay.trades.filter((t) => after.some((r) => r.order_number === t.merchantOrderNo));
    expect(tappayCharges.length + newebpayCharges.length).toBe(1);

    // The page: paid until the period's end, the next period (due on its start) only.
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.paid_through).toBe(end);
    expect(view.due).toMatchObject({ start: addMonths(start, 3), overdue: false });
    expect(view.in_progress).toBeNull();
  });

  it('the database itself refuses a second record paying or holding a period', async () => {
    const db = ctx.deps.database.db;
    const start = addDays(today(), -1);
    const seller = await sellerWithContract(start);
    const [contract] = await db
      .select()
      .from(billing_contracts)
      .where(eq(billing_contracts.customer_id, seller.customerId));
    const row = (order: string, status: string) => ({
      customer_id: seller.customerId,
      contract_id: contract!.id,
      order_number: order,
      provider: 'tappay',
      kind: 'checkout',
      period_start: start,
      period_end: addDays(addMonths(start, 3), -1),
      amount: '3150',
      status,
    });
    await db.insert(billing_payments).values(row(`BDB_${seller.customerId.slice(0, 8)}_1`, 'succeeded'));
    // A second success, or a new attempt in flight, for the same contract and period: a unique violation.
    for (const status of ['succeeded', 'pending']) {
      const err = await db
        .insert(billing_payments)
        .values(row(`BDB_${seller.customerId.slice(0, 8)}_${status}`, status))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(JSON.stringify((err as { cause?: unknown })?.cause ?? err)).toMatch(/23505|billing_payments_period_key/);
    }
    // A failed attempt holds nothing.
    await db.insert(billing_payments).values(row(`BDB_${seller.customerId.slice(0, 8)}_f`, 'failed'));
  });

  it('a period not due is refused; with everything up to the next period paid, nothing can be paid', async () => {
    const start = addDays(today(), -3);
    const seller = await sellerWithContract(start);
    // Two periods ahead: not payable yet.
    const ahead = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: addMonths(start, 6), prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.error()).toMatchObject({ code: 'PERIOD_NOT_DUE', params: { period: addMonths(start, 6) } });

    // Pay this period and the next (TapPay 3-D Secure, confirmed at the bank).
    for (const p of [start, addMonths(start, 3)]) {
      const res = await ctx.api.billingRoutes.payTapPay({
        body: { period_start: p, prime: TAPPAY_TEST_PRIME, cardholder },
        token: seller.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      await fetch(res.json().payment_url!, { redirect: 'manual' });
      const read = await ctx.api.billingRoutes.getPayment({
        params: { id: res.json().payment.id },
        token: seller.token,
      });
      expect(read.json().status).toBe('succeeded');
    }
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.due).toBeNull();
    expect(view.paid_through).toBe(addDays(addMonths(start, 6), -1));
    const more = await ctx.api.billingRoutes.payNewebPay({
      body: { period_start: addMonths(start, 6), periodic: false },
      token: seller.token,
    });
    expect(more.statusCode).toBe(409);
    expect(more.error().code).toBe('PERIOD_ALREADY_PAID');
  });

  it('a NewebPay periodic charge is booked onto the next unpaid period, or as credit when none is due; never onto a paid one', async () => {
    const start = addDays(today(), -1);
    const seller = await sellerWithContract(start, 'annual');
    const res = (
      await ctx.api.billingRoutes.payNewebPay({ body: { period_start: start, periodic: true }, token: seller.token })
    ).json();
    await fetch(res.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(res.fields).toString(),
    }).then((r) => r.text());
    const order: string = res.payment.order_number;
    const first = await newebpay.pay(order);
    expect(first.map((d) => d.status)).toEqual([200]);
    // The same Period posted with a TradeSha that does not verify (forged): refused, NewebPay's retries too.
    const forged = await newebpay.notify(`${ctx.config.publicUrl}/api/billing/newebpay/notify/`, {
      Period: first[0]!.fields.Period!,
      TradeSha: 'A'.repeat(64),
    });
    expect(forged.map((d) => d.status)).toEqual([401, 401, 401, 401]);

    // The seller pays the next year by card as well (allowed: the period after today's).
    const next = addMonths(start, 12);
    const card = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: next, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(card.statusCode, card.body).toBe(200);
    await fetch(card.json().payment_url!, { redirect: 'manual' });
    await ctx.api.billingRoutes.getPayment({ params: { id: card.json().payment.id }, token: seller.token });

    // NewebPay charges the authorisation again: both periods are paid, so it is the seller's credit.
    expect((await newebpay.chargePeriod(order)).map((d) => d.status)).toEqual([200]);
    const rows = await recordsOf(seller.customerId);
    expect(rows.map((r) => [r.kind, r.status, r.kind === 'credit' ? 'credit' : r.period_start]).sort()).toEqual(
      [
        ['checkout', 'succeeded', next],
        ['credit', 'succeeded', 'credit'],
        ['periodic', 'succeeded', start],
      ].sort(),
    );
    // Never two successes for one period.
    const paid = rows.filter((r) => r.status === 'succeeded' && r.kind !== 'credit').map((r) => r.period_start);
    expect(new Set(paid).size).toBe(paid.length);
    const audit = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(and(eq(billing_payments.customer_id, seller.customerId), eq(billing_payments.kind, 'credit')));
    expect(audit[0]!.amount).toBe('3150.0000');
  });
});

describe('3-D Secure never completed', () => {
  it('releases the period after a while; a bank confirmation arriving later is recorded, as credit when the period is taken', async () => {
    const db = ctx.deps.database.db;
    const start = addDays(today(), -1);
    const seller = await sellerWithContract(start);
    const first = (
      await ctx.api.billingRoutes.payTapPay({
        body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
        token: seller.token,
      })
    ).json();
    expect(first.payment.status).toBe('pending');
    // The card holder left the bank's page. Still within the time the bank allows: pending, the period held.
    const early = await ctx.api.billingRoutes.getPayment({ params: { id: first.payment.id }, token: seller.token });
    expect(early.json().status).toBe('pending');
    expect(
      (
        await ctx.api.billingRoutes.payTapPay({
          body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
          token: seller.token,
        })
      ).error().code,
    ).toBe('PAYMENT_IN_PROGRESS');
    // Twenty minutes on, TapPay's record still waits for the card holder: given up, the period payable again.
    await db
      .update(billing_payments)
      .set({ created_at: new Date(Date.now() - 3_600_000) })
      .where(eq(billing_payments.id, first.payment.id));
    const late = await ctx.api.billingRoutes.getPayment({ params: { id: first.payment.id }, token: seller.token });
    expect(late.json()).toMatchObject({ status: 'failed', failure: '3-D Secure not completed' });
    const second = await ctx.api.billingRoutes.payTapPay({
      body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
      token: seller.token,
    });
    expect(second.statusCode, second.body).toBe(200);

    // The bank confirms the first one after all (TapPay's backend notify): recorded, never lost — as credit, since
    // the second attempt holds the period.
    await fetch(first.payment_url!, { redirect: 'manual' });
    let row = (await db.select().from(billing_payments).where(eq(billing_payments.id, first.payment.id)))[0]!;
    for (let i = 0; i < 50 && row.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = (await db.select().from(billing_payments).where(eq(billing_payments.id, first.payment.id)))[0]!;
    }
    expect(row).toMatchObject({ status: 'succeeded', kind: 'credit' });
    const held = (
      await db.select().from(billing_payments).where(eq(billing_payments.id, second.json().payment.id))
    )[0]!;
    expect(held).toMatchObject({ status: 'pending', kind: 'checkout', period_start: start });
  });
});

describe('the contract’s start date', () => {
  it('is decided by the server in Asia/Taipei when the CRM leaves it out, and kept on later edits', async () => {
    const seller = await ctx.newCustomer();
    const base = { plan: '標準方案', price: '3000', period: 'quarterly', payment_terms: '11' } as const;
    const created = await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: base,
      token: staff.token,
    });
    expect(created.statusCode, created.body).toBe(200);
    // Taipei's today (UTC+8), not the UTC date a browser on UTC would send between 16:00 and 24:00 UTC.
    expect(created.json().start_date).toBe(taipeiToday());
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.due).toMatchObject({ start: taipeiToday(), overdue: false });
    const edited = await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: { ...base, price: '3300' },
      token: staff.token,
    });
    expect(edited.json()).toMatchObject({ start_date: taipeiToday(), total: '3465' });
  });
});
