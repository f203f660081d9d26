import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labelCellBoxes, labelDocumentPage, labelDocumentZpl, type TLabelDocument } from '@wms/contracts';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
let a: { token: string; customerId: string };
let b: { token: string; customerId: string };
const work = mkdtempSync(path.join(tmpdir(), 'wms-labels-'));
if (process.env.KEEP_LABELS) console.log('label artefacts in', work);
beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  a = await ctx.newCustomer();
  b = await ctx.newCustomer();
});
afterAll(async () => {
  await ctx?.close();
  if (!process.env.KEEP_LABELS) rmSync(work, { recursive: true, force: true });
});

async function sheetByCode(code: string) {
  const list = (await ctx.api.labelRoutes.listLabelSheets({ token: a.token })).json();
  const sheet = list.results.find((s) => s.code === code);
  if (!sheet) throw new Error(`no label sheet ${code}`);
  return sheet;
}

const DPI = 300;
const px = (mm: number) => Math.round((mm / 25.4) * DPI);
const cellCrop = (c: { x_mm: number; y_mm: number; width_mm: number; height_mm: number }) => ({
  x: px(c.x_mm),
  y: px(c.y_mm),
  w: px(c.width_mm),
  h: px(c.height_mm),
});

/** Print the label document to PDF in Debian's Chromium (as the print screen does). */
async function printPdf(doc: TLabelDocument, name: string): Promise<string> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent(labelDocumentPage(doc), { waitUntil: 'load' });
    const file = path.join(work, `${name}.pdf`);
    await page.pdf({ path: file, preferCSSPageSize: true, printBackground: true });
    return file;
  } finally {
    await browser.close();
  }
}

