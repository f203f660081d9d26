import type { TBatchDetail } from '@wms/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, logistics_providers, outbound_orders, storage_locations } from '../../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld, transition } from '../../outbound/__tests__/factories';

/**
 * "Release next wave" through HTTP on a real database: one collection batch sized for one picker, earliest ship-by
 * first, never past its limits; on PostgreSQL 20 releases at once never share an order and together take them all.
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

/** An exported order of `units` of a product, with its ship-by set to `shipBy` (the board and waves only read it). */
async function exported(
  w: TWorld,
  productId: string,
  units: number,
  shipBy: Date,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; number: string; units: number }> {
  const o = await createOrder(ctx, w.token, [{ product_id: productId, quantity: units }], extra);
  const db = ctx.deps.database.db;
  await db.update(outbound_orders).set({ ship_by: shipBy }).where(eq(outbound_orders.id, o.id));
  const res = await transition(ctx, w.token, o.id, 'export');
  expect(res.statusCode, res.body).toBe(200);
  return { id: o.id, number: o.number, units };
}

describe(`release next wave (${TEST_ENGINE})`, () => {
  it('takes the earliest ship-by first (late ones lead) and never passes the order and unit limits', async () => {
    const w = await outboundWorld(ctx, { name: 'Wave seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 200 }]);
    const now = Date.now();
    // Created in a shuffled order; ship-by decides. units: how many the picker carries.
    const late = await exported(w, w.plain.id, 2, new Date(now - 5 * HOUR));
    const in3h = await exported(w, w.plain.id, 1, new Date(now + 3 * HOUR));
    const big = await exported(w, w.plain.id, 6, new Date(now + 1 * HOUR));
    const in2h = await exported(w, w.plain.id, 2, new Date(now + 2 * HOUR));
    const lateOlder = await exported(w, w.plain.id, 1, new Date(now - 26 * HOUR));
    const tomorrow = await exported(w, w.plain.id, 1, new Date(now + 30 * HOUR));
    const pending = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);

    // Orders limit only: the three earliest ship-by.
    const first = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 3 } },
      token: w.token,
    });
    expect(first.statusCode, first.body).toBe(201);
    const b1 = first.json() as TBatchDetail;
    expect(b1.number).toMatch(/^CB\d{12}$/);
    expect(b1.warehouse_id).toBe(w.wh.id);
    expect(new Set(b1.orders.map((o) => o.id))).toEqual(new Set([lateOlder.id, late.id, big.id]));
    expect(b1.order_count).toBe(3);
    expect(b1.unit_count).toBe(9);

    // Units limit: 4 units → in2h (2) and in3h (1) fit, tomorrow (1) makes 4.
    const second = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 10, max_units: 4 } },
      token: w.token,
    });
    expect(second.statusCode, second.body).toBe(201);
    const b2 = second.json() as TBatchDetail;
    expect(new Set(b2.orders.map((o) => o.id))).toEqual(new Set([in2h.id, in3h.id, tomorrow.id]));
    expect(b2.unit_count).toBeLessThanOrEqual(4);

    // Nothing exported and unbatched is left (the pending one is not exported).
    const third = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, max_orders: 10 },
      token: w.token,
    });
    expect(third.statusCode).toBe(409);
    expect(third.error().code).toBe('WAVE_EMPTY');
    expect(b1.orders.concat(b2.orders).map((o) => o.id)).not.toContain(pending.id);

    // The batch is the /deliver-opser kind: listed there, and its pick list is printable.
    const list = (await ctx.api.outboundRoutes.listBatches({ token: w.token })).json();
    expect(list.results.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining([b1.id, b2.id]));
    const pick = await ctx.api.outboundRoutes.batchPickList({ params: { id: b1.id }, token: w.token });
    expect(pick.json().total_units).toBe(9);
  });

  it('skips an order that alone passes the unit limit and takes a smaller one behind it', async () => {
    const w = await outboundWorld(ctx, { name: 'Wave units seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 100 }]);
    const now = Date.now();
    const huge = await exported(w, w.plain.id, 9, new Date(now + HOUR));
    const small = await exported(w, w.plain.id, 3, new Date(now + 2 * HOUR));
    const res = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 5, max_units: 5 } },
      token: w.token,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as TBatchDetail).orders.map((o) => o.id)).toEqual([small.id]);
    // The huge one alone is over the limit: nothing to release.
    const again = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 5, max_units: 5 } },
      token: w.token,
    });
    expect(again.error().code).toBe('WAVE_EMPTY');
    expect(
      (
        await ctx.api.shipWaveRoutes.releaseWave({
          body: { warehouse_id: w.wh.id, ...{ max_orders: 5, max_units: 9 } },
          token: w.token,
        })
      )
        .json()
        .orders.map((o: { id: string }) => o.id),
    ).toEqual([huge.id]);
  });

  it('keeps to one carrier and to one area when asked', async () => {
    const w = await outboundWorld(ctx, { name: 'Wave scope seller' });
    const db = ctx.deps.database.db;
    const [zone] = await db
      .insert(areas)
      .values({ customer_id: w.customerId, warehouse_id: w.wh.id, code: 'Z1', name: 'Zone 1' })
      .returning();
    await db.update(storage_locations).set({ area_id: zone!.id }).where(eq(storage_locations.id, w.loc.C3.id));
    await w.put([
      { productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 50 },
      { productId: w.phone.id, locationId: w.loc.C3.id, expiryDate: null, quantity: 50 },
    ]);
    const [hct] = await db
      .insert(logistics_providers)
      .values({ customer_id: w.customerId, code: 'HCT', name: '新竹物流' })
      .returning();
    const now = Date.now();
    const tcatPlain = await exported(w, w.plain.id, 1, new Date(now + HOUR), { logistics_provider_id: w.carrier.id });
    const hctPlain = await exported(w, w.plain.id, 1, new Date(now - HOUR), { logistics_provider_id: hct!.id });
    const tcatZoned = await exported(w, w.phone.id, 1, new Date(now + 2 * HOUR), {
      logistics_provider_id: w.carrier.id,
    });

    const inZone = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 10, area_id: zone!.id } },
      token: w.token,
    });
    expect(inZone.statusCode, inZone.body).toBe(201);
    expect((inZone.json() as TBatchDetail).orders.map((o) => o.id)).toEqual([tcatZoned.id]);
    const tcat = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 10, logistics_provider_id: w.carrier.id } },
      token: w.token,
    });
    expect((tcat.json() as TBatchDetail).orders.map((o) => o.id)).toEqual([tcatPlain.id]);
    const rest = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, max_orders: 10 },
      token: w.token,
    });
    expect((rest.json() as TBatchDetail).orders.map((o) => o.id)).toEqual([hctPlain.id]);

    // Another seller's warehouse, carrier or area: refused by field.
    const other = await outboundWorld(ctx, { name: 'Wave stranger' });
    const foreign = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: other.wh.id, max_orders: 1 },
      token: w.token,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.error().params!.field).toBe('warehouse_id');
    const foreignCarrier = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 1, logistics_provider_id: other.carrier.id } },
      token: w.token,
    });
    expect(foreignCarrier.error().params!.field).toBe('logistics_provider_id');
    // Their orders are not touched by this seller's waves.
    const mine = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, max_orders: 5 },
      token: other.token,
    });
    expect(mine.statusCode).toBe(400);
  });
});

