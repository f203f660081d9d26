import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readSheet, writeWorkbook } from '../spreadsheet';

const LIMITS = { entries: 1000, uncompressedBytes: 500 * 2 ** 20, heldEntryBytes: 200 * 2 ** 20 };

async function workbook(rows: unknown[][], sheets = ['Sheet1']): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const name of sheets) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r.map((c) => (typeof c === 'string' ? `${c}${name === sheets[0] ? '' : '!'}` : c)));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function read(content: Buffer) {
  const out: Array<{ row: number; cells: unknown[] }> = [];
  for await (const r of readSheet(content, LIMITS)) out.push(r);
  return out;
}

describe('readSheet (.xlsx)', () => {
  it('reads every character of a large Chinese file intact, however the parts are cut into chunks', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`臺北市中正區重慶南路一段${i}號`, `王小明${i}`, i]);
    const got = await read(await workbook(rows));
    expect(got).toHaveLength(rows.length);
    const damaged = got.filter((r, i) => r.cells[0] !== rows[i]![0] || r.cells[1] !== rows[i]![1]);
    expect(damaged.slice(0, 3)).toEqual([]);
  });

  it('reads the first sheet of the workbook, shared strings and numbers, the same way on every read', async () => {
    const file = await workbook(
      [
        ['number', 'name', 'qty'],
        ['A-1', '商品', 3],
      ],
      ['first', 'second'],
    );
    // The same file read many times gives the same rows every time (exceljs' own archive walk did not: see readXlsx).
    for (let i = 0; i < 200; i++)
      expect(await read(file)).toEqual([
        { row: 1, cells: ['number', 'name', 'qty'] },
        { row: 2, cells: ['A-1', '商品', 3] },
      ]);
  });
});

describe('writeWorkbook', () => {
  it('writes every 4-byte character intact (CJK Extension B names), with the header, its format and the notes', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ number: `00${i}`, name: `王小明𠜎${i}`, quantity: i }));
    const file = await writeWorkbook(
      'Products',
      [{ key: 'number', required: true, text: true, width: 20 }, { key: 'name' }, { key: 'quantity' }],
      rows,
      'zh-TW',
      ['說明'],
    );
    const got = await read(file);
    expect(got).toHaveLength(rows.length + 1);
    expect(got[0]!.cells).toEqual(['商品編號 *', '名稱', '數量']);
    const damaged = got.slice(1).filter((r, i) => r.cells[0] !== rows[i]!.number || r.cells[1] !== rows[i]!.name);
    expect(damaged.slice(0, 3)).toEqual([]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Products')!;
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('@');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(wb.getWorksheet('README')!.getRow(5).getCell(1).value).toBe('說明');
  });
});
