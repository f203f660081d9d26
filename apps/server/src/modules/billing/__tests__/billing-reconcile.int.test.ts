import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, billing_payments, billing_reconciliation_items } from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { billingReconcile } from '../billing.reconcile';
import { addDays } from '../billing.workflow';
import { startBillingWithGateways, type TBillingGateways } from './gateways';

/**
 * Daily reconciliation: our records of a day against each gateway's — a charge our process never recorded as paid
 * (killed between the gateway's answer and our commit), a payment the gateway has no record of, amounts that differ —
 * listed once for the staff, resolved with a note and audited.
 */

let ctx: TTestContext;
let tappay: TFakeTapPay;
let newebpay: TFakeNewebPay;
let staff: { token: string };

let gateways: TBillingGateways;
beforeAll(async () => {
  gateways = await startBillingWithGateways({
    TAPPAY_3DS: '0',
    // The confirmation job's back-off (30 s, 1 min, …) is about a second here.
    JOB_RETRY_DELAY_SCALE: '0.0003',
  });
  ({ ctx, tappay, newebpay, staff } = gateways);
});
afterAll(() => gateways?.close());

const today = () => taipeiToday();
const cardholder = { name: '王小明', email: 'a@b.tw', phone: '0912345678' };

async function sellerWithContract() {
  const start = addDays(today(), -2);
  return { seller: await gateways.sellerWithContract(start), start };
}

async function payByCard() {
  const { seller, start } = await sellerWithContract();
  const res = await ctx.api.billingRoutes.payTapPay({
    body: { period_start: start, prime: TAPPAY_TEST_PRIME, cardholder },
    token: seller.token,
  });
  const [row] = await ctx.deps.database.db
    .select()
    .from(billing_payments)
    .where(eq(billing_payments.customer_id, seller.customerId));
  return { seller, res, row: row! };
}

describe('daily reconciliation', () => {
  it('finds each difference of the day once; the staff resolve it with a note, audited', async () => {
    // Matching on both sides: nothing to report.
    const fine = await payByCard();
    expect(fine.row.status).toBe('succeeded');
    // TapPay charged, our process died before recording it (the answer never reached our commit): pending here.
    tappay.timeoutNext({ charged: true, answer: 'drop' });
    const killed = await payByCard();
    expect(killed.res.statusCode).toBe(503);
    expect(killed.row.status).toBe('pending');
    // Paid here, but TapPay has no such charge.
    const ghost = await payByCard();
    tappay.trades.splice(
      tappay.trades.findIndex((t) => t.rec_trade_id === ghost.row.provider_transaction_id),
      1,
    );
    // TapPay took another amount than ours.
    const odd = await payByCard();
    tappay.trades.find((t) => t.rec_trade_id === odd.row.provider_transaction_id)!.amount = 3100;
    // NewebPay took the money but its Notify never reached us.
    const { seller: nwpSeller, start } = await sellerWithContract();
    const form = (
      await ctx.api.billingRoutes.payNewebPay({ body: { period_start: start }, token: nwpSeller.token })
    ).json();
    await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    }).then((r) => r.text());
    newebpay.payQuietly(form.payment.order_number);

    const run = await ctx.api.billingRoutes.crmRunReconciliation({ body: { day: today() }, token: staff.token });
    expect(run.statusCode, run.body).toBe(200);
    const mine = new Set([killed, ghost, odd].map((x) => x.row.order_number).concat(form.payment.order_number));
    const items = (await ctx.deps.database.db.select().from(billing_reconciliation_items)).filter(
      (i) => mine.has(i.order_number) || i.order_number === fine.row.order_number,
    );
    expect(items.map((i) => [i.provider, i.kind, i.order_number]).sort()).toEqual(
      [
        ['tappay', 'missing_here', killed.row.order_number],
        ['tappay', 'not_found_there', ghost.row.order_number],
        ['tappay', 'amount_differs', odd.row.order_number],
        ['newebpay', 'missing_here', form.payment.order_number],
      ].sort(),
    );
    expect(items.find((i) => i.kind === 'amount_differs')).toMatchObject({
      our_amount: '3150.0000',
      their_amount: '3100.0000',
      customer_id: odd.seller.customerId,
    });

    // The daily job for the same day (a re-run) adds nothing twice.
    await ctx.deps.database.db.transaction((tx) =>
      ctx.deps.jobs.enqueue(tx, billingReconcile, { day: today() }, { customerId: null }),
    );
    ctx.deps.jobs.kick(billingReconcile.name);
    await ctx.deps.jobs.whenIdle();
    const again = (await ctx.deps.database.db.select().from(billing_reconciliation_items)).filter((i) =>
      mine.has(i.order_number),
    );
    expect(again).toHaveLength(4);

    // Without a day the staff's run takes yesterday in Taipei (as the job): today's differences are not found again.
    const yesterday = await ctx.api.billingRoutes.crmRunReconciliation({ body: {}, token: staff.token });
    expect(yesterday.json()).toEqual({ found: 0 });

    // The CRM screen: open differences; only staff.
    const forbidden = await ctx.api.billingRoutes.crmReconciliation({ token: killed.seller.token });
    expect(forbidden.statusCode).toBe(403);
    const open = (
      await ctx.api.billingRoutes.crmReconciliation({ query: { status: 'open', page_size: '100' }, token: staff.token })
    ).json();
    const killedItem = open.results.find((i: { order_number: string }) => i.order_number === killed.row.order_number);
    expect(killedItem).toMatchObject({ kind: 'missing_here', status: 'open', their_status: 'record_status 1' });
    expect(killedItem!.customer_name).toBeTruthy();
    const resolved = await ctx.api.billingRoutes.crmResolveReconciliation({
      params: { id: killedItem!.id },
      body: { resolution: '已確認 TapPay 扣款，付款紀錄由確認作業補記為成功' },
      token: staff.token,
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolved_by_name: expect.any(String) });
    expect(resolved.json().resolved_at).not.toBeNull();
    const twice = await ctx.api.billingRoutes.crmResolveReconciliation({
      params: { id: killedItem!.id },
      body: { resolution: 'again' },
      token: staff.token,
    });
    expect(twice.error().code).toBe('RECONCILIATION_RESOLVED');
    const audit = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.entity, 'billing_reconciliation_item'), eq(audit_logs.entity_id, killedItem!.id)));
    expect(audit.map((a) => a.action)).toEqual(['billing.reconciliation.resolve']);
  });
});
