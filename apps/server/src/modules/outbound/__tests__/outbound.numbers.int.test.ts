import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../../db/tx';
import { nextDocumentNumbers } from '../../../platform/sequences';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { ORDER_PREFIX } from '../outbound.orders';
import { createOrder, outboundWorld } from './factories';

/**
 * Document numbers (#21 finding 3): a long transaction that took numbers (an import of 40,000 rows) must not hold the
 * seller's counter: on PostgreSQL the counter moves in a statement of its own, so other documents get numbers at once.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe(`document numbers (${TEST_ENGINE})`, () => {
  it('are consecutive per seller, prefix and day, a block at a time', async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    const now = new Date('2026-11-24T03:00:00Z');
    const db = ctx.deps.database.db;
    expect(await nextDocumentNumbers(db, a.customerId, 'ZZ', 3, now)).toEqual([
      'ZZ202611240001',
      'ZZ202611240002',
      'ZZ202611240003',
    ]);
    expect(await withTx(db, (tx) => nextDocumentNumbers(tx, a.customerId, 'ZZ', 2, now))).toEqual([
      'ZZ202611240004',
      'ZZ202611240005',
    ]);
    expect(await nextDocumentNumbers(db, b.customerId, 'ZZ', 1, now)).toEqual(['ZZ202611240001']);
    expect(await nextDocumentNumbers(db, a.customerId, 'ZZ', 1, new Date('2026-11-25T03:00:00Z'))).toEqual([
      'ZZ202611250001',
    ]);
  });

  it.skipIf(TEST_ENGINE !== 'postgres')(
    "a transaction that took numbers and goes on does not make the seller's next order wait (PostgreSQL)",
    async () => {
      const w = await outboundWorld(ctx);
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let taken: string[] = [];
      const longTx = withTx(ctx.deps.database.db, async (tx) => {
        taken = await nextDocumentNumbers(tx, w.customerId, ORDER_PREFIX, 100);
        await held; // the rest of a long import
      });
      try {
        while (taken.length === 0) await new Promise((r) => setTimeout(r, 10));
        const t0 = Date.now();
        const order = await Promise.race([
          createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]),
          new Promise<null>((r) => setTimeout(() => r(null), 5_000)),
        ]);
        expect(order, 'the order waited for the other transaction').not.toBeNull();
        expect(Date.now() - t0).toBeLessThan(5_000);
        expect(Number(order!.number.slice(-4))).toBe(Number(taken.at(-1)!.slice(-4)) + 1);
      } finally {
        release();
        await longTx;
      }
    },
  );
});
