import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_PGBOUNCER_URL, type TTestContext } from '../../test/harness';
import { preparedRows, queryRows } from '../client';
import { withTx } from '../tx';

/**
 * The run behind pgbouncer (scripts/test.mjs: TEST_PGBOUNCER_URL, transaction pooling): the app's connections are
 * pgbouncer's, and what holds session state (the job wake-ups' LISTEN) is on PostgreSQL itself.
 */
const behind = !!TEST_PGBOUNCER_URL;

let ctx: TTestContext;
let name = '';
beforeAll(async () => {
  if (!behind) return;
  ctx = await createTestContext();
  name = (await queryRows<{ db: string }>(ctx.deps.database.db, sql`select current_database() as db`))[0]!.db;
});
afterAll(() => ctx?.close());

/** A statement on pgbouncer's admin console (simple protocol only). */
async function admin<T>(command: string): Promise<T[]> {
  const u = new URL(TEST_PGBOUNCER_URL!);
  u.pathname = '/pgbouncer';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return (await c.query(command)).rows as T[];
  } finally {
    await c.end();
  }
}

/** pgbouncer's counters of this test's database. */
async function stats(): Promise<{ xacts: number; queries: number }> {
  const rows = await admin<{ database: string; total_xact_count: string; total_query_count: string }>('SHOW STATS');
  const row = rows.find((r) => r.database === name);
  return { xacts: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
}

describe.runIf(behind)('behind pgbouncer in transaction pooling', () => {
  it('the app talks to pgbouncer: its clients are pgbouncer clients, and its calls are pgbouncer transactions', async () => {
    expect(ctx.deps.database.pooled).toBe(true);
    expect(ctx.deps.database.directPool).not.toBe(ctx.deps.database.pool);
    const seller = await ctx.newCustomer();
    // SHOW CLIENTS is live: the app's pool holds connections to pgbouncer for this database.
    const clients = await admin<{ database: string; user: string }>('SHOW CLIENTS');
    expect(clients.filter((c) => c.database === name).length).toBeGreaterThan(0);
    // Writes and list reads (preparedRows: named statements when direct, unnamed behind pgbouncer) at once, over the
    // pool's 20 connections and pgbouncer's server sessions; then logins (the rate limiter, whose library names its
    // statements: sent unnamed here). A named statement would meet a session that lacks it, or already has it.
    const calls = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? ctx.api.warehouseRoutes.createWarehouse({
              body: { code: `W${i}`, name: `Warehouse ${i}` },
              token: seller.token,
            })
          : i % 3 === 1
            ? ctx.api.stockRoutes.stockLog({ token: seller.token })
            : ctx.api.analysisRoutes.dashboard({ token: seller.token }),
      ),
    );
    expect(calls.map((r) => r.statusCode).filter((s) => s >= 300)).toEqual([]);
    const logins = await Promise.all(
      Array.from({ length: 5 }, () =>
        ctx.api.authRoutes.login({ body: { email: seller.email, password: seller.password } }),
      ),
    );
    expect(logins.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // The same statement text again and again, outside and inside a transaction.
    for (let i = 0; i < 12; i++)
      expect(await preparedRows<{ n: number }>(ctx.deps.database.db, sql`select ${i}::int as n`)).toEqual([{ n: i }]);
    await withTx(ctx.deps.database.db, async (tx) => {
      const [row] = await preparedRows<{ n: number }>(tx, sql`select 7::int as n`);
      expect(row!.n).toBe(7);
    });
    // SHOW STATS totals are published every stats_period (1 s in scripts/pg-cluster.mjs): wait for them.
    let seen = await stats();
    for (let i = 0; i < 100 && seen.xacts < 30; i++) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await stats();
    }
    expect(seen.xacts).toBeGreaterThanOrEqual(30);
  });

  it('the job wake-ups LISTEN on PostgreSQL itself, not through pgbouncer', async () => {
    const servers = await admin<{ database: string; local_addr: string; local_port: number }>('SHOW SERVERS');
    const bouncerPorts = new Set(servers.filter((s) => s.database === name).map((s) => Number(s.local_port)));
    const direct = ctx.deps.database.directPool!;
    let listening: Array<{ client_port: number }> = [];
    for (let i = 0; i < 50 && listening.length === 0; i++) {
      listening = (
        await direct.query(
          "select client_port from pg_stat_activity where datname = current_database() and query ilike 'listen %'",
        )
      ).rows;
      if (listening.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(listening.length).toBe(1);
    expect(bouncerPorts.size).toBeGreaterThan(0);
    expect(bouncerPorts.has(Number(listening[0]!.client_port))).toBe(false);
    // A notification sent through pgbouncer (delivered at commit, from whichever server session) reaches it: the
    // wake-up queues its job for that seller.
    const seller = await ctx.newCustomer();
    const queued = () =>
      queryRows<{ n: number }>(
        ctx.deps.database.db,
        sql`select count(*)::int as n from jobs where kind = 'callbacks.dispatch' and payload->>'customer_id' = ${seller.customerId}`,
      );
    expect((await queued())[0]!.n).toBe(0);
    await queryRows(ctx.deps.database.db, sql`select pg_notify('wms_order_events', ${seller.customerId})`);
    let n = 0;
    for (let i = 0; i < 100 && n === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = (await queued())[0]!.n;
    }
    expect(n).toBe(1);
  });
});
