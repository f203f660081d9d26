/**
 * Child process of outbound.import-large.int.test.ts: imports a 100,000-row order file under a hard V8 heap cap
 * (`node --max-old-space-size=…`), so running out of memory would crash it. Prints one JSON line with the outcome.
 */
import { PassThrough } from 'node:stream';
import { fieldLabel, type TImportField } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { queryRows } from '../../../db/client';
import { createTestContext } from '../../../test/harness';
import { importFile, outboundWorld } from './factories';

const ROWS = Number(process.env.OUTBOUND_IMPORT_ROWS ?? 100_000);

async function bigFile(world: Awaited<ReturnType<typeof outboundWorld>>): Promise<Buffer> {
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
      i % 2 ? world.plain.number : world.phone.number,
      (i % 3) + 1,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

const ctx = await createTestContext();
try {
  const world = await outboundWorld(ctx);
  const file = await bigFile(world);
  const started = Date.now();
  const job = await importFile(ctx, world.token, file);
  const [n] = await queryRows<{ orders: number; lines: number }>(
    ctx.deps.database.db,
    sql`select (select count(*)::int from outbound_orders where customer_id = ${world.customerId}) as orders,
               (select count(*)::int from outbound_order_lines where customer_id = ${world.customerId}) as lines`,
  );
  console.log(
    JSON.stringify({
      state: job.state,
      error: job.error,
      result: job.result,
      progress: job.progress,
      total: job.total,
      orders: Number(n?.orders),
      lines: Number(n?.lines),
      seconds: (Date.now() - started) / 1000,
      megabytes: file.length / 1024 / 1024,
      engine: ctx.engine,
    }),
  );
} finally {
  await ctx.close();
}
