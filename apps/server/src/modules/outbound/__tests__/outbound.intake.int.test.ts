import type { TOrderDetail } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../../db/tx';
import type { TActor } from '../../../platform/auth';
import { AppError } from '../../../platform/errors';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import {
  checkOrderRows,
  createOrdersFromRows,
  type TOrderIntakeFields,
  type TOrderIntakeRow,
} from '../outbound.intake';
import { outboundWorld, type TWorld } from './factories';

/**
 * createOrdersFromRows as another module calls it (a marketplace sync: orders with their items in memory, codes
 * not ids): the importer's checks and duplicate rule, in the caller's transaction.
 */

let ctx: TTestContext;
let w: TWorld;
let actor: TActor;
beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx);
  actor = { kind: 'user', id: w.seller.userId, role: 'CUSTOMER', customerId: w.customerId };
});
afterAll(() => ctx?.close());

function fields(key: string, over: Partial<TOrderIntakeFields> = {}): TOrderIntakeFields {
  return {
    platform_order_number: key,
    third_party_number: null,
    consignment_number: null,
    shipping_date: null,
    category: null,
    channel: null,
    platform: null,
    is_cross_border: false,
    recipient_name: '王小明',
    recipient_phone: '0912-345-678',
    recipient_mobile: '',
    recipient_postcode: '100',
    recipient_address: '台北市中正區重慶南路一段 122 號',
    sender_name: '',
    sender_phone: '',
    sender_postcode: '',
    sender_address: '',
    shipping_remark: '',
    warehouse: null,
    arrival_date: null,
    arrival_time_slot: null,
    logistics_provider: null,
    cod: false,
    cod_amount: null,
    total_amount: null,
    piece_count: 1,
    volume: null,
    ...over,
  };
}

/** A marketplace order as rows: the order's fields on its first item. */
function orderRows(
  key: string,
  items: Array<{ sku: string; quantity: number | null; price?: string }>,
  over: Partial<TOrderIntakeFields> = {},
  firstRow = 1,
): TOrderIntakeRow[] {
  return items.map((it, i) => ({
    row: firstRow + i,
    key,
    order: i === 0 ? fields(key, over) : undefined,
    line: { products: [it.sku], quantity: it.quantity, unit_price: it.price ?? null },
  }));
}

const detail = async (id: string) =>
  (await ctx.api.outboundRoutes.getOrder({ params: { id }, token: w.token })).json() as TOrderDetail;

describe(`createOrdersFromRows (${TEST_ENGINE})`, () => {
  it('creates orders of the platform from rows with codes, and skips them when the same rows come again', async () => {
    const rows = [
      ...orderRows('SYNC-1', [
        { sku: w.plain.barcode!, quantity: 2, price: '99.5' },
        { sku: w.kit.number, quantity: 1 },
      ]),
      ...orderRows(
        'SYNC-2',
        [{ sku: w.plain.number, quantity: 3 }],
        { logistics_provider: 'TCAT', cod: true, total_amount: '300' },
        3,
      ),
    ];
    const options = { platformId: w.shop.id };
    expect(await checkOrderRows(ctx.deps.database.db, actor, rows, options)).toEqual({ rows: 3, orders: 2 });
    const first = await withTx(ctx.deps.database.db, (tx) => createOrdersFromRows(tx, actor, rows, options));
    expect(first.created.map((c) => [c.key, c.row])).toEqual([
      ['SYNC-1', 1],
      ['SYNC-2', 3],
    ]);
    expect(first).toMatchObject({ rows: 3, skipped: 0 });
    const one = await detail(first.created[0]!.id);
    expect(one).toMatchObject({
      number: first.created[0]!.number,
      status: 'pending_export',
      platform_code: 'SHOPEE',
      channel: 'ecommerce',
      recipient_phone: '0912345678',
      warehouse_id: w.wh.id,
    });
    expect(one.lines.map((l) => [l.product_number, l.quantity, l.unit_price])).toEqual([
      [w.plain.number, 2, '99.50'],
      [w.kit.number, 1, null],
    ]);
    // Collect on delivery without an amount collects the total, as in a file.
    expect(await detail(first.created[1]!.id)).toMatchObject({ logistics_provider_code: 'TCAT', cod_amount: '300.00' });

    const again = await withTx(ctx.deps.database.db, (tx) => createOrdersFromRows(tx, actor, rows, options));
    expect(again).toMatchObject({ rows: 3, created: [], skipped: 2 });
  });

  it('refuses rows with problems, all of them by row, and writes nothing in the caller transaction', async () => {
    const rows = [
      ...orderRows('BAD-1', [{ sku: 'NO-SUCH-SKU', quantity: 1 }]),
      ...orderRows('BAD-2', [{ sku: w.plain.number, quantity: 0 }], {}, 2),
      ...orderRows('BAD-3', [{ sku: w.plain.number, quantity: 1 }], { recipient_address: '', cod: true }, 3),
      ...orderRows('FINE-1', [{ sku: w.plain.number, quantity: 1 }], {}, 4),
    ];
    let refusal: unknown;
    await withTx(ctx.deps.database.db, (tx) => createOrdersFromRows(tx, actor, rows, { lang: 'en' })).catch(
      (err: unknown) => {
        refusal = err;
      },
    );
    expect(refusal).toBeInstanceOf(AppError);
    const { code, params } = refusal as AppError;
    expect(code).toBe('IMPORT_REJECTED');
    expect(
      (params.errors as Array<{ row: number; code: string; field: string }>).map((e) => [e.row, e.code, e.field]),
    ).toEqual([
      [1, 'PRODUCT_ABNORMAL', 'product'],
      [2, 'ABNORMAL_QUANTITY', 'quantity'],
      [3, 'REQUIRED_FIELD', 'recipient_address'],
      [3, 'REQUIRED_FIELD', 'cod_amount'],
    ]);
    const list = await ctx.api.outboundRoutes.listOrders({ query: { search: 'FINE-1' }, token: w.token });
    expect(list.json().count).toBe(0);
  });
});
