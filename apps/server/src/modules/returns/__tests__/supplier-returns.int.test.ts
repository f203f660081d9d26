import { randomUUID } from 'node:crypto';
import type { TReturnPrint, TSupplierReturnDetail, TSupplierReturnPile } from '@wms/contracts';
import { invalidInput } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { withTx } from '../../../db/tx';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';
import { checkStockInvariants } from '../../stock/stock.invariants';
import { returnsFactory } from './factories';

let ctx: TTestContext;
let seller: { customerId: string; userId: string; token: string };
let other: { customerId: string; userId: string; token: string };
let f: ReturnType<typeof stockFactory>;
let r: ReturnType<typeof returnsFactory>;
let wh: { id: string; code: string };
let sellable: { id: string; code: string };
let defective: { id: string; code: string };

beforeAll(async () => {
  ctx = await createTestContext();
  seller = await ctx.newCustomer();
  other = await ctx.newCustomer();
  f = stockFactory(ctx.deps.database.db, seller.customerId);
  r = returnsFactory(ctx.deps.database.db, { customerId: seller.customerId, userId: seller.userId });
  wh = await f.warehouse();
  sellable = await f.location(wh.id);
  defective = await f.location(wh.id, { kind: 'defective' });
}, 60_000);
afterAll(() => ctx?.close());

const who = () => ({ customerId: seller.customerId, userId: seller.userId });

const order = (lines: Array<{ balance_id: string; quantity: number }>, extra: Record<string, unknown> = {}) =>
  ctx.api.returnRoutes.createSupplierReturn({
    body: {
      warehouse_id: wh.id,
      supplier_name: 'Acme Supply',
      reason: 'defective',
      planned_date: '2026-11-30',
      lines,
      ...extra,
    },
    token: seller.token,
  });

async function supplierReturnCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.deps.database.db,
    sql`select count(*)::int as n from supplier_returns where customer_id = ${seller.customerId}`,
  );
  return Number(row!.n);
}

