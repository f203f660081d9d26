import { randomUUID } from 'node:crypto';
import type { TStocktakeDetail, TStocktakeLine, TStocktakeReport, TStocktakeScannedLocation } from '@wms/contracts';
import { invalidInput, type TRouteResponse } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { withTx } from '../../../db/tx';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';
import { checkStockInvariants } from '../../stock/stock.invariants';

let ctx: TTestContext;
let seller: { customerId: string; userId: string; token: string };
let other: { customerId: string; userId: string; token: string };
let f: ReturnType<typeof stockFactory>;

beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  seller = await ctx.newCustomer();
  other = await ctx.newCustomer();
  f = stockFactory(ctx.deps.database.db, seller.customerId);
}, 60_000);
afterAll(() => ctx?.close());

const who = () => ({ customerId: seller.customerId, userId: seller.userId });

async function put(productId: string, locationId: string, quantity: number, expiryDate: string | null = null) {
  await withTx(ctx.deps.database.db, (tx) =>
    engine.postInbound(tx, who(), {
      document: { type: 'test', id: null, number: `T-${randomUUID().slice(0, 6)}` },
      lines: [{ productId, locationId, expiryDate, quantity }],
    }),
  );
}

async function onHand(productId: string, locationId: string): Promise<number> {
  const [row] = await queryRows<{ on_hand: number }>(
    ctx.deps.database.db,
    sql`select coalesce(sum(on_hand), 0)::int as on_hand from stock_balances
        where customer_id = ${seller.customerId} and product_id = ${productId} and location_id = ${locationId}`,
  );
  return Number(row?.on_hand ?? 0);
}

async function stocktakeMovements(sheetId: string) {
  return queryRows<{ product_id: string; location_id: string; quantity: number; reason: string }>(
    ctx.deps.database.db,
    sql`select product_id, location_id, quantity, reason from stock_movements
        where customer_id = ${seller.customerId} and document_type = 'stocktake' and document_id = ${sheetId}
        order by product_id`,
  );
}

