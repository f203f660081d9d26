import type { shipRoutes, TOrder, TOrderDetail, TShipSettings, TWarehouseShipping } from '@wms/contracts';
import { invalidInput, type TRouteInput } from '@wms/contracts/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logistics_providers, outbound_orders } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { TActor } from '../../../platform/auth';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld, transition } from '../../outbound/__tests__/factories';
import { createOrdersFromRows, type TOrderIntakeRow } from '../../outbound/outbound.intake';
import { computeShipBy, isWorkingDay } from '../ships.calc';

/**
 * Ship-by promises through HTTP on a real database: the settings (seller's promise, a warehouse's cut-offs and
 * holidays), the ship-by time order creation gives each order with a controllable clock (the order time is passed in),
 * and /deliver's "due today / late" filter.
 */

let ctx: TTestContext;
let w: TWorld;
let actor: TActor;
beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  w = await outboundWorld(ctx);
  actor = { kind: 'user', id: w.seller.userId, role: 'CUSTOMER', customerId: w.customerId };
});
afterAll(() => ctx?.close());

/** A Taipei wall-clock time as the instant it is. */
const tpe = (s: string) => new Date(`${s}:00+08:00`);

const settings = async (token = w.token) =>
  (await ctx.api.shipRoutes.getShipSettings({ token })).json() satisfies TShipSettings;
const saveWarehouse = (
  body: TRouteInput<typeof shipRoutes.saveWarehouseShipping>['body'],
  token = w.token,
  id = w.wh.id,
) => ctx.api.shipRoutes.saveWarehouseShipping({ params: { id }, body, token });
const saveSla = (body: TRouteInput<typeof shipRoutes.saveShipSla>['body']) =>
  ctx.api.shipRoutes.saveShipSla({ body, token: w.token });
const detail = async (id: string) =>
  (await ctx.api.outboundRoutes.getOrder({ params: { id }, token: w.token })).json() satisfies TOrderDetail;

let seq = 0;
/** One order of one line through the shared order intake, arriving at `now`; answers its id. */
async function arrive(
  now: Date,
  over: { logistics_provider?: string | null; cvs?: TOrderIntakeRow['cvs'] } = {},
): Promise<string> {
  const key = `SHIP-${++seq}`;
  const row: TOrderIntakeRow = {
    row: 1,
    key,
    order: {
      platform_order_number: key,
      third_party_number: null,
      consignment_number: null,
      shipping_date: null,
      category: null,
      channel: null,
      platform: null,
      is_cross_border: false,
      recipient_name: '王小明',
      recipient_phone: '0912-345-678',
      recipient_mobile: '',
      recipient_postcode: '100',
      recipient_address: '台北市中正區重慶南路一段 122 號',
      sender_name: '',
      sender_phone: '',
      sender_postcode: '',
      sender_address: '',
      shipping_remark: '',
      warehouse: null,
      arrival_date: null,
      arrival_time_slot: null,
      logistics_provider: over.logistics_provider === undefined ? 'TCAT' : over.logistics_provider,
      cod: false,
      cod_amount: null,
      total_amount: null,
      piece_count: 1,
      volume: null,
    },
    line: { products: [w.plain.number], quantity: 1, unit_price: null },
    cvs: over.cvs ?? null,
  };
  const r = await withTx(ctx.deps.database.db, (tx) => createOrdersFromRows(tx, actor, [row], { now }));
  return r.created[0]!.id;
}

