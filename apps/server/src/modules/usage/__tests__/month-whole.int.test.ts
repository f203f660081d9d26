import { randomUUID } from 'node:crypto';
import type { TStatement } from '@wms/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products, usage_charges, usage_storage_snapshots } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { snapshotDay, usageStorageSnapshot } from '../usage.jobs';
import { recordWork } from '../usage.service';
import { eventsDelivered, money, receiveUnits, seedShippedOrders, shipOrder, taxOf, units } from './work';

/**
 * A whole month of one seller (issue #35 "Done when"), on the application's clock (vi's fake Date): receipts, three
 * orders shipped through the API and 1,000 more seeded as month-1000 seeds them, two returns, the daily storage
 * snapshot job every night of a 31-day month (a three-night outage it catches up), a rate card changed on the 16th
 * (other prices and other free days from that day). The issued statement equals the bill this test computes on its
 * own from the cards; re-running the snapshot of a day adds nothing; void and re-issue give the same bill; another
 * seller working in the same month sees none of it.
 */

let ctx: TTestContext;
let staff: string;
let a: TWorld;
let b: TWorld;

/** The latest ended month with 31 days (every night of it is past on the real clock too). */
const MONTH = (() => {
  const [y, m] = taipeiToday().slice(0, 7).split('-').map(Number) as [number, number];
  for (let back = 1; ; back++) {
    const first = new Date(Date.UTC(y, m - 1 - back, 1));
    if (new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate() === 31)
      return first.toISOString().slice(0, 7);
  }
})();
const DAYS = 31;
const dayOf = (d: number) => `${MONTH}-${String(d).padStart(2, '0')}`;
/** Day d of the month at hh:mm in Taipei. */
const at = (d: number, hh: number, mm = 0) => taipeiMidnight(dayOf(1), d - 1).getTime() + (hh * 60 + mm) * 60_000;

const CARD1 = {
  rates: {
    receiving_receipt: '30',
    receiving_unit: '1.5',
    pick_order: '15',
    pick_extra_unit: '3.25',
    storage_location_day: '0.8',
    storage_cbm_day: '2.5',
    return_receipt: '20',
    return_unit: '2.5',
  },
  free: 5,
};
/** From the 16th: other prices, and units are free for 2 days after receipt instead of 5. */
const CARD2 = {
  rates: {
    ...CARD1.rates,
    pick_order: '18',
    pick_extra_unit: '3.5',
    storage_location_day: '1.2',
    storage_cbm_day: '3.15',
    return_unit: '3',
  },
  free: 2,
};
const cardOf = (d: number) => (d >= 16 ? CARD2 : CARD1);
const B_CARD = { receiving_receipt: '99', storage_location_day: '7', pick_order: '99' };
const N = 1000;
/** A unit of seller A's product: 10 × 20 × 30 cm = 6 litres. */
const LITRES = 6;

/** Seller A's month: what is received (accepted units), shipped through the API (units a box) and returned, by day. */
const RECEIPTS: Record<number, { planned: number; accepted: number }> = {
  1: { planned: 120, accepted: 120 },
  7: { planned: 40, accepted: 36 },
  20: { planned: 10, accepted: 10 },
};
const SHIPPED: Record<number, number[]> = { 12: [3, 1], 22: [2] };
const RETURNED: Record<number, number> = { 19: 5, 26: 2 };
/** The nights the server is down (after these days): the night after the 11th catches them up. */
const DOWN = new Set([8, 9, 10]);

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await ctx.newEmployee()).token;
  a = await outboundWorld(ctx, { name: 'Whole month seller A' });
  b = await outboundWorld(ctx, { name: 'Whole month seller B' });
  await ctx.deps.database.db
    .update(products)
    .set({ length_cm: '10', width_cm: '20', height_cm: '30' })
    .where(eq(products.id, a.plain.id));
});
afterAll(() => ctx?.close());

const nightly = () => usageStorageSnapshot.handler({ db: ctx.deps.database.db } as never);
const snapshotDays = async (customerId: string) =>
  (
    await ctx.deps.database.db
      .select({ day: usage_storage_snapshots.day })
      .from(usage_storage_snapshots)
      .where(eq(usage_storage_snapshots.customer_id, customerId))
      .orderBy(usage_storage_snapshots.day)
  ).map((r) => r.day);
