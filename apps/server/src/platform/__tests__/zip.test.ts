import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { largeOrderFile } from '../../test/order-file';
import { deflatedRepeat, zipArchive } from '../../test/zip-file';
import { checkZipDirectory, type TZipLimits, verifyZip } from '../zip';

const MiB = 1024 * 1024;
const limits: TZipLimits = { entries: 20, uncompressedBytes: 8 * MiB, heldEntryBytes: 2 * MiB };
const codeOf = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};

describe('zip guards', () => {
  it('let a real workbook through, from exceljs and with a data descriptor per entry', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    for (let i = 0; i < 500; i++) ws.addRow([`row ${i}`, i, new Date(Date.UTC(2026, 0, 1 + (i % 28)))]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await codeOf(() => checkZipDirectory(file, limits))).toBe('ok');
    expect(await codeOf(verifyZip(file, limits))).toBe('ok');
    const streamed = await largeOrderFile(500, ['P-1']); // exceljs' streaming writer: sizes in data descriptors
    expect(streamed.readUInt16LE(6) & 0x08).toBe(0x08);
    expect(await codeOf(verifyZip(streamed, limits))).toBe('ok');
  });

  it('refuse at upload what the directory declares: too many entries, too much in all, a held entry too large', async () => {
    const many = zipArchive(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.xml`, data: Buffer.from('x') })));
    expect(await codeOf(() => checkZipDirectory(many, limits))).toBe('BODY_TOO_LARGE');
    const big = zipArchive([{ name: 'xl/worksheets/sheet1.xml', deflated: Buffer.alloc(10), declaredSize: 9 * MiB }]);
    expect(await codeOf(() => checkZipDirectory(big, limits))).toBe('BODY_TOO_LARGE');
    const strings = zipArchive([{ name: 'xl/sharedStrings.xml', deflated: Buffer.alloc(10), declaredSize: 3 * MiB }]);
    expect(await codeOf(() => checkZipDirectory(strings, limits))).toBe('BODY_TOO_LARGE');
    // A worksheet is streamed, so it may be larger than a held entry.
    const sheet = zipArchive([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(3 * MiB, 'a') }]);
    expect(await codeOf(() => checkZipDirectory(sheet, limits))).toBe('ok');
    expect(await codeOf(verifyZip(sheet, limits))).toBe('ok');
    expect(await codeOf(() => checkZipDirectory(Buffer.from('PK\u0003\u0004 not a zip'), limits))).toBe(
      'IMPORT_FILE_INVALID',
    );
  });

  it('refuse before parsing an entry that inflates past what it declares, without inflating the rest', async () => {
    const bomb = await deflatedRepeat('<si><t>AAAAAAAAAAAAAAAA</t></si>', 256 * MiB);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const file = zipArchive([{ name: 'xl/sharedStrings.xml', deflated: bomb, declaredSize: 1000 }]);
    expect(await codeOf(() => checkZipDirectory(file, limits))).toBe('ok'); // the directory lies
    const t0 = Date.now();
    expect(await codeOf(verifyZip(file, limits))).toBe('IMPORT_FILE_INVALID');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('refuse bytes no directory record accounts for (an entry hidden from the directory)', async () => {
    const hidden = zipArchive([{ name: 'xl/sharedStrings.xml', data: Buffer.alloc(4096, 'z') }]).subarray(0, 60);
    const file = zipArchive([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }], { hidden });
    expect(await codeOf(() => checkZipDirectory(file, limits))).toBe('ok');
    expect(await codeOf(verifyZip(file, limits))).toBe('IMPORT_FILE_INVALID');
  });
});
