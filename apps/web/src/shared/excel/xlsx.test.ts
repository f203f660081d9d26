import { inflateRawSync, crc32 as nodeCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildXlsx, columnName, safeSheetName } from './xlsx';
import { crc32 } from './zip';

/** Read a ZIP's central directory back (independently of the writer) and check every entry's CRC. */
function readZip(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = bytes.length - 22;
  expect(view.getUint32(eocd, true)).toBe(0x06054b50);
  const count = view.getUint16(eocd + 10, true);
  let pos = view.getUint32(eocd + 16, true);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(pos, true)).toBe(0x02014b50);
    const method = view.getUint16(pos + 10, true);
    const crc = view.getUint32(pos + 16, true);
    const size = view.getUint32(pos + 20, true);
    const nameLen = view.getUint16(pos + 28, true);
    const local = view.getUint32(pos + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(pos + 46, pos + 46 + nameLen));
    const localNameLen = view.getUint16(local + 26, true);
    const localExtra = view.getUint16(local + 28, true);
    const start = local + 30 + localNameLen + localExtra;
    const raw = bytes.subarray(start, start + size);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    expect(nodeCrc32(data) >>> 0, `crc of ${name}`).toBe(crc);
    files.set(name, new TextDecoder().decode(data));
    pos += 46 + nameLen + view.getUint16(pos + 30, true) + view.getUint16(pos + 32, true);
  }
  return files;
}

describe('xlsx writer', () => {
  it('computes the same CRC-32 as zlib', () => {
    const data = new TextEncoder().encode('倉儲管理 WMS 123');
    expect(crc32(data)).toBe(nodeCrc32(data) >>> 0);
  });

  it('writes a workbook package whose sheet holds the header and the rows, escaped', () => {
    const files = readZip(
      buildXlsx({
        name: 'routes/1',
        header: ['路徑', 'n'],
        rows: [
          ['/a<b>&"c"', 3],
          [null, true],
        ],
      }),
    );
    expect([...files.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = files.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<c r="A1" s="1" t="inlineStr"><is><t xml:space="preserve">路徑</t></is></c>');
    expect(sheet).toContain('<t xml:space="preserve">/a&lt;b&gt;&amp;&quot;c&quot;</t>');
    expect(sheet).toContain('<c r="B2"><v>3</v></c>');
    expect(sheet).toContain('<c r="B3" t="b"><v>1</v></c>');
    expect(files.get('xl/workbook.xml')).toContain('name="routes 1"');
  });

  it('names columns and sheets as Excel wants', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(safeSheetName('a[b]:c*?/\\'.padEnd(40, 'x'))).toHaveLength(31);
  });
});
