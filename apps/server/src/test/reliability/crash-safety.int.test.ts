import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../db/client';
import { withTx } from '../../db/tx';
import * as accountRepo from '../../modules/account/account.repository';
import { stockFactory } from '../../modules/stock/__tests__/factories';
import { postInbound } from '../../modules/stock/stock.engine';
import { checkStockInvariants } from '../../modules/stock/stock.invariants';
import { hashPassword } from '../../platform/crypto';
import { loggedIn, TEST_ENGINE } from '../harness';
import { largeOrderFile } from '../order-file';
import {
  crashTarget,
  kill9 as killProcess,
  startCrashServer,
  stopServer as stopProcess,
  type TCrashServer,
  type TCrashTarget,
  withDatabase as withTargetDatabase,
} from '../process/crash-server';

/**
 * Crash safety (issue #8): the real server (`src/main.ts`, a child process) is killed with SIGKILL in the middle of
 * a large order import and in the middle of a stocktake close, on a database that outlives it (PGlite: a data
 * directory on disk; PostgreSQL: a scratch database). After the kill the database is opened again and must hold no
 * half-written document — the import's orders are all there or none, the stocktake is closed with every adjustment
 * posted or still open with none — and the stock invariants hold (checkStockInvariants and `npm run check:stock`).
 * Then the server is started again on the same database and must finish the work: the cut-off import job is queued
 * again and imports the file exactly once; the open stocktake closes.
 */
const root = path.resolve(import.meta.dirname, '../../../../..');
// Big enough that its one write transaction outlasts the 1.5 s stall the PGlite run waits for (16,000 rows ended
// before the kill once on a quiet machine).
const IMPORT_ROWS = Number(process.env.CRASH_IMPORT_ROWS ?? 32_000);
const STOCKTAKE_PILES = Number(process.env.CRASH_STOCKTAKE_PILES ?? 4_000);
const ORDER_PREFIX = 'CRASH';

let target: TCrashTarget;
let seller: { customerId: string; userId: string; email: string; password: string };
let productNumbers: string[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => console.info(`[crash-safety ${TEST_ENGINE}] ${msg}`);

/** Open the database the server uses (PGlite: only while no server runs), migrate, work, close. */
const withDatabase = <T>(work: (db: Db) => Promise<T>) => withTargetDatabase(target, work);

async function count(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, query);
  return Number(row?.n ?? 0);
}

// ---- the server process (test/process/crash-server.ts) ----

const startServer = () => startCrashServer(target);

async function kill9(server: TCrashServer): Promise<void> {
  expect(await killProcess(server)).toBe('SIGKILL');
}

async function stopServer(server: TCrashServer): Promise<void> {
  expect(await stopProcess(server), server.output()).toBe('0');
}

const isTimeout = (err: unknown) => err instanceof Error && err.name === 'TimeoutError';

async function login(server: TCrashServer): Promise<string> {
  return loggedIn(await server.api.authRoutes.login({ body: { email: seller.email, password: seller.password } }))
    .access;
}

function checkStockCli(): { status: number | null; stdout: string } {
  const r = spawnSync(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'apps/server/src/cli/check-stock.ts')],
    {
      cwd: root,
      env: { ...process.env, ...target.secrets, DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? '' },
      encoding: 'utf8',
    },
  );
  return { status: r.status, stdout: `${r.stdout}${r.stderr}` };
}

/** Both checkers agree that every balance equals its ledger, nothing is negative and reservations add up. */
async function expectInvariantsHold(): Promise<void> {
  expect(await withDatabase((db) => checkStockInvariants(db))).toEqual([]);
  const cli = checkStockCli();
  expect(cli.stdout).toContain('stock invariants hold');
  expect(cli.status).toBe(0);
}

// ---- set-up: a seller with stock, on a database that outlives the server ----

