import { outboundRoutes, type TBatchDetail, type TOrder, type TOrderDetail, type TPrintData } from '@wms/contracts';
import { invalidInput, type TRouteInput, type TRouteResponse } from '@wms/contracts/client';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { audit_logs, packaging_materials, products } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { TActor } from '../../../platform/auth';
import { taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { checkStockInvariants } from '../../stock/stock.invariants';
import { addMonths } from '../../stock/stock.rules';
import { applyReturnEvent, findShippedOrder } from '../outbound.service';
import { createOrder, outboundWorld, readXlsx, recipient, type TWorld, transition, xlsx } from './factories';

let ctx: TTestContext;
let w: TWorld;
const today = taipeiToday();
const lot = { soon: addMonths(today, 1), y: addMonths(today, 4), x: addMonths(today, 6) };

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx);
  await w.put([
    { productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 10 },
    { productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 5 },
    { productId: w.phone.id, locationId: w.loc.C3.id, expiryDate: null, quantity: 6 },
    // FEFO: Y (4 months) before X (6 months); the 1-month lot is past its sellable date (rule: 2 months).
    { productId: w.fresh.id, locationId: w.loc.C3.id, expiryDate: lot.y, quantity: 3 },
    { productId: w.fresh.id, locationId: w.loc.A.id, expiryDate: lot.x, quantity: 10 },
    { productId: w.fresh.id, locationId: w.loc.C4.id, expiryDate: lot.soon, quantity: 50 },
  ]);
}, 60_000);
afterAll(() => ctx?.close());

const detail = async (id: string) =>
  (await ctx.api.outboundRoutes.getOrder({ params: { id }, token: w.token })).json() as TOrderDetail;
async function balances(productId: string) {
  return queryRows<{ code: string; expiry: string | null; on_hand: number; reserved: number }>(
    ctx.deps.database.db,
    sql`select l.code, b.expiry_date::text as expiry, b.on_hand, b.reserved from stock_balances b
        join storage_locations l on l.id = b.location_id where b.product_id = ${productId} order by l.code, b.expiry_date`,
  );
}
const scan = (id: string, barcode: string, serial?: string) =>
  ctx.api.outboundRoutes.packScan({ params: { id }, body: serial ? { barcode, serial } : { barcode }, token: w.token });
type TOrderBody = TRouteInput<typeof outboundRoutes.createOrder>['body'];

