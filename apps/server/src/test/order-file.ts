import { PassThrough } from 'node:stream';
import { fieldLabel, type TImportField } from '@wms/contracts';
import ExcelJS from 'exceljs';

/**
 * A large order import file, written with exceljs's streaming writer (no whole Workbook in memory): `rows` rows, two
 * per order (`<prefix>-<n>` platform order numbers), zh-TW headers, products taken in turn from `productNumbers`;
 * `addressPad` extra characters lengthen every address. Used by the import tests, the crash suite and the bench.
 */
export async function largeOrderFile(
  rows: number,
  productNumbers: string[],
  opts: { prefix?: string; addressPad?: number } = {},
): Promise<Buffer> {
  const prefix = opts.prefix ?? 'BIG';
  const pad = '樓'.repeat(opts.addressPad ?? 10);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet('orders');
  const fields: TImportField[] = [
    'platform_order_number',
    'recipient_name',
    'recipient_phone',
    'recipient_postcode',
    'recipient_address',
    'shipping_remark',
    'product',
    'quantity',
  ];
  ws.addRow(fields.map((f) => fieldLabel(f, 'zh-TW'))).commit();
  for (let i = 0; i < rows; i++) {
    const order = Math.floor(i / 2);
    ws.addRow([
      `${prefix}-${order}`,
      `收件人 ${order}`,
      `09${String(order).padStart(8, '0')}`,
      '100',
      `台北市中正區重慶南路一段 ${order} 號${pad ? ` ${pad}` : ''}`,
      `備註 ${i}`,
      productNumbers[i % productNumbers.length],
      (i % 3) + 1,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}
