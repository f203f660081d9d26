import { PassThrough } from 'node:stream';
import { fieldLabel, type TImportField } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { importFile, outboundWorld, type TWorld } from './factories';

/**
 * A 100,000-row order file (50,000 orders of two lines) imported as a job: every row checked, every order written
 * in one transaction, with the heap staying far below the size the file would take as a loaded workbook.
 */
const ROWS = Number(process.env.OUTBOUND_IMPORT_ROWS ?? 100_000);
let ctx: TTestContext;
let w: TWorld;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx);
}, 60_000);
afterAll(() => ctx?.close());

async function bigFile(): Promise<Buffer> {
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
  for (let i = 0; i < ROWS; i++) {
    const order = Math.floor(i / 2);
    ws.addRow([
      `BIG-${order}`,
      `收件人 ${order}`,
      `09${String(order).padStart(8, '0')}`,
      '100',
      `台北市中正區重慶南路一段 ${order} 號 ${'樓'.repeat(10)}`,
      `備註 ${i}`,
      i % 2 ? w.plain.number : w.phone.number,
      (i % 3) + 1,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

describe('order import at scale', () => {
  it('imports 100,000 rows as a job with a bounded heap', async () => {
    const file = await bigFile();
    global.gc?.();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 50);
    const started = Date.now();
    const job = await importFile(ctx, w.token, file);
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    expect(job.error).toBeNull();
    expect(job.result).toMatchObject({ rows: ROWS, orders: ROWS / 2, created: ROWS / 2 });
    const [n] = await queryRows<{ orders: number; lines: number }>(
      ctx.deps.database.db,
      sql`select (select count(*)::int from outbound_orders where customer_id = ${w.customerId}) as orders,
                 (select count(*)::int from outbound_order_lines where customer_id = ${w.customerId}) as lines`,
    );
    expect(n).toEqual({ orders: ROWS / 2, lines: ROWS });
    const grewMb = (peak - base) / 1024 / 1024;
    console.info(
      `import of ${ROWS} rows (${(file.length / 1024 / 1024).toFixed(1)} MB xlsx, ${ctx.engine}): ${seconds.toFixed(1)} s, heap +${grewMb.toFixed(0)} MB at peak`,
    );
    // The rows as parsed objects alone would take several hundred MB; the two streaming passes keep only
    // per-order keys and small batches.
    expect(grewMb).toBeLessThan(400);
  }, 600_000);
});
