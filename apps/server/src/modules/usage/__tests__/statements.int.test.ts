import type { TStatement, TStorageSnapshot, TUsageEvent } from '@wms/contracts';
import type { TRouteResponse } from '@wms/contracts/client';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products, usage_charges, usage_storage_snapshots } from '../../../db/schema';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { usageStorageSnapshot } from '../usage.jobs';
import { eventsDelivered, receiveUnits, shipOrder, units } from './work';

/**
 * Statements (issue #35) over a month simulated with the application's clock (vi's fake Date): receipts, shipped
 * orders and the daily storage snapshot job (run through the job queue each night, with a gap it catches up), two
 * rate cards of seller A (the second from the 16th), free storage days, a minimum monthly fee for seller B. The
 * statement equals what this test computes from the cards on its own; void and re-issue; two parallel issues make
 * one; a seller never sees another's statements, lines or snapshots.
 */

let ctx: TTestContext;
let staff: string;
let a: TWorld;
let b: TWorld;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await ctx.newEmployee()).token;
  a = await outboundWorld(ctx, { name: 'Statement seller A' });
  b = await outboundWorld(ctx, { name: 'Statement seller B' });
  // 10 × 20 × 30 cm: 6 litres a unit.
  await ctx.deps.database.db
    .update(products)
    .set({ length_cm: '10', width_cm: '20', height_cm: '30' })
    .where(eq(products.id, a.plain.id));
});
afterAll(() => ctx?.close());