describe('orders: create and validate', () => {
  it('creates an order with every spec field, defaults the warehouse and sender, and normalises phone and postcode', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 2 }], {
      platform_order_number: 'SH-1001',
      third_party_number: 'TP-9',
      platform_id: w.shop.id,
      channel: 'ecommerce',
      category: 'presale',
      recipient_mobile: '+886 912 000 111',
      recipient_postcode: '106-03',
      shipping_remark: 'fragile',
      arrival_date: addMonths(today, 1),
      arrival_time_slot: 'afternoon',
      logistics_provider_id: w.carrier.id,
      cod: true,
      cod_amount: '1280.5',
      total_amount: '1280.50',
      piece_count: 2,
      volume: '0002',
    });
    expect(o).toMatchObject({
      status: 'pending_export',
      platform_order_number: 'SH-1001',
      platform_code: 'SHOPEE',
      channel: 'ecommerce',
      category: 'presale',
      recipient_phone: '0912345678',
      recipient_mobile: '0912000111',
      recipient_postcode: '10603',
      warehouse_id: w.wh.id,
      sender_name: 'Outbound seller',
      logistics_provider_code: 'TCAT',
      cod: true,
      cod_amount: '1280.50',
      piece_count: 2,
      volume: '0002',
      line_count: 1,
      unit_count: 2,
    });
    expect(o.number).toMatch(/^OUT\d{8}\d{4}$/);
    expect(o.lines[0]).toMatchObject({ product_number: w.plain.number, quantity: 2 });
    const audit = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity_id, o.id));
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('refuses orders with the spec messages: required phone, postcode format, channel, product, volume', async () => {
    const post = (body: TOrderBody, lang = 'en') => ctx.api.outboundRoutes.createOrder({ body, token: w.token, lang });
    const line = [{ product_id: w.plain.id, quantity: 1 }];
    let res = await post({ ...recipient, recipient_phone: '', lines: line });
    expect(res.statusCode).toBe(400);
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'recipient_phone' } });
    res = await post({ ...recipient, recipient_postcode: '12', lines: line });
    expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'recipient_postcode' } });
    res = await post({ ...recipient, recipient_address: '', lines: line }, 'zh-TW');
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', message: '收件人地址為必填' });
    res = await post({ ...recipient, channel: 'ecommerce', lines: line });
    expect(res.error().code).toBe('CHANNEL_ABNORMAL');
    res = await post({ ...recipient, cod: true, lines: line });
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'cod_amount' } });
    const [stopped] = await w.f.product().then(async (p) => {
      await ctx.deps.database.db.update(products).set({ allow_shipping: false }).where(eq(products.id, p.id));
      return [p];
    });
    res = await post({ ...recipient, lines: [{ product_id: stopped!.id, quantity: 1 }] });
    expect(res.error().code).toBe('PRODUCT_ABNORMAL');
    const bulky = await w.f.product();
    await ctx.deps.database.db.update(products).set({ volume_required: true }).where(eq(products.id, bulky.id));
    res = await post({ ...recipient, lines: [{ product_id: bulky.id, quantity: 1 }] }, 'en');
    expect(res.error()).toMatchObject({
      code: 'REQUIRED_FIELD',
      params: { field: 'volume' },
      message: 'Volume is required',
    });
    expect(
      (await post({ ...recipient, volume: '0001', lines: [{ product_id: bulky.id, quantity: 1 }] })).statusCode,
    ).toBe(201);
    // The same platform order number twice is refused.
    const dup = { ...recipient, platform_order_number: 'DUP-1', lines: line };
    expect((await post(dup)).statusCode).toBe(201);
    res = await post(dup);
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'platform_order_number' } });
  });

  it('answers ABNORMAL_QUANTITY for a line quantity that is not 1…100,000 (as receipts and the order import do)', async () => {
    const post = (body: TOrderBody) => ctx.api.outboundRoutes.createOrder({ body, token: w.token, lang: 'en' });
    for (const quantity of [0, -3, 1.5, 100_001]) {
      const res = await post({
        ...recipient,
        lines: [
          { product_id: w.plain.id, quantity: 1 },
          { product_id: w.plain.id, quantity },
        ],
      });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.error()).toMatchObject({
        code: 'ABNORMAL_QUANTITY',
        message: 'Abnormal quantity',
        params: { field: 'lines.1.quantity', line: 2, value: quantity },
      });
    }
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
    const res = await ctx.api.outboundRoutes.updateOrder({
      params: { id: o.id },
      body: { lines: [{ product_id: w.plain.id, quantity: 0 }] },
      token: w.token,
    });
    expect(res.statusCode).toBe(400);
    expect(res.error()).toMatchObject({ code: 'ABNORMAL_QUANTITY', params: { field: 'lines.0.quantity' } });
    // Not a number at all stays a format error.
    const text = await post({ ...recipient, lines: [{ product_id: w.plain.id, quantity: invalidInput('two') }] });
    expect(text.error()).toMatchObject({
      code: 'INVALID_FIELD',
      message: 'Quantity on line 1 is not valid',
      params: { field: 'lines.0.quantity' },
    });
  });

  it('edits only while pending export', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
    const patch = (body: TRouteInput<typeof outboundRoutes.updateOrder>['body']) =>
      ctx.api.outboundRoutes.updateOrder({ params: { id: o.id }, body, token: w.token });
    const res = await patch({ recipient_name: '李大華', lines: [{ product_id: w.plain.id, quantity: 3 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ recipient_name: '李大華', unit_count: 3, recipient_phone: '0912345678' });
    expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(200);
    const refused = await patch({ recipient_name: 'x' });
    expect(refused.statusCode).toBe(409);
    expect(refused.error().code).toBe('INVALID_STATUS_TRANSITION');
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    await transition(ctx, w.token, o.id, 'grant_cancel_export');
  });
});

