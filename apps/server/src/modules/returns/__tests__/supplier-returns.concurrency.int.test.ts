import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import { checkStockInvariants } from '../../stock/stock.invariants';
import { returnsFactory } from './factories';

/**
 * Many return-to-supplier orders for the same piles at once: never more is held than the pile has, for sellable
 * piles (engine reservations) and for defective ones (claims checked under the pile's row lock). PostgreSQL only
 * (PGlite is a single connection).
 */
const ON_POSTGRES = TEST_ENGINE === 'postgres';
if (!ON_POSTGRES) console.info('return-to-supplier concurrency suite skipped: it runs on PostgreSQL (npm test does).');

let ctx: TTestContext;
let seller: { customerId: string; userId: string; token: string };

beforeAll(async () => {
  if (!ON_POSTGRES) return;
  ctx = await createTestContext();
  // The harness drops the database WITH (FORCE) at the end: a pooled client still open then gets 57P01. Idle clients
  // report it through the pool, busy ones through themselves; neither is a test failure.
  ctx.deps.database.pool?.on('error', () => {});
  ctx.deps.database.pool?.on('connect', (client) => client.on('error', () => {}));
  seller = await ctx.newCustomer();
}, 60_000);
afterAll(() => ctx?.close());

describe.skipIf(!ON_POSTGRES)('return-to-supplier orders at once (PostgreSQL)', () => {
  it('holds at most what each pile has, whoever comes first', async () => {
    const db = ctx.deps.database.db;
    const f = stockFactory(db, seller.customerId);
    const r = returnsFactory(db, { customerId: seller.customerId, userId: seller.userId });
    const wh = await f.warehouse();
    const good = await f.location(wh.id);
    const bad = await f.location(wh.id, { kind: 'defective' });
    const p = await f.product();
    const goodPile = await r.put(p.id, good.id, 5);
    const badPile = await r.put(p.id, bad.id, 5);
    const results = await Promise.all([
      ...Array.from({ length: 9 }, () =>
        ctx.api.returnRoutes.createSupplierReturn({
          body: {
            warehouse_id: wh.id,
            supplier_name: 'Race',
            reason: 'other',
            planned_date: '2026-11-30',
            lines: [{ balance_id: goodPile, quantity: 1 }],
          },
          token: seller.token,
        }),
      ),
      ...Array.from({ length: 9 }, () =>
        ctx.api.returnRoutes.createSupplierReturn({
          body: {
            warehouse_id: wh.id,
            supplier_name: 'Race',
            reason: 'other',
            planned_date: '2026-11-30',
            lines: [{ balance_id: badPile, quantity: 1 }],
          },
          token: seller.token,
        }),
      ),
    ]);
    for (const res of results) {
      expect([201, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 409) expect(res.error().code).toBe('INVENTORY_SHORTAGE');
    }
    const ok = (from: number) => results.slice(from, from + 9).filter((x) => x.statusCode === 201).length;
    expect(ok(0)).toBe(5);
    expect(ok(9)).toBe(5);
    expect(await r.onHand(p.id, good.id)).toEqual({ onHand: 5, reserved: 5 });
    const piles = await ctx.api.returnRoutes.listSupplierReturnPiles({
      query: { warehouse_id: wh.id },
      token: seller.token,
    });
    expect(piles.json().count).toBe(0);
    // Dispatch them all at once: everything leaves exactly once.
    const ids = results.filter((x) => x.statusCode === 201).map((x) => x.json().id as string);
    const sent = await Promise.all(
      ids.map((id) => ctx.api.returnRoutes.dispatchSupplierReturn({ params: { id }, body: {}, token: seller.token })),
    );
    for (const s of sent) expect(s.statusCode, s.body).toBe(200);
    expect(await r.onHand(p.id, good.id)).toEqual({ onHand: 0, reserved: 0 });
    expect(await r.onHand(p.id, bad.id)).toEqual({ onHand: 0, reserved: 0 });
    expect(await checkStockInvariants(db)).toEqual([]);
  });
});
