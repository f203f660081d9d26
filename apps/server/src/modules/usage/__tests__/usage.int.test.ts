import type { TRateCard, TRateCardList, TUsageEvent, TUsageSummary } from '@wms/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outbox_messages, usage_charges } from '../../../db/schema';
import { SUBSCRIBERS } from '../../../events';
import { taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { eventsDelivered, receiveUnits, shipOrder, units } from './work';

/**
 * Usage billing, first slice (issue #35): the CRM's rate cards, and the billable events written by the work itself —
 * a confirmed receipt and a shipped order publish their event in their own transaction; usage's subscribers price
 * them by the card of the work's day, once per document and kind.
 */

let ctx: TTestContext;
let staff: string;
let a: TWorld;
let b: TWorld;
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await ctx.newEmployee()).token;
  a = await outboundWorld(ctx, { name: 'Usage seller A' });
  b = await outboundWorld(ctx, { name: 'Usage seller B' });
  for (const w of [a, b])
    await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 200 }]);
});
afterAll(() => ctx?.close());

const ship = (w: TWorld, quantity: number) => shipOrder(ctx, w, quantity, '9');
const receive = (w: TWorld, planned: number, accepted: number) => receiveUnits(ctx, w, planned, accepted);

const chargesOf = (sourceId: string) =>
  ctx.deps.database.db
    .select()
    .from(usage_charges)
    .where(eq(usage_charges.source_id, sourceId))
    .orderBy(usage_charges.kind);

/** Wait (up to 15 s, kicking the delivery) until the document has `count` charges. */
async function charged(sourceId: string, count: number) {
  for (let i = 0; i < 150; i++) {
    const rows = await chargesOf(sourceId);
    if (rows.length >= count) return rows;
    ctx.deps.jobs.kick('outbox.deliver');
    await new Promise((r) => setTimeout(r, 100));
  }
  return chargesOf(sourceId);
}

const delivered = () => eventsDelivered(ctx, 150);

