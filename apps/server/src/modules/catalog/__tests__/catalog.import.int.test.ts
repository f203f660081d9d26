import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** The import routes of this file: each takes an uploaded file and answers the queued job. */
type TImport = 'products' | 'locations';
const importRoute = (which: TImport) =>
  which === 'products' ? ctx.api.catalogRoutes.importProducts : ctx.api.warehouseRoutes.importStorageLocations;

async function xlsx(rows: unknown[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('products');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

/** Upload, let the runner finish, and return the job as the web app polls it. */
async function runImport(which: TImport, token: string, file_base64: string, lang?: string) {
  const res = await importRoute(which)({ body: { file_base64, filename: 'x.xlsx' }, token, lang });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json().state).toBe('queued');
  ctx.deps.jobs.kick();
  await ctx.deps.jobs.whenIdle();
  return (await ctx.api.jobRoutes.getJob({ params: { id: res.json().id }, token })).json();
}

describe(`product import (${TEST_ENGINE})`, () => {
  it('serves a template whose headers are in the caller language', async () => {
    const c = await ctx.newCustomer();
    const res = await ctx.api.catalogRoutes.productImportTemplate({ token: c.token, lang: 'ja' });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const headers = (wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    expect(headers.slice(0, 3)).toEqual(['商品番号 *', '名称 *', '国際バーコード']);
    expect(wb.worksheets[1]!.name).toBe('README');
  });

  it('imports good rows (creates and updates, combinations from the same file) in one go', async () => {
    const c = await ctx.newCustomer();
    await ctx.api.catalogRoutes.createProduct({
      body: { number: 'OLD-1', name: 'Old name', safety_stock: 1 },
      token: c.token,
    });
    await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'C10', name: 'Tea' }, token: c.token });
    const file = await xlsx([
      [
        'Product number',
        'Name',
        'International barcode',
        'Product type',
        'Category',
        'Components',
        'Selling price',
        'Safety stock',
        'Fragile',
        'Shelf life (months)',
      ],
      ['IMP-1', 'Green tea', '4006381333931', 'single', 'C10', null, 120, 3, 'Y', 12],
      ['IMP-2', 'Cup', null, null, null, null, '80.5', null, 'N', null],
      ['IMP-KIT', 'Tea set', null, 'combination', null, 'IMP-1*2, IMP-2', null, null, null, null],
      ['OLD-1', null, null, null, null, null, null, 9, null, null],
      [],
    ]);
    const job = await runImport('products', c.token, file);
    expect(job).toMatchObject({ state: 'succeeded', result: { created: 3, updated: 1, rows: 4 } });
    expect(job.progress).toBe(job.total);
    const kit = (await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'IMP-KIT' }, token: c.token })).json();
    expect(kit.components.map((x: { number: string; quantity: number }) => `${x.number}*${x.quantity}`)).toEqual([
      'IMP-1*2',
      'IMP-2*1',
    ]);
    const tea = (
      await ctx.api.catalogRoutes.lookupProduct({ query: { code: '4006381333931' }, token: c.token })
    ).json();
    expect(tea).toMatchObject({
      category_code: 'C10',
      selling_price: '120',
      safety_stock: 3,
      fragile: true,
      shelf_life_months: 12,
    });
    const old = (await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'OLD-1' }, token: c.token })).json();
    expect(old).toMatchObject({ name: 'Old name', safety_stock: 9 });
    const cup = (await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'IMP-2' }, token: c.token })).json();
    expect(cup).toMatchObject({ selling_price: '80.5', category_code: '0015', type: 'single' });
  });

  it('rejects a file with bad rows: row numbers and fields in the user language, nothing written', async () => {
    const c = await ctx.newCustomer();
    const file = await xlsx([
      ['number', 'name', 'barcode', 'shelf_life_months', 'category', 'components', 'type', 'fragile'],
      ['OK-1', 'fine', null, null, null, null, null, null],
      ['BAD-1', 'bad barcode', '4006381333932', null, null, null, null, null],
      ['BAD-2', null, null, 13, null, null, null, null],
      ['OK-1', 'duplicate', null, null, null, null, null, null],
      ['BAD-3', 'cat', null, null, 'NOPE', null, null, 'maybe'],
      ['BAD-4', 'kit', null, null, null, 'GHOST*1', 'combination', null],
    ]);
    const job = await runImport('products', c.token, file, 'en');
    expect(job.state).toBe('failed');
    expect(job.error!.code).toBe('IMPORT_REJECTED');
    const errors = job.error!.params!.errors as Array<{ row: number; field: string; code: string; message: string }>;
    const brief = errors.map((e) => `${e.row}:${e.field}:${e.code}`);
    expect(brief).toEqual(
      expect.arrayContaining([
        '3:barcode:INVALID_FIELD',
        '4:name:REQUIRED_FIELD',
        '4:shelf_life_months:INVALID_FIELD',
        '5:number:DUPLICATE_VALUE',
        '6:category:INVALID_FIELD',
        '6:fragile:INVALID_FIELD',
        '7:components:COMBINATION_INVALID',
      ]),
    );
    expect(job.error!.params!.count).toBe(errors.length);
    expect(errors.find((e) => e.row === 3)!.message).toBe('International barcode is not valid');
    expect((await ctx.api.catalogRoutes.listProducts({ token: c.token })).json().count).toBe(0);
    // the same file in Chinese names the fields in Chinese
    const zh = await runImport('products', c.token, file, 'zh-TW');
    expect((zh.error!.params!.errors as Array<{ message: string }>)[0]!.message).toBe('國際條碼格式不正確');
  });

  it('rejects a file that is not an .xlsx or lacks a required column', async () => {
    const c = await ctx.newCustomer();
    const junk = await ctx.api.catalogRoutes.importProducts({
      body: {
        file_base64: Buffer.from('a,b,c').toString('base64'),
      },
      token: c.token,
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.error().code).toBe('IMPORT_FILE_INVALID');
    const noName = await runImport('products', c.token, await xlsx([['number'], ['X-1']]));
    expect(noName.error!.params!.errors).toEqual([
      expect.objectContaining({ row: 1, field: 'name', code: 'REQUIRED_FIELD' }),
    ]);
  });

  it('reports progress for a big file and writes every row', async () => {
    const c = await ctx.newCustomer();
    const rows: unknown[][] = [['number', 'name']];
    for (let i = 0; i < 1200; i++) rows.push([`BULK-${i}`, `Bulk ${i}`]);
    const job = await runImport('products', c.token, await xlsx(rows));
    expect(job).toMatchObject({ state: 'succeeded', total: 2400, progress: 2400, result: { created: 1200 } });
    expect((await ctx.api.catalogRoutes.listProducts({ query: { search: 'BULK' }, token: c.token })).json().count).toBe(
      1200,
    );
  });

  it("is the uploader's job: another seller gets 404", async () => {
    const c = await ctx.newCustomer();
    const d = await ctx.newCustomer();
    const res = await ctx.api.catalogRoutes.importProducts({
      body: {
        file_base64: await xlsx([
          ['number', 'name'],
          ['A', 'a'],
        ]),
      },
      token: c.token,
    });
    expect((await ctx.api.jobRoutes.getJob({ params: { id: res.json().id }, token: d.token })).statusCode).toBe(404);
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    expect((await ctx.api.catalogRoutes.listProducts({ token: d.token })).json().count).toBe(0);
  });
});

