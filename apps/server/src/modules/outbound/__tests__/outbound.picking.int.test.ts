import { randomUUID } from 'node:crypto';
import type { TBatchDetail, TOrder, TOrderDetail, TPickView } from '@wms/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pick_scans, stock_balances, stock_movements } from '../../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld, transition } from './factories';

/**
 * The handheld pick walk of a batch through HTTP on a real database: piles in walking order, wrong location / product /
 * too many refused, a resent scan counted once (also 12 identical scans at once), a short pick marking the order
 * abnormal, cluster pick into totes and the packing station's tote scan; picking moves no stock (shipping does).
 */

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  ctx.deps.database.pool?.on('connect', (client) => client.on('error', () => {}));
  ctx.deps.database.pool?.on('error', () => {});
});
afterAll(() => ctx?.close());

async function exported(w: TWorld, lines: Array<{ product_id: string; quantity: number }>): Promise<TOrderDetail> {
  const o = await createOrder(ctx, w.token, lines);
  const res = await transition(ctx, w.token, o.id, 'export');
  expect(res.statusCode, res.body).toBe(200);
  return o;
}

async function batchOf(w: TWorld, ids: string[]): Promise<TBatchDetail> {
  const res = await ctx.api.outboundRoutes.createBatch({ body: { order_ids: ids }, token: w.token });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TBatchDetail;
}

function scan(
  w: TWorld,
  batchId: string,
  body: { location_code: string; barcode: string; quantity?: number },
  extra: { scan_id?: string; order_id?: string } = {},
) {
  return ctx.api.outboundRoutes.pickScan({
    params: { id: batchId },
    body: {
      scan_id: extra.scan_id ?? randomUUID(),
      quantity: 1,
      ...body,
      ...(extra.order_id ? { order_id: extra.order_id } : {}),
    },
    token: w.token,
    lang: 'en',
  });
}

