/**
 * Benches that need a running server and the generated data set; each registers itself in main's STEPS (run once on
 * PostgreSQL) or API_EXTRA (run under load on every engine):
 * - allocation: export 10,000 pending orders (30,000 lines) through the outbound service, then the same balance
 *   updates as bare SQL — the physical limit of this machine — and the ratio;
 * - import: a 100,000-row xlsx order file through the HTTP import job, with the server's peak RSS;
 * - scan-to-pack: the packing station's scan call under 50 connections;
 * - analysis: each analysis screen's call (bench/src/analysis.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { outboundRoutes } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { exportOrderInTx, exportOrders } from '../../apps/server/src/modules/outbound/outbound.service';
import { EXPORT_CHUNK } from '../../apps/server/src/modules/outbound/outbound.status';
import { checkStockInvariants } from '../../apps/server/src/modules/stock/stock.invariants';
import type { TActor } from '../../apps/server/src/platform/auth';
import { largeOrderFile } from '../../apps/server/src/test/order-file';
import { analysisBench } from './analysis';
import { callbacksBench } from './callbacks';
import { httpClient, loginToken, ok, routePath } from './client';
import type { TSellerData } from './generate';
import { jobsBench } from './jobs';
import { loadTest } from './load';
import { peakBench } from './peak';
import { API_EXTRA, figure, SERVER_ENV, STEPS } from './registry';
import { shopeeBench, shopeeServerEnv } from './shopee';
import { statementsBench } from './statements';
import { wavesBench } from './waves';

const log = (msg: string) => console.log(`[bench] ${msg}`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Run `work` over `items` with `n` workers. */
async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function login(url: string, seller: TSellerData): Promise<string> {
  return loginToken(httpClient(url), seller);
}

// ---- allocation ----