describe(`ship-by settings (${TEST_ENGINE})`, () => {
  it('starts with the default promise and no cut-offs, then keeps what the warehouse saves', async () => {
    const before = await settings();
    expect(before.sla).toEqual({ kind: 'same_day', before_time: null });
    expect(before.default_cutoff).toEqual({ cutoff_time: '12:00', pickup_time: '17:00' });
    expect(before.warehouses.map((x) => [x.warehouse_code, x.cutoffs, x.working_days, x.holidays])).toEqual([
      [w.wh.code, [], [1, 2, 3, 4, 5], []],
    ]);

    const res = await saveWarehouse({
      cutoffs: [{ logistics_provider_id: w.carrier.id, cutoff_time: '12:30', pickup_time: '16:00' }],
      holidays: ['2026-12-08', '2026-12-07', '2026-12-07'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as TWarehouseShipping;
    expect(saved.cutoffs).toEqual([
      {
        logistics_provider_id: w.carrier.id,
        cvs_chain: null,
        provider_code: 'TCAT',
        provider_name: '黑貓宅急便',
        cutoff_time: '12:30',
        pickup_time: '16:00',
      },
    ]);
    expect(saved.holidays).toEqual(['2026-12-07', '2026-12-08']);
    expect((await settings()).warehouses[0]).toEqual(saved);

    // Saving again replaces the calendar as a whole.
    const again = await saveWarehouse({
      cutoffs: [{ logistics_provider_id: w.carrier.id, cutoff_time: '12:30', pickup_time: '16:00' }],
      holidays: ['2026-12-07'],
    });
    expect((again.json() as TWarehouseShipping).holidays).toEqual(['2026-12-07']);
  });

  it('refuses bad times, another seller’s carrier and another seller’s warehouse', async () => {
    const bad = await saveWarehouse({
      cutoffs: [{ logistics_provider_id: w.carrier.id, cutoff_time: '24:00', pickup_time: '16:00' }],
      holidays: [],
    });
    expect(bad.statusCode).toBe(400);
    expect((await saveSla({ kind: 'same_day', before_time: '9:30' })).statusCode).toBe(400);

    const other = await ctx.newCustomer();
    const [theirs] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({ customer_id: other.customerId, code: 'HCT', name: '新竹物流' })
      .returning();
    const foreignCarrier = await saveWarehouse({
      cutoffs: [{ logistics_provider_id: theirs!.id, cutoff_time: '12:00', pickup_time: '16:00' }],
      holidays: [],
    });
    expect(foreignCarrier.statusCode).toBe(400);
    expect(foreignCarrier.json()).toMatchObject({
      error: { code: 'INVALID_FIELD', params: { field: 'cutoffs.0.logistics_provider_id' } },
    });

    // The other seller can neither change nor see this seller's warehouse.
    const foreignWarehouse = await saveWarehouse({ cutoffs: [], holidays: [] }, other.token);
    expect(foreignWarehouse.statusCode).toBe(404);
    expect((await settings(other.token)).warehouses).toEqual([]);
    // Nothing of this seller's calendar changed.
    expect((await settings()).warehouses[0]!.cutoffs).toHaveLength(1);
  });
});

describe(`ship-by time of new orders, with a controllable clock (${TEST_ENGINE})`, () => {
  // Cut-off 12:30, pick-up 16:00 (TCAT), holiday Monday 2026-12-07 — saved by the test above.
  // 2026-12-01 is a Tuesday, 12-04 a Friday.
  it('before the cut-off: today at the pick-up; after it: the next working day', async () => {
    expect((await detail(await arrive(tpe('2026-12-01T10:00')))).ship_by).toBe('2026-12-01T08:00:00.000Z');
    expect((await detail(await arrive(tpe('2026-12-01T12:29')))).ship_by).toBe('2026-12-01T08:00:00.000Z');
    expect((await detail(await arrive(tpe('2026-12-01T12:30')))).ship_by).toBe('2026-12-02T08:00:00.000Z');
  });

  it('skips the weekend and the warehouse holiday', async () => {
    // Friday after the cut-off → not Saturday, Sunday or the holiday Monday → Tuesday.
    expect((await detail(await arrive(tpe('2026-12-04T13:00')))).ship_by).toBe('2026-12-08T08:00:00.000Z');
    // Ordered on the holiday itself, early.
    expect((await detail(await arrive(tpe('2026-12-07T08:00')))).ship_by).toBe('2026-12-08T08:00:00.000Z');
  });

  it('a warehouse working on Saturdays ships Friday’s late orders on Saturday', async () => {
    const cutoffs = [{ logistics_provider_id: w.carrier.id, cutoff_time: '12:30', pickup_time: '16:00' }];
    const res = await saveWarehouse({ cutoffs, holidays: ['2026-12-07'], working_days: [6, 1, 2, 3, 4, 5] });
    expect((res.json() as TWarehouseShipping).working_days).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await detail(await arrive(tpe('2026-12-04T13:00')))).ship_by).toBe('2026-12-05T08:00:00.000Z');
    // Back to Monday to Friday (the default when not given).
    const back = await saveWarehouse({ cutoffs, holidays: ['2026-12-07'] });
    expect((back.json() as TWarehouseShipping).working_days).toEqual([1, 2, 3, 4, 5]);
    expect((await saveWarehouse({ cutoffs, holidays: [], working_days: [7] })).statusCode).toBe(400);
    expect((await saveWarehouse({ cutoffs, holidays: ['2026-12-07'] })).statusCode).toBe(200);
  });

  it('a carrier without a cut-off at the warehouse takes the default (12:00, pick-up 17:00)', async () => {
    const id = await arrive(tpe('2026-12-01T12:10'), { logistics_provider: null });
    const o = await detail(id);
    expect(o.logistics_provider_id).toBeNull();
    expect(o.ship_by).toBe('2026-12-02T09:00:00.000Z');
  });

  it('the seller’s promise narrows the day: same day before 11:00, or next working day', async () => {
    expect((await saveSla({ kind: 'same_day', before_time: '11:00' })).statusCode).toBe(200);
    expect((await settings()).sla).toEqual({ kind: 'same_day', before_time: '11:00' });
    expect((await detail(await arrive(tpe('2026-12-01T10:59')))).ship_by).toBe('2026-12-01T08:00:00.000Z');
    expect((await detail(await arrive(tpe('2026-12-01T11:00')))).ship_by).toBe('2026-12-02T08:00:00.000Z');

    expect((await saveSla({ kind: 'next_day', before_time: '11:00' })).statusCode).toBe(200);
    expect((await settings()).sla).toEqual({ kind: 'next_day', before_time: null });
    expect((await detail(await arrive(tpe('2026-12-01T08:00')))).ship_by).toBe('2026-12-02T08:00:00.000Z');
    expect((await detail(await arrive(tpe('2026-12-04T08:00')))).ship_by).toBe('2026-12-08T08:00:00.000Z');
    expect((await saveSla({ kind: 'same_day', before_time: null })).statusCode).toBe(200);
  });

  it('an order typed on /deliver gets its ship-by time too, and a new carrier recomputes it', async () => {
    const t0 = new Date();
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
      warehouse_id: w.wh.id,
      logistics_provider_id: w.carrier.id,
    });
    const t1 = new Date();
    const cal = { cutoff: { cutoff_time: '12:30', pickup_time: '16:00' }, holidays: new Set(['2026-12-07']) };
    const sla = { kind: 'same_day', before_time: null } as const;
    const expected = [computeShipBy(t0, sla, cal), computeShipBy(t1, sla, cal)].map((d) => d.toISOString());
    expect(expected).toContain(o.ship_by);

    // Another carrier (no cut-off here): the default cut-off, from the time the order arrived.
    const [other] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({ customer_id: w.customerId, code: 'POST', name: '中華郵政' })
      .returning();
    const res = await ctx.api.outboundRoutes.updateOrder({
      params: { id: o.id },
      body: { logistics_provider_id: other!.id },
      token: w.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = new Date(o.created_at);
    const fallback = { cutoff: { cutoff_time: '12:00', pickup_time: '17:00' }, holidays: cal.holidays };
    expect((res.json() as TOrderDetail).ship_by).toBe(computeShipBy(created, sla, fallback).toISOString());
  });
});

describe(`convenience-store chain cut-offs, with a controllable clock (${TEST_ENGINE})`, () => {
  // TCAT 12:30 (pick-up 16:00); its 7-ELEVEN parcels 10:00 (pick-up 11:00); holiday Monday 2026-12-07.
  const seven = { subtype: 'UNIMARTC2C' as const, store_id: '131386', store_name: '建盛' };
  const family = { subtype: 'FAMI' as const, store_id: '006598', store_name: '全家台大店' };
  const carrierOnly = [{ logistics_provider_id: '', cutoff_time: '12:30', pickup_time: '16:00' }];
  const withChain = () => [
    { ...carrierOnly[0]!, logistics_provider_id: w.carrier.id },
    { logistics_provider_id: w.carrier.id, cvs_chain: 'UNIMART' as const, cutoff_time: '10:00', pickup_time: '11:00' },
  ];

  it('an order for a store of a chain takes its chain’s cut-off, else its carrier’s; holidays respected', async () => {
    const res = await saveWarehouse({ cutoffs: withChain(), holidays: ['2026-12-07'] });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TWarehouseShipping).cutoffs.map((c) => [c.cvs_chain, c.cutoff_time])).toEqual([
      [null, '12:30'],
      ['UNIMART', '10:00'],
    ]);
    // 7-ELEVEN (C2C is the same chain): before 10:00 today at 11:00; after it the next working day.
    expect((await detail(await arrive(tpe('2026-12-01T09:59'), { cvs: seven }))).ship_by).toBe(
      '2026-12-01T03:00:00.000Z',
    );
    expect((await detail(await arrive(tpe('2026-12-01T11:00'), { cvs: seven }))).ship_by).toBe(
      '2026-12-02T03:00:00.000Z',
    );
    // FamilyMart has no cut-off of its own: the carrier's (12:30, pick-up 16:00).
    expect((await detail(await arrive(tpe('2026-12-01T11:00'), { cvs: family }))).ship_by).toBe(
      '2026-12-01T08:00:00.000Z',
    );
    // Friday after the chain's cut-off: past the weekend and the holiday Monday, to Tuesday at 11:00.
    expect((await detail(await arrive(tpe('2026-12-04T10:30'), { cvs: seven }))).ship_by).toBe(
      '2026-12-08T03:00:00.000Z',
    );
  });

  it('a pickup store set or removed later moves the ship-by time; one cut-off per carrier and chain', async () => {
    const id = await arrive(tpe('2026-12-01T11:00'));
    expect((await detail(id)).ship_by).toBe('2026-12-01T08:00:00.000Z');
    // A later change counts from when the order arrived: its created_at, set to the test's clock.
    await ctx.deps.database.db
      .update(outbound_orders)
      .set({ created_at: tpe('2026-12-01T11:00') })
      .where(eq(outbound_orders.id, id));
    const set = await ctx.api.carrierRoutes.setOrderCvsStore({
      params: { id },
      body: { subtype: 'UNIMART', store_id: '131386', store_name: '建盛', store_address: '' },
      token: w.token,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await detail(id)).ship_by).toBe('2026-12-02T03:00:00.000Z');
    const removed = await ctx.api.carrierRoutes.deleteOrderCvsStore({ params: { id }, token: w.token });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await detail(id)).ship_by).toBe('2026-12-01T08:00:00.000Z');

    const twice = await saveWarehouse({
      cutoffs: [...withChain(), { ...withChain()[1]!, cutoff_time: '09:00' }],
      holidays: [],
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'cutoffs.2.cvs_chain' } });
    const unknownChain = await saveWarehouse({
      cutoffs: [{ ...withChain()[1]!, cvs_chain: invalidInput('LAWSON') }],
      holidays: [],
    });
    expect(unknownChain.statusCode).toBe(400);
    // Back to the carrier's cut-off alone (the tests below count on it).
    const back = await saveWarehouse({ cutoffs: withChain().slice(0, 1), holidays: ['2026-12-07'] });
    expect((back.json() as TWarehouseShipping).cutoffs).toHaveLength(1);
  });
});

