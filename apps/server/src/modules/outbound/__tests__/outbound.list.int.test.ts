import {
  ORDER_LIST_COUNT_CAP,
  type outboundRoutes,
  type TOrder,
  type TOrderDetail,
  type TOrderPage,
} from '@wms/contracts';
import type { TRouteInput } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld, transition } from './factories';

/**
 * The order list of a seller with more orders than the list counts (/deliver with 100,000 orders): the count stops
 * at ORDER_LIST_COUNT_CAP and says so, pages are cut in the list's order without overlap, and every row carries the
 * same fields as the order itself.
 */

let ctx: TTestContext;
let w: TWorld;
let other: TWorld;
const MANY = ORDER_LIST_COUNT_CAP + 40;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx, { name: 'Big seller' });
  other = await outboundWorld(ctx, { name: 'Neighbour' });
  // Historical orders written straight into the table (as years of shipping leave them): two per second, newest last.
  await ctx.deps.database.db.execute(sql`
    insert into outbound_orders (customer_id, number, recipient_name, recipient_phone, recipient_postcode,
                                 recipient_address, warehouse_id, status, channel, created_at, closed_at)
    select ${w.customerId}, 'HIST' || lpad(i::text, 6, '0'), 'Recipient ' || i, '0912345678', '100', 'Taipei',
           ${w.wh.id}, case when i % 100 = 0 then 'cancelled' else 'closed' end, 'manual',
           now() - interval '30 days' + (i / 2) * interval '1 second', now() - interval '30 days'
    from generate_series(1, ${MANY}) i`);
}, 120_000);
afterAll(() => ctx?.close());

const list = async (query: TRouteInput<typeof outboundRoutes.listOrders>['query'], token = w.token) => {
  const res = await ctx.api.outboundRoutes.listOrders({ query, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() satisfies TOrderPage;
};

describe('order list of a seller with very many orders', () => {
  it('counts up to the cap and says more match; a narrower filter is counted exactly', async () => {
    const all = await list({ page: 1, page_size: 25 });
    expect(all).toMatchObject({ count: ORDER_LIST_COUNT_CAP, count_capped: true });
    expect(all.results).toHaveLength(25);
    const cancelled = await list({ status: 'cancelled', page_size: 100 });
    expect(cancelled).toMatchObject({ count: Math.floor(MANY / 100), count_capped: false });
    expect(cancelled.results.every((o) => o.status === 'cancelled')).toBe(true);
    const one = await list({ search: 'HIST000123' });
    expect(one).toMatchObject({ count: 1, count_capped: false });
    expect(one.results.map((o) => o.number)).toEqual(['HIST000123']);
  });

  it('cuts pages in the list order, newest first by default, without overlap or gap', async () => {
    const p1 = await list({ page: 1, page_size: 10 });
    const p2 = await list({ page: 2, page_size: 10 });
    const p12 = await list({ page: 1, page_size: 25 });
    expect([...p1.results, ...p2.results].map((o) => o.number)).toEqual(p12.results.slice(0, 20).map((o) => o.number));
    // Two orders share each second: the id breaks the tie, so the pages still follow one order.
    const created = p12.results.map((o) => o.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(p12.results[0]!.number).toBe(`HIST${String(MANY).padStart(6, '0')}`);
    const byNumber = await list({ page: 1, page_size: 10, ordering: 'number' });
    expect(byNumber.results.map((o) => o.number)).toEqual(
      Array.from({ length: 10 }, (_, i) => `HIST${String(i + 1).padStart(6, '0')}`),
    );
    const byNumberDesc = await list({ page: 2, page_size: 10, ordering: '-number' });
    expect(byNumberDesc.results[0]!.number).toBe(`HIST${String(MANY - 10).padStart(6, '0')}`);
  });

  it('pages up to the cap; a page past it is empty and still says more match', async () => {
    const last = await list({ page: ORDER_LIST_COUNT_CAP / 100, page_size: 100 });
    expect(last.results).toHaveLength(100);
    const past = await list({ page: ORDER_LIST_COUNT_CAP / 100 + 1, page_size: 100 });
    expect(past).toMatchObject({ count: ORDER_LIST_COUNT_CAP, count_capped: true, results: [] });
  });

  it('shows a row exactly as the order itself: codes, names, counts, abnormal mark, dates', async () => {
    const o = await createOrder(
      ctx,
      w.token,
      [
        { product_id: w.plain.id, quantity: 2 },
        { product_id: w.phone.id, quantity: 3 },
      ],
      {
        platform_id: w.shop.id,
        platform_order_number: 'LIST-1',
        logistics_provider_id: w.carrier.id,
        shipping_date: '2026-12-01',
        cod: true,
        cod_amount: '120.50',
        total_amount: '999.00',
      },
    );
    // No stock: the export is refused and the order marked abnormal (the list shows why).
    expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBeGreaterThanOrEqual(400);
    const detail = (await ctx.api.outboundRoutes.getOrder({ params: { id: o.id }, token: w.token })).json();
    const { lines, allocations, pack_items, serials, packaging, ...order } = detail as TOrderDetail;
    const [row] = (await list({ search: 'LIST-1' })).results as TOrder[];
    expect(row).toEqual(order);
    expect(row).toMatchObject({
      platform_code: 'SHOPEE',
      logistics_provider_code: 'TCAT',
      warehouse_code: w.wh.code,
      line_count: 2,
      unit_count: 5,
      cod_amount: '120.50',
      shipping_date: '2026-12-01',
    });
    expect(row!.abnormal?.code).toBeTruthy();
  });

  it("never shows another seller's orders", async () => {
    const theirs = await list({ page: 1, page_size: 100 }, other.token);
    expect(theirs).toMatchObject({ count: 0, count_capped: false, results: [] });
    expect((await list({ search: 'HIST000001' }, other.token)).results).toEqual([]);
  });
});
