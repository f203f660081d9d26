import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { eventsDelivered, money, seedShippedOrders, taxOf, units } from './work';

/**
 * A month of 1,000 shipped orders (issue #35) gives the right statement. The orders are built set-based (one order
 * made through the API, copied 999 times in the database, all closed in the month) and their shipments told as the
 * ship use case tells them — the `outbound.orders-shipped` event through the outbox, delivered to usage's
 * subscriber; the statement is issued and read through HTTP and equals what this test computes from the card.
 */

let ctx: TTestContext;
let staff: string;
let w: TWorld;
const N = 1000;
const [ry, rm] = taipeiToday().slice(0, 7).split('-').map(Number) as [number, number];
const MONTH = new Date(Date.UTC(ry, rm - 3, 1)).toISOString().slice(0, 7);
const RATES = { pick_order: '15', pick_extra_unit: '3.25' };

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await ctx.newEmployee()).token;
  w = await outboundWorld(ctx, { name: 'Thousand orders seller' });
  const card = await ctx.api.usageRoutes.crmCreateRateCard({
    body: { customer_id: w.customerId, valid_from: `${MONTH}-01`, rates: RATES },
    token: staff,
  });
  expect(card.statusCode, card.body).toBe(201);
});
afterAll(() => ctx?.close());

const delivered = () => eventsDelivered(ctx, 600);

describe(`a month of ${N} shipped orders (${TEST_ENGINE})`, () => {
  it('the statement equals the sum computed from the card; each order is one pick event', async () => {
    // Order i: 1 + (i mod 4) units, closed on day 1 + (i mod 28) of the month at 10:00 Taipei.
    const orders = await seedShippedOrders(ctx, w, N, (i) => ({
      units: 1 + (i % 4),
      closed_at: new Date(taipeiMidnight(`${MONTH}-01`, i % 28).getTime() + 10 * 3600_000),
    }));
    await delivered();

    // Independently: per order 15, per unit beyond the first 3.25; tax 5 % of the sum, whole TWD half up.
    const extra = orders.reduce((s, o) => s + o.units - 1, 0);
    const sum = N * units(RATES.pick_order) + extra * units(RATES.pick_extra_unit);
    const tax = taxOf(sum);

    const started = Date.now();
    const issued = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: w.customerId, month: MONTH },
      token: staff,
    });
    const issueMs = Date.now() - started;
    expect(issued.statusCode, issued.body).toBe(201);
    const s = issued.json();
    expect(s.lines).toEqual([
      { kind: 'pick_extra_unit', events: (N * 3) / 4, quantity: extra, amount: money(extra * units('3.25')) },
      { kind: 'pick_order', events: N, quantity: N, amount: money(N * units('15')) },
    ]);
    expect(s).toMatchObject({ subtotal: money(sum), tax: money(tax), total: money(sum + tax), minimum_fee: '0' });
    // The seller reads the same, and each order is one pick event it can open.
    const mine = await ctx.api.usageRoutes.statement({ params: { id: s.id }, token: w.token });
    expect(mine.json().total).toBe(money(sum + tax));
    const events = await ctx.api.usageRoutes.statementEvents({
      params: { id: s.id },
      query: { kind: 'pick_order', page: 40, page_size: 25 },
      token: w.token,
    });
    expect(events.json().count).toBe(N);
    expect(events.json().results).toHaveLength(25);
    expect(new Set(events.json().results.map((e) => e.source_id)).size).toBe(25);
    console.info(`statement of ${N} orders issued in ${issueMs} ms (${TEST_ENGINE})`);
  });
});
