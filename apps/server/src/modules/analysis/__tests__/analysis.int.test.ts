import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { inbound_receipt_lines, inbound_receipts, outbound_order_lines, outbound_orders } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';

/**
 * A hand-computed world (every figure below is worked out in the comments):
 * product A (safety 5, stocking days 300, cost 2.5): 100 received 100 days ago into L1, 50 received 20 days ago into
 * L2; shipped 10 five days ago and a kit of 5 × (2 A) three days ago; 4 reserved for an order not shipped; 30 on a
 * pending receipt. Product B (shelf life, sellable rule 3 months, safety 20): 10 received 400 days ago, never
 * shipped. Product C: 3 expiring in 10 days.
 */
let ctx: TTestContext;
let seller: Awaited<ReturnType<TTestContext['newCustomer']>>;
const ids: Record<string, string> = {};
const today = taipeiToday();
const dayAgo = (n: number) => taipeiToday(taipeiMidnight(today, -n));

async function backdate(documentId: string, days: number) {
  await ctx.deps.database.db.execute(
    sql`update stock_movements set created_at = now() - make_interval(days => ${days}) where document_id = ${documentId}`,
  );
}

beforeAll(async () => {
  ctx = await createTestContext();
  seller = await ctx.newCustomer();
  const db = ctx.deps.database.db;
  const f = stockFactory(db, seller.customerId);
  const wh = await f.warehouse('W1');
  const l1 = await f.location(wh.id, { code: 'L1' });
  const l2 = await f.location(wh.id, { code: 'L2' });
  const a = await f.product({ number: 'A-001' });
  const b = await f.product({ number: 'B-001', shelfLifeMonths: 12, sellableRuleMonths: 3 });
  const c = await f.product({ number: 'C-001', shelfLifeMonths: 12 });
  await db.execute(sql`update products set safety_stock = 5, stocking_days = 300, cost = '2.5' where id = ${a.id}`);
  await db.execute(sql`update products set safety_stock = 20 where id = ${b.id}`);
  const kit = await f.kit([{ productId: a.id, quantity: 2 }], 'KIT-A2');
  Object.assign(ids, { wh: wh.id, l1: l1.id, l2: l2.id, a: a.id, b: b.id, c: c.id, kit: kit.id });
  const who = { customerId: seller.customerId, userId: seller.userId };
  const doc = (type: string) => ({ type, id: randomUUID(), number: `${type}-${randomUUID().slice(0, 4)}` });
  const r1 = doc('inbound');
  const r2 = doc('inbound');
  const rb = doc('inbound');
  const rc = doc('inbound');
  await withTx(db, async (tx) => {
    await engine.postInbound(tx, who, {
      document: r1,
      lines: [{ productId: a.id, locationId: l1.id, expiryDate: null, quantity: 100 }],
    });
    await engine.postInbound(tx, who, {
      document: r2,
      lines: [{ productId: a.id, locationId: l2.id, expiryDate: null, quantity: 50 }],
    });
    await engine.postInbound(tx, who, {
      document: rb,
      lines: [{ productId: b.id, locationId: l1.id, expiryDate: dayAgo(-200), quantity: 10 }],
    });
    await engine.postInbound(tx, who, {
      document: rc,
      lines: [{ productId: c.id, locationId: l2.id, expiryDate: dayAgo(-10), quantity: 3 }],
    });
  });
  await backdate(r1.id, 100);
  await backdate(r2.id, 20);
  await backdate(rb.id, 400);
  await db.execute(
    sql`update stock_balances b set received_at = now() - make_interval(days => case
          when b.product_id = ${b.id} then 400 when b.location_id = ${l1.id} then 100 else 20 end)
        where b.customer_id = ${seller.customerId}`,
  );
  const o1 = doc('outbound');
  const o2 = doc('outbound');
  const o3 = doc('outbound');
  await withTx(db, async (tx) => {
    await engine.reserveForOrder(tx, who, { document: o1, lines: [{ productId: a.id, quantity: 10 }] });
    await engine.consumeReserved(tx, who, { document: o1 });
    await engine.reserveForOrder(tx, who, { document: o2, lines: [{ productId: kit.id, quantity: 5 }] });
    await engine.consumeReserved(tx, who, { document: o2 });
    await engine.reserveForOrder(tx, who, { document: o3, lines: [{ productId: a.id, quantity: 4 }] });
  });
  await backdate(o1.id, 5);
  await backdate(o2.id, 3);

  const [pending] = await db
    .insert(inbound_receipts)
    .values({ customer_id: seller.customerId, number: 'IN-P1', warehouse_id: wh.id, planned_date: today })
    .returning();
  await db.insert(inbound_receipt_lines).values({
    customer_id: seller.customerId,
    receipt_id: pending!.id,
    line_no: 1,
    product_id: a.id,
    quantity: 30,
  });

  // Orders: two shipped (5 and 3 days ago), one online, one waiting for export, one cancelled.
  const order = async (number: string, values: Partial<typeof outbound_orders.$inferInsert>, lines: number[][]) => {
    const [o] = await db
      .insert(outbound_orders)
      .values({ customer_id: seller.customerId, number, recipient_name: 'X', warehouse_id: wh.id, ...values })
      .returning();
    if (lines.length)
      await db.insert(outbound_order_lines).values(
        lines.map(([qty], i) => ({
          customer_id: seller.customerId,
          order_id: o!.id,
          line_no: i + 1,
          product_id: i === 0 ? a.id : kit.id,
          quantity: qty!,
        })),
      );
    return o!;
  };
  const at = (daysAgo: number, hoursBefore = 0) => new Date(Date.now() - daysAgo * 86400_000 - hoursBefore * 3600_000);
  await order(
    'O-1',
    {
      status: 'closed',
      channel: 'ecommerce',
      closed_at: at(5),
      created_at: at(5, 10),
      cod: true,
      cod_amount: '100.50',
    },
    [[10]],
  );
  await order('O-2', { status: 'closed', channel: 'manual', closed_at: at(3), created_at: at(3, 2) }, [[1], [5]]);
  await order('O-3', { status: 'online' }, [[4]]);
  await order('O-4', { status: 'pending_export' }, [[1]]);
  await order('O-5', { status: 'cancelled', cancelled_at: new Date() }, [[1]]);
});

