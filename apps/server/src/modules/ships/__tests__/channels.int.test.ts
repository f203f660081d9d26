import type { TBatchDetail, TReleaseChannel } from '@wms/contracts';
import { invalidInput } from '@wms/contracts/client';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { areas, logistics_providers, order_cvs_stores, outbound_orders, storage_locations } from '../../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld, transition } from '../../outbound/__tests__/factories';
import { nextCutoffAt, type TShipRules } from '../ships.service';

/**
 * Saved release channels through HTTP on a real database: CRUD with field errors, search and pages, the audit trail;
 * "release next wave" on a channel by its saved rules (carriers, convenience-store chain, zone, ship-by, limits); on
 * PostgreSQL 20 staff releasing on one channel at once never share an order.
 */

const ON_POSTGRES = TEST_ENGINE === 'postgres';
let ctx: TTestContext;

beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  ctx.deps.database.pool?.on('connect', (client) => client.on('error', () => {}));
  ctx.deps.database.pool?.on('error', () => {});
});
afterAll(() => ctx?.close());

const HOUR = 3600_000;

async function exported(
  w: TWorld,
  productId: string,
  units: number,
  shipBy: Date,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const o = await createOrder(ctx, w.token, [{ product_id: productId, quantity: units }], extra);
  await ctx.deps.database.db.update(outbound_orders).set({ ship_by: shipBy }).where(eq(outbound_orders.id, o.id));
  const res = await transition(ctx, w.token, o.id, 'export');
  expect(res.statusCode, res.body).toBe(200);
  return o.id;
}

async function carrier(w: TWorld, code: string, name: string) {
  const [row] = await ctx.deps.database.db
    .insert(logistics_providers)
    .values({ customer_id: w.customerId, code, name })
    .returning();
  return row!;
}

const ids = (b: TBatchDetail) => b.orders.map((o) => o.id);