async function view(w: TWorld, batchId: string): Promise<TPickView> {
  const res = await ctx.api.outboundRoutes.pickView({ params: { id: batchId }, token: w.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TPickView;
}

async function balances(w: TWorld) {
  const db = ctx.deps.database.db;
  const rows = await db.select().from(stock_balances).where(eq(stock_balances.customer_id, w.customerId));
  const moves = await db.select().from(stock_movements).where(eq(stock_movements.customer_id, w.customerId));
  return {
    onHand: rows.reduce((s, r) => s + r.on_hand, 0),
    reserved: rows.reduce((s, r) => s + r.reserved, 0),
    moves: moves.length,
  };
}

describe(`handheld pick walk (${TEST_ENGINE})`, () => {
  it('walks the piles in walking order, refuses wrong scans, counts a resent scan once, reports a short pick', async () => {
    const w = await outboundWorld(ctx, { name: 'Pick seller' });
    const other = await w.f.product({
      number: `Q-${randomUUID().slice(0, 6)}`,
      barcode: `QB${randomUUID().slice(0, 6)}`,
    });
    await w.put([
      { productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 50 },
      { productId: other.id, locationId: w.loc.A.id, expiryDate: null, quantity: 50 },
    ]);
    const o1 = await exported(w, [
      { product_id: w.plain.id, quantity: 2 },
      { product_id: other.id, quantity: 1 },
    ]);
    const o2 = await exported(w, [{ product_id: w.plain.id, quantity: 1 }]);
    const batch = await batchOf(w, [o1.id, o2.id]);
    const before = await balances(w);

    let v = await view(w, batch.id);
    expect(v.cluster).toBe(false);
    expect(v.total_units).toBe(4);
    expect(v.picked_units).toBe(0);
    expect(v.complete).toBe(false);
    // B-02 (sequence 1) before A-01 (sequence 2).
    expect(v.lines.map((l) => [l.location_code, l.product_number, l.order_number, l.quantity])).toEqual([
      ['B-02', w.plain.number, o1.number, 2],
      ['B-02', w.plain.number, o2.number, 1],
      ['A-01', other.number, o1.number, 1],
    ]);

    // Nothing to pick at C-03: refused, naming the next location; nothing recorded, the batch not started.
    const wrongLoc = await scan(w, batch.id, { location_code: 'C-03', barcode: w.plain.barcode! });
    expect(wrongLoc.statusCode).toBe(409);
    expect(wrongLoc.error()).toMatchObject({ code: 'PICK_WRONG_LOCATION', params: { expected: 'B-02' } });
    expect(wrongLoc.error().message).toContain('B-02');
    // The other product is not picked at B-02.
    const wrongProduct = await scan(w, batch.id, { location_code: 'B-02', barcode: other.barcode! });
    expect(wrongProduct.statusCode).toBe(409);
    expect(wrongProduct.error()).toMatchObject({ code: 'PICK_WRONG_PRODUCT' });
    expect((await view(w, batch.id)).batch.picking_started_at).toBeNull();

    // Four units where three are left: refused.
    const tooMany = await scan(w, batch.id, { location_code: 'b-02', barcode: w.plain.barcode!, quantity: 4 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.error()).toMatchObject({ code: 'PICK_OVER_QUANTITY', params: { remaining: 3 } });

    // One unit scanned (by product number), then a quantity of two: the orders get them in turn.
    const first = await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.number });
    expect(first.statusCode, first.body).toBe(200);
    const id = randomUUID();
    const two = await scan(
      w,
      batch.id,
      { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 2 },
      { scan_id: id },
    );
    expect(two.statusCode, two.body).toBe(200);
    v = two.json() as TPickView;
    expect(v.picked_units).toBe(3);
    expect(v.lines.map((l) => l.picked)).toEqual([2, 1, 0]);
    // The first scan started the walk: the batch's orders are online (as "start picking" does).
    expect(v.batch.picking_started_at).not.toBeNull();
    expect(v.batch.online_count).toBe(2);
    // The same scan sent again (a flaky handheld): answered, not counted again.
    const again = await scan(
      w,
      batch.id,
      { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 2 },
      { scan_id: id },
    );
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as TPickView).picked_units).toBe(3);
    // B-02 is done: a further unit there is a wrong location now, naming A-01.
    const done = await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode! });
    expect(done.error()).toMatchObject({ code: 'PICK_WRONG_LOCATION', params: { expected: 'A-01' } });

    // A-01 is empty on the shelf: a short pick.
    const short = await ctx.api.outboundRoutes.pickShort({
      params: { id: batch.id },
      body: { scan_id: randomUUID(), location_id: w.loc.A.id, product_id: other.id },
      token: w.token,
    });
    expect(short.statusCode, short.body).toBe(200);
    v = short.json() as TPickView;
    expect(v.short_units).toBe(1);
    expect(v.picked_units).toBe(3);
    expect(v.complete).toBe(true);
    const order1 = (await ctx.api.outboundRoutes.getOrder({ params: { id: o1.id }, token: w.token })).json() as TOrder;
    expect(order1.abnormal).toMatchObject({
      code: 'PICK_SHORTAGE',
      params: { location: 'A-01', product_number: other.number, quantity: 1 },
    });
    const order2 = (await ctx.api.outboundRoutes.getOrder({ params: { id: o2.id }, token: w.token })).json() as TOrder;
    expect(order2.abnormal).toBeNull();

    // Picking moved no stock: on hand, reserved and the ledger are as before.
    expect(await balances(w)).toEqual(before);

    // Another seller sees nothing of it and cannot scan into it.
    const stranger = await ctx.newCustomer({ name: 'Stranger' });
    expect(
      (await ctx.api.outboundRoutes.pickView({ params: { id: batch.id }, token: stranger.token })).statusCode,
    ).toBe(404);
    const foreign = await ctx.api.outboundRoutes.pickScan({
      params: { id: batch.id },
      body: { scan_id: randomUUID(), location_code: 'A-01', barcode: other.barcode!, quantity: 1 },
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('cluster pick: totes per order, units go to the tote named, the packing station opens the order by its tote', async () => {
    const w = await outboundWorld(ctx, { name: 'Cluster seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 20 }]);
    const o3 = await exported(w, [{ product_id: w.plain.id, quantity: 1 }]);
    const o4 = await exported(w, [{ product_id: w.plain.id, quantity: 2 }]);
    const batch = await batchOf(w, [o3.id, o4.id]);
    const tote = (order_id: string, tote_code: string) =>
      ctx.api.outboundRoutes.pickTote({
        params: { id: batch.id },
        body: { order_id, tote_code },
        token: w.token,
        lang: 'en',
      });
    const tag = randomUUID().slice(0, 6);

    // Totes put on the cart: o4 first (slot 1), then o3 (slot 2).
    expect((await tote(o4.id, `T1-${tag}`)).statusCode).toBe(200);
    const partly = await view(w, batch.id);
    expect(partly.cluster).toBe(true);
    // o3 has no tote yet: its units cannot be picked.
    const noTote = await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode! }, { order_id: o3.id });
    expect(noTote.error()).toMatchObject({ code: 'PICK_NO_TOTE' });
    const taken = await tote(o3.id, `T1-${tag}`);
    expect(taken.statusCode).toBe(409);
    expect(taken.error()).toMatchObject({ code: 'PICK_TOTE_IN_USE', params: { order_number: o4.number } });
    const ok = await tote(o3.id, `T2-${tag}`);
    expect(ok.statusCode, ok.body).toBe(200);
    let v = ok.json() as TPickView;
    expect(v.totes.map((t) => [t.order_number, t.slot, t.tote_code])).toEqual([
      [o4.number, 1, `T1-${tag}`],
      [o3.number, 2, `T2-${tag}`],
    ]);
    expect(v.lines.map((l) => [l.order_number, l.tote_slot])).toEqual([
      [o4.number, 1],
      [o3.number, 2],
    ]);

    // One unit without naming a tote: the first tote in walking order (slot 1); more than a tote needs: refused.
    const a = await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode! });
    expect(a.statusCode, a.body).toBe(200);
    expect((a.json() as TPickView).lines.map((l) => l.picked)).toEqual([1, 0]);
    const over = await scan(
      w,
      batch.id,
      { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 2 },
      { order_id: o3.id },
    );
    expect(over.error()).toMatchObject({ code: 'PICK_OVER_QUANTITY', params: { remaining: 1 } });
    expect(
      (await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode! }, { order_id: o3.id })).statusCode,
    ).toBe(200);
    v = (await scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode! })).json() as TPickView;
    expect(v.complete).toBe(true);
    expect(v.lines.map((l) => l.picked)).toEqual([2, 1]);

    // Put-to-tote at the packing station: scanning the tote opens its order; pack and ship it.
    const found = await ctx.api.outboundRoutes.lookupOrder({ query: { code: `T2-${tag}` }, token: w.token });
    expect(found.statusCode, found.body).toBe(200);
    expect((found.json() as TOrder).id).toBe(o3.id);
    const before = await balances(w);
    expect(
      (
        await ctx.api.outboundRoutes.packScan({
          params: { id: o3.id },
          body: { barcode: w.plain.barcode! },
          token: w.token,
        })
      ).statusCode,
    ).toBe(200);
    await ctx.api.outboundRoutes.setConsignment({
      params: { id: o3.id },
      body: { consignment_number: `CN${tag}`, piece_count: 1 },
      token: w.token,
    });
    const shipped = await ctx.api.outboundRoutes.shipOrder({ params: { id: o3.id }, body: {}, token: w.token });
    expect(shipped.statusCode, shipped.body).toBe(200);
    // The stock left at shipping, as before: one unit off hand and off reserved.
    const after = await balances(w);
    expect(after.onHand).toBe(before.onHand - 1);
    expect(after.reserved).toBe(before.reserved - 1);
    // The tote is free again: its scan no longer opens the shipped order, and another order may take it.
    expect(
      (await ctx.api.outboundRoutes.lookupOrder({ query: { code: `T2-${tag}` }, token: w.token })).statusCode,
    ).toBe(404);
    const o5 = await exported(w, [{ product_id: w.plain.id, quantity: 1 }]);
    const b2 = await batchOf(w, [o5.id]);
    const reuse = await ctx.api.outboundRoutes.pickTote({
      params: { id: b2.id },
      body: { order_id: o5.id, tote_code: `T2-${tag}` },
      token: w.token,
    });
    expect(reuse.statusCode, reuse.body).toBe(200);
    // An order of another batch is refused.
    const foreign = await ctx.api.outboundRoutes.pickTote({
      params: { id: b2.id },
      body: { order_id: o4.id, tote_code: `T9-${tag}` },
      token: w.token,
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('the same scan submitted 12 times at once is counted once; distinct scans at once all count', async () => {
    const w = await outboundWorld(ctx, { name: 'Flaky handheld seller' });
    await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 100 }]);
    const o = await exported(w, [{ product_id: w.plain.id, quantity: 30 }]);
    const batch = await batchOf(w, [o.id]);
    const id = randomUUID();
    const same = await Promise.all(
      Array.from({ length: 12 }, () =>
        scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 3 }, { scan_id: id }),
      ),
    );
    expect(same.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const rows = await ctx.deps.database.db
      .select()
      .from(pick_scans)
      .where(and(eq(pick_scans.customer_id, w.customerId), eq(pick_scans.scan_id, id)));
    expect(rows.map((r) => r.quantity)).toEqual([3]);
    expect((await view(w, batch.id)).picked_units).toBe(3);

    const distinct = await Promise.all(
      Array.from({ length: 12 }, () =>
        scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 2 }),
      ),
    );
    expect(distinct.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const v = await view(w, batch.id);
    expect(v.picked_units).toBe(27);
    // Only 3 left: 2 more scans of 2 — one fits, one is refused.
    const last = await Promise.all(
      Array.from({ length: 2 }, () =>
        scan(w, batch.id, { location_code: 'B-02', barcode: w.plain.barcode!, quantity: 2 }),
      ),
    );
    expect(last.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await view(w, batch.id)).picked_units).toBe(29);
  });
});
