/**
 * Child process of outbound.import-large.int.test.ts: imports a 100,000-row order file under a hard V8 heap cap
 * (`node --max-old-space-size=…`), so running out of memory would crash it. Prints one JSON line with the outcome.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { createTestContext } from '../../../test/harness';
import { largeOrderFile } from '../../../test/order-file';
import { importFile, outboundWorld } from './factories';

const ROWS = Number(process.env.OUTBOUND_IMPORT_ROWS ?? 100_000);

const ctx = await createTestContext();
try {
  const world = await outboundWorld(ctx);
  const file = await largeOrderFile(ROWS, [world.phone.number, world.plain.number]);
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