describe(`release channels: saved rules (${TEST_ENGINE})`, () => {
  it('creates, lists with search and pages, updates and deletes, with field errors and an audit trail', async () => {
    const w = await outboundWorld(ctx, { name: 'Channel CRUD seller' });
    const hct = await carrier(w, 'HCT', '新竹物流');
    const api = ctx.api.releaseChannelRoutes;
    const created = await api.createReleaseChannel({
      body: {
        warehouse_id: w.wh.id,
        name: 'TCAT + HCT morning',
        logistics_provider_ids: [hct.id, w.carrier.id],
        max_orders: 30,
        max_units: 120,
        cutoff_time: '11:30',
        priority: 'due',
        sequence: 5,
      },
      token: w.token,
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json() as TReleaseChannel;
    expect(c).toMatchObject({
      warehouse_code: w.wh.code,
      logistics_provider_ids: [hct.id, w.carrier.id],
      provider_names: ['新竹物流', '黑貓宅急便'],
      cvs_chain: null,
      area_id: null,
      priority: 'due',
      max_orders: 30,
      max_units: 120,
      sequence: 5,
      active: true,
      open_count: 0,
    });
    // Its own cut-off (11:30 Taipei) on the next working day it is still ahead.
    expect(c.next_cutoff_at).toMatch(/T03:30:00\.000Z$/);
    expect(Date.parse(c.next_cutoff_at)).toBeGreaterThan(Date.now());

    // Defaults: all carriers, any chain, all zones, every order, sequence 10, active.
    const plain = (
      await api.createReleaseChannel({ body: { warehouse_id: w.wh.id, name: 'All', max_orders: 10 }, token: w.token })
    ).json() as TReleaseChannel;
    expect(plain).toMatchObject({ logistics_provider_ids: [], priority: 'all', sequence: 10, max_units: null });

    // Field errors name the field.
    const dup = await api.createReleaseChannel({
      body: { warehouse_id: w.wh.id, name: 'All', max_orders: 10 },
      token: w.token,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'name' } });
    const other = await outboundWorld(ctx, { name: 'Channel stranger' });
    const foreignCarrier = await api.createReleaseChannel({
      body: {
        warehouse_id: w.wh.id,
        name: 'X',
        max_orders: 1,
        logistics_provider_ids: [w.carrier.id, other.carrier.id],
      },
      token: w.token,
    });
    expect(foreignCarrier.statusCode).toBe(400);
    expect(foreignCarrier.error()).toMatchObject({
      code: 'INVALID_FIELD',
      params: { field: 'logistics_provider_ids.1' },
    });
    expect(foreignCarrier.error().message).toBe('物流商格式不正確');
    const foreignWarehouse = await api.createReleaseChannel({
      body: { warehouse_id: other.wh.id, name: 'X', max_orders: 1 },
      token: w.token,
    });
    expect(foreignWarehouse.error().params!.field).toBe('warehouse_id');
    const [otherZone] = await ctx.deps.database.db
      .insert(areas)
      .values({ customer_id: other.customerId, warehouse_id: other.wh.id, code: 'OZ', name: 'Other zone' })
      .returning();
    const foreignZone = await api.createReleaseChannel({
      body: { warehouse_id: w.wh.id, name: 'X', max_orders: 1, area_id: otherZone!.id },
      token: w.token,
    });
    expect(foreignZone.error().params!.field).toBe('area_id');
    const tooMany = await api.createReleaseChannel({
      body: invalidInput({ warehouse_id: w.wh.id, name: 'X', max_orders: 0, cvs_chain: 'LAWSON' }),
      token: w.token,
    });
    expect(tooMany.statusCode).toBe(400);

    // List: by sequence, searched by name, paged.
    const list = await api.listReleaseChannels({ query: { warehouse_id: w.wh.id }, token: w.token });
    expect(list.json().results.map((x: TReleaseChannel) => x.name)).toEqual(['TCAT + HCT morning', 'All']);
    const found = await api.listReleaseChannels({ query: { search: 'morn' }, token: w.token });
    expect(found.json()).toMatchObject({ count: 1, results: [{ id: c.id }] });
    const page2 = await api.listReleaseChannels({
      query: { page: '2', page_size: '10', ordering: 'name' },
      token: w.token,
    });
    expect(page2.json()).toMatchObject({ count: 2, results: [] });
    // Another seller sees none of them, and cannot read, change, release or delete one.
    expect((await api.listReleaseChannels({ token: other.token })).json().count).toBe(0);
    expect((await api.getReleaseChannel({ params: { id: c.id }, token: other.token })).statusCode).toBe(404);
    expect(
      (await api.updateReleaseChannel({ params: { id: c.id }, body: { name: 'Mine' }, token: other.token })).statusCode,
    ).toBe(404);
    expect((await api.releaseChannelWave({ params: { id: c.id }, token: other.token })).statusCode).toBe(404);
    expect((await api.deleteReleaseChannel({ params: { id: c.id }, token: other.token })).statusCode).toBe(404);

    const updated = await api.updateReleaseChannel({
      params: { id: c.id },
      body: { name: 'HCT only', logistics_provider_ids: [hct.id], cvs_chain: 'FAMI', active: false },
      token: w.token,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'HCT only',
      logistics_provider_ids: [hct.id],
      cvs_chain: 'FAMI',
      active: false,
      max_orders: 30,
    });
    const clash = await api.updateReleaseChannel({ params: { id: c.id }, body: { name: 'All' }, token: w.token });
    expect(clash.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'name' } });
    expect(
      (await api.listReleaseChannels({ query: { active: 'false' }, token: w.token }))
        .json()
        .results.map((x: TReleaseChannel) => x.id),
    ).toEqual([c.id]);

    const gone = await api.deleteReleaseChannel({ params: { id: plain.id }, token: w.token });
    expect(gone.statusCode).toBe(200);
    expect((await api.getReleaseChannel({ params: { id: plain.id }, token: w.token })).statusCode).toBe(404);

    const audit = await queryRows<{ action: string; entity_id: string; after: { name?: string } | null }>(
      ctx.deps.database.db,
      sql`select action, entity_id, after from audit_logs where entity = 'release_channel'
          and entity_id in (${c.id}, ${plain.id}) order by id`,
    );
    expect(audit.map((a) => [a.action, a.entity_id])).toEqual([
      ['create', c.id],
      ['create', plain.id],
      ['update', c.id],
      ['delete', plain.id],
    ]);
    expect(audit[2]!.after!.name).toBe('HCT only');
  });

  it('releases the next wave by its rules: carriers, chain, zone, ship-by, limits; an inactive one refuses', async () => {
    const w = await outboundWorld(ctx, { name: 'Channel release seller' });
    const db = ctx.deps.database.db;
    const [zone] = await db
      .insert(areas)
      .values({ customer_id: w.customerId, warehouse_id: w.wh.id, code: 'Z1', name: 'Zone 1' })
      .returning();
    await db.update(storage_locations).set({ area_id: zone!.id }).where(eq(storage_locations.id, w.loc.C3.id));
    await w.put([
      { productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 100 },
      { productId: w.phone.id, locationId: w.loc.C3.id, expiryDate: null, quantity: 100 },
    ]);
    const hct = await carrier(w, 'HCT', '新竹物流');
    const post = await carrier(w, 'POST', '中華郵政');
    const ecpay = await carrier(w, 'ECPAY', '綠界超商');
    const now = Date.now();
    const tcatLate = await exported(w, w.plain.id, 2, new Date(now - 3 * HOUR), {
      logistics_provider_id: w.carrier.id,
    });
    const hctSoon = await exported(w, w.plain.id, 1, new Date(now + HOUR), { logistics_provider_id: hct.id });
    const tcatWeek = await exported(w, w.plain.id, 1, new Date(now + 7 * 24 * HOUR), {
      logistics_provider_id: w.carrier.id,
    });
    const postSoon = await exported(w, w.plain.id, 1, new Date(now + HOUR), { logistics_provider_id: post.id });
    const hctZoned = await exported(w, w.phone.id, 1, new Date(now + 2 * HOUR), { logistics_provider_id: hct.id });
    const fami = await exported(w, w.plain.id, 1, new Date(now + 2 * HOUR), { logistics_provider_id: ecpay.id });
    const seven = await exported(w, w.plain.id, 1, new Date(now + HOUR), { logistics_provider_id: ecpay.id });
    await db.insert(order_cvs_stores).values([
      { order_id: fami, customer_id: w.customerId, subtype: 'FAMIC2C', store_id: '006598' },
      { order_id: seven, customer_id: w.customerId, subtype: 'UNIMART', store_id: '131386' },
    ]);
    const api = ctx.api.releaseChannelRoutes;
    const make = async (body: Record<string, unknown>) => {
      const res = await api.createReleaseChannel({
        body: { warehouse_id: w.wh.id, max_orders: 10, ...body } as never,
        token: w.token,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as TReleaseChannel;
    };
    const release = (id: string) => api.releaseChannelWave({ params: { id }, token: w.token });

    // The FamilyMart channel: only the order for a FamilyMart store (C2C counts as the chain).
    const famiChannel = await make({ name: 'FamilyMart', cvs_chain: 'FAMI', logistics_provider_ids: [ecpay.id] });
    expect(famiChannel.open_count).toBe(1);
    const b0 = await release(famiChannel.id);
    expect(b0.statusCode, b0.body).toBe(201);
    expect(ids(b0.json())).toEqual([fami]);

    // Zone Z1 with TCAT and HCT: only the zoned HCT order.
    const zoned = await make({ name: 'Zone 1', area_id: zone!.id, logistics_provider_ids: [w.carrier.id, hct.id] });
    expect(zoned).toMatchObject({ open_count: 1, area_code: 'Z1' });
    expect(ids((await release(zoned.id)).json())).toEqual([hctZoned]);

    // TCAT and HCT, due by the end of today, at most 1 order a wave: the late one first, then HCT; never the week's.
    const due = await make({
      name: 'Due',
      logistics_provider_ids: [w.carrier.id, hct.id],
      priority: 'due',
      max_orders: 1,
    });
    expect(due.open_count).toBe(2);
    const b1 = (await release(due.id)).json() as TBatchDetail;
    expect(ids(b1)).toEqual([tcatLate]);
    expect(b1.remark).toBe('Due');
    expect(ids((await release(due.id)).json())).toEqual([hctSoon]);
    const empty = await release(due.id);
    expect(empty.statusCode).toBe(409);
    expect(empty.error().code).toBe('WAVE_EMPTY');

    // Late only: nothing of what is left is late.
    const late = await make({ name: 'Late', priority: 'late' });
    expect(late.open_count).toBe(0);
    expect((await release(late.id)).error().code).toBe('WAVE_EMPTY');

    // Inactive: refused, its orders stay.
    const all = await make({ name: 'Everything', max_units: 2, active: false });
    expect(all.open_count).toBe(3);
    const refused = await release(all.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.error().code).toBe('CHANNEL_INACTIVE');
    expect(
      (await api.updateReleaseChannel({ params: { id: all.id }, body: { active: true }, token: w.token })).statusCode,
    ).toBe(200);
    // Max 2 units: the two soonest of one unit (POST and the 7-ELEVEN one), not the week's TCAT.
    const b2 = (await release(all.id)).json() as TBatchDetail;
    expect(new Set(ids(b2))).toEqual(new Set([postSoon, seven]));
    expect(b2.unit_count).toBe(2);
    expect(ids((await release(all.id)).json())).toEqual([tcatWeek]);
  });

  it('counts down to the next cut-off: its own time, else its carriers’ earliest, on working days only', () => {
    const rules: TShipRules = {
      sla: { kind: 'same_day', before_time: null },
      cutoffs: new Map([
        ['W|TCAT|', { cutoff_time: '12:30', pickup_time: '16:00' }],
        ['W|ECPAY|', { cutoff_time: '14:00', pickup_time: '17:00' }],
        ['W|ECPAY|UNIMART', { cutoff_time: '10:00', pickup_time: '11:00' }],
      ]),
      holidays: new Map([['W', new Set(['2026-12-07'])]]),
      weekdays: new Map(),
    };
    const tpe = (s: string) => new Date(`${s}:00+08:00`);
    const at = (providers: string[], chain: string | null, time: string | null, now: string) =>
      nextCutoffAt(rules, 'W', providers, chain, time, tpe(now)).toISOString();
    // Tuesday morning: today's earliest of its carriers.
    expect(at(['TCAT', 'ECPAY'], null, null, '2026-12-01T09:00')).toBe(tpe('2026-12-01T12:30').toISOString());
    expect(at(['ECPAY'], 'UNIMART', null, '2026-12-01T09:00')).toBe(tpe('2026-12-01T10:00').toISOString());
    expect(at(['ECPAY'], 'FAMI', null, '2026-12-01T09:00')).toBe(tpe('2026-12-01T14:00').toISOString());
    // Every carrier there when it names none; the default 12:00 for a carrier without one.
    expect(at([], null, null, '2026-12-01T09:00')).toBe(tpe('2026-12-01T12:30').toISOString());
    expect(at(['POST'], null, null, '2026-12-01T09:00')).toBe(tpe('2026-12-01T12:00').toISOString());
    // Friday after it: past the weekend and the holiday Monday, to Tuesday.
    expect(at([], null, '15:00', '2026-12-04T15:00')).toBe(tpe('2026-12-08T15:00').toISOString());
  });
});

describe.runIf(ON_POSTGRES)('20 releases on one channel at once (PostgreSQL)', () => {
  it('never puts one order in two batches, and together take every order of the channel once', async () => {
    const w = await outboundWorld(ctx, { name: 'Channel race seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 500 }]);
    const hct = await carrier(w, 'HCT', '新竹物流');
    const now = Date.now();
    const eligible: string[] = [];
    const outside: string[] = [];
    for (let i = 0; i < 60; i++)
      eligible.push(
        await exported(w, w.plain.id, 1, new Date(now + i * 60_000), {
          logistics_provider_id: i % 2 ? w.carrier.id : hct.id,
        }),
      );
    // Orders of a carrier the channel does not take.
    const post = await carrier(w, 'POST', '中華郵政');
    for (let i = 0; i < 5; i++)
      outside.push(await exported(w, w.plain.id, 1, new Date(now - HOUR), { logistics_provider_id: post.id }));
    const channel = (
      await ctx.api.releaseChannelRoutes.createReleaseChannel({
        body: { warehouse_id: w.wh.id, name: 'Race', max_orders: 4, logistics_provider_ids: [w.carrier.id, hct.id] },
        token: w.token,
      })
    ).json() as TReleaseChannel;
    expect(channel.open_count).toBe(60);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.api.releaseChannelRoutes.releaseChannelWave({ params: { id: channel.id }, token: w.token }),
      ),
    );
    const batches = results.filter((r) => r.statusCode === 201).map((r) => r.json() as TBatchDetail);
    for (const r of results) if (r.statusCode !== 201) expect(r.error().code, r.body).toBe('WAVE_EMPTY');
    for (const b of batches) expect(b.orders.length).toBeLessThanOrEqual(4);
    const taken = batches.flatMap(ids);
    expect(new Set(taken).size).toBe(taken.length);
    // 20 waves of 4: the 60 are taken only if none waited for another; each order at most once, none outside.
    for (const id of taken) expect(eligible).toContain(id);
    const rows = await ctx.deps.database.db
      .select({ id: outbound_orders.id, batch_id: outbound_orders.batch_id })
      .from(outbound_orders)
      .where(inArray(outbound_orders.id, [...eligible, ...outside]));
    const batchOf = new Map(batches.flatMap((b) => b.orders.map((o) => [o.id, b.id] as const)));
    for (const r of rows) expect(r.batch_id ?? null).toBe(batchOf.get(r.id) ?? null);
    // What the 20 left is released by the next ones; every order of the channel ends in exactly one batch.
    for (let i = 0; i < 20; i++) {
      const more = await ctx.api.releaseChannelRoutes.releaseChannelWave({
        params: { id: channel.id },
        token: w.token,
      });
      if (more.statusCode !== 201) break;
      taken.push(...ids(more.json()));
    }
    expect(new Set(taken)).toEqual(new Set(eligible));
    expect(taken).toHaveLength(60);
  }, 120_000);
});
