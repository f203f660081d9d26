import { invalidInput } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiToday } from '../../../platform/calendar';
import { TAPPAY_TEST_PRIME } from '../../../test/fakes/fake-tappay';
import { createTestContext, type TTestContext } from '../../../test/harness';

/**
 * Plans a seller can see: the operator's list prices, a contract request filed as a support request; and no gateway
 * set up at all (this context has none): the overview says so, and paying is refused before anything is charged.
 */

let ctx: TTestContext;
let staff: { token: string };

beforeAll(async () => {
  ctx = await createTestContext({});
  staff = await ctx.newEmployee();
});
afterAll(async () => {
  await ctx?.close();
});

describe('plans a seller can see', () => {
  it('list prices set in the CRM; a seller without a contract sees them and requests a contract as a support request', async () => {
    const seller = await ctx.newCustomer();
    // Only employees set list prices.
    const forbidden = await ctx.api.billingRoutes.crmSetPlan({
      body: { period: 'quarterly', plan: '標準方案', price: '3000' },
      token: seller.token,
    });
    expect(forbidden.statusCode).toBe(403);
    // Nothing published yet: asking is refused with the reason.
    const early = await ctx.api.billingRoutes.requestContract({ body: { period: 'annual' }, token: seller.token });
    expect(early.statusCode).toBe(409);
    expect(early.error()).toMatchObject({ code: 'BILLING_NO_PLAN', params: { period: 'annual' } });

    for (const [period, price] of [
      ['quarterly', '3000'],
      ['annual', '11000'],
    ] as const) {
      const res = await ctx.api.billingRoutes.crmSetPlan({
        body: { period, plan: '標準方案', price },
        token: staff.token,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const bad = await ctx.api.billingRoutes.crmSetPlan({
      body: invalidInput({ period: 'monthly', plan: 'x', price: '1' }),
      token: staff.token,
    });
    expect(bad.statusCode).toBe(400);

    const plans = (await ctx.api.billingRoutes.plans({ token: seller.token })).json();
    expect(plans.plans.map((p: { period: string; total: string; tax: string }) => [p.period, p.total, p.tax])).toEqual([
      ['quarterly', '3150', '150'],
      ['annual', '11550', '550'],
    ]);
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view).toMatchObject({ contract: null, due: null });

    const asked = await ctx.api.billingRoutes.requestContract({
      body: { period: 'annual', note: '希望下個月開始' },
      token: seller.token,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const tickets = (await ctx.api.supportRoutes.listTickets({ token: seller.token })).json();
    const ticket = tickets.results.find((x: { id: string }) => x.id === asked.json().ticket_id);
    expect(ticket).toMatchObject({ kind: 'request', status: 'new' });
    expect(ticket!.subject).toContain('標準方案');
    const detail = (await ctx.api.supportRoutes.getTicket({ params: { id: ticket!.id }, token: seller.token })).json();
    expect(detail.body).toContain('NT$11,550');
    expect(detail.body).toContain('希望下個月開始');
    // The staff see it on their board.
    const board = (await ctx.api.crmSupportRoutes.listTickets({ token: staff.token })).json();
    expect(board.results.some((x: { id: string }) => x.id === ticket!.id)).toBe(true);

    // With a contract (staff set it from the request), the seller is told it has one.
    const set = await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: { plan: '標準方案', price: '10500', period: 'annual', payment_terms: '11' },
      token: staff.token,
    });
    expect(set.statusCode, set.body).toBe(200);
    const again = await ctx.api.billingRoutes.requestContract({ body: { period: 'annual' }, token: seller.token });
    expect(again.error().code).toBe('BILLING_HAS_CONTRACT');
  });

  it('no payment provider configured: the overview says so and paying is refused before anything is started', async () => {
    const seller = await ctx.newCustomer();
    await ctx.api.billingRoutes.crmSetContract({
      params: { id: seller.customerId },
      body: { plan: '標準方案', price: '3000', period: 'quarterly', payment_terms: '11' },
      token: staff.token,
    });
    const view = (await ctx.api.billingRoutes.overview({ token: seller.token })).json();
    expect(view.providers).toMatchObject({ tappay: { enabled: false }, newebpay: { enabled: false } });
    const card = await ctx.api.billingRoutes.payTapPay({
      body: {
        period_start: taipeiToday(),
        prime: TAPPAY_TEST_PRIME,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
      token: seller.token,
    });
    expect(card.statusCode).toBe(409);
    expect(card.error()).toMatchObject({ code: 'PAYMENT_NOT_CONFIGURED', params: { provider: 'TapPay' } });
    const records = (await ctx.api.billingRoutes.listPayments({ token: seller.token })).json();
    expect(records.count).toBe(0);
  });
});
