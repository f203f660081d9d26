/**
 * `npm run bench`: figures for speed and scale, printed as a table and written to bench/results/latest.json.
 * Flags: --quick (small data set, short load runs), --only=<step,step> (generate is always run).
 * Steps: check (invariant check over the ledger), api (HTTP load on PostgreSQL and PGlite), web (JS sizes),
 * scaleout (2 app processes behind pgbouncer with a streaming replica), plus the steps registered in STEPS below. Benchmarks report; they never assert times.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  analysisRoutes,
  authRoutes,
  outboundRoutes,
  stockRoutes,
  ZOrderListQuery,
  ZProductStockQuery,
  ZStockLogQuery,
} from '@wms/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { migrateDatabase, openDatabase, queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { listOrders } from '../../apps/server/src/modules/outbound/outbound.orders';
import { checkStockInvariants } from '../../apps/server/src/modules/stock/stock.invariants';
import * as stockService from '../../apps/server/src/modules/stock/stock.service';
import type { TActor } from '../../apps/server/src/platform/auth';
import { httpClient, loginToken, routePath } from './client';
import { countRows, generateData, SCALES, type TSellerData } from './generate';
import { asSignedIn, loadTest, recordStatements, sqlLimit } from './load';
import { peakBench } from './peak';
import { API_EXTRA, CLEANUP, figure, report, SERVER_ENV, STEPS } from './registry';
import { shopeeServerEnv } from './shopee';
import { webFigures } from './web';

const root = path.resolve(import.meta.dirname, '../..');
const quick = process.argv.includes('--quick');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const want = (step: string) => !only || only.includes(step);
const log = (msg: string) => console.log(`[bench] ${msg}`);
report.scale = quick ? 'quick' : 'default';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Start the real server (tsx main.ts) on a database; resolves once /api/health/ answers. */
async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      // The login run measures scrypt, not the guards: the per-address throttle (20 a minute) and the account guard,
      // which counts an attempt before checking it — 50 parallel logins to one account are 50 pending guesses and lock it.
      AUTH_IP_LIMIT_PER_MINUTE: '1000000',
      LOGIN_MAX_FAILURES: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}${routePath(authRoutes.health)}`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

async function login(url: string, seller: TSellerData): Promise<string> {
  return loginToken(httpClient(url), seller);
}

/** The API-under-load endpoints; each returns the autocannon options for one run. */
async function apiLoad(
  engine: string,
  url: string,
  seller: TSellerData,
  productId: string,
  database: TDatabase | null,
) {
  const token = await login(url, seller);
  const auth = { authorization: `Bearer ${token}` };
  const seconds = quick ? 3 : 10;
  const actor: TActor = { kind: 'user', id: seller.userId, role: 'CUSTOMER', customerId: seller.customerId };
  const stockLogQuery = (search: string) =>
    stockService.stockLog(
      { db: database!.db },
      actor,
      ZStockLogQuery.parse(Object.fromEntries(new URLSearchParams(search))),
    );
  const runs: Array<{ name: string; path: string; service: (search: string) => Promise<unknown> }> = [
    {
      name: 'product stock page',
      path: routePath(stockRoutes.productStock, {}, { page: 3, page_size: 25, search: 'SKU00' }),
      service: (search) =>
        stockService.productStock(
          { db: database!.db },
          actor,
          ZProductStockQuery.parse(Object.fromEntries(new URLSearchParams(search))),
        ),
    },
    {
      name: 'order list (status filter, newest first)',
      path: routePath(
        outboundRoutes.listOrders,
        {},
        { page: 2, page_size: 25, status: 'closed', ordering: '-created_at' },
      ),
      service: (search) =>
        listOrders({ db: database!.db }, actor, ZOrderListQuery.parse(Object.fromEntries(new URLSearchParams(search)))),
    },
    {
      name: 'stock log page (one product)',
      path: routePath(stockRoutes.stockLog, {}, { page: 1, page_size: 25, product_id: productId }),
      service: stockLogQuery,
    },
    {
      name: 'stock log page (all)',
      path: routePath(stockRoutes.stockLog, {}, { page: 5, page_size: 25 }),
      service: stockLogQuery,
    },
  ];
  for (const r of runs) {
    const result = await loadTest({ name: r.name, engine, url: `${url}${r.path}`, headers: auth, seconds });
    if (database?.pool) {
      // The limit: the same statements (the endpoint's, which read the caller's grants too) straight from pg.
      const search = r.path.split('?')[1]!;
      const statements = await recordStatements([database.pool, database.readPool], () =>
        asSignedIn(database.db, seller.userId, () => r.service(search)),
      );
      const limit = await sqlLimit(statements, { seconds });
      result.sql_rps = limit.rps;
      result.sql_p95 = limit.p95;
    }
    report.load.push(result);
    log(
      `${engine} ${r.name}: ${result.rps} req/s p50 ${result.p50} ms p95 ${result.p95} ms p99 ${result.p99} ms (${result.non2xx} non-2xx)` +
        (result.sql_rps ? `; same SQL from pg: ${result.sql_rps} req/s p95 ${result.sql_p95} ms` : ''),
    );
  }
  const loginRun = await loadTest({
    name: 'login (scrypt)',
    engine,
    url: `${url}${routePath(authRoutes.login)}`,
    method: 'POST',
    body: JSON.stringify({ email: seller.email, password: seller.password }),
    // scrypt makes each login cost tens of ms of CPU: a short window would end before the first wave of 50 returns.
    seconds: Math.max(seconds, 10),
  });
  report.load.push(loginRun);
  log(`${engine} login: ${loginRun.rps} req/s p99 ${loginRun.p99} ms`);
  for (const step of API_EXTRA) await step(engine, url, token, seller, database, report);
}

/**
 * Scale-out on PostgreSQL's own tools (#39 item 4): the app as 2 processes behind pgbouncer (transaction pooling;
 * DATABASE_DIRECT_URL for session state) with a streaming replica of the bench cluster (DATABASE_REPLICA_URL: the
 * dashboard, analysis and stock log read there), loaded on both processes at once with the list pages and the
 * read-heavy calls. Same secrets in both processes: a token from one is good at the other.
 */
async function scaleOut(opts: {
  databaseUrl: string;
  dbName: string;
  seller: TSellerData;
  productId: string;
  pgbouncer: () => Promise<{ url: string; stop(): void }>;
  replica: () => Promise<{ url: string; stop(): void }>;
  /** Then the peak hour across both processes (`peakBench`): the bench's database and sellers. */
  peak: { database: TDatabase; sellers: TSellerData[] };
}): Promise<void> {
  const engine = 'postgres: 2 processes, pgbouncer, replica';
  const at = (base: string) => {
    const u = new URL(base);
    u.pathname = `/${opts.dbName}`;
    return u.toString();
  };
  const bouncer = await opts.pgbouncer();
  let replica: { url: string; stop(): void } | null = null;
  const servers: Array<Awaited<ReturnType<typeof startServer>>> = [];
  try {
    let t0 = Date.now();
    replica = await opts.replica();
    figure('scaleout', 'streaming replica made (pg_basebackup -R)', ((Date.now() - t0) / 1000).toFixed(1), 's');
    const env = {
      // The peak's Shopee sync talks to the fake Shopee (started once per bench run).
      ...(await shopeeServerEnv()),
      OUTGOING_ALLOW_PRIVATE: '1',
      DATABASE_URL: at(bouncer.url),
      DATABASE_DIRECT_URL: opts.databaseUrl,
      DATABASE_REPLICA_URL: at(replica.url),
      JWT_SECRET: randomBytes(32).toString('hex'),
      APP_SECRET_KEY: randomBytes(32).toString('hex'),
    };
    for (let i = 0; i < 2; i++)
      servers.push(await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'wms-bench-data-')) }));
    const urls = servers.map((s) => s.url);
    const token = await login(urls[0]!, opts.seller);
    const headers = { authorization: `Bearer ${token}` };
    const seconds = quick ? 3 : 10;
    const runs = [
      {
        name: 'product stock page',
        path: routePath(stockRoutes.productStock, {}, { page: 3, page_size: 25, search: 'SKU00' }),
      },
      {
        name: 'order list (status filter, newest first)',
        path: routePath(
          outboundRoutes.listOrders,
          {},
          { page: 2, page_size: 25, status: 'closed', ordering: '-created_at' },
        ),
      },
      {
        name: 'stock log page (one product) — replica',
        path: routePath(stockRoutes.stockLog, {}, { page: 1, page_size: 25, product_id: opts.productId }),
      },
      { name: 'stock log page (all) — replica', path: routePath(stockRoutes.stockLog, {}, { page: 5, page_size: 25 }) },
      { name: 'dashboard — replica', path: routePath(analysisRoutes.dashboard) },
    ];
    for (const r of runs) {
      t0 = Date.now();
      const result = await loadTest({ name: r.name, engine, url: urls.map((u) => `${u}${r.path}`), headers, seconds });
      report.load.push(result);
      log(
        `${engine} ${r.name}: ${result.rps} req/s p50 ${result.p50} ms p95 ${result.p95} ms p99 ${result.p99} ms (${result.non2xx} non-2xx)`,
      );
    }
    // The peak hour again, its clients spread over the two processes (#39 item 4: "the peak hour with 1 process
    // direct, and 2 processes behind pgbouncer with a replica").
    await peakBench({
      database: opts.peak.database,
      sellers: opts.peak.sellers,
      url: urls[0]!,
      quick,
      processes: { urls, pids: servers.map((s) => s.proc.pid), group: 'scaleout', engine },
    });
  } finally {
    for (const s of servers) await s.stop();
    replica?.stop();
    bouncer.stop();
  }
}

async function someProductId(database: TDatabase, customerId: string): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    database.db,
    sql`select id from products where customer_id = ${customerId} order by number limit 1 offset 17`,
  );
  return rows[0]!.id;
}

/** A step that fails (e.g. no Chromium for `web`) is reported as failed; the others' figures are kept. */
let failedSteps = 0;
async function attempt(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    failedSteps++;
    log(`${name} failed: ${(err as Error).message.split('\n')[0]}`);
    figure(name, 'step failed', 'failed', '', (err as Error).message.split('\n')[0]);
  }
}

async function main(): Promise<void> {
  // The plain ESM helper shared with the test runner (typed by scripts/pg-cluster.d.mts).
  const { findPgbouncer, startCluster, startPgbouncer, startReplica } = await import('../../scripts/pg-cluster.mjs');
  try {
    await import('./steps');
  } catch (err) {
    log(`no extra steps (${(err as Error).message})`);
  }
  const scale = SCALES[quick ? 'quick' : 'default'];
  const cluster = process.env.BENCH_DATABASE_URL ? null : await startCluster();
  const adminUrl = process.env.BENCH_DATABASE_URL ?? cluster!.url;
  const dbName = `wms_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  const database = await openDatabase({ databaseUrl, poolSize: 10 });
  const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'wms-bench-pglite-'));
  try {
    await migrateDatabase(database);
    let t0 = Date.now();
    const sellers = await generateData(database.db, scale, log);
    figure('data', 'generate data set (PostgreSQL)', ((Date.now() - t0) / 1000).toFixed(1), 's');
    report.rows = await countRows(database.db);
    log(`rows: ${JSON.stringify(report.rows)}`);

    if (want('check')) {
      t0 = Date.now();
      const violations = await checkStockInvariants(database.db);
      figure(
        'stock',
        `check:stock over ${report.rows.stock_movements} ledger rows`,
        Date.now() - t0,
        'ms',
        `${violations.length} violations`,
      );
    }

    const steps = STEPS.filter((s) => want(s.name));
    if (want('api') || want('web') || steps.length > 0) {
      const extraEnv: Record<string, string> = {};
      for (const e of SERVER_ENV) if (want(e.step)) Object.assign(extraEnv, await e.env());
      const server = await startServer({
        ...extraEnv,
        DATABASE_URL: databaseUrl,
        // On PostgreSQL the server requires the shared secrets (it refuses to generate its own).
        JWT_SECRET: randomBytes(32).toString('hex'),
        APP_SECRET_KEY: randomBytes(32).toString('hex'),
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'wms-bench-data-')),
        // The callbacks step's receiver listens on 127.0.0.1.
        OUTGOING_ALLOW_PRIVATE: '1',
      });
      try {
        if (want('api'))
          await apiLoad(
            'postgres',
            server.url,
            sellers[0]!,
            await someProductId(database, sellers[0]!.customerId),
            database,
          );
        for (const step of steps)
          await attempt(step.name, () =>
            step.run({ database, url: server.url, sellers, quick, serverPid: server.proc.pid }),
          );
        if (want('web'))
          await attempt('web', async () => {
            const s0 = sellers[0]!;
            const web = await webFigures(root, {
              url: server.url,
              email: s0.email,
              password: s0.password,
              orders: scale.historicalOrdersPerSeller,
            });
            for (const f of web) figure('web', f.name, f.value, f.unit, f.note);
          });
      } finally {
        await server.stop();
      }
    }
    if (want('scaleout'))
      await attempt('scaleout', async () => {
        if (!cluster || !findPgbouncer()) {
          const why = cluster ? 'pgbouncer is not installed (apt-get install pgbouncer)' : 'BENCH_DATABASE_URL given';
          figure('scaleout', '2 processes behind pgbouncer with a replica', 'skipped', '', why);
          return;
        }
        const s0 = sellers[0]!;
        await scaleOut({
          databaseUrl,
          dbName,
          seller: s0,
          productId: await someProductId(database, s0.customerId),
          pgbouncer: () => startPgbouncer(cluster.url),
          replica: () => startReplica(cluster),
          peak: { database, sellers },
        });
      });
    if (want('api')) {
      // PGlite: the embedded engine, on the quick data set (generating millions of rows in WASM takes too long).
      const lite = await openDatabase({ dataDir: pgliteDir });
      await migrateDatabase(lite);
      t0 = Date.now();
      const liteSellers = await generateData(lite.db, SCALES.quick, log);
      figure('data', 'generate quick data set (PGlite)', ((Date.now() - t0) / 1000).toFixed(1), 's');
      const liteProduct = await someProductId(lite, liteSellers[0]!.customerId);
      await lite.close(); // PGlite is one process: the server opens it next
      const liteServer = await startServer({ DATABASE_URL: '', DATA_DIR: pgliteDir });
      try {
        await apiLoad('pglite (quick data)', liteServer.url, liteSellers[0]!, liteProduct, null);
      } finally {
        await liteServer.stop();
      }
    }
  } finally {
    // The fakes (Shopee's) stop after the scale-out step, which runs the peak hour again.
    for (const stop of CLEANUP.splice(0)) await stop();
    await database.close();
    rmSync(pgliteDir, { recursive: true, force: true });
    cluster?.stop();
  }
  printReport();
  if (failedSteps > 0) process.exitCode = 1;
}

function printReport(): void {
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\nBenchmarks (${report.scale} scale) on ${report.machine.cpus} × ${report.machine.model}, ${report.machine.memory_gb} GiB, Node ${report.machine.node}`,
  );
  console.log(
    'rows:',
    Object.entries(report.rows)
      .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
      .join(', '),
  );
  console.log('\n| group | figure | value | unit | note |\n|---|---|---:|---|---|');
  for (const f of report.figures) console.log(`| ${f.group} | ${f.name} | ${f.value} | ${f.unit} | ${f.note ?? ''} |`);
  console.log(
    '\n| engine | endpoint (50 connections) | req/s | p50 ms | p95 ms | p99 ms | non-2xx | same SQL from pg: req/s | p95 ms | service / SQL |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const l of report.load)
    console.log(
      `| ${l.engine} | ${l.name} | ${l.rps} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.non2xx + l.errors} | ${l.sql_rps ?? ''} | ${l.sql_p95 ?? ''} | ${l.sql_rps ? (l.rps / l.sql_rps).toFixed(2) : ''} |`,
    );
  console.log('\nwritten to bench/results/latest.json');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
