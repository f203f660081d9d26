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
    const forbidden = await ctx.inject({
      method: 'PUT',
      url: '/api/crm/billing/plans/',
      token: seller.token,
      payload: { period: 'quarterly', plan: '標準方案', price: '3000' },
    });
    expect(forbidden.statusCode).toBe(403);
    // Nothing published yet: asking is refused with the reason.
    const early = await ctx.inject({
      method: 'POST',
      url: '/api/billing/contract-request/',
      token: seller.token,
      payload: { period: 'annual' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'BILLING_NO_PLAN', params: { period: 'annual' } });

    for (const [period, price] of [
      ['quarterly', '3000'],
      ['annual', '11000'],
    ] as const) {
      const res = await ctx.inject({
        method: 'PUT',
        url: '/api/crm/billing/plans/',
        token: staff.token,
        payload: { period, plan: '標準方案', price },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const bad = await ctx.inject({
      method: 'PUT',
      url: '/api/crm/billing/plans/',
      token: staff.token,
      payload: { period: 'monthly', plan: 'x', price: '1' },
    });
    expect(bad.statusCode).toBe(400);

    const plans = (await ctx.inject({ method: 'GET', url: '/api/billing/plans/', token: seller.token })).json();
    expect(plans.plans.map((p: { period: string; total: string; tax: string }) => [p.period, p.total, p.tax])).toEqual([
      ['quarterly', '3150', '150'],
      ['annual', '11550', '550'],
    ]);
    const view = (await ctx.inject({ method: 'GET', url: '/api/billing/', token: seller.token })).json();
    expect(view).toMatchObject({ contract: null, due: null });

    const asked = await ctx.inject({
      method: 'POST',
      url: '/api/billing/contract-request/',
      token: seller.token,
      payload: { period: 'annual', note: '希望下個月開始' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const tickets = (await ctx.inject({ method: 'GET', url: '/api/support/tickets/', token: seller.token })).json();
    const ticket = tickets.results.find((x: { id: string }) => x.id === asked.json().ticket_id);
    expect(ticket).toMatchObject({ kind: 'request', status: 'new' });
    expect(ticket.subject).toContain('標準方案');
    const detail = (
      await ctx.inject({ method: 'GET', url: `/api/support/tickets/${ticket.id}/`, token: seller.token })
    ).json();
    expect(detail.body).toContain('NT$11,550');
    expect(detail.body).toContain('希望下個月開始');
    // The staff see it on their board.
    const board = (await ctx.inject({ method: 'GET', url: '/api/crm/tickets/', token: staff.token })).json();
    expect(board.results.some((x: { id: string }) => x.id === ticket.id)).toBe(true);

    // With a contract (staff set it from the request), the seller is told it has one.
    const set = await ctx.inject({
      method: 'PUT',
      url: `/api/crm/customers/${seller.customerId}/contract/`,
      token: staff.token,
      payload: { plan: '標準方案', price: '10500', period: 'annual', payment_terms: '11' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const again = await ctx.inject({
      method: 'POST',
      url: '/api/billing/contract-request/',
      token: seller.token,
      payload: { period: 'annual' },
    });
    expect(again.json().error.code).toBe('BILLING_HAS_CONTRACT');
  });

  it('no payment provider configured: the overview says so and paying is refused before anything is started', async () => {
    const seller = await ctx.newCustomer();
    await ctx.inject({
      method: 'PUT',
      url: `/api/crm/customers/${seller.customerId}/contract/`,
      token: staff.token,
      payload: { plan: '標準方案', price: '3000', period: 'quarterly', payment_terms: '11' },
    });
    const view = (await ctx.inject({ method: 'GET', url: '/api/billing/', token: seller.token })).json();
    expect(view.providers).toMatchObject({ tappay: { enabled: false }, newebpay: { enabled: false } });
    const card = await ctx.inject({
      method: 'POST',
      url: '/api/billing/tappay/',
      token: seller.token,
      payload: {
        period_start: taipeiToday(),
        prime: TAPPAY_TEST_PRIME,
        cardholder: { name: '王小明', email: 'a@b.tw', phone: '0912345678' },
      },
    });
    expect(card.statusCode).toBe(409);
    expect(card.json().error).toMatchObject({ code: 'PAYMENT_NOT_CONFIGURED', params: { provider: 'TapPay' } });
    const records = (await ctx.inject({ method: 'GET', url: '/api/billing/payments/', token: seller.token })).json();
    expect(records.count).toBe(0);
  });
});