describe.runIf(ON_POSTGRES)('20 waves released at once (PostgreSQL)', () => {
  it('never puts one order in two batches, and together take every eligible order once', async () => {
    const w = await outboundWorld(ctx, { name: 'Wave race seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 500 }]);
    const now = Date.now();
    const eligible: string[] = [];
    for (let i = 0; i < 60; i++) eligible.push((await exported(w, w.plain.id, 1, new Date(now + i * 60_000))).id);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.api.shipWaveRoutes.releaseWave({ body: { warehouse_id: w.wh.id, ...{ max_orders: 4 } }, token: w.token }),
      ),
    );
    const batches = results.filter((r) => r.statusCode === 201).map((r) => r.json() as TBatchDetail);
    for (const r of results) if (r.statusCode !== 201) expect(r.error().code, r.body).toBe('WAVE_EMPTY');
    for (const b of batches) expect(b.orders.length).toBeLessThanOrEqual(4);
    const taken = batches.flatMap((b) => b.orders.map((o) => o.id));
    expect(new Set(taken).size).toBe(taken.length); // no order in two batches
    expect(new Set(taken)).toEqual(new Set(eligible)); // every eligible order, once
    // The database agrees: every order carries the batch that listed it.
    const rows = await ctx.deps.database.db
      .select({ id: outbound_orders.id, batch_id: outbound_orders.batch_id })
      .from(outbound_orders)
      .where(inArray(outbound_orders.id, eligible));
    const batchOf = new Map(batches.flatMap((b) => b.orders.map((o) => [o.id, b.id] as const)));
    for (const r of rows) expect(r.batch_id).toBe(batchOf.get(r.id));
  }, 120_000);
});

