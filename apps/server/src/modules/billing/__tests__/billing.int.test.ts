import { invalidInput } from '@wms/contracts/client';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  audit_logs,
  billing_contracts,
  billing_payments,
  integration_attempts,
  outbox_messages,
} from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { TAPPAY_DECLINED_PRIME, TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { billingRenewals } from '../billing.jobs';
import { addDays, addMonths } from '../billing.workflow';
import { newebpayDecrypt } from '../providers/newebpay';
import { startBillingWithGateways, type TBillingGateways } from './gateways';

let ctx: TTestContext;
let tappay: TFakeTapPay;
let newebpay: TFakeNewebPay;
let staff: { token: string };

let gateways: TBillingGateways;
beforeAll(async () => {
  gateways = await startBillingWithGateways({
    // Renewal retries wait 1 h, 2 h, 4 h in production: about 1, 2, 4 s here.
    JOB_RETRY_DELAY_SCALE: '0.0003',
  });
  ({ ctx, tappay, newebpay, staff } = gateways);
});
afterAll(() => gateways?.close());

const today = () => taipeiToday();

const sellerWithContract = (start: string, period?: 'quarterly' | 'annual') =>
  gateways.sellerWithContract(start, period);

/** A seller with an annual contract whose first period NewebPay charged by a periodic authorisation. */
async function periodicallyAuthorised() {
  const start = addDays(today(), -1);
  const seller = await sellerWithContract(start, 'annual');
  const res = (
    await ctx.api.billingRoutes.payNewebPay({ body: { periodic: true, period_start: start }, token: seller.token })
  ).json();
  // The browser posts the form to NewebPay; the card holder authorises there.
  await fetch(res.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(res.fields).toString(),
  }).then((r) => r.text());
  const order: string = res.payment.order_number;
  await newebpay.pay(order);
  return { seller, order, start };
}

/** Poll a payment record as /wait-tappay does until it leaves pending (5 s at most); its status. */
async function settled(token: string, id: string): Promise<string> {
  const deadline = Date.now() + 5000;
  let status = 'pending';
  while (status === 'pending' && Date.now() < deadline) {
    status = (await ctx.api.billingRoutes.getPayment({ params: { id }, token })).json().status;
    if (status === 'pending') await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('contract (CRM) and the seller’s overview', () => {
  it('an employee sets the contract; the seller sees the period, the amount with tax and what is due', async () => {
    const seller = await ctx.newCustomer();
    const before = await ctx.api.billingRoutes.overview({ token: seller.token });
    expect(before.json()).toMatchObject({ contract: null, due: null });

    // Only employees set contracts; the input is checked.
    const payload = {
      plan: '標準方案',
      price: '3000.50',
      period: 'quarterly',
      start_date: addDays(today(), -10),
      payment_terms: '11',
    } as const;
    const forbidden = await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: payload,
      token: seller.token,
    });
    expect(forbidden.statusCode).toBe(403);
    for (const bad of [{ price: '-1' }, { price: '1.5.0' }, { period: 'monthly' }, { payment_terms: '12' }]) {
      const r = await ctx.api.billingRoutes.crmSetContract({
        params: { id: seller.customerId },
        body: invalidInput({ ...payload, ...bad }),
        token: staff.token,
      });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const set = await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: payload,
      token: staff.token,
    });
    expect(set.statusCode, set.body).toBe(200);
    // 3000.50 → 3001 (rounded) + tax 150 (3000.50 × 5 % = 150.025).
    expect(set.json()).toMatchObject({ price: '3000.5000', tax: '150', total: '3151', period: 'quarterly' });

    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.contract).toMatchObject({ plan: '標準方案', payment_terms: '11', total: '3151' });
    expect(view.current_period).toEqual({
      start: payload.start_date,
      end: addDays(addMonths(payload.start_date, 3), -1),
    });
    expect(view.due).toMatchObject({ start: payload.start_date, amount: '3151', tax: '150', overdue: true });
    expect(view.providers).toMatchObject({ tappay: { enabled: true, app_id: 11327 }, newebpay: { enabled: true } });

    const crm = await ctx.api.billingRoutes.crmGetContract({ params: { id: seller.customerId }, token: staff.token });
    expect(crm.json()).toMatchObject({ contract: { plan: '標準方案' }, payments: [] });
    const audits = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, seller.customerId), eq(audit_logs.entity, 'billing_contract')));
    expect(audits.map((a) => a.action)).toEqual(['billing.contract.create']);
  });
});