describe('export: allocation through the stock engine', () => {
  it('reserves FEFO honouring the sellable-date rule', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.fresh.id, quantity: 5 }]);
    const res = await transition(ctx, w.token, o.id, 'export');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as TOrderDetail;
    expect(d.status).toBe('exported');
    expect(d.allocations.map((a) => [a.location_code, a.expiry_date, a.quantity])).toEqual([
      ['A-01', lot.x, 2],
      ['C-03', lot.y, 3],
    ]);
    // the lot one month from expiry (rule: 2 months) is never allocated
    const soon = (await balances(w.fresh.id)).find((b) => b.expiry === lot.soon)!;
    expect(soon.reserved).toBe(0);
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    await transition(ctx, w.token, o.id, 'grant_cancel_export');
  });

  it('explodes a combination into its components', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.kit.id, quantity: 2 }]);
    const d = (await transition(ctx, w.token, o.id, 'export')).json() as TOrderDetail;
    const byProduct = new Map<string, number>();
    for (const a of d.allocations) byProduct.set(a.product_number, (byProduct.get(a.product_number) ?? 0) + a.quantity);
    expect(Object.fromEntries(byProduct)).toEqual({ [w.plain.number]: 4, [w.phone.number]: 2 });
    // FIFO ties broken by the walking order: B-02 (sequence 1) before A-01
    expect(d.allocations.find((a) => a.product_id === w.plain.id)!.location_code).toBe('B-02');
    expect(d.pack_items.map((i) => [i.product_number, i.expected, i.requires_serial])).toEqual(
      [
        [w.phone.number, 2, true],
        [w.plain.number, 4, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    await transition(ctx, w.token, o.id, 'grant_cancel_export');
  });

  it('allocates an order fully or not at all: a short line leaves it pending with the reason visible', async () => {
    const reservedBefore = (await balances(w.phone.id)).reduce((s, b) => s + b.reserved, 0);
    const o = await createOrder(ctx, w.token, [
      { product_id: w.phone.id, quantity: 1 },
      { product_id: w.plain.id, quantity: 999 },
    ]);
    const res = await ctx.api.outboundRoutes.transitionOrder({
      params: { id: o.id },
      body: { action: 'export' },
      token: w.token,
      lang: 'en',
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({
      code: 'INVENTORY_SHORTAGE',
      message: 'Inventory shortage',
      params: { product_number: w.plain.number, requested: 999 },
    });
    const after = await detail(o.id);
    expect(after.status).toBe('pending_export');
    expect(after.abnormal).toMatchObject({ code: 'INVENTORY_SHORTAGE', params: { product_number: w.plain.number } });
    expect(after.allocations).toEqual([]);
    expect((await balances(w.phone.id)).reduce((s, b) => s + b.reserved, 0)).toBe(reservedBefore);
    const listed = await ctx.api.outboundRoutes.listOrders({ query: { abnormal: 'true' }, token: w.token });
    expect((listed.json() as { results: TOrder[] }).results.map((r) => r.id)).toContain(o.id);
    // fixed quantity → exports, and the reason is cleared
    await ctx.api.outboundRoutes.updateOrder({
      params: { id: o.id },
      body: { lines: [{ product_id: w.plain.id, quantity: 1 }] },
      token: w.token,
    });
    const ok = (await transition(ctx, w.token, o.id, 'export')).json() as TOrderDetail;
    expect(ok).toMatchObject({ status: 'exported', abnormal: null });
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    await transition(ctx, w.token, o.id, 'grant_cancel_export');
  });

  it('answers illegal transitions with 409 and changes nothing', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
    for (const action of [
      'start_packing',
      'grant_cancel_export',
      'refuse_cancel_export',
      'request_cancel_export',
    ] as const)
      expect((await transition(ctx, w.token, o.id, action)).statusCode, action).toBe(409);
    expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(200);
    for (const action of ['export', 'cancel', 'grant_cancel_export'] as const) {
      const res = await transition(ctx, w.token, o.id, action);
      expect(res.statusCode, action).toBe(409);
      expect(res.error().code).toBe('INVALID_STATUS_TRANSITION');
    }
    const ship = await ctx.api.outboundRoutes.shipOrder({ params: { id: o.id }, body: {}, token: w.token });
    expect(ship.statusCode).toBe(409);
    expect((await detail(o.id)).status).toBe('exported');
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    await transition(ctx, w.token, o.id, 'grant_cancel_export');
    expect((await transition(ctx, w.token, o.id, 'cancel')).json().status).toBe('cancelled');
    expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(409);
  });

  it('cancel export: a request keeps the stock, a refusal returns, a grant releases the reservation', async () => {
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 3 }]);
    await transition(ctx, w.token, o.id, 'export');
    const reserved = async () => (await balances(w.plain.id)).reduce((s, b) => s + b.reserved, 0);
    const held = await reserved();
    expect((await transition(ctx, w.token, o.id, 'request_cancel_export')).json().status).toBe('cancel_export');
    expect(await reserved()).toBe(held);
    expect((await transition(ctx, w.token, o.id, 'refuse_cancel_export')).json().status).toBe('exported');
    await transition(ctx, w.token, o.id, 'start_packing');
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    expect((await transition(ctx, w.token, o.id, 'refuse_cancel_export')).json().status).toBe('online');
    await transition(ctx, w.token, o.id, 'request_cancel_export');
    const granted = (await transition(ctx, w.token, o.id, 'grant_cancel_export')).json() as TOrderDetail;
    expect(granted).toMatchObject({ status: 'pending_export', allocations: [], pack_items: [] });
    expect(await reserved()).toBe(held - 3);
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
  });

  it('bulk actions report per order and never stop at the first failure', async () => {
    const a = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
    const b = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 5000 }]);
    const res = await ctx.api.outboundRoutes.bulkTransition({
      body: { action: 'export', ids: [a.id, b.id] },
      token: w.token,
    });
    expect(res.json()).toMatchObject({
      succeeded: 1,
      failed: 1,
      results: [
        { id: a.id, ok: true, status: 'exported' },
        { id: b.id, ok: false, status: 'pending_export', error: { code: 'INVENTORY_SHORTAGE' } },
      ],
    });
    await transition(ctx, w.token, a.id, 'request_cancel_export');
    await transition(ctx, w.token, a.id, 'grant_cancel_export');
  });
});

