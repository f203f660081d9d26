import { randomUUID } from 'node:crypto';
import { outboundRoutes, type TOrderAction, type TOrderDetail } from '@wms/contracts';
import type { TRouteInput } from '@wms/contracts/client';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { ecommerce_platforms, logistics_providers, packaging_materials, products } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { TTestContext } from '../../../test/harness';
import { runImportJob } from '../../../test/import-job';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';

/**
 * A seller ready to ship: one warehouse with locations in a known walking order, products (plain, shelf-life with a
 * sellable-date rule, a serial-tracked phone, a combination), a carrier, a platform, packaging, and stock put in
 * through the stock engine. Rows of other modules are written straight through drizzle (their APIs are theirs).
 */
export async function outboundWorld(ctx: TTestContext, opts: { name?: string } = {}) {
  const seller = await ctx.newCustomer({ name: opts.name ?? 'Outbound seller' });
  const db = ctx.deps.database.db;
  const f = stockFactory(db, seller.customerId);
  const tag = randomUUID().slice(0, 6);
  const wh = await f.warehouse(`WH${tag}`);
  // Walking order: B-02 (sequence 1) before A-01 (sequence 2); C-03 and C-04 share sequence 3 → by code.
  const locB = await f.location(wh.id, { code: 'B-02', pickSequence: 1 });
  const locA = await f.location(wh.id, { code: 'A-01', pickSequence: 2 });
  const locC3 = await f.location(wh.id, { code: 'C-03', pickSequence: 3 });
  const locC4 = await f.location(wh.id, { code: 'C-04', pickSequence: 3 });
  const plain = await f.product({ number: `P-${tag}`, barcode: `BC${tag}` });
  const fresh = await f.product({ number: `F-${tag}`, shelfLifeMonths: 12, sellableRuleMonths: 2 });
  const phone = await f.product({ number: `PH-${tag}` });
  await db.update(products).set({ requires_serial: true }).where(eq(products.id, phone.id));
  const kit = await f.kit(
    [
      { productId: plain.id, quantity: 2 },
      { productId: phone.id, quantity: 1 },
    ],
    `KIT-${tag}`,
  );
  const [carrier] = await db
    .insert(logistics_providers)
    .values({ customer_id: seller.customerId, code: 'TCAT', name: '黑貓宅急便', temperature_code: '0001' })
    .returning();
  const [shop] = await db
    .insert(ecommerce_platforms)
    .values({ customer_id: seller.customerId, code: 'SHOPEE', name: '蝦皮購物' })
    .returning();
  const [box] = await db
    .insert(packaging_materials)
    .values({ customer_id: seller.customerId, code: 'BOX-S', name: 'Small box', quantity: 10 })
    .returning();
  const who = { customerId: seller.customerId, userId: seller.userId };
  const put = (lines: Array<{ productId: string; locationId: string; expiryDate: string | null; quantity: number }>) =>
    withTx(db, (tx) => engine.postInbound(tx, who, { document: { type: 'inbound', id: null, number: 'SEED' }, lines }));
  return {
    seller,
    token: seller.token,
    customerId: seller.customerId,
    wh,
    loc: { A: locA, B: locB, C3: locC3, C4: locC4 },
    plain,
    fresh,
    phone,
    kit,
    carrier: carrier!,
    shop: shop!,
    box: box!,
    put,
    f,
  };
}
export type TWorld = Awaited<ReturnType<typeof outboundWorld>>;

export const recipient = {
  recipient_name: '王小明',
  recipient_phone: '0912-345-678',
  recipient_postcode: '100',
  recipient_address: '台北市中正區重慶南路一段 122 號',
};

/** Create an order through the API (201) and return it. */
export async function createOrder(
  ctx: TTestContext,
  token: string,
  lines: Array<{ product_id: string; quantity: number }>,
  extra: Partial<TRouteInput<typeof outboundRoutes.createOrder>['body']> = {},
): Promise<TOrderDetail> {
  const res = await ctx.api.outboundRoutes.createOrder({ body: { ...recipient, lines, ...extra }, token });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function transition(ctx: TTestContext, token: string, id: string, action: TOrderAction) {
  return ctx.api.outboundRoutes.transitionOrder({ params: { id }, body: { action }, token });
}

/** An .xlsx with one sheet of these rows (the first row is the header). */
export async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Read the first sheet of an .xlsx answer into arrays of cell values. */
export async function readXlsx(content: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(content as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    out.push((row.values as unknown[]).slice(1));
  });
  return out;
}

/** Queue an order import through the API and wait for the job to finish; returns the job. */
export function importFile(ctx: TTestContext, token: string, content: Buffer, extra: Record<string, unknown> = {}) {
  return runImportJob(ctx, outboundRoutes.importOrders.path, token, content, { file_name: 'orders.xlsx', ...extra });
}
