import { randomUUID } from 'node:crypto';
import { PRODUCT_STOCK_SEARCH_COUNT_CAP, STOCK_REASON_LABELS, ZProductStockPage, ZStockLogPage } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { products as productsTable } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import * as engine from '../stock.engine';
import { checkStockInvariants } from '../stock.invariants';
import { addDays, addMonths } from '../stock.rules';
import { stockFactory } from './factories';

let ctx: TTestContext;
let seller: { customerId: string; userId: string; token: string };
let who: engine.TStockActor;
let f: ReturnType<typeof stockFactory>;
let wh: { id: string };
let wh2: { id: string };
let shelf: { id: string };
let a1: { id: string; code: string };
let a2: { id: string; code: string };
let bad: { id: string };
let expiredLoc: { id: string };
const today = taipeiToday();

beforeAll(async () => {
  ctx = await createTestContext();
  seller = await ctx.newCustomer();
  who = { customerId: seller.customerId, userId: seller.userId };
  f = stockFactory(ctx.deps.database.db, seller.customerId);
  wh = await f.warehouse();
  wh2 = await f.warehouse();
  shelf = await f.shelf(wh.id);
  a1 = await f.location(wh.id, { code: `A1-${randomUUID().slice(0, 4)}`, shelfId: shelf.id });
  a2 = await f.location(wh.id, { code: `A2-${randomUUID().slice(0, 4)}`, shelfId: shelf.id });
  bad = await f.location(wh.id, { kind: 'defective' });
  expiredLoc = await f.location(wh.id, { kind: 'expired' });
});
afterAll(() => ctx?.close());

const doc = (type = 'test') => ({
  type,
  id: randomUUID(),
  number: `${type.toUpperCase()}-${randomUUID().slice(0, 6)}`,
});
const inbound = (lines: engine.TInboundLine[], document = doc('inbound')) =>
  withTx(ctx.deps.database.db, (tx) => engine.postInbound(tx, who, { document, lines }));
async function balanceId(productId: string, locationId: string) {
  const [row] = await queryRows<{ id: string }>(
    ctx.deps.database.db,
    sql`select id from stock_balances where product_id = ${productId} and location_id = ${locationId}`,
  );
  return row!.id;
}