async function allocation(ctx: { database: TDatabase; sellers: TSellerData[]; quick: boolean }): Promise<void> {
  const { db, pool: pgPool } = ctx.database;
  if (!pgPool) throw new Error('allocation bench runs on PostgreSQL');
  const seller = ctx.sellers[ctx.sellers.length - 1]!;
  const orders = ctx.quick ? 1_000 : 10_000;
  const workers = 8;
  // Pending orders with three lines each, spread over the seller's products (as an import would leave them).
  const created = await queryRows<{ id: string }>(
    db,
    sql`insert into outbound_orders (customer_id, number, recipient_name, recipient_phone, recipient_postcode,
                                     recipient_address, warehouse_id, status, channel, total_amount, created_at)
        select ${seller.customerId}, 'ALLOC' || lpad(i::text, 8, '0'), '收件人 ' || i, '0912345678', '100',
               '臺北市中正區重慶南路一段 ' || i || ' 號', ${seller.warehouseId}, 'pending_export', 'manual', 300, now()
        from generate_series(1, ${orders}) i
        returning id`,
  );
  await db.execute(sql`
    with o as (select id, row_number() over (order by number) as n from outbound_orders
               where customer_id = ${seller.customerId} and number like 'ALLOC%'),
         p as (select id, row_number() over (order by number) as n, count(*) over () as total from products
               where customer_id = ${seller.customerId})
    insert into outbound_order_lines (customer_id, order_id, line_no, product_id, quantity)
    select ${seller.customerId}, o.id, k, p.id, 1 + (o.n + k) % 3
    from o cross join generate_series(1, 3) k
    join p on p.n = ((o.n * 3 + k * 7919) % p.total) + 1`);
  const [{ lines } = { lines: 0 }] = await queryRows<{ lines: number }>(
    db,
    sql`select count(*)::int as lines from outbound_order_lines l join outbound_orders o on o.id = l.order_id
        where o.customer_id = ${seller.customerId} and o.number like 'ALLOC%'`,
  );
  await db.execute(sql`analyze outbound_orders`);
  await db.execute(sql`analyze outbound_order_lines`);
  const ids = created.map((r) => r.id);
  const actor: TActor = { kind: 'user', id: seller.userId, role: 'CUSTOMER', customerId: seller.customerId };
  const lineCount = `${orders.toLocaleString('en')} orders / ${Number(lines).toLocaleString('en')} lines`;
  const rate = (ms: number) => Math.round((Number(lines) / ms) * 1000);
  /** Put the orders back to pending and give their reservations back (so the next run starts from the same stock). */
  const undo = async () => {
    await db.execute(sql`
      with r as (delete from stock_reservations r using outbound_orders o
                 where o.id = r.document_id and o.customer_id = ${seller.customerId} and o.number like 'ALLOC%'
                 returning r.balance_id, r.quantity)
      update stock_balances b set reserved = b.reserved - s.q
      from (select balance_id, sum(quantity)::int as q from r group by balance_id) s where b.id = s.balance_id`);
    await db.execute(sql`
      update outbound_orders set status = 'pending_export', exported_at = null, abnormal_code = null,
        abnormal_params = null
      where customer_id = ${seller.customerId} and number like 'ALLOC%'`);
  };

  // 1. Set-based through the service: chunks of EXPORT_CHUNK orders, one after the other. Best of two runs (undone
  // between), as the bare SQL below: the first run of either meets cold caches.
  log(`allocation: ${lineCount}; set-based export through the service`);
  let t0 = Date.now();
  let outcomes = await exportOrders(db, actor, ids);
  const setRuns = [Date.now() - t0];
  await undo();
  t0 = Date.now();
  outcomes = await exportOrders(db, actor, ids);
  setRuns.push(Date.now() - t0);
  const setMs = Math.min(...setRuns);
  const setRefused = outcomes.filter((o) => o.error).length;
  figure(
    'allocation',
    `export ${lineCount} through the service, set-based (chunks of ${EXPORT_CHUNK}), best of 2`,
    rate(setMs),
    'lines/s',
    `${setRuns.map(seconds).join(' s, ')} s; ${setRefused} refused for stock`,
  );

  // 2. The same reservations as set-based bare SQL: one transaction, one statement per table (the machine's limit).
  const planned = await queryRows<{ document_id: string; balance_id: string; quantity: number; number: string }>(
    db,
    sql`select r.document_id, r.balance_id, r.quantity, r.document_number as number from stock_reservations r
        join outbound_orders o on o.id = r.document_id
        where o.customer_id = ${seller.customerId} and o.number like 'ALLOC%'`,
  );
  const exportedIds = outcomes.filter((o) => !o.error).map((o) => o.id);
  await undo();
  const json = JSON.stringify(planned.map((r) => ({ d: r.document_id, b: r.balance_id, q: r.quantity, n: r.number })));
  const bareOnce = async () => {
    const start = Date.now();
    const client = await pgPool.connect();
    try {
      await client.query('begin');
      await client.query(
        `select id from stock_balances where id in (select distinct (x->>'b')::uuid from jsonb_array_elements($1::jsonb) x)
         order by product_id, location_id, expiry_date nulls first for update`,
        [json],
      );
      await client.query(
        `update stock_balances b set reserved = b.reserved + s.q
         from (select b, sum(q)::int as q from jsonb_to_recordset($1::jsonb) as v(b uuid, q int) group by b) s
         where b.id = s.b and b.on_hand - b.reserved >= s.q`,
        [json],
      );
      await client.query(
        `insert into stock_reservations (customer_id, balance_id, document_type, document_id, document_number, quantity)
         select $2, v.b, 'outbound', v.d, v.n, v.q from jsonb_to_recordset($1::jsonb) as v(d uuid, b uuid, q int, n text)`,
        [json, seller.customerId],
      );
      await client.query(
        `update outbound_orders set status = 'exported', exported_at = now() where id = any($1::uuid[])`,
        [exportedIds],
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    return Date.now() - start;
  };
  const bareRuns = [await bareOnce()];
  await undo();
  bareRuns.push(await bareOnce());
  const bareSetMs = Math.min(...bareRuns);
  figure(
    'allocation',
    'the same reservations as set-based bare SQL (one transaction, one statement per table), best of 2',
    rate(bareSetMs),
    'lines/s',
    `${bareRuns.map(seconds).join(' s, ')} s; ${planned.length} reservation rows`,
  );
  figure('allocation', 'service / set-based bare SQL', (rate(setMs) / rate(bareSetMs)).toFixed(2), 'ratio');

  // 3. Per order through the service (one transaction per order, 8 workers), and the same as bare SQL per order.
  await undo();
  let refused = 0;
  t0 = Date.now();
  await pool(ids, workers, async (id) => {
    if (await exportOrderInTx(db, actor, id)) refused++;
  });
  const serviceMs = Date.now() - t0;
  figure(
    'allocation',
    `export ${lineCount} through the service, one order per transaction`,
    rate(serviceMs),
    'lines/s',
    `${seconds(serviceMs)} s, ${workers} workers, ${refused} refused for stock`,
  );

  // The same balance updates as bare SQL: one transaction per order, one guarded UPDATE per reservation row.
  const reservations = await queryRows<{ document_id: string; balance_id: string; quantity: number }>(
    db,
    sql`select r.document_id, r.balance_id, r.quantity from stock_reservations r
        join outbound_orders o on o.id = r.document_id
        where o.customer_id = ${seller.customerId} and o.number like 'ALLOC%' order by r.document_id`,
  );
  const byOrder = new Map<string, Array<{ balance_id: string; quantity: number }>>();
  for (const r of reservations) {
    const list = byOrder.get(r.document_id) ?? [];
    list.push(r);
    byOrder.set(r.document_id, list);
  }
  t0 = Date.now();
  await pool([...byOrder.values()], workers, async (rows) => {
    const c = await pgPool.connect();
    try {
      await c.query('begin');
      // In balance order, as the stock engine locks them: two orders never wait on each other in a cycle.
      for (const r of [...rows].sort((a, b) => (a.balance_id < b.balance_id ? -1 : 1)))
        await c.query('update stock_balances set reserved = reserved + $1 where id = $2 and on_hand - reserved >= $1', [
          r.quantity,
          r.balance_id,
        ]);
      await c.query('commit');
    } finally {
      c.release();
    }
  });
  const bareMs = Date.now() - t0;
  // Undo the bare updates so the balances match their reservations again.
  await pgPool.query(
    `update stock_balances b set reserved = b.reserved - s.q
     from (select balance_id, sum(quantity)::int as q from stock_reservations r
           join outbound_orders o on o.id = r.document_id
           where o.customer_id = $1 and o.number like 'ALLOC%' group by balance_id) s
     where b.id = s.balance_id`,
    [seller.customerId],
  );
  figure(
    'allocation',
    'the same balance updates as bare SQL, one order per transaction',
    rate(bareMs),
    'lines/s',
    `${seconds(bareMs)} s, ${reservations.length} updates in ${byOrder.size} transactions`,
  );
  figure(
    'allocation',
    'service / bare SQL, one order per transaction',
    (rate(serviceMs) / rate(bareMs)).toFixed(2),
    'ratio',
    'the bare side writes only the balances',
  );

  // The same reservations as bare SQL per order: what the set-based bare SQL above writes, one order per transaction
  // (lock the order's piles, one guarded update of them, its reservation rows, its status) — the writes the service
  // makes for one order, without its reads, checks, planning and audit row.
  await undo();
  const plannedOf = new Map<string, typeof planned>();
  for (const r of planned) plannedOf.set(r.document_id, [...(plannedOf.get(r.document_id) ?? []), r]);
  const bareFullOnce = async () => {
    const start = Date.now();
    await pool([...plannedOf.values()], workers, async (rows) => {
      const piles = rows.map((r) => r.balance_id);
      const quantities = rows.map((r) => r.quantity);
      const c = await pgPool.connect();
      try {
        await c.query('begin');
        await c.query(
          `select id from stock_balances where id = any($1::uuid[])
           order by product_id, location_id, expiry_date nulls first for update`,
          [piles],
        );
        await c.query(
          `update stock_balances b set reserved = b.reserved + s.q from unnest($1::uuid[], $2::int[]) as s(id, q)
           where b.id = s.id and b.on_hand - b.reserved >= s.q`,
          [piles, quantities],
        );
        await c.query(
          `insert into stock_reservations (customer_id, balance_id, document_type, document_id, document_number, quantity)
           select $3, s.b, 'outbound', $4, $5, s.q from unnest($1::uuid[], $2::int[]) as s(b, q)`,
          [piles, quantities, seller.customerId, rows[0]!.document_id, rows[0]!.number],
        );
        await c.query(`update outbound_orders set status = 'exported', exported_at = now() where id = $1`, [
          rows[0]!.document_id,
        ]);
        await c.query('commit');
      } finally {
        c.release();
      }
    });
    return Date.now() - start;
  };
  const bareFullMs = await bareFullOnce();
  await undo();
  figure(
    'allocation',
    'the same reservations as bare SQL, one order per transaction',
    rate(bareFullMs),
    'lines/s',
    `${seconds(bareFullMs)} s, ${workers} workers, ${plannedOf.size} transactions (piles locked, updated, reservation rows, status)`,
  );
  figure(
    'allocation',
    'service / the same reservations as bare SQL, one order per transaction',
    (rate(serviceMs) / rate(bareFullMs)).toFixed(2),
    'ratio',
  );
  figure('allocation', 'set-based service / per-order service', (rate(setMs) / rate(serviceMs)).toFixed(1), 'ratio');

  // 4. Four bulk exports at once over the same products (every fourth order each): deadlocks, overselling, ledger.
  await undo();
  const groups = [0, 1, 2, 3].map((g) => ids.filter((_, i) => i % 4 === g));
  let surfaced = 0;
  t0 = Date.now();
  const raced = await Promise.all(
    groups.map((g) =>
      exportOrders(db, actor, g).catch((err: unknown) => {
        surfaced++;
        log(`allocation: a concurrent bulk export failed: ${String(err).slice(0, 200)}`);
        return [];
      }),
    ),
  );
  const raceMs = Date.now() - t0;
  const [over] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from stock_balances where customer_id = ${seller.customerId} and reserved > on_hand`,
  );
  figure(
    'allocation',
    '4 concurrent bulk exports over the same products',
    rate(raceMs),
    'lines/s',
    `${seconds(raceMs)} s, ${raced.flat().filter((o) => !o.error).length} exported, ${surfaced} errors surfaced (deadlocks included), ${over?.n ?? 0} piles oversold`,
  );
  const violations = await checkStockInvariants(db, { customerId: seller.customerId });
  figure('allocation', 'check:stock after allocation', violations.length, 'violations');
  log(
    `allocation: set-based ${rate(setMs)} lines/s (bare set-based ${rate(bareSetMs)}), per order ${rate(serviceMs)} lines/s (bare ${rate(bareMs)}, same reservations ${rate(bareFullMs)})`,
  );
}

// ---- import ----

/** Resident set size of the largest process in the tree under `pid` (tsx runs the server in a child), in MB. */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let max = 0;
  const walk = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) max = Math.max(max, Number(m[1]) / 1024);
    } catch {
      // gone
    }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return Math.round(max);
}

async function importBench(ctx: {
  database: TDatabase;
  url: string;
  sellers: TSellerData[];
  quick: boolean;
  serverPid?: number;
}): Promise<void> {
  const seller = ctx.sellers[0]!;
  const rows = ctx.quick ? 10_000 : 100_000;
  const products = await queryRows<{ number: string }>(
    ctx.database.db,
    sql`select number from products where customer_id = ${seller.customerId} order by number limit 500`,
  );
  const file = await largeOrderFile(
    rows,
    products.map((p) => p.number),
    { prefix: 'IMP', addressPad: 0 },
  );
  const token = await login(ctx.url, seller);
  const before = ctx.serverPid ? treeRssMb(ctx.serverPid) : 0;
  let peak = before;
  const sampler = setInterval(() => {
    if (ctx.serverPid) peak = Math.max(peak, treeRssMb(ctx.serverPid));
  }, 100);
  const t0 = Date.now();
  let job: { id: string; state: string; progress: number; total: number; error: unknown; result: unknown };
  try {
    const api = httpClient(ctx.url);
    job = await ok(
      'order import',
      api.outboundRoutes.importOrders({
        body: { file_base64: file.toString('base64'), file_name: 'orders.xlsx' },
        token,
      }),
    );
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((r) => setTimeout(r, 250));
      job = await ok('import job', api.jobRoutes.getJob({ params: { id: job.id }, token }));
    }
  } finally {
    clearInterval(sampler);
  }
  const ms = Date.now() - t0;
  const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from outbound_orders where customer_id = ${seller.customerId} and platform_order_number like 'IMP-%'`,
  );
  const note = `${(file.length / 2 ** 20).toFixed(1)} MB xlsx, job ${job.state}, ${Number(n).toLocaleString('en')} orders created`;
  figure('import', `import ${rows.toLocaleString('en')}-row xlsx order file (HTTP → job)`, seconds(ms), 's', note);
  figure('import', 'rows per second', Math.round((rows / ms) * 1000), 'rows/s');
  if (ctx.serverPid) {
    figure('import', 'server peak RSS during the import', peak, 'MB', `${before} MB before`);
  }
  log(`import: ${rows} rows in ${seconds(ms)} s, state ${job.state}, peak RSS ${peak} MB (before ${before} MB)`);
  if (job.state !== 'succeeded') log(`import error: ${JSON.stringify(job.error).slice(0, 500)}`);
}

// ---- scan-to-pack under load ----

async function scanToPack(engine: string, url: string, token: string, orderCount: number, secs: number) {
  const api = httpClient(url);
  const page = await ok('products', api.catalogRoutes.listProducts({ query: { page: 1, page_size: 100 }, token }));
  const products = page.results.filter((p) => p.barcode);
  const orders: Array<{ id: string; barcodes: string[] }> = [];
  let t0 = Date.now();
  await pool(
    Array.from({ length: orderCount }, (_, i) => i),
    10,
    async (i) => {
      const picked = [0, 1, 2].map((k) => products[(i * 3 + k * 31) % products.length]!);
      const o = await ok(
        'order',
        api.outboundRoutes.createOrder({
          body: {
            recipient_name: `Pack ${i}`,
            recipient_phone: '0912345678',
            recipient_postcode: '100',
            recipient_address: `臺北市中正區重慶南路一段 ${i} 號`,
            lines: picked.map((p) => ({ product_id: p.id, quantity: 3 })),
          },
          token,
        }),
      );
      orders.push({ id: o.id, barcodes: picked.map((p) => p.barcode!) });
    },
  );
  for (let i = 0; i < orders.length; i += 1000) {
    await ok(
      'export',
      api.outboundRoutes.bulkTransition({
        body: { action: 'export', ids: orders.slice(i, i + 1000).map((o) => o.id) },
        token,
      }),
    );
  }
  log(`${engine} scan-to-pack: ${orders.length} orders created and exported in ${seconds(Date.now() - t0)} s`);
  // Nine units per order, as at 50 packing stations: each block of 50 orders is scanned unit by unit, so the 50
  // requests in flight go to 50 different orders and one scan in nine opens its order (exported → online). (Until
  // 2026-11-24 every order's first unit came first: a 10-second run measured almost only the opening scans.)
  const scans: Array<{ path: string; body: string }> = [];
  for (let block = 0; block < orders.length; block += 50)
    for (let unit = 0; unit < 9; unit++)
      for (const o of orders.slice(block, block + 50))
        scans.push({
          path: routePath(outboundRoutes.packScan, { id: o.id }),
          body: JSON.stringify({ barcode: o.barcodes[unit % 3] }),
        });
  t0 = Date.now();
  const result = await loadTest({
    name: 'scan-to-pack (POST pack/scan)',
    engine,
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    seconds: secs,
    requests: scans,
  });
  log(
    `${engine} scan-to-pack: ${result.rps} req/s p50 ${result.p50} ms p99 ${result.p99} ms (${result.non2xx} non-2xx of ${result.requests}, ${scans.length} units available)`,
  );
  return result;
}

STEPS.push(
  { name: 'allocation', run: allocation },
  { name: 'import', run: importBench },
  { name: 'jobs', run: jobsBench },
  { name: 'callbacks', run: callbacksBench },
  { name: 'shopee', run: shopeeBench },
  { name: 'analysis', run: analysisBench },
  { name: 'statements', run: statementsBench },
  { name: 'peak', run: peakBench },
  // Last: it leaves 20,000 exported orders and their batches behind.
  { name: 'waves', run: wavesBench },
);
SERVER_ENV.push({ step: 'shopee', env: shopeeServerEnv }, { step: 'peak', env: shopeeServerEnv });
API_EXTRA.push(async (engine, url, token, _seller, _database, report) => {
  const quick = report.scale === 'quick';
  const orders = quick ? 150 : engine.startsWith('pglite') ? 300 : 1_000;
  report.load.push(await scanToPack(engine, url, token, orders, quick ? 3 : 10));
});