async function create(body: Record<string, unknown>): Promise<TStocktakeDetail> {
  const res = await ctx.api.stocktakeRoutes.createStocktake({
    body: invalidInput({ name: 'Count', ...body }),
    token: seller.token,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function scan(sheetId: string, code: string): Promise<TStocktakeScannedLocation> {
  const res = await ctx.api.stocktakeRoutes.scanStocktakeLocation({
    params: { id: sheetId },
    query: { code },
    token: seller.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function count(
  sheetId: string,
  locationCode: string,
  items: Array<{ product_id: string; quantity: number; expiry_date?: string | null }>,
) {
  const s = await scan(sheetId, locationCode);
  const res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
    params: { id: sheetId },
    body: {
      location_id: s.location_id,
      started_at: s.scanned_at,
      items,
    },
    token: seller.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function lines(sheetId: string, round?: number): Promise<TStocktakeLine[]> {
  const res = await ctx.api.stocktakeRoutes.listStocktakeLines({
    params: { id: sheetId },
    query: { page_size: 100, round },
    token: seller.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results;
}

describe('stocktake sheets', () => {
  it('creates a full sheet of every location with the book as lines, numbered per seller', async () => {
    const wh = await f.warehouse();
    const a = await f.location(wh.id, { code: `FA-${randomUUID().slice(0, 4)}` });
    const b = await f.location(wh.id);
    const empty = await f.location(wh.id);
    await f.location(wh.id, { isActive: false });
    const p = await f.product();
    await put(p.id, a.id, 4);
    await put(p.id, b.id, 6);
    const sheet = await create({ warehouse_id: wh.id, type: 'full', attribute: 'year-end', year: 2026 });
    expect(sheet).toMatchObject({
      status: 'first',
      round: 1,
      max_round: 3,
      type: 'full',
      scope: 'location',
      location_count: 3,
      line_count: 2,
      pending_locations: 3,
      attribute: 'year-end',
      year: 2026,
      warehouse_code: wh.code,
    });
    expect(sheet.number).toMatch(/^ST\d{12}$/);
    const locs = await ctx.api.stocktakeRoutes.listStocktakeLocations({
      params: { id: sheet.id },
      query: { page_size: '100' },
      token: seller.token,
    });
    expect(
      locs
        .json()
        .results.map((l: { location_id: string }) => l.location_id)
        .sort(),
    ).toEqual([a.id, b.id, empty.id].sort());
    const list = await ctx.api.stocktakeRoutes.listStocktakes({
      query: { status: 'first', search: 'Count' },
      token: seller.token,
    });
    expect(list.json().results.map((s: { id: string }) => s.id)).toContain(sheet.id);
    const audit = await queryRows<{ action: string }>(
      ctx.deps.database.db,
      sql`select action from audit_logs where entity = 'stocktake' and entity_id = ${sheet.id}`,
    );
    expect(audit.map((r) => r.action)).toEqual(['stocktake.create']);
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: sheet.id }, token: seller.token });
  });

  it('runs three rounds: review recounts only differing lines, third only lines still differing; close posts exactly the variances', async () => {
    const wh = await f.warehouse();
    const A = await f.location(wh.id, { code: `A-${randomUUID().slice(0, 4)}` });
    const B = await f.location(wh.id, { code: `B-${randomUUID().slice(0, 4)}` });
    const C = await f.location(wh.id, { code: `C-${randomUUID().slice(0, 4)}` });
    const p1 = await f.product();
    const p2 = await f.product();
    const p3 = await f.product({ shelfLifeMonths: 12 });
    const p4 = await f.product();
    await put(p1.id, A.id, 10);
    await put(p2.id, A.id, 5);
    await put(p3.id, B.id, 7, '2099-05-31');
    const sheet = await create({ warehouse_id: wh.id, type: 'full' });
    expect(sheet.line_count).toBe(3);

    // Round 1: P1 two short at A; P2 right; P3 right at B; P4 found at B although the book has none; C empty.
    await count(sheet.id, A.code, [
      { product_id: p1.id, quantity: 5 },
      { product_id: p1.id, quantity: 3 },
      { product_id: p2.id, quantity: 5 },
    ]);
    await count(sheet.id, B.code, [
      { product_id: p3.id, quantity: 7, expiry_date: '2099-05-31' },
      { product_id: p4.id, quantity: 2 },
    ]);
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.stocktakeRoutes.nextStocktakeRound({
      params: { id: sheet.id },
      token: seller.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'STOCKTAKE_INCOMPLETE', params: { remaining: 1 } });
    await count(sheet.id, C.code, []);
    const r1 = await lines(sheet.id);
    expect(r1).toHaveLength(4);
    expect(r1.filter((l) => l.difference !== 0).map((l) => [l.product_id, l.difference])).toEqual(
      expect.arrayContaining([
        [p1.id, -2],
        [p4.id, 2],
      ]),
    );

    res = await ctx.api.stocktakeRoutes.nextStocktakeRound({ params: { id: sheet.id }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'review', round: 2, pending_locations: 2 });
    const review = await lines(sheet.id, 2);
    expect(review.map((l) => l.product_id).sort()).toEqual([p1.id, p4.id].sort());
    // The review round shows the counter what to recount at B (no book quantities) and refuses anything else there.
    const atB = await scan(sheet.id, B.code);
    expect(atB).toMatchObject({ round: 2, in_round: true });
    expect(atB.expected.map((e) => e.product_id)).toEqual([p4.id]);
    expect(JSON.stringify(atB)).not.toContain('book');
    const atC = await scan(sheet.id, C.code);
    expect(atC.in_round).toBe(false);
    res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: B.id,
        items: [{ product_id: p3.id, quantity: 7, expiry_date: '2099-05-31' }],
      },
      token: seller.token,
    });
    expect(res.statusCode).toBe(400);
    expect(res.error().code).toBe('STOCKTAKE_NOT_ON_SHEET');
    res = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token });
    expect(res.error().code).toBe('STOCKTAKE_INCOMPLETE');

    // Round 2: P1 one short now; P4 not there after all (the first count was wrong).
    await count(sheet.id, A.code, [{ product_id: p1.id, quantity: 9 }]);
    await count(sheet.id, B.code, []);
    res = await ctx.api.stocktakeRoutes.nextStocktakeRound({ params: { id: sheet.id }, token: seller.token });
    expect(res.json()).toMatchObject({ status: 'third', round: 3, pending_locations: 1 });
    const third = await lines(sheet.id, 3);
    expect(third.map((l) => l.product_id)).toEqual([p1.id]);

    // Round 3: P1 still one short. No fourth round.
    await count(sheet.id, A.code, [{ product_id: p1.id, quantity: 9 }]);
    res = await ctx.api.stocktakeRoutes.nextStocktakeRound({ params: { id: sheet.id }, token: seller.token });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('INVALID_STATUS_TRANSITION');

    const before = await ctx.api.stocktakeRoutes.stocktakeReport({ params: { id: sheet.id }, token: seller.token });
    expect((before.json() as TStocktakeReport).lines.map((l) => l.product_id)).toEqual([p1.id]);

    res = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'closed', round: null, variance_lines: 1 });
    expect(await stocktakeMovements(sheet.id)).toEqual([
      { product_id: p1.id, location_id: A.id, quantity: -1, reason: 'stocktake' },
    ]);
    expect(await onHand(p1.id, A.id)).toBe(9);
    expect(await onHand(p2.id, A.id)).toBe(5);
    expect(await onHand(p4.id, B.id)).toBe(0);
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);

    const report = (
      await ctx.api.stocktakeRoutes.stocktakeReport({ params: { id: sheet.id }, token: seller.token })
    ).json() as TStocktakeReport;
    expect(report.totals).toMatchObject({ lines: 4, variance_lines: 1, units_short: 1, units_over: 0 });
    expect(report.lines[0]).toMatchObject({
      product_id: p1.id,
      count_1: 8,
      book_1: 10,
      count_2: 9,
      count_3: 9,
      book_3: 10,
      variance: -1,
      on_hand_after: 9,
    });
    const xlsx = await ctx.api.stocktakeRoutes.exportStocktakeReport({ params: { id: sheet.id }, token: seller.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells = wb.worksheets[0]!.getSheetValues().flat().map(String);
    expect(cells).toContain(p1.number);
    expect(cells).toContain('-1');

    // Closed: nothing more happens to it.
    const st = ctx.api.stocktakeRoutes;
    for (const [action, send] of Object.entries({
      close: st.closeStocktake,
      nextRound: st.nextStocktakeRound,
      cancel: st.cancelStocktake,
    })) {
      const again = await send({ params: { id: sheet.id }, token: seller.token });
      expect(again.statusCode, action).toBe(409);
    }
    expect(
      (
        await ctx.api.stocktakeRoutes.scanStocktakeLocation({
          params: { id: sheet.id },
          query: { code: A.code },
          token: seller.token,
        })
      ).statusCode,
    ).toBe(409);
    expect(await stocktakeMovements(sheet.id)).toHaveLength(1);
  });

  it('keeps movements on a counted location: the count is judged against the book at the scan, close applies the difference', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id, { code: `M-${randomUUID().slice(0, 4)}` });
    const other = await f.location(wh.id);
    const p = await f.product();
    await put(p.id, L.id, 10);
    const sheet = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    // Before the scan: 3 more arrive. They are part of the book the counter compares with.
    await put(p.id, L.id, 3);
    const s = await scan(sheet.id, L.code);
    // After the scan, while counting: 5 arrive, 2 move to another location.
    await put(p.id, L.id, 5);
    const [balance] = await queryRows<{ id: string }>(
      ctx.deps.database.db,
      sql`select id from stock_balances where product_id = ${p.id} and location_id = ${L.id}`,
    );
    await withTx(ctx.deps.database.db, (tx) =>
      engine.transfer(tx, who(), {
        document: { type: 'transfer', id: null, number: 'TR-T' },
        lines: [{ balanceId: balance!.id, toLocationId: other.id, quantity: 2 }],
      }),
    );
    // The counter found 11 at the moment of the scan (book 13: two missing).
    const res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: L.id,
        started_at: s.scanned_at,
        items: [{ product_id: p.id, quantity: 11 }],
      },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [line] = await lines(sheet.id);
    expect(line).toMatchObject({ count_1: 11, book_1: 13, difference: -2 });
    // Between count and close, 4 more arrive.
    await put(p.id, L.id, 4);
    expect(await onHand(p.id, L.id)).toBe(20);
    const closed = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await stocktakeMovements(sheet.id)).toEqual([
      { product_id: p.id, location_id: L.id, quantity: -2, reason: 'stocktake' },
    ]);
    expect(await onHand(p.id, L.id)).toBe(18);
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('refuses a scan time outside the round and a count for a location not on the sheet', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const off = await f.location(wh.id, { code: `OFF-${randomUUID().slice(0, 4)}` });
    const p = await f.product();
    await put(p.id, L.id, 1);
    const sheet = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    let res: TRouteResponse<unknown, Buffer> = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: L.id,
        started_at: new Date(Date.now() + 60_000).toISOString(),
        items: [],
      },
      token: seller.token,
    });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'started_at' } });
    res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: L.id,
        started_at: '2020-01-01T00:00:00Z',
        items: [],
      },
      token: seller.token,
    });
    expect(res.statusCode).toBe(400);
    res = await ctx.api.stocktakeRoutes.scanStocktakeLocation({
      params: { id: sheet.id },
      query: { code: off.code },
      token: seller.token,
    });
    expect(res.error().code).toBe('STOCKTAKE_NOT_ON_SHEET');
    res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: { location_id: off.id, items: [] },
      token: seller.token,
    });
    expect(res.error().code).toBe('STOCKTAKE_NOT_ON_SHEET');
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: sheet.id }, token: seller.token });
  });

  it('enforces the lot rule on counts and resolves products by barcode or number', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const fresh = await f.product({ shelfLifeMonths: 6, barcode: `471${Date.now()}`.slice(0, 13) });
    const sheet = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    const byBarcode = await ctx.api.stocktakeRoutes.scanStocktakeProduct({
      params: { id: sheet.id },
      query: { code: fresh.barcode! },
      token: seller.token,
    });
    expect(byBarcode.json()).toMatchObject({ product_id: fresh.id, has_shelf_life: true });
    const byNumber = await ctx.api.stocktakeRoutes.scanStocktakeProduct({
      params: { id: sheet.id },
      query: { code: fresh.number },
      token: seller.token,
    });
    expect(byNumber.json().product_id).toBe(fresh.id);
    expect(
      (
        await ctx.api.stocktakeRoutes.scanStocktakeProduct({
          params: { id: sheet.id },
          query: { code: `NOPE-${Date.now()}` },
          token: seller.token,
        })
      ).statusCode,
    ).toBe(404);
    const res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: {
        location_id: L.id,
        items: [{ product_id: fresh.id, quantity: 2 }],
      },
      token: seller.token,
    });
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'expiry_date' } });
    // Found with its lot: a new line with book 0 and a variance of +2, posted at close.
    await count(sheet.id, L.code, [{ product_id: fresh.id, quantity: 2, expiry_date: '2099-12-31' }]);
    const closed = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token });
    expect(closed.json()).toMatchObject({ status: 'closed', variance_lines: 1 });
    const [row] = await queryRows<{ on_hand: number; expiry_date: string }>(
      ctx.deps.database.db,
      sql`select on_hand, expiry_date::text from stock_balances where product_id = ${fresh.id}`,
    );
    expect(row).toEqual({ on_hand: 2, expiry_date: '2099-12-31' });
  });

  it('a first-count sheet closes after one round; a sheet without differences has nothing to recount', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const p = await f.product();
    await put(p.id, L.id, 4);
    const first = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    await count(first.id, L.code, [{ product_id: p.id, quantity: 4 }]);
    let res = await ctx.api.stocktakeRoutes.nextStocktakeRound({ params: { id: first.id }, token: seller.token });
    expect(res.error().code).toBe('INVALID_STATUS_TRANSITION');
    res = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: first.id }, token: seller.token });
    expect(res.json()).toMatchObject({ status: 'closed', variance_lines: 0 });
    expect(await stocktakeMovements(first.id)).toEqual([]);

    const review = await create({ warehouse_id: wh.id, type: 'review', location_ids: [L.id] });
    await count(review.id, L.code, [{ product_id: p.id, quantity: 4 }]);
    res = await ctx.api.stocktakeRoutes.nextStocktakeRound({ params: { id: review.id }, token: seller.token });
    expect(res.error().code).toBe('STOCKTAKE_NOTHING_TO_RECOUNT');
    expect(
      (await ctx.api.stocktakeRoutes.getStocktake({ params: { id: review.id }, token: seller.token })).json().status,
    ).toBe('first');
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: review.id }, token: seller.token });
  });

  it('keeps a location on one open sheet at a time', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const p = await f.product();
    await put(p.id, L.id, 1);
    const a = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    let res = await ctx.api.stocktakeRoutes.createStocktake({
      body: { name: 'Twice', warehouse_id: wh.id, type: 'full' },
      token: seller.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'STOCKTAKE_OVERLAP', params: { number: a.number } });
    res = await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: a.id }, token: seller.token });
    expect(res.json().status).toBe('cancelled');
    expect(await stocktakeMovements(a.id)).toEqual([]);
    const b = await create({ warehouse_id: wh.id, type: 'full' });
    expect(b.location_count).toBe(1);
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: b.id }, token: seller.token });
  });

  it('draws N random locations, or N random products counted wherever they lie', async () => {
    const wh = await f.warehouse();
    const locs: Array<{ id: string; code: string }> = [];
    for (let i = 0; i < 5; i++) locs.push(await f.location(wh.id));
    const ps: Array<{ id: string; number: string }> = [];
    for (let i = 0; i < 4; i++) ps.push(await f.product());
    for (const [i, p] of ps.entries()) await put(p.id, locs[i]!.id, 3);
    await put(ps[0]!.id, locs[4]!.id, 2);

    const byLocation = await create({ warehouse_id: wh.id, type: 'random', sample_size: 2 });
    expect(byLocation).toMatchObject({ scope: 'location', sample_size: 2, location_count: 2 });
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: byLocation.id }, token: seller.token });

    const byProduct = await create({ warehouse_id: wh.id, type: 'random', scope: 'product', sample_size: 2 });
    const ls = await lines(byProduct.id);
    const drawn = [...new Set(ls.map((l) => l.product_id))];
    expect(drawn).toHaveLength(2);
    const [holding] = await queryRows<{ n: number }>(
      ctx.deps.database.db,
      sql`select count(distinct location_id)::int as n from stock_balances where product_id in ${drawn} and on_hand > 0`,
    );
    expect(byProduct.location_count).toBe(Number(holding!.n));
    // At a drawn location, another product is not part of the sheet.
    const other = ps.find((p) => !drawn.includes(p.id))!;
    const loc = ls[0]!;
    const res = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: byProduct.id },
      body: {
        location_id: loc.location_id,
        items: [{ product_id: other.id, quantity: 1 }],
      },
      token: seller.token,
    });
    expect(res.error().code).toBe('STOCKTAKE_NOT_ON_SHEET');
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: byProduct.id }, token: seller.token });

    const res2 = await ctx.api.stocktakeRoutes.createStocktake({
      body: {
        name: 'bad',
        warehouse_id: wh.id,
        type: 'full',
        sample_size: 3,
      },
      token: seller.token,
    });
    expect(res2.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'sample_size' } });
  });

  it('refuses to close when the stock to remove is reserved by now, and posts nothing', async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const p = await f.product();
    await put(p.id, L.id, 5);
    const sheet = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    await count(sheet.id, L.code, [{ product_id: p.id, quantity: 2 }]);
    // An order reserves 4 of the 5 after the count: only 1 is free, the close would remove 3.
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserveForOrder(tx, who(), {
        document: { type: 'outbound', id: randomUUID(), number: 'SO-T' },
        lines: [{ productId: p.id, quantity: 4 }],
      }),
    );
    const res = await ctx.api.stocktakeRoutes.closeStocktake({ params: { id: sheet.id }, token: seller.token });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('INVENTORY_SHORTAGE');
    expect(
      (await ctx.api.stocktakeRoutes.getStocktake({ params: { id: sheet.id }, token: seller.token })).json().status,
    ).toBe('first');
    expect(await stocktakeMovements(sheet.id)).toEqual([]);
    expect(await onHand(p.id, L.id)).toBe(5);
  });

  it("answers another seller's sheet with 404 and changes nothing", async () => {
    const wh = await f.warehouse();
    const L = await f.location(wh.id);
    const p = await f.product();
    await put(p.id, L.id, 2);
    const sheet = await create({ warehouse_id: wh.id, type: 'first', location_ids: [L.id] });
    const t = other.token;
    expect((await ctx.api.stocktakeRoutes.getStocktake({ params: { id: sheet.id }, token: t })).statusCode).toBe(404);
    expect((await ctx.api.stocktakeRoutes.listStocktakeLines({ params: { id: sheet.id }, token: t })).statusCode).toBe(
      404,
    );
    expect(
      (
        await ctx.api.stocktakeRoutes.scanStocktakeLocation({
          params: { id: sheet.id },
          query: { code: L.code },
          token: t,
        })
      ).statusCode,
    ).toBe(404);
    const count = await ctx.api.stocktakeRoutes.submitStocktakeCount({
      params: { id: sheet.id },
      body: { location_id: L.id, items: [] },
      token: t,
    });
    expect(count.statusCode).toBe(404);
    for (const [action, send] of Object.entries({
      close: ctx.api.stocktakeRoutes.closeStocktake,
      nextRound: ctx.api.stocktakeRoutes.nextStocktakeRound,
      cancel: ctx.api.stocktakeRoutes.cancelStocktake,
    }))
      expect((await send({ params: { id: sheet.id }, token: t })).statusCode, action).toBe(404);
    expect((await ctx.api.stocktakeRoutes.stocktakeReport({ params: { id: sheet.id }, token: t })).statusCode).toBe(
      404,
    );
    // Creating on another seller's warehouse or locations is a 404 too.
    const foreign = await ctx.api.stocktakeRoutes.createStocktake({
      body: { name: 'x', warehouse_id: wh.id, type: 'full' },
      token: t,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await ctx.api.stocktakeRoutes.listStocktakes({ token: t })).json().count).toBe(0);
    expect(
      (await ctx.api.stocktakeRoutes.getStocktake({ params: { id: sheet.id }, token: seller.token })).json().status,
    ).toBe('first');
    await ctx.api.stocktakeRoutes.cancelStocktake({ params: { id: sheet.id }, token: seller.token });
  });
});