describe(`pick paths: the pick list walks the locations in order (${TEST_ENGINE})`, () => {
  it('follows the derived walk (serpentine by shelf) and a sequence set by hand on /subzone', async () => {
    const w = await outboundWorld(ctx, { name: 'Walk seller' });
    const area = (
      await ctx.api.warehouseRoutes.createArea({
        body: { warehouse_id: w.wh.id, code: 'A', name: 'Zone A' },
        token: w.token,
      })
    ).json();
    for (const code of ['S1', 'S2']) {
      const shelf = await ctx.api.warehouseRoutes.createShelf({
        body: {
          warehouse_id: w.wh.id,
          area_id: area.id,
          code,
          name: code,
          layers: 1,
        },
        token: w.token,
      });
      expect(shelf.statusCode, shelf.body).toBe(201);
      const gen = await ctx.api.warehouseRoutes.generateShelfLocations({
        params: { id: shelf.json().id },
        body: { positions_per_layer: 3 },
        token: w.token,
      });
      expect(gen.statusCode, gen.body).toBe(200);
    }
    const listed = async () =>
      (
        await ctx.api.warehouseRoutes.listStorageLocations({
          query: { warehouse_id: w.wh.id, page_size: '100', ordering: 'pick_sequence' },
          token: w.token,
        })
      ).json().results as Array<{ id: string; code: string; pick_sequence: number; pick_sequence_manual: boolean }>;
    const byCode = new Map((await listed()).map((l) => [l.code, l]));
    // Derived: shelf S1 forwards, S2 (the area's second shelf) backwards.
    expect(
      ['S1-01-01', 'S1-01-02', 'S1-01-03', 'S2-01-03', 'S2-01-02', 'S2-01-01'].map((c) => byCode.get(c)!.pick_sequence),
    ).toEqual([10, 20, 30, 40, 50, 60]);

    // By hand on /subzone: S2-01-01 right after S1-01-01.
    const handSet = byCode.get('S2-01-01')!;
    const patch = await ctx.api.warehouseRoutes.updateStorageLocation({
      params: { id: handSet.id },
      body: { pick_sequence: 15 },
      token: w.token,
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json()).toMatchObject({ pick_sequence: 15, pick_sequence_manual: true });

    // One unit in each of the six locations, put in shuffled; one order of six takes them all.
    const codes = ['S2-01-02', 'S1-01-03', 'S2-01-01', 'S1-01-01', 'S2-01-03', 'S1-01-02'];
    await w.put(
      codes.map((c) => ({
        productId: w.fresh.id,
        locationId: byCode.get(c)!.id,
        expiryDate: '2099-12-31',
        quantity: 1,
      })),
    );
    await exported(w, w.fresh.id, 6, new Date());
    const wave = await ctx.api.shipWaveRoutes.releaseWave({
      body: { warehouse_id: w.wh.id, ...{ max_orders: 5 } },
      token: w.token,
    });
    expect(wave.statusCode, wave.body).toBe(201);
    const pickList = async () =>
      (await ctx.api.outboundRoutes.batchPickList({ params: { id: wave.json().id }, token: w.token }))
        .json()
        .pick_rows.map((r) => r.location_code);
    expect(await pickList()).toEqual(['S1-01-01', 'S2-01-01', 'S1-01-02', 'S1-01-03', 'S2-01-03', 'S2-01-02']);

    // Given back to the derived walk (null): it is the last of shelf S2 again.
    const back = await ctx.api.warehouseRoutes.updateStorageLocation({
      params: { id: handSet.id },
      body: { pick_sequence: null },
      token: w.token,
    });
    expect(back.json()).toMatchObject({ pick_sequence: 60, pick_sequence_manual: false });
    expect(await pickList()).toEqual(['S1-01-01', 'S1-01-02', 'S1-01-03', 'S2-01-03', 'S2-01-02', 'S2-01-01']);

    // A hand-set number or a new name moves no other location; a new code re-derives the walk (renumbered then).
    const s1first = byCode.get('S1-01-01')!;
    const renamed = await ctx.api.warehouseRoutes.updateStorageLocation({
      params: { id: s1first.id },
      body: { name: 'first cell' },
      token: w.token,
    });
    expect(renamed.json()).toMatchObject({ pick_sequence: 10, pick_sequence_manual: false });
    const recoded = await ctx.api.warehouseRoutes.updateStorageLocation({
      params: { id: s1first.id },
      body: { code: 'S1-01-09' },
      token: w.token,
    });
    expect(recoded.statusCode, recoded.body).toBe(200);
    expect(recoded.json()).toMatchObject({ pick_sequence: 30, pick_sequence_manual: false });
    expect(await pickList()).toEqual(['S1-01-02', 'S1-01-03', 'S1-01-09', 'S2-01-03', 'S2-01-02', 'S2-01-01']);
  });
});