afterAll(async () => {
  await ctx?.close();
});

/** The answer of a read that must succeed, typed by its route. */
const ok = async <T>(call: Promise<{ statusCode: number; body: string; json(): T }>): Promise<T> => {
  const res = await call;
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('purchase advice', () => {
  it('averages the outbound of the window (kits through their components) and advises what covers the stocking days', async () => {
    const page = await ok(ctx.api.analysisRoutes.purchaseAdvice({ query: { window: '30' }, token: seller.token }));
    const rowA = page.results.find((r: { product_id: string }) => r.product_id === ids.a);
    // 10 + 5 kits × 2 = 20 out in 30 days → 0.67/day; available 150 − 20 − 4 reserved = 126; 30 on the way;
    // advised = ceil(20 × 300 / 30) + 5 − 126 − 30 = 49; days left = 126 / (20/30) = 189.
    expect(rowA).toMatchObject({
      warehouse_code: 'W1',
      units_out: 20,
      avg_daily_out: 0.67,
      on_hand: 130,
      available: 126,
      incoming: 30,
      days_left: 189,
      below_safety: false,
      advised: 49,
    });
    // B is below its safety stock (10 < 20): listed first, advised 20 − 10 = 10. The kit itself is no row.
    expect(page.results[0]).toMatchObject({ product_id: ids.b, below_safety: true, advised: 10, days_left: null });
    expect(page.results.some((r: { product_id: string }) => r.product_id === ids.kit)).toBe(false);
    expect(page.count).toBe(3);
  });

  it('a 7-day window and the filters', async () => {
    const page = await ok(
      ctx.api.analysisRoutes.purchaseAdvice({ query: { window: '7', below_safety: 'true' }, token: seller.token }),
    );
    expect(page.results.map((r: { product_id: string }) => r.product_id)).toEqual([ids.b]);
    const seven = await ok(
      ctx.api.analysisRoutes.purchaseAdvice({ query: { window: '7', search: 'A-001' }, token: seller.token }),
    );
    // ceil(20 × 300 / 7) = 858; 858 + 5 − 126 − 30 = 707; 20 / 7 = 2.857 → 2.86/day.
    expect(seven.results[0]).toMatchObject({ avg_daily_out: 2.86, advised: 707 });
    const toBuy = await ok(
      ctx.api.analysisRoutes.purchaseAdvice({ query: { window: '30', to_buy: 'true' }, token: seller.token }),
    );
    expect(toBuy.count).toBe(2);
  });

  it('exports what the screen shows', async () => {
    const res = await ctx.api.analysisRoutes.exportPurchaseAdvice({
      query: { window: '30' },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode).toBe(200);
    const rows = await readBack(res.rawPayload);
    expect(rows.length).toBe(4);
    expect(rows[0]).toContain('Advised quantity');
    const header = rows[0] as string[];
    const a = rows.find((r) => r[0] === 'A-001')!;
    expect(a[header.indexOf('Advised quantity')]).toBe(49);
  });
});

async function readBack(buf: Buffer): Promise<unknown[][]> {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

describe('product turnover', () => {
  it('units out, the average end-of-day stock from the ledger, turnover and days of supply', async () => {
    const page = await ok(
      ctx.api.analysisRoutes.productTurnover({
        query: { date_from: dayAgo(29), date_to: today, dead_days: '90' },
        token: seller.token,
      }),
    );
    const rowA = page.results.find((r: { product_id: string }) => r.product_id === ids.a);
    // End-of-day on hand over the 30 days: 9 × 100 + 15 × 150 + 2 × 140 + 4 × 130 = 3950 → 131.67 on average;
    // turnover 20 / 131.67 = 0.15; days of supply 3950 / 20 = 197.5 (> 90: a slow mover); value 130 × 2.5.
    expect(rowA).toMatchObject({
      units_out: 20,
      avg_stock: 131.67,
      on_hand: 130,
      turnover: 0.15,
      days_of_supply: 197.5,
      cost: '2.5',
      stock_value: '325.00',
      slow: true,
      dead: false,
    });
    expect(rowA!.last_out_at).not.toBeNull();
    const rowB = page.results.find((r: { product_id: string }) => r.product_id === ids.b);
    expect(rowB).toMatchObject({ units_out: 0, avg_stock: 10, turnover: 0, days_of_supply: null, dead: true });
    const dead = await ok(
      ctx.api.analysisRoutes.productTurnover({
        query: { date_from: dayAgo(29), date_to: today, only: 'dead' },
        token: seller.token,
      }),
    );
    expect(dead.results.map((r: { product_id: string }) => r.product_id).sort()).toEqual([ids.b, ids.c].sort());
  });

  it('without a period: the last 30 days', async () => {
    const page = await ok(ctx.api.analysisRoutes.productTurnover({ query: { search: 'A-001' }, token: seller.token }));
    expect(page.results[0]).toMatchObject({ units_out: 20, avg_stock: 131.67 });
    const stats = await ok(ctx.api.analysisRoutes.deliverStatistics({ token: seller.token }));
    expect(stats.total.orders).toBe(2);
  });

  it('a period in the past counts the stock of those days', async () => {
    // Days −10 … −4: 6 days of 150 (−10 … −5 has the shipment of day −5 at its end: 140) → 5 × 150 + 2 × 140.
    const page = await ok(
      ctx.api.analysisRoutes.productTurnover({
        query: { date_from: dayAgo(10), date_to: dayAgo(4), search: 'A-001' },
        token: seller.token,
      }),
    );
    expect(page.results[0]).toMatchObject({ units_out: 10, avg_stock: round2((5 * 150 + 2 * 140) / 7) });
  });

  it('refuses a period that ends before it starts', async () => {
    const res = await ctx.api.analysisRoutes.productTurnover({
      query: { date_from: today, date_to: dayAgo(3) },
      token: seller.token,
    });
    expect(res.statusCode).toBe(400);
    expect(res.error().code).toBe('INVALID_FIELD');
  });
});

const round2 = (n: number) => Math.round(n * 100) / 100;

describe('stock age', () => {
  it('FIFO layers of the ledger per product and warehouse', async () => {
    const page = await ok(ctx.api.analysisRoutes.stockAge({ token: seller.token }));
    const rowA = page.results.find((r: { product_id: string }) => r.product_id === ids.a);
    // 130 on hand = the newest inflows: 50 (20 days) + 80 of the 100 (100 days).
    expect(rowA).toMatchObject({
      on_hand: 130,
      buckets: { d0_30: 50, d31_60: 0, d61_90: 0, d91_180: 80, d181_365: 0, d365_plus: 0 },
      oldest_days: 100,
    });
    const rowB = page.results.find((r: { product_id: string }) => r.product_id === ids.b);
    expect(rowB).toMatchObject({
      buckets: { d365_plus: 10 },
      oldest_days: 400,
      sellable_rule_months: 3,
      nearest_expiry: dayAgo(-200),
    });
    expect(page.results[0]!.product_id).toBe(ids.b);
  });

  it('per location, each pile by its receipt date', async () => {
    const page = await ok(
      ctx.api.analysisRoutes.stockAge({ query: { by: 'location', search: 'A-001' }, token: seller.token }),
    );
    const byLoc = Object.fromEntries(page.results.map((r) => [String(r.location_code), r]));
    const [balances] = [
      await queryRows<{ code: string; on_hand: number }>(
        ctx.deps.database.db,
        sql`select l.code, b.on_hand from stock_balances b join storage_locations l on l.id = b.location_id
            where b.product_id = ${ids.a}`,
      ),
    ];
    for (const b of balances) expect(byLoc[b.code]!.on_hand).toBe(Number(b.on_hand));
    expect(byLoc.L1!.buckets.d91_180).toBe(byLoc.L1!.on_hand);
    expect(byLoc.L2!.buckets.d0_30).toBe(byLoc.L2!.on_hand);
  });
});

describe('deliver statistics', () => {
  it('shipped orders, lines, units, COD and hours to ship per day and channel', async () => {
    const stats = await ok(
      ctx.api.analysisRoutes.deliverStatistics({
        query: { date_from: dayAgo(29), date_to: today, period: 'day', dimension: 'channel' },
        token: seller.token,
      }),
    );
    expect(stats.rows).toEqual([
      {
        period: dayAgo(5),
        key: 'ecommerce',
        orders: 1,
        lines: 1,
        units: 10,
        cod_orders: 1,
        cod_amount: '100.50',
        avg_hours_to_ship: 10,
      },
      {
        period: dayAgo(3),
        key: 'manual',
        orders: 1,
        lines: 2,
        units: 6,
        cod_orders: 0,
        cod_amount: '0.00',
        avg_hours_to_ship: 2,
      },
    ]);
    expect(stats.total).toEqual({
      orders: 2,
      lines: 3,
      units: 16,
      cod_orders: 1,
      cod_amount: '100.50',
      avg_hours_to_ship: 6,
    });
  });

  it('by month and warehouse', async () => {
    const stats = await ok(
      ctx.api.analysisRoutes.deliverStatistics({
        query: { date_from: dayAgo(364), date_to: today, period: 'month', dimension: 'warehouse' },
        token: seller.token,
      }),
    );
    // A long period counts the lines by one aggregate of the seller's lines: the same figures.
    expect(stats.total).toMatchObject({ orders: 2, lines: 3, units: 16, cod_amount: '100.50' });
    expect(stats.rows.every((r) => r.key === 'W1' && r.period.endsWith('-01'))).toBe(true);
  });
});

describe('dashboard', () => {
  it('work queues, stock alerts and 30 days of shipments', async () => {
    const d = await ok(ctx.api.analysisRoutes.dashboard({ token: seller.token }));
    expect(d).toMatchObject({
      to_export: 1,
      to_pack: 0,
      to_ship: 1,
      receipts_pending: 1,
      below_safety: 1,
      near_expiry: 1,
      // The getting-started steps this seller has done (its company data was never filled in).
      setup: { company: false, warehouse: true, location: true, product: true, receipt: true, order: true },
    });
    expect(d.shipped).toHaveLength(30);
    expect(d.shipped[29]!.day).toBe(today);
    expect(d.shipped.find((s: { day: string }) => s.day === dayAgo(5))).toEqual({
      day: dayAgo(5),
      orders: 1,
      units: 10,
    });
    expect(d.shipped.find((s: { day: string }) => s.day === dayAgo(3))).toEqual({
      day: dayAgo(3),
      orders: 1,
      units: 6,
    });
  });

  it('another seller sees none of it', async () => {
    const other = await ctx.newCustomer();
    const d = await ok(ctx.api.analysisRoutes.dashboard({ token: other.token }));
    expect(d).toMatchObject({ to_export: 0, to_ship: 0, receipts_pending: 0, below_safety: 0, near_expiry: 0 });
    expect(d.setup).toEqual({
      company: false,
      warehouse: false,
      location: false,
      product: false,
      receipt: false,
      order: false,
    });
    const saved = await ctx.api.companyRoutes.updateCompany({
      body: { name: 'Other seller', tax_id: '04595257', invoice_address: '臺北市信義區市府路 1 號' },
      token: other.token,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await ok(ctx.api.analysisRoutes.dashboard({ token: other.token }))).setup.company).toBe(true);
    expect((await ok(ctx.api.analysisRoutes.purchaseAdvice({ token: other.token }))).count).toBe(0);
    expect((await ok(ctx.api.analysisRoutes.stockAge({ token: other.token }))).count).toBe(0);
  });
});

describe('location occupancy (/location-stock analysis view)', () => {
  it('counts empty, in-use and full locations and those holding expired or unsellable lots', async () => {
    // Before: L1 holds A and B, L2 holds A and C — two piles in one cell each: both full.
    const before = await ok(ctx.api.analysisRoutes.locationOccupancy({ token: seller.token }));
    expect(before.results).toEqual([
      {
        warehouse_code: 'W1',
        area_code: null,
        shelf_code: null,
        locations: 2,
        cells: 2,
        empty: 0,
        in_use: 0,
        full: 2,
        piles: 4,
        units: 143,
        expired_locations: 0,
        unsellable_locations: 0,
      },
    ]);
    // L3 (3 cells) gets an expired lot and a lot past its sellable-until date; L4 stays empty.
    const db = ctx.deps.database.db;
    const f = stockFactory(db, seller.customerId);
    const l3 = await f.location(ids.wh!, { code: 'L3' });
    await f.location(ids.wh!, { code: 'L4' });
    await db.execute(sql`update storage_locations set cells = 3 where id = ${l3.id}`);
    const d = await f.product({ number: 'D-001', shelfLifeMonths: 6, sellableRuleMonths: 1 });
    const e = await f.product({ number: 'E-001', shelfLifeMonths: 6 });
    await withTx(db, (tx) =>
      engine.postInbound(
        tx,
        { customerId: seller.customerId, userId: seller.userId },
        {
          document: { type: 'inbound', id: randomUUID(), number: 'IN-D' },
          lines: [
            { productId: d.id, locationId: l3.id, expiryDate: dayAgo(-20), quantity: 2 },
            { productId: e.id, locationId: l3.id, expiryDate: dayAgo(1), quantity: 1 },
          ],
        },
      ),
    );
    const after = await ok(
      ctx.api.analysisRoutes.locationOccupancy({
        query: { group: 'shelf', warehouse_id: ids.wh },
        token: seller.token,
      }),
    );
    expect(after.results[0]).toMatchObject({
      locations: 4,
      cells: 6,
      empty: 1,
      in_use: 1,
      full: 2,
      piles: 6,
      units: 146,
      expired_locations: 1,
      unsellable_locations: 1,
    });
    const res = await ctx.api.analysisRoutes.exportLocationOccupancy({ token: seller.token });
    expect(res.statusCode).toBe(200);
    expect((await readBack(res.rawPayload)).length).toBe(2);
  });
});