beforeAll(async () => {
  target = await crashTarget('crash');
  await withDatabase(async (db) => {
    const password = 'crash-pass-1';
    const customer = await accountRepo.insertCustomer(db, { name: 'Crash seller' });
    const user = await accountRepo.insertUser(db, {
      customer_id: customer.id,
      email: 'crash-seller@test.local',
      name: 'Crash seller',
      role: 'CUSTOMER',
      password_hash: await hashPassword(password),
    });
    seller = { customerId: customer.id, userId: user.id, email: user.email, password };
    const f = stockFactory(db, customer.id);
    const wh = await f.warehouse('WH-CRASH');
    const loc = await f.location(wh.id, { code: 'A-01' });
    const products = [await f.product({ number: 'CR-P1' }), await f.product({ number: 'CR-P2' })];
    productNumbers = products.map((p) => p.number);
    await withTx(db, (tx) =>
      postInbound(
        tx,
        { customerId: customer.id, userId: user.id },
        {
          document: { type: 'inbound', id: null, number: 'CRASH-SEED' },
          lines: products.map((p) => ({ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 1000 })),
        },
      ),
    );
  });
}, 60_000);

afterAll(async () => {
  await target?.dispose();
});

// ---- the cases ----

describe(`crash safety (kill -9 of the server, ${TEST_ENGINE})`, () => {
  it(`a ${IMPORT_ROWS}-row order import killed mid-write leaves no order; after a restart the job imports the file once`, async () => {
    const file = await largeOrderFile(IMPORT_ROWS, productNumbers, { prefix: ORDER_PREFIX });
    const orders = IMPORT_ROWS / 2;
    let server = await startServer();
    const token = await login(server);
    const t0 = Date.now();
    const queued = await server.api.outboundRoutes.importOrders({
      token,
      body: { file_base64: file.toString('base64'), file_name: 'crash.xlsx' },
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const jobId = queued.json().id;

    // Pass 1 (validation) reports progress every 1,000 rows up to `rows`; then `total` = 2 × rows is set and pass 2
    // writes every order in one transaction. Kill inside that transaction: on PostgreSQL once a quarter of the rows
    // are written (the progress rows are written outside it); on PGlite once the job API stalls behind it (one
    // connection: a poll that normally answers in milliseconds waits for the whole transaction).
    let started = false;
    let moment = '';
    while (!moment) {
      if (Date.now() - t0 > 90_000) throw new Error('the import never reached its write phase');
      let job: { state: string; progress: number; total: number };
      try {
        const res = await server.api.jobRoutes.getJob({
          params: { id: jobId },
          token,
          timeoutMs: started ? 1500 : 20_000,
        });
        job = res.json();
      } catch (err) {
        if (started && isTimeout(err)) {
          moment = 'the job API stalled for 1.5 s behind the write transaction';
          break;
        }
        throw err;
      }
      if (job.state !== 'running' && job.state !== 'queued')
        throw new Error(`the import ended (${job.state}) before it could be killed: raise CRASH_IMPORT_ROWS`);
      started = job.progress > 0;
      const written = job.progress - IMPORT_ROWS;
      if (job.total > 0 && written >= IMPORT_ROWS / 4)
        moment = `${written} of ${IMPORT_ROWS} rows written in the open transaction`;
      await sleep(50);
    }
    await kill9(server);
    const killedAt = (Date.now() - t0) / 1000;

    // Reopen the database the dead server left behind.
    const after = await withDatabase(async (db) => {
      const [job] = await queryRows<{ state: string; attempts: number; progress: number; total: number }>(
        db,
        sql`select state, attempts, progress, total from jobs where id = ${jobId}`,
      );
      return {
        job: job!,
        orders: await count(
          db,
          sql`select count(*)::int as n from outbound_orders
              where customer_id = ${seller.customerId} and platform_order_number like ${`${ORDER_PREFIX}-%`}`,
        ),
        lines: await count(
          db,
          sql`select count(*)::int as n from outbound_order_lines where customer_id = ${seller.customerId}`,
        ),
        audits: await count(
          db,
          sql`select count(*)::int as n from audit_logs where action = 'import' and customer_id = ${seller.customerId}`,
        ),
      };
    });
    const outcome = after.orders === 0 ? 'nothing written (rolled back)' : 'everything written (committed before)';
    log(
      `import: killed at ${killedAt.toFixed(1)} s (${moment}); after reopening: ${after.orders} orders, ${after.lines} lines, job ${after.job.state} → ${outcome}`,
    );
    // All or nothing: the orders of the file, their lines and the import's audit row come together.
    expect([0, orders]).toContain(after.orders);
    expect(after.lines).toBe(after.orders === 0 ? 0 : IMPORT_ROWS);
    expect(after.audits).toBe(after.orders === 0 ? 0 : 1);
    // What the dead process left: the job running, its file checked (total set: the kill came in the write phase).
    expect(after.job).toMatchObject({ state: 'running', attempts: 1, total: 2 * IMPORT_ROWS });
    await expectInvariantsHold();

    // Restart: the job cut off by the crash is queued again and runs to the end; the file is imported exactly once.
    const restarted = Date.now();
    server = await startServer();
    const token2 = await login(server);
    let job: { state: string; result: Record<string, number> | null; error: unknown } | undefined;
    while (Date.now() - restarted < 90_000) {
      const read = (
        await server.api.jobRoutes.getJob({ params: { id: jobId }, token: token2, timeoutMs: 30_000 })
      ).json();
      job = { ...read, result: read.result as Record<string, number> | null };
      if (job.state === 'succeeded' || job.state === 'failed') break;
      await sleep(200);
    }
    expect(job, 'the interrupted job was not run again after the restart').toMatchObject({ state: 'succeeded' });
    expect(job!.result).toMatchObject({ rows: IMPORT_ROWS, orders });
    expect(job!.result!.created! + job!.result!.skipped_duplicates!).toBe(orders);
    log(
      `import: after the restart the job ran again and succeeded in ${((Date.now() - restarted) / 1000).toFixed(1)} s`,
    );
    await stopServer(server);

    const final = await withDatabase(async (db) => ({
      orders: await count(
        db,
        sql`select count(distinct platform_order_number)::int as n from outbound_orders
            where customer_id = ${seller.customerId} and platform_order_number like ${`${ORDER_PREFIX}-%`}`,
      ),
      rows: await count(
        db,
        sql`select count(*)::int as n from outbound_orders where customer_id = ${seller.customerId}`,
      ),
      lines: await count(
        db,
        sql`select count(*)::int as n from outbound_order_lines where customer_id = ${seller.customerId}`,
      ),
      attempts: await count(db, sql`select attempts as n from jobs where id = ${jobId}`),
    }));
    expect(final).toEqual({ orders, rows: orders, lines: IMPORT_ROWS, attempts: 2 });
    await expectInvariantsHold();
  });

  it(`a stocktake close of ${STOCKTAKE_PILES} variance lines killed mid-posting is all or nothing`, async () => {
    // A full sheet over STOCKTAKE_PILES locations, every location counted, every line off by +2 or −1.
    const sheet = await withDatabase(async (db) => {
      const f = stockFactory(db, seller.customerId);
      const wh = await f.warehouse('WH-COUNT');
      const product = await f.product({ number: 'CR-COUNTED' });
      await db.execute(
        sql`insert into storage_locations (customer_id, warehouse_id, code)
            select ${seller.customerId}, ${wh.id}, 'C-' || lpad(g::text, 6, '0') from generate_series(1, ${STOCKTAKE_PILES}) g`,
      );
      const locations = await queryRows<{ id: string }>(
        db,
        sql`select id from storage_locations where warehouse_id = ${wh.id} order by code`,
      );
      await withTx(db, (tx) =>
        postInbound(
          tx,
          { customerId: seller.customerId, userId: seller.userId },
          {
            document: { type: 'inbound', id: null, number: 'CRASH-COUNT-SEED' },
            lines: locations.map((l, i) => ({
              productId: product.id,
              locationId: l.id,
              expiryDate: null,
              quantity: 3 + (i % 5),
            })),
          },
        ),
      );
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into stocktakes (customer_id, number, warehouse_id, name, year, type, status, scope)
            values (${seller.customerId}, 'ST-CRASH', ${wh.id}, 'Crash count', 2026, 'full', 'first', 'location')
            returning id`,
      );
      const id = row!.id;
      await db.execute(
        sql`insert into stocktake_locations (customer_id, stocktake_id, location_id, counted_1_at)
            select customer_id, ${id}, id, now() from storage_locations where warehouse_id = ${wh.id}`,
      );
      await db.execute(
        sql`insert into stocktake_lines
              (customer_id, stocktake_id, location_id, product_id, expiry_date, book_initial, count_1, book_1, counted_1_at)
            select customer_id, ${id}, location_id, product_id, expiry_date, on_hand,
                   on_hand + case when n % 2 = 0 then 2 else -1 end, on_hand, now()
            from (select b.*, row_number() over (order by b.location_id) as n
                  from stock_balances b where b.warehouse_id = ${wh.id}) x`,
      );
      return { id, warehouseId: wh.id };
    });

    /** Sheet status, its stocktake ledger rows, lines with a posted variance, piles at their count, close audits. */
    const state = () =>
      withDatabase(async (db) => {
        const [s] = await queryRows<{ status: string }>(db, sql`select status from stocktakes where id = ${sheet.id}`);
        return {
          status: s!.status,
          movements: await count(
            db,
            sql`select count(*)::int as n from stock_movements
                where document_type = 'stocktake' and document_id = ${sheet.id}`,
          ),
          posted: await count(
            db,
            sql`select count(*)::int as n from stocktake_lines where stocktake_id = ${sheet.id} and variance is not null`,
          ),
          atCount: await count(
            db,
            sql`select count(*)::int as n from stocktake_lines l
                join stock_balances b on b.location_id = l.location_id and b.product_id = l.product_id
                where l.stocktake_id = ${sheet.id} and b.on_hand = l.count_1`,
          ),
          atBook: await count(
            db,
            sql`select count(*)::int as n from stocktake_lines l
                join stock_balances b on b.location_id = l.location_id and b.product_id = l.product_id
                where l.stocktake_id = ${sheet.id} and b.on_hand = l.book_1`,
          ),
          audits: await count(
            db,
            sql`select count(*)::int as n from audit_logs where action = 'stocktake.close' and entity_id = ${sheet.id}`,
          ),
        };
      });
    const N = STOCKTAKE_PILES;
    const closedState = { status: 'closed', movements: N, posted: N, atCount: N, atBook: 0, audits: 1 };
    const openState = { status: 'first', movements: 0, posted: 0, atCount: 0, atBook: N, audits: 0 };

    let server = await startServer();
    const token = await login(server);
    // On PostgreSQL watch the server's session from outside; on PGlite the sheet stalls while the close holds the
    // only connection.
    const watcher = target.databaseUrl ? new pg.Client({ connectionString: target.databaseUrl }) : null;
    await watcher?.connect();
    const t0 = Date.now();
    const closing = server.api.stocktakeRoutes
      .closeStocktake({ params: { id: sheet.id }, token, timeoutMs: 120_000 })
      .catch((err: Error) => err);
    let moment = '';
    try {
      while (!moment) {
        if (Date.now() - t0 > 60_000) throw new Error('the close was never seen in progress');
        if (watcher) {
          const { rows } = await watcher.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null
               and query ~ 'stock_balances'`,
          );
          if (rows[0]!.n > 0) {
            // Into the posting (one statement per pile), not at its first statement.
            await sleep(300);
            moment = 'the close transaction was writing stock_balances 300 ms ago';
          }
        } else {
          try {
            const res = await server.api.stocktakeRoutes.getStocktake({
              params: { id: sheet.id },
              token,
              timeoutMs: 1000,
            });
            if (res.json().status !== 'first')
              throw new Error('the close ended before it could be killed: raise CRASH_STOCKTAKE_PILES');
          } catch (err) {
            if (!isTimeout(err)) throw err;
            moment = 'reading the sheet stalled for 1 s behind the close transaction';
          }
        }
        if (!moment) await sleep(5);
      }
    } finally {
      await watcher?.end();
    }
    await kill9(server);
    const killedAfter = Date.now() - t0;
    const reply = await closing;
    expect(reply, 'the close answered before the kill').toBeInstanceOf(Error);

    const after = await state();
    log(
      `stocktake close: killed ${killedAfter} ms after the request (${moment}); after reopening: sheet ${after.status}, ${after.movements} ledger rows → ${after.status === 'closed' ? 'closed with every adjustment' : 'open with none posted'}`,
    );
    expect([closedState, openState]).toContainEqual(after);
    await expectInvariantsHold();

    // Restart: an open sheet closes now and posts every line once; a closed one refuses a second close.
    server = await startServer();
    const token2 = await login(server);
    const t1 = Date.now();
    const again = await server.api.stocktakeRoutes.closeStocktake({
      params: { id: sheet.id },
      token: token2,
      timeoutMs: 120_000,
    });
    if (after.status === 'closed') expect(again.statusCode).toBe(409);
    else {
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ status: 'closed' });
      log(`stocktake close: after the restart the close took ${Date.now() - t1} ms`);
    }
    await stopServer(server);
    expect(await state()).toEqual(closedState);
    await expectInvariantsHold();
  });
});