describe('packing station and shipping', () => {
  let order: TOrderDetail;

  it('refuses a wrong item and an extra unit, captures IMEIs once, and ships: stock and packaging go down', async () => {
    order = await createOrder(ctx, w.token, [{ product_id: w.kit.id, quantity: 1 }]);
    await transition(ctx, w.token, order.id, 'export');
    const stockBefore = await balances(w.plain.id);

    let res: TRouteResponse<unknown> = await scan(order.id, w.fresh.number);
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('PACK_ITEM_NOT_IN_ORDER');
    expect((await detail(order.id)).status).toBe('exported'); // a refused scan changes nothing

    // scanning by barcode or product number
    expect((await scan(order.id, w.plain.barcode!)).json().items).toBeTruthy();
    expect((await detail(order.id)).status).toBe('online');
    expect((await scan(order.id, w.plain.number)).statusCode).toBe(200);
    res = await scan(order.id, w.plain.barcode!);
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('PACK_ITEM_COMPLETE');

    res = await scan(order.id, w.phone.number);
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'serial' } });
    res = await scan(order.id, w.phone.number, '356938035643809');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ complete: true });

    // ship: needs a consignment number
    res = await ctx.api.outboundRoutes.shipOrder({ params: { id: order.id }, body: {}, token: w.token });
    expect(res.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'consignment_number' } });
    res = await ctx.api.outboundRoutes.setConsignment({
      params: { id: order.id },
      body: { consignment_number: '9001234567', piece_count: 1 },
      token: w.token,
    });
    expect(res.statusCode).toBe(200);
    // packaging that is not in stock rolls the whole confirmation back
    res = await ctx.api.outboundRoutes.shipOrder({
      params: { id: order.id },
      body: { packaging: [{ packaging_material_id: w.box.id, quantity: 11 }] },
      token: w.token,
    });
    expect(res.error().code).toBe('PACKAGING_SHORTAGE');
    expect((await detail(order.id)).status).toBe('online');

    res = await ctx.api.outboundRoutes.shipOrder({
      params: { id: order.id },
      body: { packaging: [{ packaging_material_id: w.box.id, quantity: 1 }] },
      token: w.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const shipped = res.json() as TOrderDetail;
    expect(shipped).toMatchObject({ status: 'closed', allocations: [], shipping_date: today });
    expect(shipped.packaging).toEqual([
      { packaging_material_id: w.box.id, code: 'BOX-S', name: 'Small box', quantity: 1 },
    ]);
    const [box] = await ctx.deps.database.db
      .select()
      .from(packaging_materials)
      .where(eq(packaging_materials.id, w.box.id));
    expect(box!.quantity).toBe(9);
    const onHand = (rows: Awaited<ReturnType<typeof balances>>) => rows.reduce((s, b) => s + b.on_hand, 0);
    expect(onHand(await balances(w.plain.id))).toBe(onHand(stockBefore) - 2);
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
    const ledger = await queryRows<{ reason: string; quantity: number }>(
      ctx.deps.database.db,
      sql`select reason, quantity from stock_movements where document_id = ${order.id} order by id`,
    );
    expect(ledger.map((l) => [l.reason, Number(l.quantity)]).sort()).toEqual([
      ['outbound', -1],
      ['outbound', -2],
    ]);
    // shipping twice is refused
    res = await ctx.api.outboundRoutes.shipOrder({ params: { id: order.id }, body: {}, token: w.token });
    expect(res.statusCode).toBe(409);
  });

  it('ships an IMEI once, and finds it both ways', async () => {
    const other = await createOrder(ctx, w.token, [{ product_id: w.phone.id, quantity: 1 }]);
    await transition(ctx, w.token, other.id, 'export');
    const res = await scan(other.id, w.phone.number, '356938035643809');
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'SERIAL_ALREADY_SHIPPED', params: { order_number: order.number } });
    expect((await scan(other.id, w.phone.number, 'IMEI-OTHER-1')).statusCode).toBe(200);

    const bySerial = (
      await ctx.api.outboundRoutes.listSerials({ query: { serial: '356938035643809' }, token: w.token })
    ).json();
    expect(bySerial).toMatchObject({
      count: 1,
      results: [{ order_number: order.number, product_number: w.phone.number }],
    });
    expect(bySerial.results[0]!.shipped_at).toBeTruthy();
    const byOrder = (
      await ctx.api.outboundRoutes.listSerials({ query: { order_id: other.id }, token: w.token })
    ).json();
    expect(byOrder.results.map((s: { serial: string }) => s.serial)).toEqual(['IMEI-OTHER-1']);
    const search = (
      await ctx.api.outboundRoutes.listSerials({ query: { search: order.number }, token: w.token })
    ).json();
    expect(search.count).toBe(1);

    // reset the box of the second order: its serial is free again
    const reset = await ctx.api.outboundRoutes.packReset({ params: { id: other.id }, token: w.token });
    expect(reset.json().items[0]).toMatchObject({ packed: 0, serials: [] });
    expect(
      (await ctx.api.outboundRoutes.listSerials({ query: { serial: 'IMEI-OTHER-1' }, token: w.token })).json().count,
    ).toBe(0);
  });

  it('moves a shipped order through returns (the service returns calls) and frees its IMEIs', async () => {
    const db = ctx.deps.database.db;
    const actor: TActor = { kind: 'user', id: w.seller.userId, role: 'CUSTOMER', customerId: w.customerId };
    const shipped = await findShippedOrder(db, w.customerId, order.id);
    expect(shipped.shipped.map((s) => s.quantity).sort()).toEqual([1, 2]);
    await expect(
      withTx(db, (tx) => applyReturnEvent(tx, actor, { orderId: order.id, event: 'return_cancelled' })),
    ).rejects.toMatchObject({ code: 'INVALID_STATUS_TRANSITION' });
    const returned = await withTx(db, (tx) =>
      applyReturnEvent(tx, actor, { orderId: order.id, event: 'return_registered', returnNumber: 'RT-1' }),
    );
    expect(returned.status).toBe('returned');
    expect(
      (await ctx.api.outboundRoutes.listSerials({ query: { serial: '356938035643809' }, token: w.token })).json()
        .results[0]!.returned_at,
    ).toBeTruthy();
    const back = await withTx(db, (tx) =>
      applyReturnEvent(tx, actor, { orderId: order.id, event: 'return_cancelled' }),
    );
    expect(back.status).toBe('closed');
    expect(
      (await ctx.api.outboundRoutes.listSerials({ query: { serial: '356938035643809' }, token: w.token })).json()
        .results[0]!.returned_at,
    ).toBeNull();
    await withTx(db, (tx) => applyReturnEvent(tx, actor, { orderId: order.id, event: 'return_registered' }));
    const closed = await withTx(db, (tx) =>
      applyReturnEvent(tx, actor, { orderId: order.id, event: 'return_confirmed' }),
    );
    expect(closed.status).toBe('closed_returned');
    expect(
      (await ctx.api.outboundRoutes.listSerials({ query: { serial: '356938035643809' }, token: w.token })).json()
        .results[0]!.returned_at,
    ).toBeTruthy();
    const foreign: TActor = {
      kind: 'user',
      id: w.seller.userId,
      role: 'CUSTOMER',
      customerId: (await ctx.newCustomer()).customerId,
    };
    await expect(
      withTx(db, (tx) => applyReturnEvent(tx, foreign, { orderId: order.id, event: 'return_unconfirmed' })),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('consignment numbers', () => {
  it('sets, refuses duplicates, and takes a file all or nothing', async () => {
    const a = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
      platform_order_number: 'CN-A',
    });
    const b = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
      platform_order_number: 'CN-B',
    });
    const set = (id: string, consignment_number: string) =>
      ctx.api.outboundRoutes.setConsignment({ params: { id }, body: { consignment_number }, token: w.token });
    expect((await set(a.id, 'TC-0001')).json()).toMatchObject({ consignment_number: 'TC-0001' });
    const dup = await set(b.id, 'TC-0001');
    expect(dup.statusCode).toBe(409);
    expect(dup.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'consignment_number' } });

    const bulk = (items: TRouteInput<typeof outboundRoutes.setConsignments>['body']['items']) =>
      ctx.api.outboundRoutes.setConsignments({ body: { items }, token: w.token, lang: 'en' });
    let res = await bulk([
      { order: 'CN-B', consignment_number: 'TC-0002' },
      { order: b.number, consignment_number: 'TC-0002' },
      { order: 'NOPE', consignment_number: 'TC-0003' },
      { order: 'CN-B', consignment_number: 'TC-0001' },
    ]);
    expect(res.statusCode).toBe(400);
    expect((res.error().params?.errors as Array<{ row: number; code: string }>).map((e) => [e.row, e.code])).toEqual([
      [2, 'DUPLICATE_VALUE'],
      [3, 'NOT_FOUND'],
      [4, 'DUPLICATE_VALUE'],
    ]);
    expect((await detail(b.id)).consignment_number).toBeNull();
    // swapping numbers within one input is fine
    res = await bulk([
      { order: 'CN-A', consignment_number: 'TC-0009' },
      { order: 'CN-B', consignment_number: 'TC-0001', shipping_date: today, piece_count: 2 },
    ]);
    expect(res.json()).toEqual({ updated: 2 });
    expect(await detail(b.id)).toMatchObject({ consignment_number: 'TC-0001', piece_count: 2, shipping_date: today });

    const file = await xlsx([
      ['訂單編號', '託運單號', '出貨日期'],
      ['CN-A', 'HCT-100', today],
      [b.number, 'HCT-101', null],
    ]);
    res = await ctx.api.outboundRoutes.uploadConsignments({
      body: { file_base64: file.toString('base64') },
      token: w.token,
    });
    expect(res.json(), res.body).toEqual({ updated: 2 });
    const byCode = await ctx.api.outboundRoutes.lookupOrder({ query: { code: 'HCT-101' }, token: w.token });
    expect(byCode.json().id).toBe(b.id);
  });
});