describe('NewebPay MPG', () => {
  it('builds the form the gateway accepts; Notify is verified, recorded once, answered 200; Return shows the result', async () => {
    const start = addDays(today(), -5);
    const seller = await sellerWithContract(start);
    const res = await ctx.api.billingRoutes.payNewebPay({ body: { period_start: start }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    const { payment, action, fields } = res.json();
    expect(payment).toMatchObject({
      status: 'pending',
      provider: 'newebpay',
      amount: '3150.0000',
      period_start: start,
    });
    expect(action).toBe(`${newebpay.url}/MPG/mpg_gateway`);

    // The browser posts the form to NewebPay: accepted (a tampered one is refused with MPG03009).
    const tampered = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, TradeSha: 'A'.repeat(64) }).toString(),
    });
    expect(await tampered.text()).toContain('MPG03009');
    const page = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(await page.text()).toContain(payment.order_number);

    // A Notify with a wrong TradeSha is refused (and NewebPay retries it 3 times): nothing recorded.
    const wrong = await newebpay.notify(
      `${ctx.config.publicUrl}/api/billing/newebpay/notify/`,
      newebpay.resultFields(payment.order_number, { wrongSha: true }),
    );
    expect(wrong.map((d) => d.status)).toEqual([401, 401, 401, 401]);
    const still = await ctx.api.billingRoutes.getPayment({ params: { id: payment.id }, token: seller.token });
    expect(still.json().status).toBe('pending');

    // Paid at NewebPay: Notify answered 200 at once.
    const paid = await newebpay.pay(payment.order_number);
    expect(paid.map((d) => d.status)).toEqual([200]);
    const after = (await ctx.api.billingRoutes.getPayment({ params: { id: payment.id }, token: seller.token })).json();
    expect(after).toMatchObject({ status: 'succeeded', card_last_four: '1111', failure: null });
    expect(after.provider_transaction_id).toMatch(/^\d+$/);

    // NewebPay sends it again (and the browser's Return carries the same form): recorded once.
    const again = await newebpay.notify(`${ctx.config.publicUrl}/api/billing/newebpay/notify/`, paid[0]!.fields);
    expect(again.map((d) => d.status)).toEqual([200]);
    // The gateway posts the browser back form-encoded: the body goes as that text (the contract types its fields).
    const posted = form(paid[0]!.fields);
    const back = await ctx.api.billingRoutes.newebpayReturn({
      body: invalidInput(posted.payload),
      headers: posted.headers,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/wait-newebpay?payment=${payment.id}`);
    const rows = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(rows).toHaveLength(1);
    const audits = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, seller.customerId), eq(audit_logs.action, 'billing.payment.succeeded')));
    expect(audits).toHaveLength(1);

    // The period is paid: the next one is due on its start; a mail confirms the payment.
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.paid_through).toBe(addDays(addMonths(start, 3), -1));
    expect(view.due).toMatchObject({ start: addMonths(start, 3), overdue: false });
    const mails = await ctx.waitForOutbox(1);
    expect(mails.some((m) => m.to === seller.email && m.text.includes('NT$3,150'))).toBe(true);

    // A declined payment: the failure reason is on the record.
    const second = (
      await ctx.api.billingRoutes.payNewebPay({ body: { period_start: addMonths(start, 3) }, token: seller.token })
    ).json();
    await fetch(second.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(second.fields).toString(),
    });
    await newebpay.pay(second.payment.order_number, false);
    const declined = (
      await ctx.api.billingRoutes.getPayment({ params: { id: second.payment.id }, token: seller.token })
    ).json();
    expect(declined).toMatchObject({ status: 'failed', failure: expect.stringContaining('MPG03012') });

    // Records: list, filter, export; another seller sees none of them.
    const list = (
      await ctx.api.billingRoutes.listPayments({ query: { status: 'succeeded' }, token: seller.token })
    ).json();
    expect(list.count).toBe(1);
    const xlsx = await ctx.api.billingRoutes.exportPayments({ token: seller.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const other = await ctx.newCustomer();
    const peek = await ctx.api.billingRoutes.getPayment({ params: { id: payment.id }, token: other.token });
    expect(peek.statusCode).toBe(404);
    expect((await ctx.api.billingRoutes.listPayments({ token: other.token })).json().count).toBe(0);
  });

  it('periodic authorisation: the first result starts automatic renewal, later results record the next periods once', async () => {
    const start = addDays(today(), -1);
    const seller = await sellerWithContract(start, 'annual');
    const res = (
      await ctx.api.billingRoutes.payNewebPay({ body: { periodic: true, period_start: start }, token: seller.token })
    ).json();
    expect(res.action).toBe(`${newebpay.url}/MPG/period`);
    expect(Object.keys(res.fields).sort()).toEqual(['MerchantID_', 'PostData_']);
    const postData = Object.fromEntries(
      new URLSearchParams(newebpayDecrypt(res.fields.PostData_!, newebpay.hashKey, newebpay.hashIv)!),
    );
    expect(postData).toMatchObject({
      Version: '1.5',
      MerOrderNo: res.payment.order_number,
      PeriodAmt: '3150',
      PeriodType: 'Y',
      PeriodPoint: `${start.slice(5, 7)}${start.slice(8, 10)}`,
      PeriodStartType: '2',
    });
    const page = await fetch(res.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(res.fields).toString(),
    });
    expect(await page.text()).toContain(res.payment.order_number);
    expect((await newebpay.pay(res.payment.order_number)).map((d) => d.status)).toEqual([200]);
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.contract!.auto_renew).toBe('newebpay');
    expect(view.due!.start).toBe(addMonths(start, 12));

    const next = await newebpay.chargePeriod(res.payment.order_number);
    expect(next.map((d) => d.status)).toEqual([200]);
    await newebpay.notify(next[0]!.url, next[0]!.fields);
    const rows = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(rows.map((r) => [r.period_start, r.status, r.kind]).sort()).toEqual([
      [start, 'succeeded', 'periodic'],
      [addMonths(start, 12), 'succeeded', 'periodic'],
    ]);
  });

  it('stopping automatic renewal ends the authorisation at NewebPay after the commit (retried while busy): no more charges', async () => {
    const db = ctx.deps.database.db;
    const { seller, order } = await periodicallyAuthorised();
    const periodNo = `P${order.slice(-8)}`;
    const [before] = await db
      .select()
      .from(billing_contracts)
      .where(eq(billing_contracts.customer_id, seller.customerId));
    expect(before).toMatchObject({
      auto_renew: 'newebpay',
      newebpay_period_order: order,
      newebpay_period_no: periodNo,
    });

    newebpay.alterFailure = 503;
    const stop = await ctx.api.billingRoutes.stopAutoRenew({ token: seller.token });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().contract!.auto_renew).toBeNull();
    const messageOf = async () =>
      (
        await db
          .select()
          .from(outbox_messages)
          .where(
            and(
              eq(outbox_messages.customer_id, seller.customerId),
              eq(outbox_messages.topic, 'billing.newebpay.period-end'),
            ),
          )
      )[0];
    const waitFor = async (ok: () => Promise<boolean>) => {
      for (let i = 0; i < 150 && !(await ok()); i++) {
        // Let a backing-off delivery run now instead of in 10–40 s (the back-off itself is tested in jobs.int.test.ts).
        await db.execute(
          sql`update pgboss.job set start_after = now() where name like 'outbox.deliver%' and state = 'retry'`,
        );
        ctx.deps.jobs.kick('outbox.deliver');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const attemptStatuses = async () =>
      (
        await db
          .select({ status: integration_attempts.status })
          .from(integration_attempts)
          .where(
            and(
              eq(integration_attempts.operation, 'period.terminate'),
              eq(integration_attempts.customer_id, seller.customerId),
            ),
          )
      ).map((a) => a.status);
    // NewebPay busy: the message stays pending and is tried again. (Waiting for NewebPay's 503 itself, not for the
    // message's attempt count: on a loaded machine a delivery attempt can end before its call, e.g. on a lock.)
    await waitFor(async () => (await attemptStatuses()).includes(503));
    expect(await messageOf()).toMatchObject({
      state: 'pending',
      payload: { order_number: order, period_no: periodNo },
    });
    newebpay.alterFailure = null;
    await waitFor(async () => (await messageOf())?.state === 'delivered');
    expect((await messageOf())?.state).toBe('delivered');
    expect(newebpay.alterations.filter((a) => a.merOrderNo === order)).toEqual([
      { merOrderNo: order, periodNo, alterType: 'terminate', status: 'SUCCESS' },
    ]);
    // NewebPay charges no later period.
    expect(await newebpay.chargePeriod(order)).toEqual([]);
    const audit = await db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, seller.customerId), eq(audit_logs.action, 'billing.periodic.ended')));
    expect(audit).toHaveLength(1);
    // Every attempt is in the attempt log, without the hash key or IV.
    const attempts = await db
      .select()
      .from(integration_attempts)
      .where(
        and(
          eq(integration_attempts.operation, 'period.terminate'),
          eq(integration_attempts.customer_id, seller.customerId),
        ),
      );
    expect(attempts.map((a) => a.status)).toContain(503);
    expect(attempts.map((a) => a.status)).toContain(200);
    for (const a of attempts) expect(JSON.stringify(a)).not.toContain(newebpay.hashKey);
  });

  it('an authorisation from before PeriodNo was kept: its next charge keeps it, or ends it if renewal was stopped', async () => {
    const db = ctx.deps.database.db;
    const contractOf = async (customerId: string) =>
      (await db.select().from(billing_contracts).where(eq(billing_contracts.customer_id, customerId)))[0]!;
    const forget = (customerId: string) =>
      db
        .update(billing_contracts)
        .set({ newebpay_period_no: null })
        .where(eq(billing_contracts.customer_id, customerId));
    const chargeNow = async (order: string) => {
      const next = await newebpay.chargePeriod(order);
      expect(next.map((d) => d.status)).toEqual([200]);
    };
    const terminated = async (order: string) => {
      for (let i = 0; i < 100 && !newebpay.alterations.some((a) => a.merOrderNo === order); i++) {
        ctx.deps.jobs.kick('outbox.deliver');
        await new Promise((r) => setTimeout(r, 100));
      }
      return newebpay.alterations.filter((a) => a.merOrderNo === order);
    };
    const endsQueued = async (customerId: string) =>
      (
        await db
          .select()
          .from(outbox_messages)
          .where(
            and(eq(outbox_messages.customer_id, customerId), eq(outbox_messages.topic, 'billing.newebpay.period-end')),
          )
      ).length;

    // Still renewing: the next charge gives the contract its PeriodNo, and stopping then ends it at NewebPay.
    const a = await periodicallyAuthorised();
    await forget(a.seller.customerId);
    await chargeNow(a.order);
    expect((await contractOf(a.seller.customerId)).newebpay_period_no).toBe(`P${a.order.slice(-8)}`);
    expect(await endsQueued(a.seller.customerId)).toBe(0);
    const stopA = await ctx.api.billingRoutes.stopAutoRenew({ token: a.seller.token });
    expect(stopA.statusCode, stopA.body).toBe(200);
    expect(await terminated(a.order)).toEqual([
      { merOrderNo: a.order, periodNo: `P${a.order.slice(-8)}`, alterType: 'terminate', status: 'SUCCESS' },
    ]);

    // Stopped while the PeriodNo was unknown (nothing could end it): its next charge is recorded and ends it.
    const b = await periodicallyAuthorised();
    await forget(b.seller.customerId);
    const stopB = await ctx.api.billingRoutes.stopAutoRenew({ token: b.seller.token });
    expect(stopB.statusCode, stopB.body).toBe(200);
    expect(await endsQueued(b.seller.customerId)).toBe(0);
    await chargeNow(b.order);
    const paid = await db.select().from(billing_payments).where(eq(billing_payments.customer_id, b.seller.customerId));
    expect(paid.map((p) => p.status)).toEqual(['succeeded', 'succeeded']);
    expect(await contractOf(b.seller.customerId)).toMatchObject({ auto_renew: null, newebpay_period_order: null });
    expect(await terminated(b.order)).toEqual([
      { merOrderNo: b.order, periodNo: `P${b.order.slice(-8)}`, alterType: 'terminate', status: 'SUCCESS' },
    ]);
    expect(await newebpay.chargePeriod(b.order)).toEqual([]);
  });

  it('a remembered card taking over renewal ends the NewebPay periodic authorisation too', async () => {
    const db = ctx.deps.database.db;
    const { seller, order, start } = await periodicallyAuthorised();
    // The next period paid by card, remembered (3-D Secure: the bank confirms, then TapPay's record says paid).
    const card = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: addMonths(start, 12),
        prime: TAPPAY_TEST_PRIME,
        remember: true,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    expect(card.statusCode, card.body).toBe(200);
    await fetch(card.json().payment_url!, { redirect: 'manual' });
    expect(await settled(seller.token, card.json().payment.id)).toBe('succeeded');
    const [contract] = await db
      .select()
      .from(billing_contracts)
      .where(eq(billing_contracts.customer_id, seller.customerId));
    expect(contract).toMatchObject({ auto_renew: 'tappay', newebpay_period_order: null, newebpay_period_no: null });
    for (let i = 0; i < 100 && !newebpay.alterations.some((a) => a.merOrderNo === order); i++) {
      ctx.deps.jobs.kick('outbox.deliver');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(newebpay.alterations.filter((a) => a.merOrderNo === order)).toEqual([
      { merOrderNo: order, periodNo: `P${order.slice(-8)}`, alterType: 'terminate', status: 'SUCCESS' },
    ]);
  });
});

describe('TapPay', () => {
  it('a declined card is recorded with the bank’s reason', async () => {
    const seller = await sellerWithContract(addDays(today(), -1));
    const res = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: addDays(today(), -1),
        prime: TAPPAY_DECLINED_PRIME,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      payment_url: null,
      payment: { status: 'failed', failure: '10003 Card Error: Do not honor' },
    });
  });

  it('TapPay does not answer: never retried (a charge could happen twice), the record stays pending, 503', async () => {
    const seller = await sellerWithContract(addDays(today(), -1));
    tappay.failNext(1);
    const res = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: addDays(today(), -1),
        prime: TAPPAY_TEST_PRIME,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    expect(res.statusCode).toBe(503);
    expect(res.error().code).toBe('PAYMENT_UNAVAILABLE');
    const [row] = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(row!.status).toBe('pending');
    const attempts = await ctx.deps.database.db
      .select()
      .from(integration_attempts)
      .where(
        and(eq(integration_attempts.reference, row!.order_number), eq(integration_attempts.operation, 'pay-by-prime')),
      );
    expect(attempts.map((a) => a.status)).toEqual([503]);
    // Reading it asks TapPay by our order number: no such trade, so it stays pending (never guessed).
    const read = await ctx.api.billingRoutes.getPayment({ params: { id: row!.id }, token: seller.token });
    expect(read.json().status).toBe('pending');
  });

  it('3-D Secure: pending until TapPay’s own record says paid; the card is remembered encrypted; renewal charges it', async () => {
    const start = addMonths(today(), -3);
    const seller = await sellerWithContract(start);
    const res = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: start,
        prime: TAPPAY_TEST_PRIME,
        remember: true,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { payment, payment_url } = res.json();
    expect(payment).toMatchObject({ status: 'pending', amount: '3150.0000', period_start: start });
    expect(payment_url).toMatch(new RegExp(`^${tappay.url}/3ds/`));
    expect(tappay.requests.at(-1)!.body).toMatchObject({ amount: 3150, three_domain_secure: true, remember: true });

    // Before the bank confirms, /wait-tappay's poll stays pending (TapPay says record_status 4).
    const early = await ctx.api.billingRoutes.getPayment({ params: { id: payment.id }, token: seller.token });
    expect(early.json().status).toBe('pending');
    // The browser at the bank: back to /wait-tappay (the query string is not trusted) and a backend notify.
    const bank = await fetch(payment_url!, { redirect: 'manual' });
    expect(bank.status).toBe(302);
    expect(bank.headers.get('location')).toContain(`/wait-tappay?payment=${payment.id}`);
    expect(await settled(seller.token, payment.id)).toBe('succeeded');
    expect(tappay.requests.some((r) => r.path === '/tpc/transaction/query')).toBe(true);

    const [contract] = await ctx.deps.database.db
      .select()
      .from(billing_contracts)
      .where(eq(billing_contracts.customer_id, seller.customerId));
    expect(contract).toMatchObject({ auto_renew: 'tappay', card_last_four: '4242' });
    expect(contract!.card_key_enc).toMatch(/^v1:/);
    // The partner key and the prime never reach the attempt log.
    const attempts = await ctx.deps.database.db
      .select()
      .from(integration_attempts)
      .where(eq(integration_attempts.provider, 'tappay'));
    for (const a of attempts) {
      expect(JSON.stringify(a)).not.toContain(tappay.partnerKey);
      expect(a.request_body ?? '').not.toContain(TAPPAY_TEST_PRIME);
      expect(a.response_body ?? '').not.toMatch(/"card_token":"[0-9a-f]{10,}/);
    }

    // The next quarter starts today: the daily renewal charges the remembered card (pay-by-token).
    await ctx.deps.database.db.transaction((tx) =>
      ctx.deps.jobs.enqueue(tx, billingRenewals, {}, { customerId: null }),
    );
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const rows = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(eq(billing_payments.customer_id, seller.customerId));
    expect(rows.map((r) => [r.kind, r.period_start, r.status]).sort()).toEqual([
      ['checkout', start, 'succeeded'],
      ['renewal', addMonths(start, 3), 'succeeded'],
    ]);
    expect(tappay.requests.filter((r) => r.path === '/tpc/payment/pay-by-token')).toHaveLength(1);
  });

  it('a renewal that keeps failing is retried with back-off, mailed, and marks the account overdue', async () => {
    const start = addMonths(today(), -3);
    const seller = await sellerWithContract(start);
    const pay = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: start,
        prime: TAPPAY_TEST_PRIME,
        remember: true,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    // Card remembered after the bank confirmed (3-D Secure), then every renewal is declined.
    expect((await fetch(pay.json().payment_url!, { redirect: 'manual' })).status).toBe(302);
    const confirmed = await ctx.api.billingRoutes.getPayment({
      params: { id: pay.json().payment.id },
      token: seller.token,
    });
    expect(confirmed.json().status).toBe('succeeded');
    tappay.declineTokens(100);
    await ctx.deps.database.db.transaction((tx) =>
      ctx.deps.jobs.enqueue(tx, billingRenewals, {}, { customerId: null }),
    );
    ctx.deps.jobs.kick();
    const deadline = Date.now() + 60_000;
    let overdue: Date | null = null;
    while (!overdue && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      ctx.deps.jobs.kick();
      overdue = (
        await ctx.deps.database.db
          .select()
          .from(billing_contracts)
          .where(eq(billing_contracts.customer_id, seller.customerId))
      )[0]!.overdue_since;
    }
    tappay.declineTokens(0);
    expect(overdue).not.toBeNull();
    const rows = await ctx.deps.database.db
      .select()
      .from(billing_payments)
      .where(and(eq(billing_payments.customer_id, seller.customerId), eq(billing_payments.kind, 'renewal')));
    expect(rows.map((r) => [r.attempt, r.status, r.failure]).sort()).toEqual([
      [1, 'failed', '10003 Card Error: Insufficient funds'],
      [2, 'failed', '10003 Card Error: Insufficient funds'],
      [3, 'failed', '10003 Card Error: Insufficient funds'],
      [4, 'failed', '10003 Card Error: Insufficient funds'],
    ]);
    // The checkout's "paid" mail may land after mailsBefore: count the renewal mails only.
    const renewalMails = () => ctx.outbox().filter((m) => m.to === seller.email && !m.text.includes('付款成功'));
    const until = Date.now() + 10_000;
    while (renewalMails().length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const mails = renewalMails();
    expect(mails).toHaveLength(4);
    expect(mails.filter((m) => m.text.includes('逾期'))).toHaveLength(1);
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.contract!.overdue_since).not.toBeNull();
  }, 90_000);
});