/** zbarimg over a PNG: the decoded values (empty when none). */
function decode(png: string): string[] {
  try {
    return execFileSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch (err) {
    // zbarimg exits 4 when it finds no symbol
    if ((err as { status?: number }).status === 4) return [];
    throw err;
  }
}

/** Rasterise one page, or one cell of it (pdftoppm crops in pixels at the given resolution). */
function rasterise(
  pdf: string,
  page: number,
  out: string,
  crop?: { x: number; y: number; w: number; h: number },
): string {
  const args = ['-r', String(DPI), '-f', String(page), '-l', String(page), '-png', '-singlefile'];
  if (crop) args.push('-x', String(crop.x), '-y', String(crop.y), '-W', String(crop.w), '-H', String(crop.h));
  execFileSync('pdftoppm', [...args, pdf, path.join(work, out)]);
  return path.join(work, `${out}.png`);
}

describe(`label sheets (${TEST_ENGINE})`, () => {
  it('offers the built-in sheets as data, including a 45-cell one, with cells on the grid', async () => {
    const list = (await ctx.api.labelRoutes.listLabelSheets({ token: a.token })).json();
    const cells = new Set(list.results.map((s: { cells: number }) => s.cells));
    for (const n of [45, 60, 88]) expect(cells.has(n), String(n)).toBe(true);
    const s45 = await sheetByCode('wms-45');
    expect(s45).toMatchObject({ builtin: true, columns: 5, rows: 9, label_width_mm: 38, label_height_mm: 29 });
    const boxes = labelCellBoxes(s45);
    expect(boxes).toHaveLength(45);
    expect(boxes[6]).toMatchObject({ column: 1, row: 1, x_mm: 45, y_mm: 40.5 });
    const last = boxes[44]!;
    expect(last.x_mm + last.width_mm).toBeLessThanOrEqual(210);
    expect(last.y_mm + last.height_mm).toBeLessThanOrEqual(297);
    // only 88-cell sheets
    const only88 = (await ctx.api.labelRoutes.listLabelSheets({ query: { cells: '88' }, token: a.token })).json();
    expect(only88.results.every((s: { cells: number }) => s.cells === 88)).toBe(true);
  });

  it('lets a seller copy a sheet with printer offsets; built-ins and other sellers’ sheets are read-only', async () => {
    const s45 = await sheetByCode('wms-45');
    const { id: _id, builtin: _b, cells: _c, code: _code, name: _n, ...grid } = s45;
    const mine = await ctx.api.labelRoutes.createLabelSheet({
      body: {
        ...grid,
        code: 'my-45',
        name: 'My printer 45',
        offset_x_mm: 0.5,
        offset_y_mm: -1,
      },
      token: a.token,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(labelCellBoxes(mine.json())[0]).toMatchObject({ x_mm: 5.5, y_mm: 8.5 });
    const offPage = await ctx.api.labelRoutes.createLabelSheet({
      body: {
        ...grid,
        code: 'too-big',
        name: 'x',
        pitch_y_mm: 40,
      },
      token: a.token,
    });
    expect(offPage.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'pitch_y_mm' } });
    expect(
      (await ctx.api.labelRoutes.updateLabelSheet({ params: { id: s45.id }, body: { offset_x_mm: 1 }, token: a.token }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.api.labelRoutes.deleteLabelSheet({ params: { id: s45.id }, token: a.token })).statusCode).toBe(
      404,
    );
    expect(
      (
        await ctx.api.labelRoutes.updateLabelSheet({
          params: { id: mine.json().id },
          body: { offset_x_mm: 1 },
          token: b.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.labelRoutes.listLabelSheets({ token: b.token }))
        .json()
        .results.some((s: { code: string }) => s.code === 'my-45'),
    ).toBe(false);
    expect(
      (
        await ctx.api.labelRoutes.updateLabelSheet({
          params: { id: mine.json().id },
          body: { offset_x_mm: 1 },
          token: a.token,
        })
      ).json().offset_x_mm,
    ).toBe(1);
  });
});

describe(`label pages (${TEST_ENGINE})`, () => {
  it('lays out copies from a start cell over pages, with or without the name, and refuses foreign rows', async () => {
    const p = (
      await ctx.api.catalogRoutes.createProduct({
        body: { number: 'LBL-1', name: 'Label me', barcode: '4006381333931' },
        token: a.token,
      })
    ).json();
    const q = (
      await ctx.api.catalogRoutes.createProduct({ body: { number: 'LBL-2', name: 'No barcode' }, token: a.token })
    ).json();
    const s60 = (await ctx.api.labelRoutes.listLabelSheets({ query: { cells: '60' }, token: a.token })).json()
      .results[0]!;
    const res = await ctx.api.labelRoutes.renderLabels({
      body: {
        kind: 'product',
        sheet_id: s60.id,
        items: [
          { id: p.id, copies: 50 },
          { id: q.id, copies: 20 },
        ],
        show_name: false,
        start_cell: 5,
      },
      token: a.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json();
    expect(doc.label_count).toBe(70);
    expect(doc.pages).toHaveLength(2);
    expect(doc.pages[0]!.cells).toHaveLength(56);
    expect(doc.pages[0]!.cells[0]).toMatchObject({ index: 4, value: '4006381333931', symbology: 'ean13', name: null });
    expect(doc.pages[1]!.cells.at(-1)).toMatchObject({ index: 13, value: 'LBL-2', symbology: 'code128' });
    expect(doc.pages[0]!.cells[0]!.svg).toMatch(/^<svg /);
    const foreign = await ctx.api.labelRoutes.renderLabels({
      body: {
        kind: 'product',
        sheet_id: s60.id,
        items: [{ id: p.id, copies: 1 }],
      },
      token: b.token,
    });
    expect(foreign.statusCode).toBe(404);
    const qr = await ctx.api.labelRoutes.renderLabels({
      body: {
        kind: 'product',
        sheet_id: s60.id,
        items: [{ id: p.id, copies: 1 }],
        symbology: 'qrcode',
      },
      token: a.token,
    });
    expect(qr.json().pages[0]!.cells[0]).toMatchObject({ symbology: 'qrcode', name: 'Label me' });
  });

  it('prints a 45-cell product sheet to PDF in Chromium; zbarimg reads every barcode back, each in its own cell', async () => {
    const products = [];
    for (const [number, barcode] of [
      ['P-ALPHA', '4710088432216'],
      ['P-BETA', null],
      ['P-GAMMA-0003', '4901234567894'],
    ] as const)
      products.push(
        (
          await ctx.api.catalogRoutes.createProduct({
            body: { number, name: `${number} 名稱`, barcode },
            token: a.token,
          })
        ).json(),
      );
    const s45 = await sheetByCode('wms-45');
    const res = await ctx.api.labelRoutes.renderLabels({
      body: {
        kind: 'product',
        sheet_id: s45.id,
        items: products.map((p, i) => ({ id: p.id, copies: [20, 15, 10][i]! })),
        show_name: true,
      },
      token: a.token,
    });
    const doc = res.json() as TLabelDocument;
    expect(doc.pages).toHaveLength(1);
    const pdf = await printPdf(doc, 'products-45');
    // The whole page holds the three values (zbarimg reports each distinct symbol once per image).
    expect(decode(rasterise(pdf, 1, 'products-45-page')).sort()).toEqual(['4710088432216', '4901234567894', 'P-BETA']);
    // Every cell, cropped at its place on the sheet's grid, holds exactly its own label: alignment and counts.
    const counts = new Map<string, number>();
    for (const cell of doc.pages[0]!.cells) {
      const decoded = decode(rasterise(pdf, 1, `cell-${cell.index}`, cellCrop(cell)));
      expect(decoded, `cell ${cell.index}`).toEqual([cell.value]);
      counts.set(cell.value, (counts.get(cell.value) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ '4710088432216': 20, 'P-BETA': 15, '4901234567894': 10 });
  });

  it('prints storage-location labels (Code128 and QR, 88 cells) and packaging labels that decode back', async () => {
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'LW', name: 'Label WH' }, token: a.token })
    ).json();
    const shelf = (
      await ctx.api.warehouseRoutes.createShelf({
        body: { warehouse_id: wh.id, code: 'R07', name: 'Rack 7', layers: 2 },
        token: a.token,
      })
    ).json();
    const gen = (
      await ctx.api.warehouseRoutes.generateShelfLocations({
        params: { id: shelf.id },
        body: { positions_per_layer: 3 },
        token: a.token,
      })
    ).json();
    const locs = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { shelf_id: shelf.id }, token: a.token })
    ).json().results;
    const s88 = await sheetByCode('rayfilm-4567');
    const code128 = (
      await ctx.api.labelRoutes.renderLabels({
        body: {
          kind: 'location',
          sheet_id: s88.id,
          items: locs.map((l: { id: string }) => ({ id: l.id, copies: 1 })),
          show_name: false,
        },
        token: a.token,
      })
    ).json();
    const pdf1 = await printPdf(code128, 'locations-88');
    expect(decode(rasterise(pdf1, 1, 'locations-88')).sort()).toEqual([...gen.codes].sort());
    for (const cell of code128.pages[0]!.cells)
      expect(decode(rasterise(pdf1, 1, `loc-${cell.index}`, cellCrop(cell))), cell.value).toEqual([cell.value]);

    const s45 = await sheetByCode('wms-45');
    const qr = (
      await ctx.api.labelRoutes.renderLabels({
        body: {
          kind: 'location',
          sheet_id: s45.id,
          items: locs.slice(0, 2).map((l: { id: string }) => ({ id: l.id, copies: 2 })),
          symbology: 'qrcode',
        },
        token: a.token,
      })
    ).json();
    const pdf2 = await printPdf(qr, 'locations-qr');
    expect(decode(rasterise(pdf2, 1, 'locations-qr')).sort()).toEqual([
      'R07-01-01',
      'R07-01-01',
      'R07-01-02',
      'R07-01-02',
    ]);

    const box = (
      await ctx.api.catalogRoutes.createPackagingMaterial({
        body: { code: 'BOX-60', name: '60 cm box' },
        token: a.token,
      })
    ).json();
    const pkg = (
      await ctx.api.labelRoutes.renderLabels({
        body: {
          kind: 'packaging',
          sheet_id: s45.id,
          items: [{ id: box.id, copies: 3 }],
        },
        token: a.token,
      })
    ).json();
    const pdf3 = await printPdf(pkg, 'packaging');
    expect(decode(rasterise(pdf3, 1, 'packaging'))).toEqual(['BOX-60']);
    const cells = pkg.pages[0]!.cells as TLabelDocument['pages'][number]['cells'];
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2]);
    for (const cell of cells)
      expect(decode(rasterise(pdf3, 1, `pkg-${cell.index}`, cellCrop(cell)))).toEqual(['BOX-60']);
    expect(readdirSync(work).some((f) => f.endsWith('.pdf'))).toBe(true);
  });

  it('prints on a thermal roll: one 50 × 30 mm page per label that decodes, and the same labels as ZPL', async () => {
    const products = [];
    for (const [number, barcode] of [
      ['T-EAN', '4712345678900'],
      ['T-C128_X', null],
    ] as const)
      products.push(
        (
          await ctx.api.catalogRoutes.createProduct({
            body: { number, name: `${number} 熱感`, barcode },
            token: a.token,
          })
        ).json(),
      );
    const roll = await sheetByCode('thermal-50x30');
    expect(roll).toMatchObject({ builtin: true, cells: 1, page_width_mm: 50, page_height_mm: 30 });
    const doc = (
      await ctx.api.labelRoutes.renderLabels({
        body: {
          kind: 'product',
          sheet_id: roll.id,
          items: products.map((p, i) => ({ id: p.id, copies: [2, 1][i]! })),
          show_name: true,
        },
        token: a.token,
      })
    ).json() as TLabelDocument;
    const values = ['4712345678900', '4712345678900', 'T-C128_X'];
    expect(doc.pages.map((p) => p.cells.map((c) => c.value))).toEqual(values.map((v) => [v]));

    // The PDF: a page the size of the label per label, each page's barcode reads back.
    const pdf = await printPdf(doc, 'thermal-50x30');
    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+3/);
    // 50 × 30 mm = 141.73 × 85.04 pt
    const [, pw, ph] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
    expect([Math.round((Number(pw) / 72) * 25.4), Math.round((Number(ph) / 72) * 25.4)]).toEqual([50, 30]);
    for (const [i, value] of values.entries())
      expect(decode(rasterise(pdf, i + 1, `thermal-${i}`)), `page ${i + 1}`).toEqual([value]);

    // The ZPL: one ^XA…^XZ label per cell, 400 × 240 dots at 203 dpi, with the printer's own barcode of the value.
    const zpl = labelDocumentZpl(doc);
    const labels = zpl.split('^XZ').filter((l) => l.includes('^XA'));
    expect(labels).toHaveLength(3);
    const fromZplHex = (s: string) =>
      s.replace(/_([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    for (const [i, label] of labels.entries()) {
      expect(label).toContain('^PW400');
      expect(label).toContain('^LL240');
      const bar = /\^B([CEQ])N[^^]*(\^FH)?\^FD([^^]*)\^FS/.exec(label);
      expect(bar, label).not.toBeNull();
      const [, kind, , data] = bar!;
      if (values[i] === '4712345678900') {
        expect(kind).toBe('E');
        // ^BE takes 12 digits; the printer computes the 13th, which must be the product's check digit.
        expect(data).toBe('471234567890');
      } else {
        expect(kind).toBe('C');
        expect(fromZplHex(data!)).toBe('T-C128_X');
      }
      // No raw command characters inside field data.
      for (const fd of label.match(/\^FD[^^]*/g) ?? []) expect(fd.slice(3)).not.toMatch(/[~]/);
    }
    expect(zpl).toContain('E:ANMDT.TTF');
  });

  it('escapes names in the printed markup', async () => {
    const p = (
      await ctx.api.catalogRoutes.createProduct({
        body: { number: 'XSS-1', name: '<img src=x onerror=alert(1)>' },
        token: a.token,
      })
    ).json();
    const s45 = await sheetByCode('wms-45');
    const doc = (
      await ctx.api.labelRoutes.renderLabels({
        body: { kind: 'product', sheet_id: s45.id, items: [{ id: p.id }] },
        token: a.token,
      })
    ).json();
    const html = labelDocumentPage(doc);
    writeFileSync(path.join(work, 'xss.html'), html);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
  });
});
