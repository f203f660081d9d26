import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

async function products(token: string, n: number, prefix: string) {
  const out = [];
  for (let i = 1; i <= n; i++)
    out.push(
      (
        await ctx.api.catalogRoutes.createProduct({
          body: { number: `${prefix}${i}`, name: `P${i}`, selling_price: '100' },
          token,
        })
      ).json(),
    );
  return out;
}

describe(`batch changes (${TEST_ENGINE})`, () => {
  it('previews the same change for selected products, then applies it in one transaction with audit rows', async () => {
    const c = await ctx.newCustomer();
    const [p1, p2, p3] = await products(c.token, 3, 'B');
    const cat = (
      await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'SALE', name: 'Sale' }, token: c.token })
    ).json();
    const body = {
      product_ids: [p1!.id, p2!.id],
      set: { selling_price: '79.90', category_id: cat.id, online_listing: true },
    };
    const preview = (await ctx.api.catalogRoutes.previewBatchUpdate({ body, token: c.token })).json();
    expect(preview.errors).toEqual([]);
    expect(preview.unchanged).toBe(0);
    expect(preview.items).toHaveLength(2);
    expect(preview.items[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'selling_price', before: '100', after: '79.90' },
        { field: 'online_listing', before: false, after: true },
      ]),
    );
    // nothing written by the preview
    expect(
      (await ctx.api.catalogRoutes.getProduct({ params: { id: p1!.id }, token: c.token })).json().selling_price,
    ).toBe('100');
    const applied = await ctx.api.catalogRoutes.applyBatchUpdate({ body, token: c.token });
    expect(applied.json()).toEqual({ updated: 2 });
    for (const p of [p1, p2])
      expect((await ctx.api.catalogRoutes.getProduct({ params: { id: p!.id }, token: c.token })).json()).toMatchObject({
        selling_price: '79.9',
        category_code: 'SALE',
        online_listing: true,
      });
    expect(
      (await ctx.api.catalogRoutes.getProduct({ params: { id: p3!.id }, token: c.token })).json().selling_price,
    ).toBe('100');
    const audits = await queryRows<{ n: number }>(
      ctx.deps.database.db,
      sql`select count(*)::int as n from audit_logs where action = 'batch_update' and customer_id = ${c.customerId}`,
    );
    expect(Number(audits[0]!.n)).toBe(2);
    // applying again changes nothing
    const again = (await ctx.api.catalogRoutes.previewBatchUpdate({ body, token: c.token })).json();
    expect(again).toMatchObject({ items: [], unchanged: 2 });
  });

  it('per-product rows: one bad row shows in the preview and makes apply change nothing', async () => {
    const c = await ctx.newCustomer();
    await products(c.token, 2, 'R');
    const body = {
      rows: [
        { number: 'R1', set: { safety_stock: 7 } },
        { number: 'R2', set: { shelf_life_months: 2, sellable_rule_months: 2 } },
        { number: 'NOPE', set: { safety_stock: 1 } },
      ],
    };
    const preview = (await ctx.api.catalogRoutes.previewBatchUpdate({ body, token: c.token, lang: 'en' })).json();
    expect(preview.errors.map((e) => `${e.row}:${e.field}:${e.code}`)).toEqual([
      '2:sellable_rule_months:INVALID_FIELD',
      '3:number:NOT_FOUND',
    ]);
    const apply = await ctx.api.catalogRoutes.applyBatchUpdate({ body, token: c.token });
    expect(apply.statusCode).toBe(400);
    expect(apply.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'sellable_rule_months' } });
    expect(
      (await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'R1' }, token: c.token })).json().safety_stock,
    ).toBe(0);
  });

  it('takes an Excel of changes in the export layout (blank cells unchanged)', async () => {
    const c = await ctx.newCustomer();
    await products(c.token, 2, 'X');
    const exported = await ctx.api.catalogRoutes.exportProducts({ token: c.token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const headers = (ws.getRow(1).values as string[]).slice(1);
    const col = (label: string) => headers.indexOf(label) + 1;
    ws.getRow(2).getCell(col('售價')).value = 55;
    ws.getRow(3).getCell(col('名稱 *')).value = 'Renamed';
    ws.getRow(3).getCell(col('安全庫存')).value = null;
    const file_base64 = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const preview = (await ctx.api.catalogRoutes.previewBatchUpdate({ body: { file_base64 }, token: c.token })).json();
    expect(preview.errors).toEqual([]);
    expect(
      preview.items.map((i: { number: string; changes: Array<{ field: string; after: unknown }> }) => [
        i.number,
        i.changes,
      ]),
    ).toEqual([
      ['X1', [{ field: 'selling_price', before: '100', after: '55' }]],
      ['X2', [{ field: 'name', before: 'P2', after: 'Renamed' }]],
    ]);
    expect((await ctx.api.catalogRoutes.applyBatchUpdate({ body: { file_base64 }, token: c.token })).json()).toEqual({
      updated: 2,
    });
    expect((await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'X2' }, token: c.token })).json()).toMatchObject(
      {
        name: 'Renamed',
        safety_stock: 0,
      },
    );
  });

  it("cannot touch another seller's products", async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    const [p] = await products(a.token, 1, 'ISO');
    const res = await ctx.api.catalogRoutes.applyBatchUpdate({
      body: {
        product_ids: [p!.id],
        set: { name: 'x' },
      },
      token: b.token,
    });
    expect(res.statusCode).toBe(404);
    const rows = await ctx.api.catalogRoutes.previewBatchUpdate({
      body: {
        rows: [{ number: 'ISO1', set: { name: 'x' } }],
      },
      token: b.token,
    });
    expect(rows.json().errors[0]).toMatchObject({ field: 'number', code: 'NOT_FOUND' });
    expect((await ctx.api.catalogRoutes.getProduct({ params: { id: p!.id }, token: a.token })).json().name).toBe('P1');
  });
});