describe(`rate cards (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('staff add, list, change and delete cards; errors name the field; sellers cannot reach them', async () => {
    const body = {
      customer_id: null,
      valid_from: '2020-01-01',
      rates: {
        receiving_receipt: '30',
        receiving_unit: '1.5',
        pick_order: '15',
        pick_extra_unit: '3.25',
        storage_location_day: '0.8',
      },
      note: 'Default 2020',
    };
    let res = await ctx.api.usageRoutes.crmCreateRateCard({ body, token: staff, lang: 'en' });
    expect(res.statusCode, res.body).toBe(201);
    const card = res.json() as TRateCard;
    expect(card).toMatchObject({ customer_id: null, valid_from: '2020-01-01', tax_rate: '0.0500', charge_count: 0 });
    expect(card.rates).toEqual(body.rates);

    res = await ctx.api.usageRoutes.crmCreateRateCard({ body, token: staff, lang: 'en' });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'valid_from' } });
    expect(res.error().message).toBe('Valid from already exists');

    res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { ...body, rates: { pick_order: '-1' } },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(400);
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'rates.pick_order' } });
    expect(res.error().message).toBe('Pick & pack per order is not valid');
    res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { ...body, rates: { pick_extra_unit: '1.23456' } },
      token: staff,
      lang: 'en',
    });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'rates.pick_extra_unit' } });
    res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { ...body, valid_from: '2020-02-30' },
      token: staff,
      lang: 'en',
    });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'valid_from' } });
    res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { ...body, valid_from: '2020-03-01', customer_id: '00000000-0000-4000-8000-000000000000' },
      token: staff,
      lang: 'zh-TW',
    });
    expect(res.statusCode).toBe(404);
    expect(res.error()).toMatchObject({ code: 'NOT_FOUND', params: { field: 'customer_id' } });

    // A seller's own card; the list shows the default cards and (when asked) the seller's.
    res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: {
        customer_id: b.customerId,
        valid_from: '2030-01-01',
        rates: { pick_order: '9' },
      },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    const future = res.json() as TRateCard;
    const list = (
      await ctx.api.usageRoutes.crmRateCards({ query: { customer_id: b.customerId }, token: staff, lang: 'en' })
    ).json() as TRateCardList;
    expect(list.default_cards.map((c) => c.id)).toEqual([card.id]);
    expect(list.cards.map((c) => c.id)).toEqual([future.id]);
    expect(
      ((await ctx.api.usageRoutes.crmRateCards({ token: staff, lang: 'en' })).json() as TRateCardList).cards,
    ).toEqual([]);

    // Changed while it priced nothing; its owner stays.
    res = await ctx.api.usageRoutes.crmUpdateRateCard({
      params: { id: future.id },
      body: {
        customer_id: b.customerId,
        valid_from: '2031-01-01',
        rates: { pick_order: '8' },
      },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ valid_from: '2031-01-01', rates: { pick_order: '8' } });
    res = await ctx.api.usageRoutes.crmUpdateRateCard({
      params: { id: future.id },
      body: {
        customer_id: a.customerId,
        valid_from: '2031-01-01',
        rates: {},
      },
      token: staff,
      lang: 'en',
    });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'customer_id' } });
    expect(
      (await ctx.api.usageRoutes.crmDeleteRateCard({ params: { id: future.id }, token: staff, lang: 'en' })).statusCode,
    ).toBe(200);
    expect(
      (await ctx.api.usageRoutes.crmDeleteRateCard({ params: { id: future.id }, token: staff, lang: 'en' })).statusCode,
    ).toBe(404);

    // Sellers: not for them.
    const asSeller = { token: a.token, lang: 'en' };
    for (const [what, call] of [
      ['list', () => ctx.api.usageRoutes.crmRateCards(asSeller)],
      ['create', () => ctx.api.usageRoutes.crmCreateRateCard({ body, ...asSeller })],
      ['update', () => ctx.api.usageRoutes.crmUpdateRateCard({ params: { id: card.id }, body, ...asSeller })],
      ['delete', () => ctx.api.usageRoutes.crmDeleteRateCard({ params: { id: card.id }, ...asSeller })],
    ] as const)
      expect((await call()).statusCode, what).toBe(403);
  });
});

describe('charges from the work', () => {
  const now = Date.now();
  const v1From = taipeiToday(new Date(now - 40 * DAY));
  const v2From = taipeiToday(new Date(now - 10 * DAY));
  const v1 = { receiving_receipt: '20', receiving_unit: '0.75', pick_order: '12', pick_extra_unit: '2.5' };
  const v2 = { receiving_receipt: '25', receiving_unit: '1', pick_order: '10.1234', pick_extra_unit: '2' };
  const defaults = { receiving_receipt: '30', receiving_unit: '1.5', pick_order: '15', pick_extra_unit: '3.25' };

  type TDoc = { id: string; number: string };
  const expected: Array<{ doc: TDoc; kind: string; quantity: number; price: string; day: string }> = [];
  const docsOf: Record<'a' | 'b', TDoc[]> = { a: [], b: [] };

  it('a receipt and shipped orders are priced by the card of their day; a card from mid-month applies from its date', async () => {
    for (const [validFrom, rates] of [
      [v1From, v1],
      [v2From, v2],
    ] as const) {
      const res = await ctx.api.usageRoutes.crmCreateRateCard({
        body: {
          customer_id: a.customerId,
          valid_from: validFrom,
          rates,
        },
        token: staff,
        lang: 'en',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The work of seller A, twenty days ago (card v1) and five days ago (card v2); seller B has no card (default).
    vi.useFakeTimers({ toFake: ['Date'] });
    let early: { receipt: { id: string; number: string }; order: { id: string; number: string } };
    let late: { receipt: { id: string; number: string }; order: { id: string; number: string } };
    try {
      vi.setSystemTime(now - 20 * DAY);
      early = { receipt: await receive(a, 10, 8), order: await ship(a, 3) };
      vi.setSystemTime(now - 5 * DAY);
      late = { receipt: await receive(a, 4, 4), order: await ship(a, 1) };
    } finally {
      vi.useRealTimers();
    }
    const other = { receipt: await receive(b, 6, 6), order: await ship(b, 2) };

    // What the test computes from the cards (ten-thousandths of TWD), per document and kind.
    const d1 = taipeiToday(new Date(now - 20 * DAY));
    const d2 = taipeiToday(new Date(now - 5 * DAY));
    const today = taipeiToday();
    expected.push(
      { doc: early.receipt, kind: 'receiving_receipt', quantity: 1, price: v1.receiving_receipt, day: d1 },
      { doc: early.receipt, kind: 'receiving_unit', quantity: 8, price: v1.receiving_unit, day: d1 },
      { doc: early.order, kind: 'pick_extra_unit', quantity: 2, price: v1.pick_extra_unit, day: d1 },
      { doc: early.order, kind: 'pick_order', quantity: 1, price: v1.pick_order, day: d1 },
      { doc: late.receipt, kind: 'receiving_receipt', quantity: 1, price: v2.receiving_receipt, day: d2 },
      { doc: late.receipt, kind: 'receiving_unit', quantity: 4, price: v2.receiving_unit, day: d2 },
      // One unit: no extra unit.
      { doc: late.order, kind: 'pick_order', quantity: 1, price: v2.pick_order, day: d2 },
      { doc: other.receipt, kind: 'receiving_receipt', quantity: 1, price: defaults.receiving_receipt, day: today },
      { doc: other.receipt, kind: 'receiving_unit', quantity: 6, price: defaults.receiving_unit, day: today },
      { doc: other.order, kind: 'pick_extra_unit', quantity: 1, price: defaults.pick_extra_unit, day: today },
      { doc: other.order, kind: 'pick_order', quantity: 1, price: defaults.pick_order, day: today },
    );
    docsOf.a.push(early.receipt, early.order, late.receipt, late.order);
    docsOf.b.push(other.receipt, other.order);
    for (const doc of [early.receipt, early.order, late.receipt, late.order, other.receipt, other.order]) {
      const want = expected.filter((e) => e.doc === doc);
      const rows = await charged(doc.id, want.length);
      expect(
        rows.map((r) => ({ kind: r.kind, quantity: r.quantity, amount: units(r.amount), number: r.document_number })),
        doc.number,
      ).toEqual(
        want.map((e) => ({
          kind: e.kind,
          quantity: e.quantity,
          amount: e.quantity * units(e.price),
          number: doc.number,
        })),
      );
    }
    const total = (customerId: string) =>
      ctx.deps.database.db
        .select({ sum: sql<string>`coalesce(sum(amount), 0)::text` })
        .from(usage_charges)
        .where(eq(usage_charges.customer_id, customerId));
    const want = (docs: TDoc[]) =>
      expected.filter((e) => docs.includes(e.doc)).reduce((s, e) => s + e.quantity * units(e.price), 0);
    expect(units((await total(a.customerId))[0]!.sum)).toBe(
      want([early.receipt, early.order, late.receipt, late.order]),
    );
    // One seller's work is never charged to another, nor priced by another's card.
    expect(units((await total(b.customerId))[0]!.sum)).toBe(want([other.receipt, other.order]));
    const rowsB = await ctx.deps.database.db
      .select()
      .from(usage_charges)
      .where(eq(usage_charges.customer_id, b.customerId));
    expect(rowsB.map((r) => r.source_id).sort()).toEqual(
      [other.receipt.id, other.receipt.id, other.order.id, other.order.id].sort(),
    );
    // The work's day, in Asia/Taipei.
    expect((await chargesOf(early.order.id))[0]!.day).toBe(taipeiToday(new Date(now - 20 * DAY)));

    // A card that priced work is kept as it is.
    const cards = (
      (
        await ctx.api.usageRoutes.crmRateCards({ query: { customer_id: a.customerId }, token: staff, lang: 'en' })
      ).json() as TRateCardList
    ).cards;
    expect(cards.map((c) => [c.valid_from, c.charge_count])).toEqual([
      [v2From, 3],
      [v1From, 4],
    ]);
    const res = await ctx.api.usageRoutes.crmUpdateRateCard({
      params: { id: cards[0]!.id },
      body: {
        customer_id: a.customerId,
        valid_from: v2From,
        rates: { pick_order: '1' },
      },
      token: staff,
      lang: 'en',
    });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('IN_USE');
    expect(
      (await ctx.api.usageRoutes.crmDeleteRateCard({ params: { id: cards[0]!.id }, token: staff, lang: 'en' }))
        .statusCode,
    ).toBe(409);
  });

  it('the events travel in the outbox with the work; delivering one again (even at once, in parallel) adds nothing', async () => {
    await delivered();
    const messages = await ctx.deps.database.db
      .select()
      .from(outbox_messages)
      .where(and(eq(outbox_messages.customer_id, a.customerId), sql`${outbox_messages.topic} like 'event.%'`));
    expect(messages.map((m) => m.topic).sort()).toEqual([
      'event.inbound.receipt-confirmed',
      'event.inbound.receipt-confirmed',
      'event.outbound.orders-shipped',
      'event.outbound.orders-shipped',
    ]);
    const count = async () =>
      Number(
        (
          await ctx.deps.database.db
            .select({ n: sql<number>`count(*)::int` })
            .from(usage_charges)
            .where(eq(usage_charges.customer_id, a.customerId))
        )[0]!.n,
      );
    const before = await count();
    const deliver = (m: (typeof messages)[number]) =>
      Promise.all(
        // Usage's own subscribers (Shopee hears of shipments too: not this test's subject).
        SUBSCRIBERS.filter((s) => `event.${s.event.name}` === m.topic && s.name.startsWith('usage.')).map((s) =>
          s.handle({
            db: ctx.deps.database.db,
            payload: s.event.payload.parse(m.payload),
            customerId: m.customer_id,
            queue: ctx.deps.jobs,
            services: undefined as never,
          }),
        ),
      );
    for (const m of messages) expect(await deliver(m)).toEqual([{ recorded: 0 }]);
    expect(await count()).toBe(before);

    // A new shipment: its real delivery and two more at the same moment record its charges once.
    const order = await ship(a, 4);
    const [message] = await ctx.deps.database.db
      .select()
      .from(outbox_messages)
      .where(
        and(
          eq(outbox_messages.topic, 'event.outbound.orders-shipped'),
          sql`${outbox_messages.payload}->'orders'->0->>'order_id' = ${order.id}`,
        ),
      );
    expect(message!.payload).toMatchObject({ customer_id: a.customerId, orders: [{ order_id: order.id, units: 4 }] });
    const results = (await Promise.all([deliver(message!), deliver(message!)])).flat() as Array<{ recorded: number }>;
    await delivered();
    const rows = await chargesOf(order.id);
    expect(rows.map((r) => [r.kind, r.quantity, units(r.amount)])).toEqual([
      ['pick_extra_unit', 3, 3 * units(v2.pick_extra_unit)],
      ['pick_order', 1, units(v2.pick_order)],
    ]);
    expect(results.reduce((s, r) => s + r.recorded, 0)).toBeLessThanOrEqual(2);
    expect(await count()).toBe(before + 2);
    const day = taipeiToday();
    expected.push(
      { doc: order, kind: 'pick_extra_unit', quantity: 3, price: v2.pick_extra_unit, day },
      { doc: order, kind: 'pick_order', quantity: 1, price: v2.pick_order, day },
    );
    docsOf.a.push(order);
  });

  it('the seller sees the month so far per kind with tax, and each event with its document; never another seller’s', async () => {
    await delivered();
    for (const [who, w] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const mine = expected.filter((e) => docsOf[who].some((d) => d.id === e.doc.id));
      const months = [...new Set(mine.map((e) => e.day.slice(0, 7)))];
      for (const month of months) {
        const inMonth = mine.filter((e) => e.day.startsWith(month));
        const kinds = [...new Set(inMonth.map((e) => e.kind))].sort();
        const lines = kinds.map((kind) => {
          const of = inMonth.filter((e) => e.kind === kind);
          return {
            kind,
            events: of.length,
            quantity: of.reduce((s, e) => s + e.quantity, 0),
            amount: of.reduce((s, e) => s + e.quantity * units(e.price), 0),
          };
        });
        const subtotal = lines.reduce((s, l) => s + l.amount, 0);
        // 5 % business tax in whole TWD, half up.
        const tax = Math.floor((subtotal * 5) / 100 / 10_000 + 0.5) * 10_000;
        for (const [what, call] of [
          ['seller', () => ctx.api.usageRoutes.usage({ query: { month }, token: w.token, lang: 'en' })],
          [
            'staff',
            () =>
              ctx.api.usageRoutes.crmUsage({
                params: { id: w.customerId },
                query: { month },
                token: staff,
                lang: 'en',
              }),
          ],
        ] as const) {
          const res = await call();
          expect(res.statusCode, res.body).toBe(200);
          const got = res.json() as TUsageSummary;
          expect(
            got.lines.map((l) => ({ ...l, amount: units(l.amount) })),
            `${who} ${month} ${what}`,
          ).toEqual(lines);
          expect(units(got.subtotal)).toBe(subtotal);
          expect(units(got.tax)).toBe(tax);
          expect(units(got.total)).toBe(subtotal + tax);
        }
        // The drill-down: each event with its document number, only the seller's own.
        const page = (
          await ctx.api.usageRoutes.usageEvents({ query: { month, page_size: 100 }, token: w.token, lang: 'en' })
        ).json() as {
          count: number;
          results: TUsageEvent[];
        };
        const others = docsOf[who === 'a' ? 'b' : 'a'].map((d) => d.id);
        expect(page.results.some((e) => others.includes(e.source_id))).toBe(false);
        for (const e of inMonth)
          expect(page.results).toContainEqual(
            expect.objectContaining({
              kind: e.kind,
              source_id: e.doc.id,
              document_number: e.doc.number,
              quantity: e.quantity,
            }),
          );
        const picks = (
          await ctx.api.usageRoutes.usageEvents({ query: { month, kind: 'pick_order' }, token: w.token, lang: 'en' })
        ).json() as {
          results: TUsageEvent[];
        };
        expect(picks.results.every((e) => e.kind === 'pick_order' && e.source_type === 'outbound_order')).toBe(true);
      }
    }
    // Staff only for the CRM's view; a seller's role needs billing:read.
    expect(
      (await ctx.api.usageRoutes.crmUsage({ params: { id: b.customerId }, token: a.token, lang: 'en' })).statusCode,
    ).toBe(403);
    const bad = await ctx.api.usageRoutes.usage({ query: { month: '2026-13' }, token: a.token, lang: 'en' });
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'month' } });
  });
});