describe('collection batches, pick lists and prints', () => {
  let batch: TBatchDetail;
  let o1: TOrderDetail;
  let o2: TOrderDetail;

  it('batches exported orders only and prints a pick list in walking order', async () => {
    o1 = await createOrder(
      ctx,
      w.token,
      [
        { product_id: w.plain.id, quantity: 12 },
        { product_id: w.fresh.id, quantity: 1 },
      ],
      { platform_order_number: 'ZZ-2' },
    );
    o2 = await createOrder(ctx, w.token, [{ product_id: w.phone.id, quantity: 1 }], { platform_order_number: 'AA-1' });
    const pending = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
    await transition(ctx, w.token, o1.id, 'export');
    await transition(ctx, w.token, o2.id, 'export');
    const create = (order_ids: string[]) => ctx.api.outboundRoutes.createBatch({ body: { order_ids }, token: w.token });
    const refused = await create([o1.id, pending.id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.error().params?.orders).toEqual([pending.number]);
    const res = await create([o1.id, o2.id]);
    expect(res.statusCode).toBe(201);
    batch = res.json();
    expect(batch).toMatchObject({ order_count: 2, exported_count: 2, warehouse_id: w.wh.id });
    expect(batch.number).toMatch(/^CB\d{12}$/);
    expect((await create([o1.id])).statusCode).toBe(409); // already in a batch

    const pick = (
      await ctx.api.outboundRoutes.batchPickList({ params: { id: batch.id }, token: w.token })
    ).json() as TPrintData;
    const codes = pick.pick_rows.map((r) => r.location_code);
    const walk = ['B-02', 'A-01', 'C-03', 'C-04'];
    expect([...codes].sort((a, b) => walk.indexOf(a!) - walk.indexOf(b!))).toEqual(codes);
    expect(pick.total_units).toBe(14);
    const plainRows = pick.pick_rows.filter((r) => r.product_id === w.plain.id);
    expect(plainRows.reduce((s, r) => s + r.quantity, 0)).toBe(12);
    expect(pick.batch?.number).toBe(batch.number);
  });

  it('orders prints by order number, location or product', async () => {
    const by = async (orderby: NonNullable<TRouteInput<typeof outboundRoutes.printData>['query']>['orderby']) =>
      (await ctx.api.outboundRoutes.printData({ params: { id: batch.id }, query: { orderby }, token: w.token }))
        .json()
        .orders.map((o) => o.id);
    expect(await by('number')).toEqual(o1.number < o2.number ? [o1.id, o2.id] : [o2.id, o1.id]);
    // o1 picks from B-02 (first in the walk); o2 only from C-03
    expect(await by('location')).toEqual([o1.id, o2.id]);
    const productOrder = [o1, o2].sort((a, b) =>
      [...a.lines.map((l) => l.product_number)].sort()[0]! < [...b.lines.map((l) => l.product_number)].sort()[0]!
        ? -1
        : 1,
    );
    expect(await by('product')).toEqual(productOrder.map((o) => o.id));
    const single = (
      await ctx.api.outboundRoutes.printData({ params: { id: o2.id }, query: { orderby: 'number' }, token: w.token })
    ).json() as TPrintData;
    expect(single.orders).toHaveLength(1);
    expect(single.orders[0]!.allocations[0]!.location_code).toBe('C-03');
    const selection = (
      await ctx.api.outboundRoutes.printSelection({
        query: { ids: `${o1.id},${o2.id}`, orderby: 'location' },
        token: w.token,
      })
    ).json();
    expect(selection.orders.map((o) => o.id)).toEqual([o1.id, o2.id]);
    expect(selection.company.name).toBe('Outbound seller');
    expect(Object.keys(selection.barcodes).sort()).toEqual([o1.number, o2.number].sort());
    expect(selection.barcodes[o1.number]).toMatch(/^<svg /);
  });

  it('starts picking (orders go online) and removes an order from the batch', async () => {
    const res = await ctx.api.outboundRoutes.startBatchPicking({ params: { id: batch.id }, token: w.token });
    const started = res.json() as TBatchDetail;
    expect(started.online_count).toBe(2);
    expect(started.picking_started_at).toBeTruthy();
    expect(started.orders.every((o) => o.status === 'online')).toBe(true);
    expect(
      (await ctx.api.outboundRoutes.packView({ params: { id: o2.id }, token: w.token })).json().items[0],
    ).toMatchObject({
      expected: 1,
      packed: 0,
    });
    const removed = await ctx.api.outboundRoutes.removeBatchOrders({
      params: { id: batch.id },
      body: { order_ids: [o2.id] },
      token: w.token,
    });
    expect((removed.json() as TBatchDetail).orders.map((o) => o.id)).toEqual([o1.id]);
    const list = (await ctx.api.outboundRoutes.listBatches({ token: w.token })).json();
    expect(list.results[0]).toMatchObject({ id: batch.id, order_count: 1 });
  });

  it("reprinting a shipped batch's pick list lists what was picked, from the ledger (not 0 units)", async () => {
    const before = (
      await ctx.api.outboundRoutes.batchPickList({ params: { id: batch.id }, token: w.token })
    ).json() as TPrintData;
    expect(before.total_units).toBe(13);
    for (let i = 0; i < 12; i++) expect((await scan(o1.id, w.plain.barcode!)).statusCode).toBe(200);
    expect((await scan(o1.id, w.fresh.number)).statusCode).toBe(200);
    await ctx.api.outboundRoutes.setConsignment({
      params: { id: o1.id },
      body: { consignment_number: '9001234599', piece_count: 1 },
      token: w.token,
    });
    const shipped = await ctx.api.outboundRoutes.shipOrder({ params: { id: o1.id }, body: {}, token: w.token });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect((shipped.json() as TOrderDetail).allocations).toEqual([]);
    const after = (
      await ctx.api.outboundRoutes.batchPickList({ params: { id: batch.id }, token: w.token })
    ).json() as TPrintData;
    expect(after.total_units).toBe(13);
    const key = (r: TPrintData['pick_rows'][number]) => `${r.location_code} ${r.product_id} ${r.quantity}`;
    expect(after.pick_rows.map(key)).toEqual(before.pick_rows.map(key));
    expect(after.orders[0]!.allocations.reduce((n, a) => n + a.quantity, 0)).toBe(13);
  });
});

describe('lists, counts, exports and columns', () => {
  it('filters the list and counts by status, date, channel and carrier', async () => {
    const shopOrder = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
      platform_id: w.shop.id,
      platform_order_number: 'CNT-1',
      logistics_provider_id: w.carrier.id,
    });
    const list = (query: TRouteInput<typeof outboundRoutes.listOrders>['query']) =>
      ctx.api.outboundRoutes.listOrders({ query, token: w.token }).then((r) => r.json());
    expect((await list({ platform_id: w.shop.id, search: 'CNT-1' })).results.map((r) => r.id)).toEqual([shopOrder.id]);
    expect((await list({ status: 'closed_returned' })).count).toBe(1);
    expect((await list({ date_from: today, date_to: today, page_size: 100 })).count).toBeGreaterThan(5);
    expect((await list({ date_from: '2000-01-01', date_to: '2000-01-02' })).count).toBe(0);
    const counts = (
      await ctx.api.outboundRoutes.orderCounts({ query: { date_from: today, date_to: today }, token: w.token })
    ).json();
    const all = (await list({ page_size: 100 })).count;
    expect(counts.total).toBe(all);
    expect(counts.by_date).toEqual([{ key: today, label: null, count: all }]);
    expect(counts.by_status.find((r) => r.key === 'closed_returned')!.count).toBe(1);
    expect(counts.by_channel.find((r) => r.key === 'SHOPEE')).toMatchObject({ label: '蝦皮購物' });
    expect(counts.by_carrier.find((r) => r.key === 'TCAT')!.count).toBeGreaterThanOrEqual(2);
  });

  it('exports the standard Excel with the chosen columns, and carrier upload formats', async () => {
    const save = await ctx.api.outboundRoutes.saveColumnSettings({
      body: { screen: 'deliver_export', columns: ['number', 'platform_order_number', 'status', 'recipient_name'] },
      token: w.token,
    });
    expect(save.json().deliver_export).toEqual(['number', 'platform_order_number', 'status', 'recipient_name']);
    expect(save.json().deliver_list.length).toBeGreaterThan(3);
    const o = (await ctx.api.outboundRoutes.listOrders({ query: { search: 'CNT-1' }, token: w.token })).json()
      .results[0] as TOrder;
    const res = await ctx.api.outboundRoutes.exportFile({
      query: { format: 'standard', ids: o.id },
      token: w.token,
      lang: 'en',
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(res.rawPayload);
    expect(rows).toEqual([
      [
        'Order number',
        'Platform order number',
        'Status',
        'Recipient name',
        'Product number',
        'Product name',
        'Quantity',
        'Unit price',
      ],
      [o.number, 'CNT-1', 'Pending export', '王小明', w.plain.number, w.plain.name, 1],
    ]);
    const tcat = await readXlsx(
      (await ctx.api.outboundRoutes.exportFile({ query: { format: 'tcat', ids: o.id }, token: w.token })).rawPayload,
    );
    const head = tcat[0] as string[];
    const row = Object.fromEntries(head.map((h, i) => [h, tcat[1]![i]]));
    expect(row).toMatchObject({
      OrderId: o.number,
      Thermosphere: '0001',
      Spec: '0001',
      RecipientName: '王小明',
      RecipientMobile: '0912345678',
      DeliveryTime: '04',
      IsCollection: 'N',
      ProductTypeId: '0015',
    });
    const hct = await readXlsx(
      (await ctx.api.outboundRoutes.exportFile({ query: { format: 'hct', ids: o.id }, token: w.token })).rawPayload,
    );
    expect(hct[0]).toContain('eprdcl2');
    expect(hct[1]).toContain(o.number);
    const template = await ctx.api.outboundRoutes.importTemplate({ token: w.token, lang: 'en' });
    expect((await readXlsx(template.rawPayload))[0]).toContain('Platform order number *');
  });
});

describe('tenant isolation', () => {
  it("answers every outbound route that takes an id with 404 for another seller's order, batch or form", async () => {
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const foreignOrder = await createOrder(ctx, other.token, [{ product_id: other.plain.id, quantity: 1 }], {
      platform_order_number: 'THEIRS-1',
    });
    const foreignBatchOrder = await createOrder(ctx, other.token, [{ product_id: other.plain.id, quantity: 1 }]);
    await other.put([{ productId: other.plain.id, locationId: other.loc.A.id, expiryDate: null, quantity: 5 }]);
    await transition(ctx, other.token, foreignBatchOrder.id, 'export');
    const foreignBatch = (
      await ctx.api.outboundRoutes.createBatch({ body: { order_ids: [foreignBatchOrder.id] }, token: other.token })
    ).json() as TBatchDetail;
    const form = (
      await ctx.api.outboundRoutes.createImportForm({
        body: {
          name: 'Theirs',
          mapping: {
            platform_order_number: ['No'],
            recipient_name: ['Name'],
            recipient_postcode: ['Zip'],
            recipient_address: ['Addr'],
            product: ['SKU'],
            quantity: ['Qty'],
          },
        },
        token: other.token,
      })
    ).json() as { id: string };
    const ids = { order: foreignOrder.id, batch: foreignBatch.id, form: form.id };
    const bodies: Record<string, object> = {
      updateOrder: { recipient_name: 'x' },
      transitionOrder: { action: 'export' },
      setConsignment: { consignment_number: 'X1' },
      packScan: { barcode: other.plain.number },
      shipOrder: {},
      removeBatchOrders: { order_ids: [foreignBatchOrder.id] },
      pickScan: { scan_id: foreignBatchOrder.id, location_code: 'B-02', barcode: other.plain.number, quantity: 1 },
      pickShort: { scan_id: foreignBatchOrder.id, location_id: other.loc.B.id, product_id: other.plain.id },
      pickTote: { order_id: foreignBatchOrder.id, tote_code: 'T-THEIRS' },
      updateImportForm: { name: 'mine now' },
    };
    const checked: string[] = [];
    for (const [name, r] of Object.entries(outboundRoutes)) {
      if (!r.path.includes(':id')) continue;
      const id = r.path.includes('collection-batches')
        ? ids.batch
        : r.path.includes('import-forms')
          ? ids.form
          : ids.order;
      const res = await ctx.inject({
        method: r.method,
        url: r.path.replace(':id', id),
        token: w.token,
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: bodies[name] ?? {} }),
      });
      expect(res.statusCode, `${name} ${res.body}`).toBe(404);
      expect(res.body).not.toContain(id);
      checked.push(name);
    }
    expect(checked.length).toBe(Object.values(outboundRoutes).filter((r) => r.path.includes(':id')).length);
    // lists and look-ups never show the other seller's rows
    const mine = (await ctx.api.outboundRoutes.listOrders({ query: { page_size: '100' }, token: w.token })).json() as {
      results: TOrder[];
    };
    expect(mine.results.some((o) => o.id === foreignOrder.id)).toBe(false);
    expect((await ctx.api.outboundRoutes.lookupOrder({ query: { code: 'THEIRS-1' }, token: w.token })).statusCode).toBe(
      404,
    );
    expect(
      (await ctx.api.outboundRoutes.printSelection({ query: { ids: foreignOrder.id }, token: w.token })).json().orders,
    ).toEqual([]);
    const bulk = await ctx.api.outboundRoutes.bulkTransition({
      body: { action: 'cancel', ids: [foreignOrder.id] },
      token: w.token,
    });
    expect(bulk.json().results[0]).toMatchObject({ ok: false, number: null, error: { code: 'NOT_FOUND' } });
    expect((await detail(foreignOrder.id)).status).toBeUndefined();
    const theirs = await ctx.api.outboundRoutes.getOrder({ params: { id: foreignOrder.id }, token: other.token });
    expect(theirs.json().status).toBe('pending_export');
  });
});