const countRows = async () => {
  const db = ctx.deps.database.db;
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(usage_charges);
  const [s] = await db.select({ n: sql<number>`count(*)::int` }).from(usage_storage_snapshots);
  return { charges: Number(c!.n), snapshots: Number(s!.n) };
};

async function returnUnits(w: TWorld, quantity: number) {
  const created = await ctx.api.returnRoutes.createReturn({
    body: {
      warehouse_id: w.wh.id,
      planned_date: taipeiToday(),
      category: 'other',
      order_number: `RET-${Date.now()}`,
      lines: [{ product_id: w.plain.id, quantity }],
    },
    token: w.token,
  });
  expect(created.statusCode, created.body).toBe(201);
  const r = created.json();
  const confirmed = await ctx.api.returnRoutes.confirmReturn({
    params: { id: r.id },
    body: {
      lines: [
        {
          line_id: r.lines[0]!.id,
          accepted_quantity: quantity,
          defective_quantity: 0,
          good_quantity: quantity,
          location_id: w.loc.B.id,
          defective_location_id: null,
        },
      ],
    },
    token: w.token,
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

type TLine = { events: number; quantity: number; amount: number };

/**
 * The test's own bill of seller A, from the cards and the month's work above — plain arithmetic on ten-thousandths of
 * a TWD, none of the module's functions.
 */
function expectedBill(seeded: Array<{ units: number; closed_at: Date }>) {
  const lines: Record<string, TLine> = {};
  const add = (kind: string, quantity: number, rate: string, scale = 1) => {
    const l = lines[kind] ?? { events: 0, quantity: 0, amount: 0 };
    lines[kind] = l;
    l.events += 1;
    l.quantity += quantity;
    l.amount += Math.round((quantity * units(rate)) / scale);
  };
  for (const [d, r] of Object.entries(RECEIPTS).map(([d, r]) => [Number(d), r] as const)) {
    add('receiving_receipt', 1, cardOf(d).rates.receiving_receipt);
    add('receiving_unit', r.accepted, cardOf(d).rates.receiving_unit);
  }
  const pick = (d: number, n: number) => {
    add('pick_order', 1, cardOf(d).rates.pick_order);
    if (n > 1) add('pick_extra_unit', n - 1, cardOf(d).rates.pick_extra_unit);
  };
  for (const [d, boxes] of Object.entries(SHIPPED)) for (const n of boxes) pick(Number(d), n);
  const firstNight = taipeiMidnight(dayOf(1)).getTime();
  for (const o of seeded) pick(Math.floor((o.closed_at.getTime() - firstNight) / 86_400_000) + 1, o.units);
  for (const [d, n] of Object.entries(RETURNED).map(([d, n]) => [Number(d), n] as const)) {
    add('return_receipt', 1, cardOf(d).rates.return_receipt);
    add('return_unit', n, cardOf(d).rates.return_unit);
  }
  // Storage: units held at the end of each day (one location), less the units received (not returned: a return is
  // charged from its first night) within the day's card's free days (that day and the days before it).
  let held = 0;
  for (let d = 1; d <= DAYS; d++) {
    held += (RECEIPTS[d]?.accepted ?? 0) + (RETURNED[d] ?? 0) - (SHIPPED[d] ?? []).reduce((s, n) => s + n, 0);
    let fresh = 0;
    for (let r = d - cardOf(d).free + 1; r <= d; r++) fresh += RECEIPTS[r]?.accepted ?? 0;
    const charged = held - Math.min(fresh, held);
    if (charged > 0) {
      add('storage_location_day', 1, cardOf(d).rates.storage_location_day);
      // Litres × the rate per m³ ÷ 1,000.
      add('storage_cbm_day', charged * LITRES, cardOf(d).rates.storage_cbm_day, 1000);
    }
  }
  const subtotal = Object.values(lines).reduce((s, l) => s + l.amount, 0);
  return { lines, subtotal, tax: taxOf(subtotal), total: subtotal + taxOf(subtotal) };
}

const asLines = (lines: Record<string, TLine>) =>
  Object.entries(lines)
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([kind, l]) => ({ kind, events: l.events, quantity: l.quantity, amount: money(l.amount) }));

describe(`a whole month of one seller, 1,000 orders, 31 nights (${TEST_ENGINE})`, () => {
  let seeded: Array<{ units: number; closed_at: Date }> = [];
  let issued: TStatement;

  it('the month is worked, snapshotted every night (with a catch-up) and charged by the card of each day', async () => {
    for (const [customer_id, valid_from, card] of [
      [a.customerId, dayOf(1), CARD1],
      [a.customerId, dayOf(16), CARD2],
      [b.customerId, dayOf(1), { rates: B_CARD, free: 0 }],
    ] as const) {
      const res = await ctx.api.usageRoutes.crmCreateRateCard({
        body: { customer_id, valid_from, rates: card.rates, storage_free_days: card.free },
        token: staff,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let d = 1; d <= DAYS; d++) {
        vi.setSystemTime(at(d, 10));
        const r = RECEIPTS[d];
        if (r) await receiveUnits(ctx, a, r.planned, r.accepted);
        for (const n of SHIPPED[d] ?? []) await shipOrder(ctx, a, n, '7');
        const back = RETURNED[d];
        if (back) await returnUnits(a, back);
        if (d === 3) await receiveUnits(ctx, b, 10, 10);
        if (DOWN.has(d)) continue;
        vi.setSystemTime(at(d + 1, 0, 30));
        await nightly();
        if (d === 11) {
          expect(await snapshotDays(a.customerId)).toEqual(Array.from({ length: 11 }, (_, i) => dayOf(i + 1)));
          // The same night's job again adds nothing.
          const before = await countRows();
          await nightly();
          expect(await countRows()).toEqual(before);
        }
      }
    } finally {
      vi.useRealTimers();
    }
    // 1,000 orders shipped over the 1st–28th at 10:00, 1–4 units each (the cheap way: month-1000's).
    seeded = await seedShippedOrders(ctx, a, N, (i) => ({
      units: 1 + (i % 4),
      closed_at: new Date(at(1 + (i % 28), 10)),
    }));
    await eventsDelivered(ctx, 600);
    expect(await snapshotDays(a.customerId)).toEqual(Array.from({ length: DAYS }, (_, i) => dayOf(i + 1)));
    // B's warehouse holds stock from the 3rd: its first night is recorded, and every one after.
    expect(await snapshotDays(b.customerId)).toEqual(Array.from({ length: DAYS - 2 }, (_, i) => dayOf(i + 3)));
  }, 600_000);

  it('the issued statement equals the bill computed from the cards, line by line', async () => {
    const exp = expectedBill(seeded);
    const res = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: a.customerId, month: MONTH },
      token: staff,
    });
    expect(res.statusCode, res.body).toBe(201);
    issued = res.json();
    expect(issued.lines).toEqual(asLines(exp.lines));
    expect(issued).toMatchObject({
      status: 'issued',
      subtotal: money(exp.subtotal),
      minimum_fee: '0',
      tax: money(exp.tax),
      total: money(exp.total),
    });
    // The card changed on the 16th: the 15th's storage is priced by the first card, the 16th's by the second.
    const storage = await ctx.api.usageRoutes.statementEvents({
      params: { id: issued.id },
      query: { kind: 'storage_location_day', page_size: 50 },
      token: a.token,
    });
    expect(storage.statusCode, storage.body).toBe(200);
    const byDay = new Map(storage.json().results.map((e) => [e.day, e.unit_price]));
    expect(byDay.get(dayOf(15))).toBe('0.8');
    expect(byDay.get(dayOf(16))).toBe('1.2');
  });

  it('re-running the snapshot of a recorded day adds nothing', async () => {
    const before = await countRows();
    for (const day of [dayOf(9), dayOf(31)]) expect(await snapshotDay(ctx.deps.database.db, a.wh.id, day)).toBeNull();
    expect(await countRows()).toEqual(before);
    // A statement's lines stay as issued.
    const again = await ctx.api.usageRoutes.crmStatement({ params: { id: issued.id }, token: staff });
    expect(again.json().lines).toEqual(issued.lines);
  });

  it('void and re-issue: the same bill under a new number', async () => {
    const voided = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: issued.id },
      body: { reason: 'Re-issued after review' },
      token: staff,
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().status).toBe('void');
    const left = await ctx.api.usageRoutes.crmStatementEvents({ params: { id: issued.id }, token: staff });
    expect(left.json().count).toBe(0);
    const res = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: a.customerId, month: MONTH },
      token: staff,
    });
    expect(res.statusCode, res.body).toBe(201);
    const again = res.json();
    expect(again.number).not.toBe(issued.number);
    expect(again.lines).toEqual(issued.lines);
    expect(again.total).toBe(issued.total);
    const events = await ctx.api.usageRoutes.crmStatementEvents({ params: { id: again.id }, token: staff });
    expect(events.json().count).toBe(issued.lines.reduce((s, l) => s + l.events, 0));
    issued = again;
  });

  it('another seller sees none of these lines', async () => {
    for (const res of [
      await ctx.api.usageRoutes.statement({ params: { id: issued.id }, token: b.token }),
      await ctx.api.usageRoutes.statementEvents({ params: { id: issued.id }, token: b.token }),
      await ctx.api.usageRoutes.statementFile({ params: { id: issued.id }, query: { format: 'xlsx' }, token: b.token }),
    ])
      expect(res.statusCode).toBe(404);
    // B's own month: its receipt and its storage only, priced by its own card.
    const mine = await ctx.api.usageRoutes.usageEvents({
      query: { month: MONTH, page_size: 100 },
      token: b.token,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const kinds = new Set(mine.json().results.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['receiving_receipt', 'storage_location_day']);
    expect(mine.json().count).toBe(1 + (DAYS - 2));
    const bs = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: b.customerId, month: MONTH },
      token: staff,
    });
    expect(bs.statusCode, bs.body).toBe(201);
    expect(bs.json().subtotal).toBe(money(units('99') + (DAYS - 2) * units('7')));
    const list = await ctx.api.usageRoutes.statements({ token: b.token });
    expect(list.json().results.map((s) => s.id)).toEqual([bs.json().id]);
    // Underneath: A's statement bills exactly A's charges of the month, B's exactly B's.
    const [own] = await ctx.deps.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(usage_charges)
      .where(eq(usage_charges.customer_id, b.customerId));
    expect(bs.json().lines.reduce((s, l) => s + l.events, 0)).toBe(Number(own!.n));
  });

  it('a charge still being recorded when the month is issued is on the statement whole, or not at all', async () => {
    const c = await outboundWorld(ctx, { name: 'Whole month seller C' });
    const card = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { customer_id: c.customerId, valid_from: dayOf(1), rates: { receiving_receipt: '30' } },
      token: staff,
    });
    expect(card.statusCode, card.body).toBe(201);
    const receipt = (d: number) => ({
      customerId: c.customerId,
      sourceType: 'inbound_receipt' as const,
      sourceId: randomUUID(),
      documentNumber: `RC-RACE-${d}`,
      at: new Date(at(d, 10)),
      quantities: { receiving_receipt: 1 },
    });
    await withTx(ctx.deps.database.db, (tx) => recordWork(tx, [receipt(2)]));
    // A second receipt's charge is written and held uncommitted while staff issue the month.
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let written = () => {};
    const inFlight = new Promise<void>((r) => {
      written = r;
    });
    const charging = withTx(ctx.deps.database.db, async (tx) => {
      await recordWork(tx, [receipt(3)]);
      written();
      await gate;
    });
    await inFlight;
    const issuing = ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: c.customerId, month: MONTH },
      token: staff,
    });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await charging;
    const res = await issuing;
    expect(res.statusCode, res.body).toBe(201);
    // The issue waited for it: both charges on the lines, and the drill-down shows exactly the lines' events.
    expect(res.json().lines).toEqual([{ kind: 'receiving_receipt', events: 2, quantity: 2, amount: '60' }]);
    const events = await ctx.api.usageRoutes.statementEvents({ params: { id: res.json().id }, token: c.token });
    expect(events.json().results.map((e) => e.document_number)).toEqual(['RC-RACE-2', 'RC-RACE-3']);
    // A charge recorded after the issue is not on it (it waits for a re-issue of the month).
    await withTx(ctx.deps.database.db, (tx) => recordWork(tx, [receipt(4)]));
    const after = await ctx.api.usageRoutes.statementEvents({ params: { id: res.json().id }, token: c.token });
    expect(after.json().count).toBe(2);
  });
});