describe(`/deliver's due filter (${TEST_ENGINE})`, () => {
  it('due today: ship-by within today (Taipei); late: ship-by passed and not shipped or cancelled', async () => {
    const db = ctx.deps.database.db;
    const now = Date.now();
    const today = taipeiToday();
    const setShipBy = (id: string, at: Date) =>
      db.update(outbound_orders).set({ ship_by: at }).where(eq(outbound_orders.id, id));
    // The order time only matters for the ship-by, which each gets by hand here.
    const [late, lateCancelled, dueToday, tomorrow] = [
      await arrive(new Date(now)),
      await arrive(new Date(now)),
      await arrive(new Date(now)),
      await arrive(new Date(now)),
    ];
    await setShipBy(late, new Date(now - 86400_000));
    await setShipBy(lateCancelled, new Date(now - 86400_000));
    await setShipBy(dueToday, new Date(taipeiMidnight(today, 1).getTime() - 60_000));
    await setShipBy(tomorrow, new Date(taipeiMidnight(today, 1).getTime() + 3600_000));
    expect((await transition(ctx, w.token, lateCancelled, 'cancel')).statusCode).toBe(200);

    const list = async (due: 'today' | 'late') => {
      const res = await ctx.api.outboundRoutes.listOrders({ query: { due, page_size: 100 }, token: w.token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { results: TOrder[] }).results.map((o) => o.id);
    };
    const mine = new Set([late, lateCancelled, dueToday, tomorrow]);
    expect((await list('today')).filter((id) => mine.has(id))).toEqual([dueToday]);
    expect((await list('late')).filter((id) => mine.has(id))).toEqual([late]);
    // The list shows the ship-by time.
    const all = await ctx.api.outboundRoutes.listOrders({ query: { ids: dueToday }, token: w.token });
    expect((all.json() as { results: TOrder[] }).results[0]!.ship_by).toBe(
      new Date(taipeiMidnight(today, 1).getTime() - 60_000).toISOString(),
    );
    expect(
      (await ctx.api.outboundRoutes.listOrders({ query: { due: invalidInput('soon') }, token: w.token })).statusCode,
    ).toBe(400);
  });
});

describe(`/ships-today, the floor board (${TEST_ENGINE})`, () => {
  it('counts per carrier the orders due today by stage, today’s shipped ones and the late ones, in one call', async () => {
    const board = await ctx.newCustomer();
    const bw = await outboundWorld(ctx, { name: 'Board seller' });
    const db = ctx.deps.database.db;
    const bActor: TActor = { kind: 'user', id: bw.seller.userId, role: 'CUSTOMER', customerId: bw.customerId };
    const now = Date.now();
    const today = taipeiToday();
    const laterToday = new Date(taipeiMidnight(today, 1).getTime() - 60_000);
    let n = 0;
    const make = async (shipBy: Date, status: string) => {
      const key = `BOARD-${++n}`;
      const r = await withTx(db, (tx) =>
        createOrdersFromRows(
          tx,
          bActor,
          [
            {
              row: 1,
              key,
              order: {
                platform_order_number: key,
                third_party_number: null,
                consignment_number: null,
                shipping_date: null,
                category: null,
                channel: null,
                platform: null,
                is_cross_border: false,
                recipient_name: '王小明',
                recipient_phone: '0912-345-678',
                recipient_mobile: '',
                recipient_postcode: '100',
                recipient_address: '台北市中正區重慶南路一段 122 號',
                sender_name: '',
                sender_phone: '',
                sender_postcode: '',
                sender_address: '',
                shipping_remark: '',
                warehouse: null,
                arrival_date: null,
                arrival_time_slot: null,
                logistics_provider: 'TCAT',
                cod: false,
                cod_amount: null,
                total_amount: null,
                piece_count: 1,
                volume: null,
              },
              line: { products: [bw.plain.number], quantity: 1, unit_price: null },
            },
          ],
          {},
        ),
      );
      const id = r.created[0]!.id;
      // Stage and ship-by by hand: the board only reads them.
      await db.update(outbound_orders).set({ ship_by: shipBy, status }).where(eq(outbound_orders.id, id));
      return id;
    };
    await make(laterToday, 'pending_export');
    await make(laterToday, 'exported');
    await make(laterToday, 'exported');
    await make(laterToday, 'online');
    await make(laterToday, 'closed');
    await make(laterToday, 'cancelled');
    const lateOne = await make(new Date(now - 2 * 86400_000), 'exported');
    await make(new Date(now - 2 * 86400_000), 'closed'); // shipped on an earlier day: not on today's board
    await make(new Date(taipeiMidnight(today, 1).getTime() + 3600_000), 'exported'); // tomorrow

    const res = await ctx.api.shipBoardRoutes.getShipsToday({ token: bw.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as import('@wms/contracts').TShipsToday;
    expect(body.day).toBe(today);
    expect(body.rows).toHaveLength(1);
    expect(body.rows[0]).toMatchObject({
      warehouse_code: bw.wh.code,
      provider_code: 'TCAT',
      waiting: 1,
      to_pick: 3, // two due today, one late from before
      to_pack: 1,
      shipped: 1,
      late: 1,
    });
    expect(body.late_orders.map((o) => o.id)).toEqual([lateOne]);
    // No cut-off saved for this carrier: the default one, today (none on a weekend).
    const working = isWorkingDay(today, new Set());
    expect(body.rows[0]!.cutoff_at).toBe(working ? new Date(`${today}T12:00:00+08:00`).toISOString() : null);
    expect(body.rows[0]!.pickup_at).toBe(working ? new Date(`${today}T17:00:00+08:00`).toISOString() : null);
    // Another seller sees none of it.
    const other = (await ctx.api.shipBoardRoutes.getShipsToday({ token: board.token })).json() as {
      rows: unknown[];
      late_orders: unknown[];
    };
    expect(other).toMatchObject({ rows: [], late_orders: [] });
  });
});