describe(`storage location import (${TEST_ENGINE})`, () => {
  it('imports locations by warehouse, area and shelf codes; bad rows reject the file', async () => {
    const c = await ctx.newCustomer();
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W1', name: 'w' }, token: c.token })
    ).json();
    const area = (
      await ctx.api.warehouseRoutes.createArea({ body: { warehouse_id: wh.id, code: 'A', name: 'a' }, token: c.token })
    ).json();
    await ctx.api.warehouseRoutes.createShelf({
      body: {
        warehouse_id: wh.id,
        area_id: area.id,
        code: 'S1',
        name: 's',
        layers: 2,
      },
      token: c.token,
    });
    await ctx.api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: wh.id, code: 'EXIST', name: 'before' },
      token: c.token,
    });
    const header = ['warehouse_code', 'code', 'name', 'area_code', 'shelf_code', 'layer', 'cells', 'kind', 'is_active'];
    const bad = await runImport(
      'locations',
      c.token,
      await xlsx([
        header,
        ['W1', 'S1-01', 'ok', null, 'S1', 1, 2, 'sellable', 'Y'],
        ['W9', 'X', null, null, null, null, null, null, null],
        ['W1', 'S1-09', null, null, 'S1', 3, null, null, null],
        ['W1', 'K', null, null, null, null, null, 'broken', null],
      ]),
      'en',
    );
    expect(bad.state).toBe('failed');
    expect(bad.error!.params!.errors, JSON.stringify(bad.error)).toBeDefined();
    expect(
      (bad.error!.params!.errors as Array<{ row: number; field: string }>).map((e) => `${e.row}:${e.field}`),
    ).toEqual(['3:warehouse_code', '4:layer', '5:kind']);
    expect((await ctx.api.warehouseRoutes.listStorageLocations({ token: c.token })).json().count).toBe(1);

    const good = await runImport(
      'locations',
      c.token,
      await xlsx([
        header,
        ['W1', 'S1-01', 'first', null, 'S1', 1, 2, 'sellable', 'Y'],
        ['W1', 'RET', 'returns', 'A', null, null, null, 'defective', 'N'],
        ['W1', 'EXIST', 'after', null, null, null, null, null, null],
      ]),
    );
    expect(good).toMatchObject({ state: 'succeeded', result: { created: 2, updated: 1 } });
    const list = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { ordering: 'code' }, token: c.token })
    ).json();
    expect(list.results.map((l: { code: string; name: string }) => `${l.code}:${l.name}`)).toEqual([
      'EXIST:after',
      'RET:returns',
      'S1-01:first',
    ]);
    const s101 = list.results.find((l: { code: string }) => l.code === 'S1-01');
    expect(s101).toMatchObject({ shelf_code: 'S1', area_code: 'A', layer: 1, cells: 2 });
    expect(list.results.find((l: { code: string }) => l.code === 'RET')).toMatchObject({
      kind: 'defective',
      is_active: false,
    });
  });
});
