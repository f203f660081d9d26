import type { TReturnCounts, TReturnPrint, TReturnReceiptDetail } from '@wms/contracts';
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
let shelf: { id: string; code: string };

beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  seller = await ctx.newCustomer({ name: 'Return Seller Co.' });
  other = await ctx.newCustomer();
  f = stockFactory(ctx.deps.database.db, seller.customerId);
  r = returnsFactory(ctx.deps.database.db, { customerId: seller.customerId, userId: seller.userId });
  wh = await f.warehouse();
  sellable = await f.location(wh.id, { code: 'RET-A1' });
  defective = await f.location(wh.id, { code: 'RET-BAD', kind: 'defective' });
  shelf = await f.location(wh.id, { code: 'SHIP-1' });
}, 60_000);
afterAll(() => ctx?.close());

async function newReturn(body: Record<string, unknown>): Promise<TReturnReceiptDetail> {
  const res = await ctx.api.returnRoutes.createReturn({
    body: invalidInput({ warehouse_id: wh.id, planned_date: '2026-11-25', ...body }),
    token: seller.token,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A product shipped with an order (the order is closed), and a pending customer return of `quantity` of it. */
async function shippedAndReturned(
  category: 'customer_return' | 'undeliverable' | 'other',
  quantity = 4,
  opts: { shelfLife?: boolean } = {},
) {
  const product = await f.product(opts.shelfLife ? { shelfLifeMonths: 12 } : {});
  await r.put(product.id, shelf.id, 10, opts.shelfLife ? '2099-01-31' : null);
  const order = await r.shippedOrder(wh.id, [{ productId: product.id, quantity }]);
  const receipt = await newReturn({
    category,
    order_id: order.id,
    lines: [{ product_id: product.id, quantity }],
  });
  return { product, order, receipt };
}

const confirmBody = (
  receipt: TReturnReceiptDetail,
  good: number,
  bad: number,
  extra: Record<string, unknown> = {},
) => ({
  lines: [
    {
      line_id: receipt.lines[0]!.id,
      accepted_quantity: good + bad,
      defective_quantity: bad,
      good_quantity: good,
      location_id: good ? sellable.id : null,
      defective_location_id: bad ? defective.id : null,
      ...extra,
    },
  ],
});

describe('return receipts', () => {
  it('registers a customer return of a shipped order: pending, numbered, the order untouched until confirmation', async () => {
    const { order, receipt } = await shippedAndReturned('customer_return');
    expect(receipt).toMatchObject({
      status: 'pending',
      category: 'customer_return',
      order_id: order.id,
      order_number: order.number,
      order_status: 'closed',
      line_count: 1,
      quantity: 4,
      actions: ['edit', 'delete', 'confirm'],
    });
    expect(receipt.number).toMatch(/^RT\d{12}$/);
    expect(await r.orderStatus(order.id)).toBe('closed');
    const list = await ctx.api.returnRoutes.listReturns({ query: { search: order.number }, token: seller.token });
    expect(list.json().results.map((x: { id: string }) => x.id)).toEqual([receipt.id]);
  });

  it('confirms good stock into a sellable location and defective stock into a defective one, in one transaction; the closed order becomes closed-returned', async () => {
    const { product, order, receipt } = await shippedAndReturned('customer_return');
    const res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 3, 1),
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'confirmed',
      accepted_quantity: 4,
      good_quantity: 3,
      defective_quantity: 1,
      order_status: 'closed_returned',
      actions: ['cancel'],
    });
    expect(res.json().lines[0]).toMatchObject({ location_code: 'RET-A1', defective_location_code: 'RET-BAD' });
    const posted = await r.movementsOf(receipt.id);
    expect(posted).toHaveLength(2);
    expect(posted).toEqual(
      expect.arrayContaining([
        { product_id: product.id, location_id: sellable.id, quantity: 3, reason: 'return' },
        { product_id: product.id, location_id: defective.id, quantity: 1, reason: 'return' },
      ]),
    );
    expect((await r.onHand(product.id, sellable.id)).onHand).toBe(3);
    expect((await r.onHand(product.id, defective.id)).onHand).toBe(1);
    expect(await r.orderStatus(order.id)).toBe('closed_returned');
    const again = await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 3, 1),
      token: seller.token,
    });
    expect(again.statusCode).toBe(409);
    expect(again.error().code).toBe('INVALID_STATUS_TRANSITION');
    expect(await r.movementsOf(receipt.id)).toHaveLength(2);
    const audit = await queryRows<{ action: string; entity: string }>(
      ctx.deps.database.db,
      sql`select action, entity from audit_logs where entity_id in (${receipt.id}, ${order.id}) order by id`,
    );
    expect(audit.map((a) => `${a.entity}:${a.action}`)).toEqual([
      'return_receipt:create',
      'outbound_order:return_registered',
      'outbound_order:return_confirmed',
      'return_receipt:confirm',
    ]);
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('refuses a wrong confirmation and writes nothing: numbers, location kinds, missing lines, the lot', async () => {
    const { product, order, receipt } = await shippedAndReturned('customer_return', 4, { shelfLife: true });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        confirmBody(receipt, 3, 1, { good_quantity: 2, expiry_date: '2099-01-31' }),
        'ABNORMAL_QUANTITY',
        'good_quantity',
      ],
      [
        confirmBody(receipt, 3, 1, { location_id: defective.id, expiry_date: '2099-01-31' }),
        'INVALID_FIELD',
        'location_id',
      ],
      [
        confirmBody(receipt, 3, 1, { defective_location_id: sellable.id, expiry_date: '2099-01-31' }),
        'INVALID_FIELD',
        'defective_location_id',
      ],
      [confirmBody(receipt, 3, 0, { location_id: null, expiry_date: '2099-01-31' }), 'REQUIRED_FIELD', 'location_id'],
      [confirmBody(receipt, 3, 1), 'REQUIRED_FIELD', 'expiry_date'],
      [{ lines: [] }, 'INVALID_FIELD', 'lines'],
    ];
    for (const [body, code, field] of cases) {
      const res = await ctx.api.returnRoutes.confirmReturn({
        params: { id: receipt.id },
        body: invalidInput(body),
        token: seller.token,
      });
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.error(), JSON.stringify(body)).toMatchObject({ code, params: { field } });
    }
    expect(
      (await ctx.api.returnRoutes.getReturn({ params: { id: receipt.id }, token: seller.token })).json().status,
    ).toBe('pending');
    expect(await r.movementsOf(receipt.id)).toEqual([]);
    expect(await r.orderStatus(order.id)).toBe('closed');
    // With the lot it goes through.
    const ok = await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 4, 0, { expiry_date: '2099-01-31' }),
      token: seller.token,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().lines[0]!.expiry_date).toBe('2099-01-31');
    expect((await r.onHand(product.id, sellable.id)).onHand).toBe(4);
  });

  it('cancels a confirmation: the stock goes back out and the order back to closed; it can be confirmed again', async () => {
    const { product, order, receipt } = await shippedAndReturned('customer_return', 2);
    await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 2, 0),
      token: seller.token,
    });
    let res = await ctx.api.returnRoutes.cancelReturnConfirmation({ params: { id: receipt.id }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', order_status: 'closed', actions: ['edit', 'confirm'] });
    expect((await r.onHand(product.id, sellable.id)).onHand).toBe(0);
    expect((await r.movementsOf(receipt.id)).map((m) => [m.quantity, m.reason])).toEqual([
      [2, 'return'],
      [-2, 'return_cancel'],
    ]);
    res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 1, 1),
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.orderStatus(order.id)).toBe('closed_returned');
    expect(await checkStockInvariants(ctx.deps.database.db, { customerId: seller.customerId })).toEqual([]);
  });

  it('keeps a confirmation whose stock has been reserved meanwhile (INVENTORY_SHORTAGE, nothing changes)', async () => {
    const { product, order, receipt } = await shippedAndReturned('customer_return', 2);
    await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 2, 0),
      token: seller.token,
    });
    // Every unit is allocated to a new order: the 8 left on the shipping shelf and the 2 returned ones.
    await withTx(ctx.deps.database.db, (tx) =>
      engine.reserveForOrder(
        tx,
        { customerId: seller.customerId, userId: seller.userId },
        {
          document: { type: 'outbound', id: crypto.randomUUID(), number: 'SO-NEXT' },
          warehouseId: wh.id,
          lines: [{ productId: product.id, quantity: 10 }],
        },
      ),
    );
    const res = await ctx.api.returnRoutes.cancelReturnConfirmation({
      params: { id: receipt.id },
      token: seller.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('INVENTORY_SHORTAGE');
    expect(
      (await ctx.api.returnRoutes.getReturn({ params: { id: receipt.id }, token: seller.token })).json().status,
    ).toBe('confirmed');
    expect(await r.orderStatus(order.id)).toBe('closed_returned');
  });

  it('moves the order of an undeliverable parcel to returned, and back to closed when the confirmation is cancelled', async () => {
    const { order, receipt } = await shippedAndReturned('undeliverable', 3);
    let res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 3, 0),
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.orderStatus(order.id)).toBe('returned');
    res = await ctx.api.returnRoutes.cancelReturnConfirmation({ params: { id: receipt.id }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.orderStatus(order.id)).toBe('closed');
  });

  it("leaves the order alone for an 'other' return, and refuses an order that has not shipped", async () => {
    const { order, receipt } = await shippedAndReturned('other', 1);
    await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 1, 0),
      token: seller.token,
    });
    expect(await r.orderStatus(order.id)).toBe('closed');

    const product = await f.product();
    const unshipped = await r.shippedOrder(wh.id, [{ productId: product.id, quantity: 1 }], 'exported');
    const early = await newReturn({
      category: 'customer_return',
      order_id: unshipped.id,
      lines: [{ product_id: product.id, quantity: 1 }],
    });
    const res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: early.id },
      body: confirmBody(early, 1, 0),
      token: seller.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({
      code: 'RETURN_ORDER_STATUS',
      params: { order_number: unshipped.number, status: 'exported' },
    });
    expect(
      (await ctx.api.returnRoutes.getReturn({ params: { id: early.id }, token: seller.token })).json().status,
    ).toBe('pending');
    expect(await r.movementsOf(early.id)).toEqual([]);
    expect(await r.orderStatus(unshipped.id)).toBe('exported');
  });

  it('moves an order once for several returns of it, and back only when the last confirmation is cancelled', async () => {
    const { product, order, receipt: first } = await shippedAndReturned('customer_return', 4);
    const second = await newReturn({
      category: 'customer_return',
      order_id: order.id,
      lines: [{ product_id: product.id, quantity: 1 }],
    });
    expect(
      (
        await ctx.api.returnRoutes.confirmReturn({
          params: { id: first.id },
          body: confirmBody(first, 2, 0),
          token: seller.token,
        })
      ).statusCode,
    ).toBe(200);
    const res = await ctx.api.returnRoutes.confirmReturn({
      params: { id: second.id },
      body: confirmBody(second, 1, 0),
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.orderStatus(order.id)).toBe('closed_returned');
    await ctx.api.returnRoutes.cancelReturnConfirmation({ params: { id: first.id }, token: seller.token });
    expect(await r.orderStatus(order.id)).toBe('closed_returned');
    await ctx.api.returnRoutes.cancelReturnConfirmation({ params: { id: second.id }, token: seller.token });
    expect(await r.orderStatus(order.id)).toBe('closed');
  });

  it('edits and deletes only what its status allows', async () => {
    const product = await f.product();
    const receipt = await newReturn({
      category: 'other',
      order_number: 'SHOPEE-123',
      lines: [{ product_id: product.id, quantity: 2 }],
    });
    let res = await ctx.api.returnRoutes.updateReturn({
      params: { id: receipt.id },
      body: {
        remark: 'box damaged',
        lines: [
          { product_id: product.id, quantity: 1 },
          { product_id: product.id, quantity: 5 },
        ],
      },
      token: seller.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ remark: 'box damaged', order_number: 'SHOPEE-123', line_count: 2, quantity: 6 });
    const kit = await f.kit([{ productId: product.id, quantity: 2 }]);
    res = await ctx.api.returnRoutes.updateReturn({
      params: { id: receipt.id },
      body: { lines: [{ product_id: kit.id, quantity: 1 }] },
      token: seller.token,
    });
    expect(res.error().code).toBe('PRODUCT_ABNORMAL');
    res = await ctx.api.returnRoutes.updateReturn({
      params: { id: receipt.id },
      body: {
        lines: [{ product_id: product.id, quantity: 1, expiry_date: '2099-01-01' }],
      },
      token: seller.token,
    });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'expiry_date' } });
    const confirmed = (
      await ctx.api.returnRoutes.getReturn({ params: { id: receipt.id }, token: seller.token })
    ).json() as TReturnReceiptDetail;
    await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: {
        lines: confirmed.lines.map((l) => ({
          line_id: l.id,
          accepted_quantity: l.quantity,
          defective_quantity: 0,
          good_quantity: l.quantity,
          location_id: sellable.id,
        })),
      },
      token: seller.token,
    });
    expect(
      (
        await ctx.api.returnRoutes.updateReturn({
          params: { id: receipt.id },
          body: { remark: 'x' },
          token: seller.token,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await ctx.api.returnRoutes.deleteReturn({ params: { id: receipt.id }, token: seller.token })).statusCode,
    ).toBe(409);
    const pending = await newReturn({ category: 'other', lines: [{ product_id: product.id, quantity: 1 }] });
    expect(
      (await ctx.api.returnRoutes.deleteReturn({ params: { id: pending.id }, token: seller.token })).json(),
    ).toEqual({ ok: true });
    expect((await ctx.api.returnRoutes.getReturn({ params: { id: pending.id }, token: seller.token })).statusCode).toBe(
      404,
    );
  });

  it('looks up an order by number to prefill what left the warehouse for it', async () => {
    const a = await f.product();
    const b = await f.product();
    await r.put(a.id, shelf.id, 5);
    await r.put(b.id, shelf.id, 5);
    const kit = await f.kit([
      { productId: a.id, quantity: 1 },
      { productId: b.id, quantity: 2 },
    ]);
    const order = await r.shippedOrder(wh.id, [
      { productId: kit.id, quantity: 1 },
      { productId: a.id, quantity: 1 },
    ]);
    const res = await ctx.api.returnRoutes.lookupReturnOrder({ query: { code: order.number }, token: seller.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      order_id: order.id,
      order_status: 'closed',
      consignment_number: order.consignment_number,
    });
    expect(body.lines.map((l: { product_id: string; quantity: number }) => [l.product_id, l.quantity]).sort()).toEqual(
      [
        [a.id, 2],
        [b.id, 2],
      ].sort(),
    );
    expect(
      (await ctx.api.returnRoutes.lookupReturnOrder({ query: { code: order.number }, token: other.token })).statusCode,
    ).toBe(404);
  });

  it('exports lines, counts by status, category and product, and prints with barcodes', async () => {
    const { product, receipt } = await shippedAndReturned('customer_return', 2);
    await ctx.api.returnRoutes.confirmReturn({
      params: { id: receipt.id },
      body: confirmBody(receipt, 1, 1),
      token: seller.token,
    });
    const xlsx = await ctx.api.returnRoutes.exportReturns({ query: { search: receipt.number }, token: seller.token });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(receipt.number);
    expect(rows[1]).toContain(product.number);
    expect(rows[0]).toContain('退貨單號');

    const counts = (await ctx.api.returnRoutes.returnCounts({ token: seller.token })).json() as TReturnCounts;
    const { count: confirmedCount } = (
      await ctx.api.returnRoutes.listReturns({ query: { status: 'confirmed', page_size: '100' }, token: seller.token })
    ).json();
    expect(counts.by_status.find((s) => s.status === 'confirmed')!.count).toBe(confirmedCount);
    expect(counts.total).toBe(counts.by_status.reduce((s, x) => s + x.count, 0));
    expect(counts.products.find((p) => p.product_id === product.id)).toMatchObject({
      receipts: 1,
      accepted_quantity: 2,
      good_quantity: 1,
      defective_quantity: 1,
    });

    const print = await ctx.api.returnRoutes.printReturn({
      params: { id: receipt.id },
      token: seller.token,
      lang: 'en',
    });
    expect(print.statusCode, print.body).toBe(200);
    const p = print.json() as TReturnPrint;
    expect(p).toMatchObject({
      kind: 'return',
      number: receipt.number,
      title: 'Return receipt',
      status_label: 'Confirmed',
    });
    expect(p.company_name).toBe('Return Seller Co.');
    expect(p.number_barcode_svg).toMatch(/^<svg /);
    expect(p.lines[0]!.barcode_svg).toMatch(/^<svg /);
    expect(p.fields.find((x) => x.label === 'Return category')!.value).toBe('Customer return');
  });

  it("answers another seller's receipts and orders with 404 and changes nothing", async () => {
    const { order, receipt } = await shippedAndReturned('customer_return', 1);
    const t = other.token;
    const theirs = { params: { id: receipt.id }, token: t };
    for (const [what, call] of [
      ['get', () => ctx.api.returnRoutes.getReturn(theirs)],
      ['update', () => ctx.api.returnRoutes.updateReturn({ ...theirs, body: { remark: 'x' } })],
      ['delete', () => ctx.api.returnRoutes.deleteReturn(theirs)],
      ['confirm', () => ctx.api.returnRoutes.confirmReturn({ ...theirs, body: confirmBody(receipt, 1, 0) })],
      ['cancel confirmation', () => ctx.api.returnRoutes.cancelReturnConfirmation(theirs)],
      ['print', () => ctx.api.returnRoutes.printReturn(theirs)],
    ] as const) {
      const res = await call();
      expect(res.statusCode, what).toBe(404);
    }
    const otherF = stockFactory(ctx.deps.database.db, other.customerId);
    const otherWh = await otherF.warehouse();
    const otherProduct = await otherF.product();
    const res = await ctx.api.returnRoutes.createReturn({
      body: {
        warehouse_id: otherWh.id,
        category: 'customer_return',
        planned_date: '2026-11-25',
        order_id: order.id,
        lines: [{ product_id: otherProduct.id, quantity: 1 }],
      },
      token: t,
    });
    expect(res.error()).toMatchObject({ code: 'NOT_FOUND', params: { field: 'order_id' } });
    expect((await ctx.api.returnRoutes.listReturns({ token: t })).json().count).toBe(0);
    expect(
      (await ctx.api.returnRoutes.getReturn({ params: { id: receipt.id }, token: seller.token })).json().status,
    ).toBe('pending');
    expect(await r.orderStatus(order.id)).toBe('closed');
  });
});