const money = (u: number) => {
  const frac = String(u % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${Math.floor(u / 10_000)}${frac ? `.${frac}` : ''}`;
};

const ship = (w: TWorld, quantity: number) => shipOrder(ctx, w, quantity, '8');
const receive = (w: TWorld, planned: number, accepted: number) => receiveUnits(ctx, w, planned, accepted);

const delivered = () => eventsDelivered(ctx);

/**
 * The nightly job's run under the test's clock: its handler (the job queue's own timing does not run on a frozen
 * clock; the last test runs the job through the queue on the real clock).
 */
const nightly = () => usageStorageSnapshot.handler({ db: ctx.deps.database.db } as never);

const snapshotsOf = (customerId: string) =>
  ctx.deps.database.db
    .select()
    .from(usage_storage_snapshots)
    .where(eq(usage_storage_snapshots.customer_id, customerId))
    .orderBy(usage_storage_snapshots.day);

const countCharges = async () =>
  Number((await ctx.deps.database.db.select({ n: sql<number>`count(*)::int` }).from(usage_charges))[0]!.n);

/** A month two months back (its days are all past on the real clock too). */
const realMonth = taipeiToday().slice(0, 7);
const [ry, rm] = realMonth.split('-').map(Number) as [number, number];
const mDate = new Date(Date.UTC(ry, rm - 3, 1));
const MONTH = mDate.toISOString().slice(0, 7);
const DAYS = new Date(Date.UTC(mDate.getUTCFullYear(), mDate.getUTCMonth() + 1, 0)).getUTCDate();
const dayOf = (d: number) => `${MONTH}-${String(d).padStart(2, '0')}`;
/** Day d of the month at hh:mm in Taipei. */
const at = (d: number, hh: number, mm = 0) => taipeiMidnight(dayOf(1), d - 1).getTime() + (hh * 60 + mm) * 60_000;

const V1 = {
  receiving_receipt: '30',
  receiving_unit: '1.5',
  pick_order: '15',
  pick_extra_unit: '3.25',
  storage_location_day: '0.8',
  storage_cbm_day: '2.5',
};
const V2 = { ...V1, pick_order: '18', storage_location_day: '1.2', storage_cbm_day: '3.15' };
const B_CARD = { receiving_receipt: '30', storage_location_day: '1', minimum_monthly: '500' };
const FREE_DAYS = 3;

describe(`statements over a simulated month (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  const docs: { receipts: Array<{ id: string; number: string }>; orders: Array<{ id: string }> } = {
    receipts: [],
    orders: [],
  };
  let issued: TStatement;

  it('the nightly snapshot records each day once, catches up a gap, and the work is charged by the card of its day', async () => {
    for (const [customer, from, rates, free] of [
      [a.customerId, dayOf(1), V1, FREE_DAYS],
      [a.customerId, dayOf(16), V2, FREE_DAYS],
      [b.customerId, dayOf(1), B_CARD, 0],
    ] as const) {
      const res = await ctx.api.usageRoutes.crmCreateRateCard({
        body: {
          customer_id: customer,
          valid_from: from,
          rates,
          storage_free_days: free,
        },
        token: staff,
        lang: 'en',
      });
      expect(res.statusCode, res.body).toBe(201);
    }

    // The month's work (day → what happens at 10:00 Taipei).
    const work: Record<number, () => Promise<void>> = {
      1: async () => {
        docs.receipts.push(await receive(a, 100, 100));
      },
      5: async () => {
        docs.receipts.push(await receive(b, 5, 5));
      },
      10: async () => {
        docs.orders.push(await ship(a, 3), await ship(a, 3));
      },
      18: async () => {
        docs.receipts.push(await receive(a, 25, 20));
      },
      20: async () => {
        docs.orders.push(await ship(a, 1));
      },
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let d = 1; d <= DAYS; d++) {
        vi.setSystemTime(at(d, 10));
        await work[d]?.();
        // The server is down on the nights after the 2nd and the 3rd: the night after the 5th catches up.
        if (d === 3 || d === 4) continue;
        vi.setSystemTime(at(d + 1, 0, 30));
        await nightly();
        if (d === 2) expect((await snapshotsOf(a.customerId)).map((s) => s.day)).toEqual([dayOf(1), dayOf(2)]);
        if (d === 5) {
          expect((await snapshotsOf(a.customerId)).map((s) => s.day)).toEqual([1, 2, 3, 4, 5].map(dayOf));
          // A re-run of the same night adds nothing.
          const before = { snaps: (await snapshotsOf(a.customerId)).length, charges: await countCharges() };
          await nightly();
          expect((await snapshotsOf(a.customerId)).length).toBe(before.snaps);
          expect(await countCharges()).toBe(before.charges);
        }
      }
    } finally {
      vi.useRealTimers();
    }
    await delivered();
    const snaps = await snapshotsOf(a.customerId);
    expect(snaps.map((s) => s.day)).toEqual(Array.from({ length: DAYS }, (_, i) => dayOf(i + 1)));
    // Day 1: 100 units received that day, all free; day 4: all charged (600 litres, one location).
    expect(snaps[0]).toMatchObject({ units: 100, litres: 600, charged_units: 0, charged_locations: 0, free_days: 3 });
    expect(snaps[3]).toMatchObject({ units: 100, charged_units: 100, charged_litres: 600, charged_locations: 1 });
    // B's first stock on the 5th: recorded from that day (its warehouse's first night).
    expect((await snapshotsOf(b.customerId)).map((s) => s.day)).toEqual(
      Array.from({ length: DAYS - 4 }, (_, i) => dayOf(i + 5)),
    );
  }, 600_000);

  /** The test's own bill of seller A for the month, from the cards and the work above. */
  function expectedA() {
    const card = (d: number) => (d >= 16 ? V2 : V1);
    const lines: Record<string, number> = {};
    const add = (kind: string, amount: number) => {
      lines[kind] = (lines[kind] ?? 0) + amount;
    };
    // Receipts: day 1 (100 units), day 18 (20 of 25 accepted).
    for (const [d, n] of [
      [1, 100],
      [18, 20],
    ] as const) {
      add('receiving_receipt', units(card(d).receiving_receipt));
      add('receiving_unit', n * units(card(d).receiving_unit));
    }
    // Orders: two of 3 units on the 10th, one of 1 unit on the 20th.
    for (const [d, n] of [
      [10, 3],
      [10, 3],
      [20, 1],
    ] as const) {
      add('pick_order', units(card(d).pick_order));
      if (n > 1) add('pick_extra_unit', (n - 1) * units(card(d).pick_extra_unit));
    }
    // Storage: units held at the end of each day, less those received within the free days (that day and the two before).
    const received: Record<number, number> = { 1: 100, 18: 20 };
    const shipped: Record<number, number> = { 10: 6, 20: 1 };
    let held = 0;
    for (let d = 1; d <= DAYS; d++) {
      held += (received[d] ?? 0) - (shipped[d] ?? 0);
      let fresh = 0;
      for (let r = d - FREE_DAYS + 1; r <= d; r++) fresh += received[r] ?? 0;
      const charged = Math.max(0, held - Math.min(fresh, held));
      if (charged > 0) {
        add('storage_location_day', units(card(d).storage_location_day));
        // litres × rate per m³ ÷ 1,000, rounded to 1/10,000 TWD.
        add('storage_cbm_day', Math.round((charged * 6 * units(card(d).storage_cbm_day)) / 1000));
      }
    }
    const subtotal = Object.values(lines).reduce((s, v) => s + v, 0);
    const tax = Math.floor((subtotal * 5) / 100 / 10_000 + 0.5) * 10_000;
    return { lines, subtotal, tax, total: subtotal + tax };
  }

  it('the issued statement equals the bill computed from the cards; B gets the minimum fee; the files open', async () => {
    const exp = expectedA();
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: a.customerId, month: MONTH },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    issued = res.json() as TStatement;
    expect(issued.status).toBe('issued');
    expect(issued.number).toMatch(/^ST\d{12}$/);
    expect(Object.fromEntries(issued.lines.map((l) => [l.kind, units(l.amount)]))).toEqual(exp.lines);
    expect(issued).toMatchObject({ subtotal: money(exp.subtotal), minimum_fee: '0', tax: money(exp.tax) });
    expect(issued.total).toBe(money(exp.total));

    // The rate card changed on the 16th: the storage events of the 15th and the 16th carry each card's price.
    res = await ctx.api.usageRoutes.crmStatementEvents({
      params: { id: issued.id },
      query: { kind: 'storage_location_day', page_size: '100' },
      token: staff,
      lang: 'en',
    });
    const storage = (res.json() as { results: TUsageEvent[] }).results;
    expect(storage.find((e) => e.day === dayOf(15))?.unit_price).toBe('0.8');
    expect(storage.find((e) => e.day === dayOf(16))?.unit_price).toBe('1.2');

    // B: 30 for its receipt + 1 a day from the 5th (no free days) is below its minimum of 500.
    res = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: b.customerId, month: MONTH },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    const bs = res.json() as TStatement;
    const bSub = 30 + (DAYS - 4);
    expect(bs).toMatchObject({ subtotal: String(bSub), minimum_fee: String(500 - bSub), tax: '25', total: '525' });

    // This month cannot be issued yet.
    res = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: a.customerId, month: realMonth },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(400);
    expect(res.error().params).toMatchObject({ field: 'month' });

    // Files: a PDF and an xlsx (a zip) of the statement, for staff and for the seller.
    res = await ctx.api.usageRoutes.crmStatementFile({
      params: { id: issued.id },
      query: { format: 'pdf' },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    res = await ctx.api.usageRoutes.statementFile({
      params: { id: issued.id },
      query: { format: 'xlsx' },
      token: a.token,
      lang: 'en',
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('the seller drills a line down to its events and each event to its document; another seller sees nothing', async () => {
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.usageRoutes.statements({ token: a.token, lang: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { results: TStatement[] }).results.map((s) => s.id)).toEqual([issued.id]);
    res = await ctx.api.usageRoutes.statementEvents({
      params: { id: issued.id },
      query: { kind: 'pick_order' },
      token: a.token,
      lang: 'en',
    });
    const picks = (res.json() as { results: TUsageEvent[] }).results;
    expect(picks.map((e) => e.source_id).sort()).toEqual(docs.orders.map((o) => o.id).sort());
    expect(picks.every((e) => e.source_type === 'outbound_order')).toBe(true);
    res = await ctx.api.outboundRoutes.getOrder({ params: { id: picks[0]!.source_id }, token: a.token, lang: 'en' });
    expect(res.statusCode).toBe(200);
    res = await ctx.api.usageRoutes.statementEvents({
      params: { id: issued.id },
      query: { kind: 'storage_cbm_day' },
      token: a.token,
      lang: 'en',
    });
    const cbm = (res.json() as { results: TUsageEvent[] }).results[0]!;
    expect(cbm.source_type).toBe('storage_snapshot');
    res = await ctx.api.usageRoutes.snapshot({ params: { id: cbm.source_id }, token: a.token, lang: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const snap = res.json() as TStorageSnapshot;
    expect(snap.day).toBe(cbm.day);
    expect(snap.charged_litres).toBe(cbm.quantity);

    // Seller B: not A's statement, its events, its file or its snapshot; B's list has only B's.
    const asB = { token: b.token, lang: 'en' };
    for (const [what, call] of [
      ['statement', () => ctx.api.usageRoutes.statement({ params: { id: issued.id }, ...asB })],
      ['events', () => ctx.api.usageRoutes.statementEvents({ params: { id: issued.id }, ...asB })],
      [
        'file',
        () => ctx.api.usageRoutes.statementFile({ params: { id: issued.id }, query: { format: 'pdf' }, ...asB }),
      ],
      ['snapshot', () => ctx.api.usageRoutes.snapshot({ params: { id: cbm.source_id }, ...asB })],
    ] as const) {
      res = await call();
      expect(res.statusCode, what).toBe(404);
    }
    res = await ctx.api.usageRoutes.statements({ token: b.token, lang: 'en' });
    const bList = (res.json() as { results: TStatement[] }).results;
    expect(bList.length).toBe(1);
    expect(bList.every((s) => s.customer_id === b.customerId)).toBe(true);
    // Sellers cannot reach the CRM's statements.
    res = await ctx.api.usageRoutes.crmStatements({ token: a.token, lang: 'en' });
    expect(res.statusCode).toBe(403);
  });

  it('void with a reason, then the month is issued again; parallel issues make one; paid ends it', async () => {
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: issued.id },
      body: { reason: '' },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(400);
    res = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: issued.id },
      body: { reason: 'Wrong storage volume' },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'void', void_reason: 'Wrong storage volume' });
    const voidedEvents = await ctx.api.usageRoutes.crmStatementEvents({
      params: { id: issued.id },
      token: staff,
      lang: 'en',
    });
    expect(voidedEvents.json().count).toBe(0);

    // Two issues of the voided month at once: one statement.
    const both = await Promise.all(
      [1, 2].map(() =>
        ctx.api.usageRoutes.crmIssueStatement({
          body: { customer_id: a.customerId, month: MONTH },
          token: staff,
          lang: 'en',
        }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const refused = both.find((r) => r.statusCode === 409)!;
    expect(refused.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'month' } });
    const again = both.find((r) => r.statusCode === 201)!.json() as TStatement;
    expect(again.number).not.toBe(issued.number);
    expect(again.total).toBe(issued.total);
    expect(again.lines).toEqual(issued.lines);
    res = await ctx.api.usageRoutes.crmStatements({ query: { customer_id: a.customerId }, token: staff, lang: 'en' });
    expect((res.json() as { results: TStatement[] }).results.map((s) => s.status).sort()).toEqual(['issued', 'void']);

    res = await ctx.api.usageRoutes.crmPayStatement({
      params: { id: again.id },
      body: { note: 'Bank transfer 0815' },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', payment_note: 'Bank transfer 0815' });
    res = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: again.id },
      body: { reason: 'late' },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('INVALID_STATUS_TRANSITION');
  });

  it('the partner API reads its own seller’s statements and lines, never another seller’s', async () => {
    const keyOf = async (token: string) => {
      const created = await ctx.api.apiSettingRoutes.createApiSetting({
        body: { name: `ERP ${Math.random()}`, kind: 'partner' },
        token,
      });
      expect(created.statusCode, created.body).toBe(201);
      const enabled = await ctx.api.apiSettingRoutes.enableApiSetting({ params: { id: created.json().id }, token });
      expect(enabled.statusCode, enabled.body).toBe(200);
      return enabled.json().api_key as string;
    };
    const [keyA, keyB] = [await keyOf(a.token), await keyOf(b.token)];
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.partnerApiRoutes.apiStatements({ apiKey: keyA });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json() as { results: TStatement[] }).results;
    expect(mine.map((s) => s.status).sort()).toEqual(['paid', 'void']);
    const paid = mine.find((s) => s.status === 'paid')!;
    expect(paid.lines.length).toBeGreaterThan(0);
    res = await ctx.api.partnerApiRoutes.apiStatementEvents({
      params: { id: paid.id },
      query: { kind: 'receiving_receipt' },
      apiKey: keyA,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { results: TUsageEvent[] }).results.map((e) => e.source_id).sort()).toEqual(
      docs.receipts
        .filter((_r, i) => i !== 1)
        .map((r) => r.id)
        .sort(),
    );
    for (const [what, call] of [
      ['statement', () => ctx.api.partnerApiRoutes.apiStatement({ params: { id: paid.id }, apiKey: keyB })],
      ['events', () => ctx.api.partnerApiRoutes.apiStatementEvents({ params: { id: paid.id }, apiKey: keyB })],
    ] as const) {
      res = await call();
      expect(res.statusCode, what).toBe(404);
    }
    res = await ctx.api.partnerApiRoutes.apiStatements({ apiKey: keyB });
    expect((res.json() as { results: TStatement[] }).results.every((s) => s.customer_id === b.customerId)).toBe(true);
  });

  it('a confirmed return is charged as returns handling, in the confirmation’s event, once, down to the return', async () => {
    const today = taipeiToday();
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.usageRoutes.crmCreateRateCard({
      body: {
        customer_id: b.customerId,
        valid_from: today,
        rates: { return_receipt: '20', return_unit: '2.5' },
      },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    res = await ctx.api.returnRoutes.createReturn({
      body: {
        warehouse_id: b.wh.id,
        planned_date: today,
        category: 'other',
        order_number: 'SHOPEE-RET-1',
        lines: [{ product_id: b.plain.id, quantity: 3 }],
      },
      token: b.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    const ret = res.json() as { id: string; number: string; lines: Array<{ id: string }> };
    res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: ret.id },
      body: {
        lines: [
          {
            line_id: ret.lines[0]!.id,
            accepted_quantity: 3,
            defective_quantity: 0,
            good_quantity: 3,
            location_id: b.loc.B.id,
            defective_location_id: null,
          },
        ],
      },
      token: b.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    await delivered();
    const rows = await ctx.deps.database.db
      .select()
      .from(usage_charges)
      .where(eq(usage_charges.source_id, ret.id))
      .orderBy(usage_charges.kind);
    expect(rows.map((r) => [r.kind, r.source_type, r.document_number, r.quantity, money(units(r.amount))])).toEqual([
      ['return_receipt', 'return_receipt', ret.number, 1, '20'],
      ['return_unit', 'return_receipt', ret.number, 3, '7.5'],
    ]);
    // The seller's usage of this month shows them; seller A's does not.
    res = await ctx.api.usageRoutes.usageEvents({ query: { kind: 'return_unit' }, token: b.token, lang: 'en' });
    expect((res.json() as { results: TUsageEvent[] }).results.map((e) => e.source_id)).toEqual([ret.id]);
    const ofA = await ctx.api.usageRoutes.usageEvents({ query: { kind: 'return_unit' }, token: a.token, lang: 'en' });
    expect(ofA.json().count).toBe(0);
  });

  it('the job is declared with its nightly schedule and runs through the queue (the real yesterday, once)', async () => {
    expect(usageStorageSnapshot.options.cron).toMatchObject({ schedule: '10 0 * * *', tz: 'Asia/Taipei' });
    const yesterday = taipeiToday(new Date(Date.now() - 86_400_000));
    const run = async () => {
      await ctx.deps.database.db.transaction((tx) =>
        ctx.deps.jobs.enqueue(tx, usageStorageSnapshot, {}, { customerId: null }),
      );
      ctx.deps.jobs.kick(usageStorageSnapshot.name);
      await ctx.deps.jobs.whenIdle();
    };
    await run();
    // The month's last recorded day is long past: the catch-up stops at SNAPSHOT_CATCH_UP_DAYS back.
    const days = (await snapshotsOf(a.customerId)).map((s) => s.day);
    expect(days.at(-1)).toBe(yesterday);
    const count = days.length;
    const charges = await countCharges();
    await run();
    expect((await snapshotsOf(a.customerId)).length).toBe(count);
    expect(await countCharges()).toBe(charges);
  });
});
