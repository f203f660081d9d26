import type { TStatement } from '@wms/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, billing_payments, outbox_messages } from '../../../db/schema';
import { TAPPAY_TEST_PRIME, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import type { TTestContext } from '../../../test/harness';
import { startBillingWithGateways, type TBillingGateways } from '../../billing/__tests__/gateways';
import { outboundWorld } from '../../outbound/__tests__/factories';
import { eventsDelivered, receiveUnits } from './work';

/**
 * A seller pays an issued usage statement by card (issue #35), through billing's TapPay flow: the statement is paid
 * exactly once — 12 parallel attempts, a retry after a charge that timed out at TapPay after taking the money, and
 * TapPay's notify racing the confirmation job's query. The fake TapPay plays the timeout as TapPay documents it (a
 * 421, or no answer at all, with the bank having charged: only the Record API knows).
 */

let gateways: TBillingGateways;
let ctx: TTestContext;
let tappay: TFakeTapPay;
let staff: string;

beforeAll(async () => {
  gateways = await startBillingWithGateways({
    TAPPAY_3DS: '0',
    USAGE_ISSUE_OPEN_MONTH: '1',
    JOB_RETRY_DELAY_SCALE: '0.0003',
  });
  ({ ctx, tappay } = gateways);
  staff = gateways.staff.token;
});
afterAll(() => gateways?.close());

const cardholder = { name: '王小明', email: 'a@b.tw', phone: '0912345678' };
const db = () => ctx.deps.database.db;

const delivered = () => eventsDelivered(ctx);

/** A seller with an issued statement of this month: one receipt of 10 units (1,000 + 10 × 2.5 = 1,025; tax 51). */
async function sellerWithStatement() {
  const w = await outboundWorld(ctx, { name: 'Paying seller' });
  const card = await ctx.api.usageRoutes.crmCreateRateCard({
    body: {
      customer_id: w.customerId,
      valid_from: '2020-01-01',
      rates: { receiving_receipt: '1000', receiving_unit: '2.5' },
    },
    token: staff,
  });
  expect(card.statusCode, card.body).toBe(201);
  await receiveUnits(ctx, w, 10, 10);
  await delivered();
  const month = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
  const issued = await ctx.api.usageRoutes.crmIssueStatement({
    body: { customer_id: w.customerId, month },
    token: staff,
  });
  expect(issued.statusCode, issued.body).toBe(201);
  const s: TStatement = issued.json();
  expect(s).toMatchObject({ subtotal: '1025', tax: '51', total: '1076', pay_amount: '1076', status: 'issued' });
  return { w, s };
}

const paymentsOf = (statementId: string) =>
  db().select().from(billing_payments).where(eq(billing_payments.statement_id, statementId));
const auditsOf = async (statementId: string, action: string) =>
  (
    await db()
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.entity_id, statementId), eq(audit_logs.action, action)))
  ).length;
/** What TapPay took for the statement's order numbers (record_status 0/1: money authorised or captured). */
const chargedAtTapPay = async (statementId: string) => {
  const orders = new Set((await paymentsOf(statementId)).map((p) => p.order_number));
  return tappay.trades.filter((t) => orders.has(t.order_number) && [0, 1].includes(t.record_status));
};
const statementOf = async (id: string, token: string) =>
  (await ctx.api.usageRoutes.statement({ params: { id }, token })).json() as TStatement;

