import type { TOrderDetail } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { checkStockInvariants } from '../../stock/stock.invariants';
import { createOrder, outboundWorld, type TWorld, transition } from './factories';

/**
 * 66 exports at once racing for scarce stock on real PostgreSQL (PGlite is one connection: skipped there). Every
 * order ends fully reserved or pending with INVENTORY_SHORTAGE (a shortage only when the stock really is not there),
 * nothing is oversold, and the ledger still equals the balances; then shipments and cancellations race too.
 * Run: node scripts/with-pg.mjs npx vitest run --project server apps/server/src/modules/outbound
 */
const ON_POSTGRES = TEST_ENGINE === 'postgres';
if (!ON_POSTGRES) console.info('outbound concurrency suite skipped: it runs on PostgreSQL (npm test does).');

let ctx: TTestContext;
let w: TWorld;
const STOCK = { plain: 40, phone: 10 };

beforeAll(async () => {
  if (!ON_POSTGRES) return;
  ctx = await createTestContext();
  // pg-pool's end() can race the harness's DROP DATABASE WITH (FORCE) when many clients were open.
  ctx.deps.database.pool?.on('connect', (client) => client.on('error', () => {}));
  ctx.deps.database.pool?.on('error', () => {});
  w = await outboundWorld(ctx);
  await w.put([
    { productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 15 },
    { productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 15 },
    { productId: w.plain.id, locationId: w.loc.C3.id, expiryDate: null, quantity: 10 },
    { productId: w.phone.id, locationId: w.loc.C4.id, expiryDate: null, quantity: STOCK.phone },
  ]);
}, 60_000);
afterAll(() => ctx?.close());

