import { randomUUID } from 'node:crypto';
import type { TStocktakeDetail, TStocktakeScannedLocation } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { withTx } from '../../../db/tx';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';
import { checkStockInvariants } from '../../stock/stock.invariants';

/**
 * Movements on a location while it is being counted (apps/server/src/modules/stocktake/README.md: movements are not blocked,
 * they are accounted for). Many transactions move stock in and out of the counted location at the same time as the
 * count is recorded and the sheet is closed; afterwards the stocktake posted exactly the difference found at the
 * scan, every other movement is kept, and the ledger still equals the balances.
 *
 * PGlite is a single connection (transactions cannot overlap), so this suite runs on PostgreSQL only:
 * `node scripts/with-pg.mjs npx vitest run --project server apps/server/src/modules/stocktake`.
 */
const ON_POSTGRES = TEST_ENGINE === 'postgres';
if (!ON_POSTGRES) console.info('stocktake concurrency suite skipped: it runs on PostgreSQL (npm test does).');

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

const who = () => ({ customerId: seller.customerId, userId: seller.userId });

async function onHand(productId: string, locationId: string): Promise<number> {
  const [row] = await queryRows<{ on_hand: number }>(
    ctx.deps.database.db,
    sql`select coalesce(sum(on_hand), 0)::int as on_hand from stock_balances
        where product_id = ${productId} and location_id = ${locationId}`,
  );
  return Number(row?.on_hand ?? 0);
}

