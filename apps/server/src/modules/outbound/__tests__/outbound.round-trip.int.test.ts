import type { TOrder, TOrderDetail } from '@wms/contracts';
import type { TRouteResponse } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { importFile } from './factories';

/**
 * The order list's standard Excel export (all /customize columns, one row per line) is an order import file: imported
 * into another seller with the same codes (warehouse, products, carrier, platform) it gives the same orders and lines;
 * imported again into the seller it came from it changes nothing (platform order numbers it has are skipped).
 */

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** A seller with warehouse W1, products RT-P1 and RT-P2, carrier TCAT and platform SHOPEE (the same codes each time). */
async function seller() {
  const c = await ctx.newCustomer({ name: 'Round trip seller' });
  const id = async (created: Promise<TRouteResponse<{ id: string }>>) => {
    const res = await created;
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };
  const token = c.token;
  return {
    ...c,
    warehouse: await id(
      ctx.api.warehouseRoutes.createWarehouse({
        body: { code: 'W1', name: 'Main', address: '台北市信義區松高路 1 號' },
        token,
      }),
    ),
    p1: await id(ctx.api.catalogRoutes.createProduct({ body: { number: 'RT-P1', name: 'Tea' }, token })),
    p2: await id(ctx.api.catalogRoutes.createProduct({ body: { number: 'RT-P2', name: 'Cup' }, token })),
    carrier: await id(ctx.api.partnerRoutes.createLogisticsProvider({ body: { code: 'TCAT', name: 'T-cat' }, token })),
    shop: await id(ctx.api.partnerRoutes.createEcommercePlatform({ body: { code: 'SHOPEE', name: 'Shopee' }, token })),
  };
}

/** Every order of the seller with its lines, without ids, numbers, statuses and times (references by code). */
async function ordersOf(token: string) {
  const list = (
    await ctx.api.outboundRoutes.listOrders({ query: { ordering: 'platform_order_number', page_size: '100' }, token })
  ).json();
  const out = [];
  for (const o of list.results as TOrder[]) {
    const d = (await ctx.api.outboundRoutes.getOrder({ params: { id: o.id }, token })).json() as TOrderDetail;
    const {
      id: _id,
      number: _n,
      status: _s,
      warehouse_id: _w,
      logistics_provider_id: _l,
      platform_id: _p,
      created_at: _c,
      updated_at: _u,
      lines,
      allocations: _a,
      pack_items: _pi,
      serials: _se,
      packaging: _pa,
      ...order
    } = d;
    out.push({ ...order, lines: lines.map((l) => [l.line_no, l.product_number, l.quantity, l.unit_price]) });
  }
  return out;
}

describe(`order standard export → import (${TEST_ENGINE})`, () => {
  it('gives another seller the same orders and lines, and changes nothing at home', async () => {
    const a = await seller();
    const full = await ctx.api.outboundRoutes.createOrder({
      body: {
        platform_order_number: 'SH-1',
        third_party_number: 'TP-1',
        consignment_number: 'CN100',
        shipping_date: '2026-12-01',
        category: 'presale',
        channel: 'ecommerce',
        platform_id: a.shop,
        recipient_name: '王小明',
        recipient_phone: '0223456789',
        recipient_mobile: '0912345678',
        recipient_postcode: '106',
        recipient_address: '台北市大安區復興南路一段 1 號',
        sender_name: '寄件人',
        sender_phone: '0287654321',
        sender_postcode: '110',
        sender_address: '台北市信義區',
        shipping_remark: '易碎, 請小心 "輕放"',
        warehouse_id: a.warehouse,
        arrival_date: '2026-12-03',
        arrival_time_slot: 'afternoon',
        logistics_provider_id: a.carrier,
        cod: true,
        cod_amount: '1280.5',
        total_amount: '1300',
        piece_count: 2,
        volume: '0002',
        lines: [
          { product_id: a.p1, quantity: 2, unit_price: '120.5' },
          { product_id: a.p2, quantity: 1 },
          { product_id: a.p1, quantity: 3, unit_price: '99' },
        ],
      },
      token: a.token,
    });
    expect(full.statusCode, full.body).toBe(201);
    const abroad = await ctx.api.outboundRoutes.createOrder({
      body: {
        platform_order_number: 'M-1',
        channel: 'other',
        category: 'sample',
        is_cross_border: true,
        recipient_name: 'Hanako',
        recipient_phone: '+81 3 1234 5678',
        recipient_postcode: '100-0001',
        recipient_address: 'Tokyo',
        lines: [{ product_id: a.p2, quantity: 5 }],
      },
      token: a.token,
    });
    expect(abroad.statusCode, abroad.body).toBe(201);
    const before = await ordersOf(a.token);
    expect(before.map((o) => [o.platform_order_number, o.lines.length])).toEqual([
      ['M-1', 1],
      ['SH-1', 3],
    ]);

    for (const lang of ['zh-TW', 'ja', 'en']) {
      const res = await ctx.api.outboundRoutes.exportFile({ query: { format: 'standard' }, token: a.token, lang });
      expect(res.statusCode).toBe(200);
      const home = await importFile(ctx, a.token, res.rawPayload);
      expect(home, lang).toMatchObject({ state: 'succeeded', result: { rows: 4, orders: 2, created: 0 } });
      expect(home.result!.skipped_duplicates, lang).toBe(2);
      expect(await ordersOf(a.token), lang).toEqual(before);

      const b = await seller();
      const job = await importFile(ctx, b.token, res.rawPayload);
      expect(job, lang).toMatchObject({ state: 'succeeded', result: { rows: 4, orders: 2, created: 2 } });
      expect(await ordersOf(b.token), lang).toEqual(before);
    }
  });
});