async function reservedBy(orderId: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ product_id: string; q: number }>(
    ctx.deps.database.db,
    sql`select b.product_id, sum(r.quantity)::int as q from stock_reservations r join stock_balances b on b.id = r.balance_id
        where r.document_type = 'outbound' and r.document_id = ${orderId} and r.quantity > 0 group by b.product_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.product_id, Number(r.q)]));
}

async function totals(productId: string) {
  const [row] = await queryRows<{ on_hand: number; reserved: number }>(
    ctx.deps.database.db,
    sql`select coalesce(sum(on_hand), 0)::int as on_hand, coalesce(sum(reserved), 0)::int as reserved
        from stock_balances where product_id = ${productId}`,
  );
  return { onHand: Number(row!.on_hand), reserved: Number(row!.reserved) };
}

describe.runIf(ON_POSTGRES)('outbound under concurrent load (PostgreSQL)', () => {
  const orders: Array<{ order: TOrderDetail; demand: Record<string, number> }> = [];

  it('never oversells: 66 concurrent exports end fully reserved or short, and the ledger equals the balances', async () => {
    for (let i = 0; i < 30; i++)
      orders.push({
        order: await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]),
        demand: { [w.plain.id]: 1 },
      });
    for (let i = 0; i < 18; i++)
      orders.push({
        order: await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 2 }]),
        demand: { [w.plain.id]: 2 },
      });
    for (let i = 0; i < 18; i++)
      orders.push({
        order: await createOrder(ctx, w.token, [{ product_id: w.kit.id, quantity: 1 }]),
        demand: { [w.plain.id]: 2, [w.phone.id]: 1 },
      });
    // Shuffle so kits and singles interleave.
    orders.sort(() => Math.random() - 0.5);

    const answers = await Promise.all(orders.map((o) => transition(ctx, w.token, o.order.id, 'export')));
    const codes = answers.map((a) => (a.statusCode === 200 ? 'ok' : a.error().code));
    expect(new Set(codes)).toEqual(new Set(['ok', 'INVENTORY_SHORTAGE']));

    const plain = await totals(w.plain.id);
    const phone = await totals(w.phone.id);
    expect(plain).toEqual({ onHand: STOCK.plain, reserved: plain.reserved });
    expect(plain.reserved).toBeLessThanOrEqual(STOCK.plain);
    expect(phone.reserved).toBeLessThanOrEqual(STOCK.phone);
    const free = { [w.plain.id]: STOCK.plain - plain.reserved, [w.phone.id]: STOCK.phone - phone.reserved };

    let reservedPlain = 0;
    let reservedPhone = 0;
    for (const [i, o] of orders.entries()) {
      const held = await reservedBy(o.order.id);
      const view = (await ctx.api.outboundRoutes.getOrder({ params: { id: o.order.id }, token: w.token })).json();
      if (codes[i] === 'ok') {
        expect(view.status).toBe('exported');
        expect(held).toEqual(o.demand); // fully allocated, components of a kit included
        reservedPlain += held[w.plain.id] ?? 0;
        reservedPhone += held[w.phone.id] ?? 0;
      } else {
        expect(view).toMatchObject({ status: 'pending_export', abnormal: { code: 'INVENTORY_SHORTAGE' } });
        expect(held).toEqual({}); // nothing half-reserved
        // short only when the stock really was not there: stock only shrank during the race
        expect(Object.entries(o.demand).some(([p, q]) => free[p]! < q)).toBe(true);
      }
    }
    expect(reservedPlain).toBe(plain.reserved);
    expect(reservedPhone).toBe(phone.reserved);
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
  }, 120_000);

  it('ships and undoes exports concurrently without losing or double-consuming stock', async () => {
    const exported = [];
    for (const o of orders) {
      const d = (await ctx.api.outboundRoutes.getOrder({ params: { id: o.order.id }, token: w.token })).json();
      if (d.status === 'exported') exported.push({ ...o, detail: d as TOrderDetail });
    }
    const before = await totals(w.plain.id);
    const toShip = exported.filter((o) => !o.demand[w.phone.id]).slice(0, 10);
    const toCancel = exported.filter((o) => !toShip.includes(o)).slice(0, 10);
    for (const [i, o] of toShip.entries())
      await ctx.api.outboundRoutes.setConsignment({
        params: { id: o.order.id },
        body: { consignment_number: `RACE${i}` },
        token: w.token,
      });
    const shipOne = async (o: (typeof toShip)[number]) => {
      for (let n = 0; n < o.demand[w.plain.id]!; n++) {
        const r = await ctx.api.outboundRoutes.packScan({
          params: { id: o.order.id },
          body: { barcode: w.plain.number },
          token: w.token,
        });
        expect(r.statusCode, r.body).toBe(200);
      }
      // Two confirmations at once: exactly one ships.
      const [a, b] = await Promise.all(
        [0, 1].map(() => ctx.api.outboundRoutes.shipOrder({ params: { id: o.order.id }, body: {}, token: w.token })),
      );
      expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    };
    const cancelOne = async (o: (typeof toCancel)[number]) => {
      expect((await transition(ctx, w.token, o.order.id, 'request_cancel_export')).statusCode).toBe(200);
      expect((await transition(ctx, w.token, o.order.id, 'grant_cancel_export')).statusCode).toBe(200);
    };
    await Promise.all([...toShip.map(shipOne), ...toCancel.map(cancelOne)]);

    const shippedUnits = toShip.reduce((s, o) => s + o.demand[w.plain.id]!, 0);
    const releasedUnits = toCancel.reduce((s, o) => s + (o.demand[w.plain.id] ?? 0), 0);
    const after = await totals(w.plain.id);
    expect(after.onHand).toBe(before.onHand - shippedUnits);
    expect(after.reserved).toBe(before.reserved - shippedUnits - releasedUnits);
    const ledger = await queryRows<{ n: number }>(
      ctx.deps.database.db,
      sql`select coalesce(sum(quantity), 0)::int as n from stock_movements where product_id = ${w.plain.id}`,
    );
    expect(Number(ledger[0]!.n)).toBe(after.onHand);
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
  }, 120_000);
});
