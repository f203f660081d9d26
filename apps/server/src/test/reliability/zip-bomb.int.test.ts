import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../harness';
import { deflatedRepeat, deflatedXml, zipArchive } from '../zip-file';

/**
 * Zip bombs against every upload of the import pipeline (same process as the app: if one blew the heap, this file
 * would die with it). What the directory declares is refused at upload (413, no job); an entry that inflates past what
 * it declares fails its job before anything parses it; a file within every declared limit that still needs more
 * memory to parse than the parsing worker thread may use fails its job (never retried) or its request, and the server
 * — this process — lives on; the next import works.
 */

const MiB = 1024 * 1024;
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** Every upload of the import pipeline, by its route's name. */
const uploadTo = {
  importProducts: (token: string, content: Buffer) =>
    ctx.api.catalogRoutes.importProducts({ body: { file_base64: content.toString('base64') }, token }),
  importStorageLocations: (token: string, content: Buffer) =>
    ctx.api.warehouseRoutes.importStorageLocations({ body: { file_base64: content.toString('base64') }, token }),
  importOrders: (token: string, content: Buffer) =>
    ctx.api.outboundRoutes.importOrders({ body: { file_base64: content.toString('base64') }, token }),
};

describe(`zip bombs (${TEST_ENGINE})`, () => {
  it('are refused at upload when the directory declares too much: size in all, a held entry, entry count', async () => {
    const c = await ctx.newCustomer();
    const huge = zipArchive([
      { name: 'xl/worksheets/sheet1.xml', deflated: Buffer.alloc(64), declaredSize: 1500 * MiB },
    ]);
    const strings = zipArchive([{ name: 'xl/sharedStrings.xml', deflated: Buffer.alloc(64), declaredSize: 300 * MiB }]);
    const many = zipArchive(
      Array.from({ length: 1500 }, (_, i) => ({ name: `x/${i}.xml`, data: Buffer.from('<a/>') })),
    );
    for (const [name, upload] of Object.entries(uploadTo))
      for (const file of [huge, strings, many]) {
        const res = await upload(c.token, file);
        expect(res.statusCode, `${name} ${res.body}`).toBe(413);
        expect(res.error().code).toBe('BODY_TOO_LARGE');
      }
    const preview = await ctx.api.catalogRoutes.previewBatchUpdate({
      body: { file_base64: huge.toString('base64') },
      token: c.token,
    });
    expect(preview.statusCode).toBe(413);
    const products = await ctx.api.catalogRoutes.listProducts({ token: c.token });
    expect(products.json().count).toBe(0);
  });

  it('a file within the limits whose parse needs more memory than the worker may use is refused, never retried', async () => {
    const c = await ctx.newCustomer();
    // 4 M rich-text shared strings, honestly declared (95 MB: under the 200 MB held-entry limit).
    const strings = await deflatedXml(
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
      '<si><r><t>a</t></r></si>',
      4_000_000,
      '</sst>',
    );
    expect(strings.size).toBeLessThan(200 * MiB);
    const heavy = zipArchive([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      { name: 'xl/sharedStrings.xml', deflated: strings.deflated, declaredSize: strings.size },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: Buffer.from(
          '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>',
        ),
      },
    ]);
    const heapBefore = process.memoryUsage().heapUsed;
    const inspect = await ctx.api.outboundRoutes.inspectImportFile({
      body: { file_base64: heavy.toString('base64') },
      token: c.token,
    });
    expect(inspect.statusCode, inspect.body).toBe(413);
    expect(inspect.error()).toMatchObject({ code: 'IMPORT_FILE_TOO_COMPLEX', params: { field: 'file_base64' } });
    for (const name of ['importProducts', 'importOrders'] as const) {
      const res = await uploadTo[name](c.token, heavy);
      expect(res.statusCode, res.body).toBe(202);
      ctx.deps.jobs.kick();
      await ctx.deps.jobs.whenIdle();
      const job = (await ctx.api.jobRoutes.getJob({ params: { id: res.json().id }, token: c.token })).json();
      expect(job, name).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'IMPORT_FILE_TOO_COMPLEX' } });
    }
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * MiB);
  });

  it('fail their job when an entry inflates past what it declares (512 MB of shared strings declared as 1 KB)', async () => {
    const c = await ctx.newCustomer();
    const bomb = zipArchive([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      {
        name: 'xl/sharedStrings.xml',
        deflated: await deflatedRepeat('<si><t>AAAAAAAAAAAAAAAAAAAAAAAA</t></si>', 512 * MiB),
        declaredSize: 1024,
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet><sheetData/></worksheet>') },
    ]);
    expect(bomb.length).toBeLessThan(4 * MiB);
    for (const name of ['importProducts', 'importOrders'] as const) {
      const heapBefore = process.memoryUsage().heapUsed;
      const res = await uploadTo[name](c.token, bomb);
      expect(res.statusCode, res.body).toBe(202);
      ctx.deps.jobs.kick();
      await ctx.deps.jobs.whenIdle();
      const job = (await ctx.api.jobRoutes.getJob({ params: { id: res.json().id }, token: c.token })).json();
      expect(job, name).toMatchObject({ state: 'failed', error: { code: 'IMPORT_FILE_INVALID' } });
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * MiB);
    }
    // The app is still there and imports the next file.
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('p').addRows([
      ['number', 'name'],
      ['AFTER-1', 'after the bomb'],
    ]);
    const ok = await ctx.api.catalogRoutes.importProducts({
      body: { file_base64: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') },
      token: c.token,
    });
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const job = (await ctx.api.jobRoutes.getJob({ params: { id: ok.json().id }, token: c.token })).json();
    expect(job, JSON.stringify(job.error)).toMatchObject({ state: 'succeeded', result: { created: 1 } });
  });
});