describe('return-to-supplier orders', () => {
  it('reserves sellable stock at once, so no order can take it, and dispatches it through the engine', async () => {
    const p = await f.product();
    const pile = await r.put(p.id, sellable.id, 10);
    const res = await order([{ balance_id: pile, quantity: 4 }], { supplier_contact: 'Ms Lin' });
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json() as TSupplierReturnDetail;
    expect(doc).toMatchObject({
      status: 'reserved',
      line_count: 1,
      quantity: 4,
      actions: ['edit', 'dispatch', 'cancel'],
      supplier_contact: 'Ms Lin',
    });
    expect(doc.number).toMatch(/^RS\d{12}$/);
    expect(doc.lines[0]).toMatchObject({ product_id: p.id, location_id: sellable.id, location_kind: 'sellable' });
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 10, reserved: 4 });
    // An order can allocate the other 6, not 7.
    await expect(
      withTx(ctx.deps.database.db, (tx) =>
        engine.reserveForOrder(tx, who(), {
          document: { type: 'outbound', id: randomUUID(), number: 'SO-X' },
          lines: [{ productId: p.id, quantity: 7 }],
        }),
      ),
    ).rejects.toMatchObject({ code: 'INVENTORY_SHORTAGE' });

    const sent = await ctx.api.returnRoutes.dispatchSupplierReturn({
      params: { id: doc.id },
      body: { consignment_number: 'HCT123' },
      token: seller.token,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'dispatched', consignment_number: 'HCT123', actions: [] });
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 6, reserved: 0 });
    expect(await r.movementsOf(doc.id)).toEqual([
      { product_id: p.id, location_id: sellable.id, quantity: -4, reason: 'return_to_supplier' },
    ]);
    const asSeller = { params: { id: doc.id }, token: seller.token };
    for (const action of [
      () => ctx.api.returnRoutes.dispatchSupplierReturn({ ...asSeller, body: {} }),
      // The cancel takes no body; the request sends `{}` all the same, as a client may.
      () => ctx.api.returnRoutes.cancelSupplierReturn({ ...asSeller, body: invalidInput({}) }),
    ]) {
      const again = await action();
      expect(again.statusCode).toBe(409);
      expect(again.error().code).toBe('INVALID_STATUS_TRANSITION');
    }
    expect(await r.movementsOf(doc.id)).toHaveLength(1);
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('cannot send stock that is reserved for an order or that is not there; nothing is created', async () => {
    const p = await f.product();
    const pile = await r.put(p.id, sellable.id, 5);
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserveForOrder(tx, who(), {
        document: { type: 'outbound', id: randomUUID(), number: 'SO-R' },
        lines: [{ productId: p.id, quantity: 4 }],
      }),
    );
    const before = await supplierReturnCount();
    let res = await order([{ balance_id: pile, quantity: 2 }]);
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'INVENTORY_SHORTAGE', params: { requested: 2, available: 1 } });
    res = await order([{ balance_id: pile, quantity: 6 }]);
    expect(res.error().code).toBe('INVENTORY_SHORTAGE');
    // A pile that does not exist (or is another seller's) is not found.
    res = await order([{ balance_id: randomUUID(), quantity: 1 }]);
    expect(res.statusCode).toBe(404);
    expect(await supplierReturnCount()).toBe(before);
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 5, reserved: 4 });
    // What is free can go.
    res = await order([{ balance_id: pile, quantity: 1 }]);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('holds defective stock by claim: a second order gets only what the first left, cancel frees it', async () => {
    const p = await f.product();
    const pile = await r.put(p.id, defective.id, 5);
    const first = (await order([{ balance_id: pile, quantity: 3 }])).json() as TSupplierReturnDetail;
    expect(first.lines[0]!.location_kind).toBe('defective');
    // The engine holds nothing for it (defective stock is never allocated); the claim does.
    expect(await r.onHand(p.id, defective.id)).toEqual({ onHand: 5, reserved: 0 });
    const piles = (
      await ctx.api.returnRoutes.listSupplierReturnPiles({
        query: { warehouse_id: wh.id, location_kind: 'defective', search: p.number },
        token: seller.token,
      })
    ).json().results as TSupplierReturnPile[];
    expect(piles).toEqual([expect.objectContaining({ balance_id: pile, on_hand: 5, reserved: 0, available: 2 })]);
    let res = await order([{ balance_id: pile, quantity: 3 }]);
    expect(res.error()).toMatchObject({ code: 'INVENTORY_SHORTAGE', params: { requested: 3, available: 2 } });
    res = await order([{ balance_id: pile, quantity: 2 }]);
    expect(res.statusCode).toBe(201);
    const second = res.json() as TSupplierReturnDetail;

    res = await ctx.api.returnRoutes.cancelSupplierReturn({ params: { id: first.id }, token: seller.token });
    expect(res.json().status).toBe('cancelled');
    const after = (
      await ctx.api.returnRoutes.listSupplierReturnPiles({
        query: { warehouse_id: wh.id, search: p.number },
        token: seller.token,
      })
    ).json().results as TSupplierReturnPile[];
    expect(after[0]!.available).toBe(3);

    res = await ctx.api.returnRoutes.dispatchSupplierReturn({
      params: { id: second.id },
      body: {},
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.onHand(p.id, defective.id)).toEqual({ onHand: 3, reserved: 0 });
    expect(await r.movementsOf(second.id)).toEqual([
      { product_id: p.id, location_id: defective.id, quantity: -2, reason: 'return_to_supplier' },
    ]);
    expect(await r.movementsOf(first.id)).toEqual([]);
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('refuses to dispatch claimed stock that has gone meanwhile, and keeps the order reserved', async () => {
    const p = await f.product();
    const pile = await r.put(p.id, defective.id, 2);
    const doc = (await order([{ balance_id: pile, quantity: 2 }])).json() as TSupplierReturnDetail;
    // Someone moves the defective units to another location before the truck comes.
    const elsewhere = await f.location(wh.id, { kind: 'defective' });
    await withTx(ctx.deps.database.db, (tx) =>
      engine.transfer(tx, who(), {
        document: { type: 'transfer', id: null, number: 'TR-X' },
        lines: [{ balanceId: pile, toLocationId: elsewhere.id, quantity: 2 }],
      }),
    );
    const res = await ctx.api.returnRoutes.dispatchSupplierReturn({
      params: { id: doc.id },
      body: {},
      token: seller.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('INVENTORY_SHORTAGE');
    expect(
      (await ctx.api.returnRoutes.getSupplierReturn({ params: { id: doc.id }, token: seller.token })).json().status,
    ).toBe('reserved');
  });

  it('cancels a reserved order: the reservation is released; mixed piles dispatch in one transaction', async () => {
    const p = await f.product();
    const good = await r.put(p.id, sellable.id, 3);
    const bad = await r.put(p.id, defective.id, 3);
    const doc = (
      await order([
        { balance_id: good, quantity: 1 },
        { balance_id: good, quantity: 1 },
        { balance_id: bad, quantity: 3 },
      ])
    ).json() as TSupplierReturnDetail;
    expect(doc.lines.map((l) => l.quantity).sort()).toEqual([2, 3]);
    let res = await ctx.api.returnRoutes.updateSupplierReturn({
      params: { id: doc.id },
      body: { supplier_phone: '0223456789', remark: 'RMA 7' },
      token: seller.token,
    });
    expect(res.json()).toMatchObject({ supplier_phone: '0223456789', remark: 'RMA 7' });
    res = await ctx.api.returnRoutes.cancelSupplierReturn({ params: { id: doc.id }, token: seller.token });
    expect(res.json().status).toBe('cancelled');
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 3, reserved: 0 });
    expect(
      (
        await ctx.api.returnRoutes.updateSupplierReturn({
          params: { id: doc.id },
          body: { remark: 'x' },
          token: seller.token,
        })
      ).statusCode,
    ).toBe(409);

    const again = (
      await order([
        { balance_id: good, quantity: 2 },
        { balance_id: bad, quantity: 3 },
      ])
    ).json() as TSupplierReturnDetail;
    res = await ctx.api.returnRoutes.dispatchSupplierReturn({
      params: { id: again.id },
      body: {},
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 1, reserved: 0 });
    expect(await r.onHand(p.id, defective.id)).toEqual({ onHand: 0, reserved: 0 });
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('prints the document with barcodes and exports its lines', async () => {
    const p = await f.product({ barcode: '4710000000015' });
    const pile = await r.put(p.id, defective.id, 1);
    const doc = (
      await order([{ balance_id: pile, quantity: 1 }], { reason: 'expired' })
    ).json() as TSupplierReturnDetail;
    const print = await ctx.api.returnRoutes.printSupplierReturn({
      params: { id: doc.id },
      token: seller.token,
      lang: 'ja',
    });
    expect(print.statusCode, print.body).toBe(200);
    const body = print.json() as TReturnPrint;
    expect(body).toMatchObject({ kind: 'supplier_return', number: doc.number, title: '仕入先返品伝票' });
    expect(body.fields.find((x) => x.label === '返品理由')!.value).toBe('期限切れ');
    expect(body.lines[0]).toMatchObject({ barcode: '4710000000015', location_code: defective.code, quantity: 1 });
    expect(body.lines[0]!.barcode_svg).toMatch(/^<svg /);
    const xlsx = await ctx.api.returnRoutes.exportSupplierReturns({
      query: { search: doc.number },
      token: seller.token,
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(doc.number);
    expect(rows[1]).toContain('Acme Supply');
  });

  it("answers another seller's orders and piles with 404 and changes nothing", async () => {
    const p = await f.product();
    const pile = await r.put(p.id, sellable.id, 2);
    const doc = (await order([{ balance_id: pile, quantity: 1 }])).json() as TSupplierReturnDetail;
    const t = other.token;
    const theirs = { params: { id: doc.id }, token: t };
    for (const [what, call] of [
      ['get', () => ctx.api.returnRoutes.getSupplierReturn(theirs)],
      ['update', () => ctx.api.returnRoutes.updateSupplierReturn({ ...theirs, body: { remark: 'x' } })],
      ['dispatch', () => ctx.api.returnRoutes.dispatchSupplierReturn({ ...theirs, body: {} })],
      ['cancel', () => ctx.api.returnRoutes.cancelSupplierReturn(theirs)],
      ['print', () => ctx.api.returnRoutes.printSupplierReturn(theirs)],
      ['piles', () => ctx.api.returnRoutes.listSupplierReturnPiles({ query: { warehouse_id: wh.id }, token: t })],
    ] as const) {
      expect((await call()).statusCode, what).toBe(404);
    }
    const otherWh = await stockFactory(ctx.deps.database.db, other.customerId).warehouse();
    const res = await ctx.api.returnRoutes.createSupplierReturn({
      body: {
        warehouse_id: otherWh.id,
        supplier_name: 'x',
        reason: 'other',
        planned_date: '2026-11-30',
        lines: [{ balance_id: pile, quantity: 1 }],
      },
      token: t,
    });
    expect(res.statusCode).toBe(404);
    expect(
      (await ctx.api.returnRoutes.getSupplierReturn({ params: { id: doc.id }, token: seller.token })).json().status,
    ).toBe('reserved');
    expect(await r.onHand(p.id, sellable.id)).toEqual({ onHand: 2, reserved: 1 });
  });
});