describe.skipIf(!ON_POSTGRES)('stocktake with concurrent movements (PostgreSQL)', () => {
  it('posts exactly the difference found at the scan while stock moves in and out during count and close', async () => {
    const db = ctx.deps.database.db;
    const f = stockFactory(db, seller.customerId);
    const wh = await f.warehouse();
    const L = await f.location(wh.id, { code: `CC-${randomUUID().slice(0, 4)}` });
    const elsewhere = await f.location(wh.id);
    const p = await f.product();
    const seed = (quantity: number, locationId = L.id) =>
      withTx(db, (tx) =>
        engine.postInbound(tx, who(), {
          document: { type: 'test', id: null, number: 'SEED' },
          lines: [{ productId: p.id, locationId, expiryDate: null, quantity }],
        }),
      );
    await seed(40);
    const [balance] = await queryRows<{ id: string }>(
      db,
      sql`select id from stock_balances where product_id = ${p.id} and location_id = ${L.id}`,
    );

    const created = await ctx.api.stocktakeRoutes.createStocktake({
      body: {
        name: 'Concurrent',
        warehouse_id: wh.id,
        type: 'first',
        location_ids: [L.id],
      },
      token: seller.token,
    });
    expect(created.statusCode, created.body).toBe(201);
    const sheet = created.json() as TStocktakeDetail;
    const scan = (
      await ctx.api.stocktakeRoutes.scanStocktakeLocation({
        params: { id: sheet.id },
        query: { code: L.code },
        token: seller.token,
      })
    ).json() as TStocktakeScannedLocation;
    // At the scan the location physically holds 37: three units are missing against the book of 40.
    await new Promise((r) => setTimeout(r, 5));

    // Movements after the scan, racing with the count being recorded: 12 in, 6 adjusted out, 5 transferred away.
    const movements: Array<Promise<unknown>> = [];
    for (let i = 0; i < 12; i++) movements.push(seed(1));
    for (let i = 0; i < 6; i++)
      movements.push(
        withTx(db, (tx) =>
          engine.postAdjustment(tx, who(), {
            document: { type: 'test', id: null, number: `ADJ-${i}` },
            lines: [{ productId: p.id, locationId: L.id, expiryDate: null, delta: -1 }],
          }),
        ),
      );
    for (let i = 0; i < 5; i++)
      movements.push(
        withTx(db, (tx) =>
          engine.transfer(tx, who(), {
            document: { type: 'transfer', id: null, number: `TR-${i}` },
            lines: [{ balanceId: balance!.id, toLocationId: elsewhere.id, quantity: 1 }],
          }),
        ),
      );
    const countCall = ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: L.id,
        started_at: scan.scanned_at,
        items: [{ product_id: p.id, quantity: 37 }],
      },
      token: seller.token,
    });
    const [countRes] = await Promise.all([countCall, ...movements]);
    expect(countRes.statusCode, countRes.body).toBe(200);

    const [line] = (
      await ctx.api.stocktakeRoutes.listStocktakeLines({ params: { id: sheet.id }, token: seller.token })
    ).json().results;
    expect(line).toMatchObject({ count_1: 37, book_1: 40, difference: -3 });

    // More movements race with the close itself.
    const late: Array<Promise<unknown>> = [];
    for (let i = 0; i < 8; i++) late.push(seed(1));
    const [closeRes] = await Promise.all([
      ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token }),
      ...late,
    ]);
    expect(closeRes.statusCode, closeRes.body).toBe(200);

    const posted = await queryRows<{ quantity: number }>(
      db,
      sql`select quantity from stock_movements where document_type = 'stocktake' and document_id = ${sheet.id}`,
    );
    expect(posted).toEqual([{ quantity: -3 }]);
    expect(await onHand(p.id, L.id)).toBe(40 + 12 - 6 - 5 + 8 - 3);
    expect(await onHand(p.id, elsewhere.id)).toBe(5);
    expect(await checkStockInvariants(db)).toEqual([]);
  });

  it('serialises counts of one location and lets a close wait for counts in flight', async () => {
    const db = ctx.deps.database.db;
    const f = stockFactory(db, seller.customerId);
    const wh = await f.warehouse();
    const locs: Array<{ id: string; code: string }> = [];
    for (let i = 0; i < 6; i++) locs.push(await f.location(wh.id));
    const p = await f.product();
    await withTx(db, (tx) =>
      engine.postInbound(tx, who(), {
        document: { type: 'test', id: null, number: 'SEED' },
        lines: locs.map((l) => ({ productId: p.id, locationId: l.id, expiryDate: null, quantity: 10 })),
      }),
    );
    const sheet = (
      await ctx.api.stocktakeRoutes.createStocktake({
        body: {
          name: 'Parallel',
          warehouse_id: wh.id,
          type: 'review',
          location_ids: locs.map((l) => l.id),
        },
        token: seller.token,
      })
    ).json() as TStocktakeDetail;
    // Every location counted twice at once (9 then 8, in any order): each count replaces the other, never both.
    const calls = locs.flatMap((l) =>
      [9, 8].map((q) =>
        ctx.api.stocktakeRoutes.submitStocktakeCount({
          params: { id: sheet.id },
          body: {
            location_id: l.id,
            items: [{ product_id: p.id, quantity: q }],
          },
          token: seller.token,
        }),
      ),
    );
    const results = await Promise.all(calls);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const lines = (
      await ctx.api.stocktakeRoutes.listStocktakeLines({
        params: { id: sheet.id },
        query: { page_size: '100' },
        token: seller.token,
      })
    ).json().results as Array<{
      count_1: number;
      book_1: number;
    }>;
    expect(lines).toHaveLength(6);
    for (const l of lines) {
      expect([8, 9]).toContain(l.count_1);
      expect(l.book_1).toBe(10);
    }
    // A close racing with a recount: the close either sees the recount or the recount is refused (409), never half.
    const [recount, close] = await Promise.all([
      ctx.api.stocktakeRoutes.submitStocktakeCount({
        params: { id: sheet.id },
        body: {
          location_id: locs[0]!.id,
          items: [{ product_id: p.id, quantity: 10 }],
        },
        token: seller.token,
      }),
      ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token }),
    ]);
    expect(close.statusCode, close.body).toBe(200);
    expect([200, 409]).toContain(recount.statusCode);
    const posted = await queryRows<{ location_id: string; quantity: number }>(
      db,
      sql`select location_id, quantity from stock_movements where document_type = 'stocktake' and document_id = ${sheet.id}`,
    );
    const final = (
      await ctx.api.stocktakeRoutes.listStocktakeLines({
        params: { id: sheet.id },
        query: { page_size: '100' },
        token: seller.token,
      })
    ).json().results as Array<{
      location_id: string;
      variance: number;
      count_1: number;
      book_1: number;
    }>;
    for (const l of final) {
      expect(l.variance).toBe(l.count_1 - l.book_1);
      const m = posted.find((x) => x.location_id === l.location_id);
      expect(m?.quantity ?? 0).toBe(l.variance);
    }
    expect(await checkStockInvariants(db)).toEqual([]);
  });
});