describe(`stock queries and transfers (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('shows product stock per warehouse: on hand, reserved, available, unsellable; combinations derived', async () => {
    const x = await f.product({ number: `X-${randomUUID().slice(0, 6)}` });
    const y = await f.product();
    const kit = await f.kit([
      { productId: x.id, quantity: 2 },
      { productId: y.id, quantity: 1 },
    ]);
    const other = await f.location(wh2.id);
    await inbound([
      { productId: x.id, locationId: a1.id, expiryDate: null, quantity: 7 },
      { productId: x.id, locationId: bad.id, expiryDate: null, quantity: 3 },
      { productId: y.id, locationId: a2.id, expiryDate: null, quantity: 10 },
      { productId: x.id, locationId: other.id, expiryDate: null, quantity: 4 },
    ]);
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserveForOrder(tx, who, { document: doc('outbound'), lines: [{ productId: x.id, quantity: 1 }] }),
    );
    const rows = (
      await ctx.api.stockRoutes.productStock({
        query: { product_id: x.id, page_size: '25' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(rows.count).toBe(2);
    const main = rows.results.find((r: { warehouse_id: string }) => r.warehouse_id === wh.id);
    expect(main).toMatchObject({ on_hand: 10, reserved: 1, available: 6, unsellable: 3, type: 'single' });
    const kitRow = (
      await ctx.api.stockRoutes.productStock({
        query: { product_id: kit.id, warehouse_id: wh.id },
        token: seller.token,
        lang: 'en',
      })
    ).json().results[0];
    const derived = (
      await engine.getAvailability(ctx.deps.database.db, seller.customerId, [kit.id], { warehouseId: wh.id })
    ).get(kit.id)!;
    expect(kitRow).toMatchObject({ type: 'combination', on_hand: 5, available: 3, reserved: null, unsellable: null });
    expect(kitRow!.available).toBe(derived.available);
    expect(kitRow!.on_hand).toBe(derived.onHand);
    const inStock = (
      await ctx.api.stockRoutes.productStock({
        query: { in_stock: 'true', warehouse_id: wh2.id, page_size: '100' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(inStock.results.map((r: { product_id: string }) => r.product_id)).toContain(x.id);
    expect(inStock.results.map((r: { product_id: string }) => r.product_id)).not.toContain(y.id);
    const search = (
      await ctx.api.stockRoutes.productStock({
        query: { search: x.number, warehouse_id: wh.id },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(search).toMatchObject({ count: 1, results: [{ product_id: x.id }] });

    // Unfiltered pages aggregate only their own products (and a kit's components, wherever those sort): page by
    // page they equal the figures computed over every pair (in_stock=true ∪ in_stock=false takes that path).
    // A kit sorting last, its component first, fillers between: they land on different pages of 10.
    const first = await f.product({ number: `AA-${randomUUID().slice(0, 6)}` });
    for (let i = 0; i < 8; i++) await f.product({ number: `M-${i}-${randomUUID().slice(0, 6)}` });
    const last = await f.kit([{ productId: first.id, quantity: 3 }], `ZZ-${randomUUID().slice(0, 6)}`);
    await inbound([{ productId: first.id, locationId: a1.id, expiryDate: null, quantity: 7 }]);
    const all = [
      ...(
        await ctx.api.stockRoutes.productStock({
          query: { in_stock: 'true', page_size: '100' },
          token: seller.token,
          lang: 'en',
        })
      ).json().results,
      ...(
        await ctx.api.stockRoutes.productStock({
          query: { in_stock: 'false', page_size: '100' },
          token: seller.token,
          lang: 'en',
        })
      ).json().results,
    ].sort((a, b) => (a.product_number + a.warehouse_code).localeCompare(b.product_number + b.warehouse_code));
    const paged: unknown[] = [];
    for (let pageNo = 1; ; pageNo++) {
      const res = (
        await ctx.api.stockRoutes.productStock({
          query: { page_size: '10', page: pageNo },
          token: seller.token,
          lang: 'en',
        })
      ).json();
      // Answered with JSON.stringify, not the contract's encoder: every answer must be its own zod parse.
      expect(ZProductStockPage.parse(res)).toEqual(res);
      expect(res.count).toBe(all.length);
      if (res.results.length === 0) break;
      paged.push(...res.results);
    }
    expect(paged).toEqual(all);
    expect(paged).toContainEqual(expect.objectContaining({ product_id: kit.id, warehouse_id: wh.id, on_hand: 5 }));
    expect(paged.length).toBeGreaterThan(20);
    const lastPage = (
      await ctx.api.stockRoutes.productStock({
        query: { page_size: '10', page: Math.ceil(all.length / 10) },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(lastPage.results).toContainEqual(
      expect.objectContaining({ product_id: last.id, warehouse_id: wh.id, on_hand: 2, available: 2 }),
    );
    expect(lastPage.results).not.toContainEqual(expect.objectContaining({ product_id: first.id }));
  });

  it('counts a broad search only up to the cap, says so, and still serves every page past it', async () => {
    const other = await ctx.newCustomer();
    const g = stockFactory(ctx.deps.database.db, other.customerId);
    await g.warehouse();
    await g.warehouse();
    const cap = PRODUCT_STOCK_SEARCH_COUNT_CAP;
    const products = cap / 2 + 5; // two warehouses: cap + 10 product × warehouse pairs match "CAPTEST"
    await ctx.deps.database.db.insert(productsTable).values(
      Array.from({ length: products }, (_, i) => ({
        customer_id: other.customerId,
        number: `CAPTEST-${String(i).padStart(5, '0')}`,
        name: `Cap test ${i}`,
      })),
    );
    const get = async (query: { search?: string; page_size: number; page?: number }) => {
      const res = await ctx.api.stockRoutes.productStock({ query, token: other.token, lang: 'en' });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const broad = await get({ search: 'captest', page_size: 100 });
    expect(broad).toMatchObject({ count: cap, count_capped: true });
    expect(broad.results).toHaveLength(100);
    // The last rows lie past the cap: the page is served all the same.
    const past = await get({ search: 'captest', page_size: 100, page: cap / 100 + 1 });
    expect(past.results).toHaveLength(10);
    expect(past.results.at(-1)).toMatchObject({ product_number: `CAPTEST-${String(products - 1).padStart(5, '0')}` });
    // A narrow search and no search at all are counted exactly.
    expect(await get({ search: 'CAPTEST-0000', page_size: 10 })).toMatchObject({
      count: 20,
      count_capped: false,
    });
    expect(await get({ page_size: 10 })).toMatchObject({ count: products * 2, count_capped: false });
  });

  it('lists piles per product and location with their lot state', async () => {
    const p = await f.product({ shelfLifeMonths: 12, sellableRuleMonths: 2 });
    const fine = addMonths(today, 6);
    const pastRule = addDays(addMonths(today, 2), -1); // sellable until yesterday
    const gone = addDays(today, -1);
    await inbound([
      { productId: p.id, locationId: a1.id, expiryDate: fine, quantity: 5 },
      { productId: p.id, locationId: a1.id, expiryDate: pastRule, quantity: 4 },
      { productId: p.id, locationId: a2.id, expiryDate: gone, quantity: 3 },
      { productId: p.id, locationId: bad.id, expiryDate: fine, quantity: 2 },
    ]);
    const res = (
      await ctx.api.stockRoutes.productLocation({
        query: { product_id: p.id, page_size: '25' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(res.count).toBe(4);
    const state = (loc: string, exp: string) => res.results.find((r) => r.location_id === loc && r.expiry_date === exp);
    expect(state(a1.id, fine)).toMatchObject({
      state: 'sellable',
      sellable_until: addMonths(fine, -2),
      on_hand: 5,
      free: 5,
    });
    expect(state(a1.id, pastRule)!.state).toBe('unsellable');
    expect(state(a2.id, gone)!.state).toBe('expired');
    expect(state(bad.id, fine)).toMatchObject({ state: 'blocked', location_kind: 'defective' });
    const kind = (
      await ctx.api.stockRoutes.productLocation({
        query: { product_id: p.id, location_kind: 'defective' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(kind.count).toBe(1);
    const byLoc = (
      await ctx.api.stockRoutes.locationStock({ query: { location_code: a2.code }, token: seller.token, lang: 'en' })
    ).json();
    expect(byLoc.results.every((r: { location_id: string }) => r.location_id === a2.id)).toBe(true);
    const byShelf = (
      await ctx.api.stockRoutes.locationStock({
        query: { shelf_id: shelf.id, page_size: '100' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(new Set(byShelf.results.map((r: { location_code: string }) => r.location_code))).toEqual(
      new Set([a1.code, a2.code]),
    );
    expect(byShelf.results[0]!.shelf_code).toBeTruthy();

    // Expiry transfer candidates by mode.
    const ids = (mode: 'expired' | 'unsellable' | 'expiring', days?: number) =>
      ctx.api.stockRoutes
        .expiryCandidates({ query: { product_id: p.id, mode, days }, token: seller.token, lang: 'en' })
        .then((r) =>
          r
            .json()
            .results.map((x) => x.expiry_date)
            .sort(),
        );
    expect(await ids('expired')).toEqual([gone]);
    expect(await ids('unsellable')).toEqual([gone, pastRule].sort());
    expect(await ids('expiring', 30)).toEqual([gone]);
    expect((await ids('expiring', 400)).length).toBe(4);
  });

  it('transfers one pile: free stock only, whole quantities, a TR document in the log', async () => {
    const p = await f.product();
    await inbound([{ productId: p.id, locationId: a1.id, expiryDate: null, quantity: 10 }]);
    const src = await balanceId(p.id, a1.id);
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserve(tx, who, { document: doc('outbound'), lines: [{ balanceId: src, quantity: 4 }] }),
    );
    const res = await ctx.api.stockRoutes.transfer({
      body: {
        balance_id: src,
        to_location_id: a2.id,
        quantity: 5,
        remark: 'reslot',
      },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({
      kind: 'single',
      line_count: 1,
      unit_count: 5,
      lines: [{ from_location_code: a1.code, to_location_code: a2.code, quantity: 5 }],
    });
    expect(t.number).toMatch(/^TR\d{12}$/);
    const short = await ctx.api.stockRoutes.transfer({
      body: { balance_id: src, to_location_id: a2.id, quantity: 2 },
      token: seller.token,
      lang: 'en',
    });
    expect(short.statusCode).toBe(409);
    expect(short.error()).toMatchObject({ code: 'INVENTORY_SHORTAGE', params: { requested: 2, available: 1 } });
    for (const quantity of [0, -1, 1.5])
      expect(
        (
          await ctx.api.stockRoutes.transfer({
            body: { balance_id: src, to_location_id: a2.id, quantity },
            token: seller.token,
            lang: 'en',
          })
        ).error().code,
      ).toBe('ABNORMAL_QUANTITY');
    expect(
      (
        await ctx.api.stockRoutes.transfer({
          body: { balance_id: src, to_location_id: a1.id, quantity: 1 },
          token: seller.token,
          lang: 'en',
        })
      ).error().code,
    ).toBe('INVALID_FIELD');

    const log = (
      await ctx.api.stockRoutes.stockLog({ query: { document_number: t.number }, token: seller.token, lang: 'en' })
    ).json();
    expect(log.count).toBe(2);
    expect(log.count_capped).toBe(false);
    expect(
      log.results
        .map((m: { quantity: number; location_code: string; reason: string }) => [
          m.quantity,
          m.location_code,
          m.reason,
        ])
        .sort(),
    ).toEqual(
      [
        [-5, a1.code, 'transfer'],
        [5, a2.code, 'transfer'],
      ].sort(),
    );
    expect(log.results[0]).toMatchObject({ user_name: 'Seller user', note: 'reslot' });
  });

  it('multi-line transfer is all or nothing', async () => {
    const p = await f.product();
    const q = await f.product();
    await inbound([
      { productId: p.id, locationId: a1.id, expiryDate: null, quantity: 3 },
      { productId: q.id, locationId: a1.id, expiryDate: null, quantity: 3 },
    ]);
    const [bp, bq] = [await balanceId(p.id, a1.id), await balanceId(q.id, a1.id)];
    const fail = await ctx.api.stockRoutes.multiTransfer({
      body: {
        lines: [
          { balance_id: bp, to_location_id: a2.id, quantity: 3 },
          { balance_id: bq, to_location_id: a2.id, quantity: 4 },
        ],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(fail.statusCode).toBe(409);
    expect(
      (
        await ctx.api.stockRoutes.productLocation({ query: { product_id: p.id }, token: seller.token, lang: 'en' })
      ).json().results,
    ).toMatchObject([{ location_id: a1.id, on_hand: 3 }]);
    const ok = await ctx.api.stockRoutes.multiTransfer({
      body: {
        lines: [
          { balance_id: bp, to_location_id: a2.id, quantity: 3 },
          { balance_id: bq, to_location_id: a2.id, quantity: 1 },
          { balance_id: bq, to_location_id: bad.id, quantity: 2 },
        ],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ kind: 'multi', line_count: 3, unit_count: 6 });
    expect(
      (
        await ctx.api.stockRoutes.productLocation({
          query: { product_id: q.id, location_id: bad.id },
          token: seller.token,
          lang: 'en',
        })
      ).json().results[0]!.on_hand,
    ).toBe(2);
  });

  it('moves expired and unsellable lots into an expired location in one action; reserved units stay', async () => {
    const p = await f.product({ shelfLifeMonths: 6, sellableRuleMonths: 1 });
    const gone = addDays(today, -3);
    const soon = addDays(today, 10); // past its sellable-until date (expiry − 1 month)
    await inbound([
      { productId: p.id, locationId: a1.id, expiryDate: gone, quantity: 4 },
      { productId: p.id, locationId: a2.id, expiryDate: soon, quantity: 6 },
    ]);
    const candidates = (
      await ctx.api.stockRoutes.expiryCandidates({
        query: { product_id: p.id, mode: 'unsellable' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(candidates.count).toBe(2);
    const ids = candidates.results.map((r) => r.balance_id);
    const soonId = candidates.results.find((r) => r.expiry_date === soon)!.balance_id;
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserve(tx, who, { document: doc('outbound'), lines: [{ balanceId: soonId, quantity: 2 }] }),
    );
    expect(
      (
        await ctx.api.stockRoutes.expiryTransfer({
          body: { to_location_id: a1.id, balance_ids: ids },
          token: seller.token,
          lang: 'en',
        })
      ).error(),
    ).toMatchObject({
      code: 'INVALID_FIELD',
      params: { field: 'to_location_id' },
    });
    const res = await ctx.api.stockRoutes.expiryTransfer({
      body: { to_location_id: expiredLoc.id, balance_ids: ids },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'expiry', unit_count: 8, line_count: 2, reserved_left: 2 });
    const left = (
      await ctx.api.stockRoutes.productLocation({
        query: { product_id: p.id, page_size: '25' },
        token: seller.token,
        lang: 'en',
      })
    ).json().results;
    expect(
      left
        .filter((r: { location_id: string }) => r.location_id === expiredLoc.id)
        .reduce((s: number, r: { on_hand: number }) => s + r.on_hand, 0),
    ).toBe(8);
    expect(left.find((r: { location_id: string }) => r.location_id === a2.id)).toMatchObject({
      on_hand: 2,
      reserved: 2,
    });
    expect(
      (
        await ctx.api.stockRoutes.expiryCandidates({
          query: { product_id: p.id, mode: 'unsellable' },
          token: seller.token,
          lang: 'en',
        })
      ).json().count,
    ).toBe(1);
    const log = (
      await ctx.api.stockRoutes.stockLog({
        query: { reason: 'expiry_transfer', product_id: p.id },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(log.count).toBe(4);
  });

  it('filters the stock log by product, location, reason and date range, newest first, and exports it', async () => {
    const p = await f.product();
    const first = doc('inbound');
    await inbound([{ productId: p.id, locationId: a1.id, expiryDate: null, quantity: 2 }], first);
    await inbound([{ productId: p.id, locationId: a2.id, expiryDate: null, quantity: 3 }]);
    const all = (
      await ctx.api.stockRoutes.stockLog({ query: { product_id: p.id }, token: seller.token, lang: 'en' })
    ).json();
    expect(all.results.map((m: { quantity: number }) => m.quantity)).toEqual([3, 2]);
    expect(ZStockLogPage.parse(all)).toEqual(all); // JSON.stringify'd: no field more or less than the contract's
    expect(
      (
        await ctx.api.stockRoutes.stockLog({
          query: { product_id: p.id, location_id: a1.id },
          token: seller.token,
          lang: 'en',
        })
      ).json().count,
    ).toBe(1);
    expect(
      (
        await ctx.api.stockRoutes.stockLog({
          query: { product_id: p.id, reason: 'outbound' },
          token: seller.token,
          lang: 'en',
        })
      ).json().count,
    ).toBe(0);
    expect(
      (
        await ctx.api.stockRoutes.stockLog({
          query: { product_id: p.id, date_from: today, date_to: today },
          token: seller.token,
          lang: 'en',
        })
      ).json().count,
    ).toBe(2);
    expect(
      (
        await ctx.api.stockRoutes.stockLog({
          query: { product_id: p.id, date_to: addDays(today, -1) },
          token: seller.token,
          lang: 'en',
        })
      ).json().count,
    ).toBe(0);
    expect(
      (
        await ctx.api.stockRoutes.stockLog({
          query: { document_number: first.number },
          token: seller.token,
          lang: 'en',
        })
      ).json().results[0]!.on_hand_after,
    ).toBeGreaterThanOrEqual(2);
    const paged = (
      await ctx.api.stockRoutes.stockLog({
        query: { product_id: p.id, page: '2', page_size: '10' },
        token: seller.token,
        lang: 'en',
      })
    ).json();
    expect(paged).toMatchObject({ count: 2, results: [] });
    const exp = await ctx.api.stockRoutes.exportStockLog({
      query: { product_id: p.id },
      token: seller.token,
      lang: 'en',
    });
    expect(exp.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exp.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(3);
    expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Created at');
    // As on the screen (issue #22): Taipei wall-clock time and the reason's label, not `inbound` and UTC.
    const row = wb.worksheets[0]!.getRow(2);
    expect(String(row.getCell(1).value)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(row.getCell(9).value).toBe(STOCK_REASON_LABELS.inbound.en);
  });

  it("keeps sellers apart: another seller's piles and locations answer 404 and never show up", async () => {
    const p = await f.product();
    await inbound([{ productId: p.id, locationId: a1.id, expiryDate: null, quantity: 5 }]);
    const victim = await balanceId(p.id, a1.id);
    const intruder = await ctx.newCustomer();
    const g = stockFactory(ctx.deps.database.db, intruder.customerId);
    const theirWh = await g.warehouse();
    const theirLoc = await g.location(theirWh.id);
    const theirExpired = await g.location(theirWh.id, { kind: 'expired' });
    const as = { token: intruder.token, lang: 'en' };
    expect(
      (
        await ctx.api.stockRoutes.transfer({
          body: { balance_id: victim, to_location_id: theirLoc.id, quantity: 1 },
          ...as,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await ctx.api.stockRoutes.multiTransfer({
          body: { lines: [{ balance_id: victim, to_location_id: theirLoc.id, quantity: 1 }] },
          ...as,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await ctx.api.stockRoutes.expiryTransfer({
          body: { to_location_id: theirExpired.id, balance_ids: [victim] },
          ...as,
        })
      ).statusCode,
    ).toBe(404);
    // The seller cannot move stock into the intruder's location either.
    expect(
      (
        await ctx.api.stockRoutes.transfer({
          body: { balance_id: victim, to_location_id: theirLoc.id, quantity: 1 },
          token: seller.token,
          lang: 'en',
        })
      ).statusCode,
    ).toBe(404);
    const sr = ctx.api.stockRoutes;
    for (const [name, read] of [
      ['productStock', () => sr.productStock({ query: { product_id: p.id }, ...as })],
      ['productLocation', () => sr.productLocation({ query: { product_id: p.id }, ...as })],
      ['locationStock', () => sr.locationStock({ query: { location_id: a1.id }, ...as })],
      ['stockLog', () => sr.stockLog({ query: { product_id: p.id }, ...as })],
      ['expiryCandidates', () => sr.expiryCandidates({ query: { mode: 'expiring', days: 3650 }, ...as })],
    ] as const) {
      const res = await read();
      expect(res.statusCode, name).toBe(200);
      expect(res.json().count, name).toBe(0);
    }
    expect(
      (
        await ctx.api.stockRoutes.productLocation({ query: { product_id: p.id }, token: seller.token, lang: 'en' })
      ).json().results[0]!.on_hand,
    ).toBe(5);
  });

  it('keeps the stock invariants', async () => {
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
  });
});
