import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/**
 * An independent reader of what Excel reads: Python's zipfile and XML parser over the archive's parts, each part
 * decoded as strict UTF-8 (a character cut in two is an error, not a U+FFFD). Answers the shared strings in order.
 */
const PYTHON_READER = `
import json, sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
for name in z.namelist():
    if name.endswith('.xml'):
        z.read(name).decode('utf-8', 'strict')
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
root = ET.fromstring(z.read('xl/sharedStrings.xml'))
print(json.dumps([''.join(si.itertext()) for si in root.findall('m:si', ns)], ensure_ascii=True))
`;
const hasPython =
  spawnSync('python3', ['-c', 'import zipfile, xml.etree.ElementTree'], { stdio: 'ignore' }).status === 0;

function pythonSharedStrings(file: Buffer): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wms-xlsx-'));
  try {
    const at = path.join(dir, 'export.xlsx');
    writeFileSync(at, file);
    return JSON.parse(
      execFileSync('python3', ['-c', PYTHON_READER, at], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 20,000 names with 4-byte characters (CJK Extension B) at every byte offset a buffer boundary could fall on. */
const NAMES = Array.from(
  { length: 20_000 },
  (_, i) => `${'王'.repeat(i % 7)}小明${'𠜎𠜱𠝹𠱓'.slice(0, 2 * (1 + (i % 4)))}${'a'.repeat(i % 5)}${i}`,
);

describe.skipIf(!hasPython)('writeWorkbook read back by another reader than ours (Python zipfile + XML)', () => {
  it('20,000 rows of 4-byte names come back byte-exact from sharedStrings.xml, and by our reader', async () => {
    const rows = NAMES.map((name, i) => ({ number: `N${i}`, name }));
    const file = await writeWorkbook('Products', [{ key: 'number', text: true }, { key: 'name' }], rows, 'en');
    const strings = pythonSharedStrings(file);
    const byText = new Set(strings);
    const missing = NAMES.filter((n) => !byText.has(n));
    expect(missing.slice(0, 3)).toEqual([]);
    expect(strings.filter((s) => s.includes('\ufffd'))).toEqual([]);
    // Byte-exact: the UTF-8 of each name as Python decoded it is the UTF-8 we meant.
    expect(Buffer.from(strings.filter((s) => s.includes('小明')).join('\n'), 'utf8')).toEqual(
      Buffer.from(NAMES.join('\n'), 'utf8'),
    );
    const got = await read(file);
    expect(got.slice(1).map((r) => r.cells[1])).toEqual(NAMES);
  }, 120_000);
});