async function runConfirmJobs(until: () => Promise<boolean>) {
  for (let i = 0; i < 150 && !(await until()); i++) {
    await db().execute(
      sql`update pgboss.job set start_after = now() where name = 'billing.confirm' and state in ('created', 'retry')`,
    );
    ctx.deps.jobs.kick('billing.confirm');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`a statement paid by card is paid exactly once (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('12 parallel pay attempts: one charge, the statement paid once; later attempts are refused as paid', async () => {
    const { w, s } = await sellerWithStatement();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        ctx.api.usageRoutes.payStatementTapPay({
          params: { id: s.id },
          body: { prime: TAPPAY_TEST_PRIME, cardholder },
          token: w.token,
        }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.json().payment).toMatchObject({ status: 'succeeded', kind: 'statement' });
    expect(Number(ok[0]!.json().payment.amount)).toBe(1076);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(['STATEMENT_PAYMENT_IN_PROGRESS', 'STATEMENT_ALREADY_PAID']).toContain(r.error().code);
      expect(r.error().params).toMatchObject({ number: s.number });
    }
    await delivered();
    const paid = await statementOf(s.id, w.token);
    expect(paid).toMatchObject({ status: 'paid' });
    expect(paid.payment_note).toBe(`TapPay ${ok[0]!.json().payment.order_number}`);
    expect(await chargedAtTapPay(s.id)).toHaveLength(1);
    expect((await chargedAtTapPay(s.id))[0]!.amount).toBe(1076);
    // Marked paid once, though both the pay request and the delivered billing.statement-paid event ran the step.
    expect(await auditsOf(s.id, 'usage.statement.paid')).toBe(1);

    const again = await Promise.all([
      ctx.api.usageRoutes.payStatementTapPay({
        params: { id: s.id },
        body: { prime: TAPPAY_TEST_PRIME, cardholder },
        token: w.token,
      }),
      ctx.api.usageRoutes.payStatementNewebPay({ params: { id: s.id }, token: w.token }),
    ]);
    for (const r of again) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.error()).toMatchObject({ code: 'STATEMENT_ALREADY_PAID', params: { number: s.number } });
    }
    // The staff can neither void it nor mark it paid again.
    const voided = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: s.id },
      body: { reason: 'x' },
      token: staff,
    });
    expect(voided.statusCode).toBe(409);
    expect(await chargedAtTapPay(s.id)).toHaveLength(1);
  });

  for (const answer of ['drop', '421'] as const) {
    it(`a charge that timed out after TapPay took the money (${answer}): the retry charges nothing, the confirmation pays it once`, async () => {
      const { w, s } = await sellerWithStatement();
      tappay.timeoutNext({ charged: true, answer });
      const first = await ctx.api.usageRoutes.payStatementTapPay({
        params: { id: s.id },
        body: { prime: TAPPAY_TEST_PRIME, cardholder },
        token: w.token,
      });
      if (answer === 'drop') {
        expect(first.statusCode, first.body).toBe(503);
        expect(first.error().code).toBe('PAYMENT_UNAVAILABLE');
      } else {
        expect(first.statusCode, first.body).toBe(200);
        expect(first.json().payment.status).toBe('pending');
      }
      expect(await chargedAtTapPay(s.id)).toHaveLength(1);
      expect((await statementOf(s.id, w.token)).status).toBe('issued');

      // The seller retries (and the staff try to void it meanwhile): refused while the outcome is unknown.
      const retry = await ctx.api.usageRoutes.payStatementTapPay({
        params: { id: s.id },
        body: { prime: TAPPAY_TEST_PRIME, cardholder },
        token: w.token,
      });
      expect(retry.statusCode).toBe(409);
      expect(retry.error().code).toBe('STATEMENT_PAYMENT_IN_PROGRESS');
      const voided = await ctx.api.usageRoutes.crmVoidStatement({
        params: { id: s.id },
        body: { reason: 'wrong' },
        token: staff,
      });
      expect(voided.statusCode).toBe(409);
      expect(voided.error().code).toBe('STATEMENT_PAYMENT_IN_PROGRESS');
      const marked = await ctx.api.usageRoutes.crmPayStatement({ params: { id: s.id }, body: {}, token: staff });
      expect(marked.error().code).toBe('STATEMENT_PAYMENT_IN_PROGRESS');

      // The confirmation job asks TapPay's Record API and records the charge; the event marks the statement paid.
      await runConfirmJobs(async () => (await paymentsOf(s.id)).every((p) => p.status !== 'pending'));
      await delivered();
      const rows = await paymentsOf(s.id);
      expect(rows.map((r) => r.status)).toEqual(['succeeded']);
      expect((await statementOf(s.id, w.token)).status).toBe('paid');
      expect(await chargedAtTapPay(s.id)).toHaveLength(1);
      expect(
        tappay.requests.filter(
          (r) => r.path === '/tpc/payment/pay-by-prime' && r.body.order_number === rows[0]!.order_number,
        ),
      ).toHaveLength(1);
      expect(await auditsOf(s.id, 'usage.statement.paid')).toBe(1);
      const late = await ctx.api.usageRoutes.payStatementTapPay({
        params: { id: s.id },
        body: { prime: TAPPAY_TEST_PRIME, cardholder },
        token: w.token,
      });
      expect(late.error().code).toBe('STATEMENT_ALREADY_PAID');
    });
  }

  it("TapPay's notify racing the confirmation job and the seller's page: recorded once, the statement paid once", async () => {
    const { w, s } = await sellerWithStatement();
    tappay.timeoutNext({ charged: true, answer: 'drop' });
    const first = await ctx.api.usageRoutes.payStatementTapPay({
      params: { id: s.id },
      body: { prime: TAPPAY_TEST_PRIME, cardholder },
      token: w.token,
    });
    expect(first.statusCode).toBe(503);
    const [row] = await paymentsOf(s.id);
    const trade = tappay.trades.find((t) => t.order_number === row!.order_number)!;
    // All at once: five notifies, five reads of the payment by the seller's page, the confirmation job.
    await db().execute(
      sql`update pgboss.job set start_after = now() where name = 'billing.confirm' and state in ('created', 'retry')`,
    );
    ctx.deps.jobs.kick('billing.confirm');
    await Promise.all([
      ...Array.from({ length: 5 }, () =>
        ctx.api.billingRoutes.tappayNotify({
          body: { rec_trade_id: trade.rec_trade_id, order_number: trade.order_number },
        }),
      ),
      ...Array.from({ length: 5 }, () => ctx.api.billingRoutes.getPayment({ params: { id: row!.id }, token: w.token })),
    ]);
    await runConfirmJobs(async () => (await paymentsOf(s.id)).every((p) => p.status !== 'pending'));
    await delivered();
    expect((await paymentsOf(s.id)).map((p) => [p.status, p.provider_transaction_id])).toEqual([
      ['succeeded', trade.rec_trade_id],
    ]);
    expect((await statementOf(s.id, w.token)).status).toBe('paid');
    const recorded = await db()
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.entity_id, row!.id), eq(audit_logs.action, 'billing.payment.succeeded')));
    expect(recorded).toHaveLength(1);
    expect(await auditsOf(s.id, 'usage.statement.paid')).toBe(1);
    const told = await db()
      .select()
      .from(outbox_messages)
      .where(eq(outbox_messages.topic, 'event.billing.statement-paid'));
    expect(told.filter((m) => (m.payload as { statement_id: string }).statement_id === s.id)).toHaveLength(1);
  });

  it('at NewebPay: the form, then its Notify pays the statement once; no card payment meanwhile', async () => {
    const { w, s } = await sellerWithStatement();
    const res = await ctx.api.usageRoutes.payStatementNewebPay({ params: { id: s.id }, token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json();
    expect(form.payment).toMatchObject({ kind: 'statement', status: 'pending', provider: 'newebpay' });
    const card = await ctx.api.usageRoutes.payStatementTapPay({
      params: { id: s.id },
      body: { prime: TAPPAY_TEST_PRIME, cardholder },
      token: w.token,
    });
    expect(card.error().code).toBe('STATEMENT_PAYMENT_IN_PROGRESS');
    await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    }).then((r) => r.text());
    expect((await gateways.newebpay.pay(form.payment.order_number)).map((d) => d.status)).toEqual([200]);
    await delivered();
    expect((await statementOf(s.id, w.token)).status).toBe('paid');
    expect((await paymentsOf(s.id)).map((p) => p.status)).toEqual(['succeeded']);
    expect(await auditsOf(s.id, 'usage.statement.paid')).toBe(1);
  });

  it("another seller cannot pay (or see) a seller's statement; a void statement cannot be paid", async () => {
    const { w, s } = await sellerWithStatement();
    const other = await ctx.newCustomer();
    const theirs = await ctx.api.usageRoutes.payStatementTapPay({
      params: { id: s.id },
      body: { prime: TAPPAY_TEST_PRIME, cardholder },
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
    const voided = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: s.id },
      body: { reason: 'rate card wrong' },
      token: staff,
    });
    expect(voided.statusCode, voided.body).toBe(200);
    const pay = await ctx.api.usageRoutes.payStatementTapPay({
      params: { id: s.id },
      body: { prime: TAPPAY_TEST_PRIME, cardholder },
      token: w.token,
    });
    expect(pay.statusCode).toBe(409);
    expect(pay.error().code).toBe('INVALID_STATUS_TRANSITION');
    expect(await paymentsOf(s.id)).toHaveLength(0);
  });
});
