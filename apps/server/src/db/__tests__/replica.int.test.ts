import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBin, startCluster, startReplica } from '../../../../../scripts/pg-cluster.mjs';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../test/harness';
import { migrateDatabase, openDatabase } from '../client';

/**
 * DATABASE_REPLICA_URL with a real streaming replica: a throw-away cluster and a `pg_basebackup -R` copy of it in hot
 * standby (scripts/pg-cluster.mjs). Run in the PostgreSQL pass only (it starts its own servers; once is enough).
 */
const run = TEST_ENGINE === 'postgres' && !!findPgBin();

let stopAll: Array<() => void> = [];
let ctx: TTestContext;
let primaryUrl = '';
let replicaUrl = '';
let stopReplica = () => {};

async function on<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Wait until the replica has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [row0] = await on<{ lsn: string }>(primaryUrl, 'select pg_current_wal_insert_lsn()::text as lsn');
  const lsn = row0!.lsn;
  for (let i = 0; i < 200; i++) {
    const [row] = await on<{ ok: boolean }>(replicaUrl, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn]);
    if (row?.ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the replica did not catch up');
}

beforeAll(async () => {
  if (!run) return;
  const cluster = await startCluster();
  stopAll.push(cluster.stop);
  const replica = await startReplica(cluster);
  stopAll.unshift(replica.stop);
  stopReplica = replica.stop;
  await on(cluster.url, 'create database wms_replica_test');
  const at = (url: string) => {
    const u = new URL(url);
    u.pathname = '/wms_replica_test';
    return u.toString();
  };
  primaryUrl = at(cluster.url);
  replicaUrl = at(replica.url);
  const database = await openDatabase({ databaseUrl: primaryUrl, replicaUrl, poolSize: 6 });
  await migrateDatabase(database);
  ctx = await createTestContext({}, { database, jobs: false });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  for (const stop of stopAll) stop();
  stopAll = [];
});

type TDashboard = { setup: { warehouse: boolean } };

describe.runIf(run)('a streaming replica (DATABASE_REPLICA_URL)', () => {
  it('serves a read-heavy call (the dashboard) on the replica, not on the primary', async () => {
    const seller = await ctx.newCustomer();
    await caughtUp();
    const res = await ctx.api.analysisRoutes.dashboard({ token: seller.token });
    expect(res.statusCode).toBe(200);
    // The dashboard's statement ran on the replica's sessions (pg_is_in_recovery there), never on the primary's.
    // Its shipped-per-day statement (the text shown is cut at 1 kB: matched on its start), not counting the probe's
    // own session, whose text names it too.
    const ran =
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() ' +
      "and query like '%(o.closed_at at time zone ''UTC'') + interval ''8 hours'')::date::text as day%'";
    const [replicaSide] = await on<{ n: number; standby: boolean }>(
      replicaUrl,
      ran.replace('count(*)::int as n', 'count(*)::int as n, pg_is_in_recovery() as standby'),
    );
    expect(replicaSide).toMatchObject({ standby: true });
    expect(replicaSide!.n).toBeGreaterThan(0);
    const [primarySide] = await on<{ n: number }>(primaryUrl, ran);
    expect(primarySide!.n).toBe(0);
  });

  it('a write followed at once by a read returns the written row, while the replica has not replayed it', async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    await caughtUp();
    const served = ctx.deps.database.replica!.served;
    await on(replicaUrl, 'select pg_wal_replay_pause()');
    try {
      const made = await ctx.api.warehouseRoutes.createWarehouse({
        body: { code: 'R1', name: 'Replica test' },
        token: a.token,
      });
      expect(made.statusCode).toBe(201);
      const before = { ...served };
      const read = await ctx.api.analysisRoutes.dashboard({ token: a.token });
      expect(read.statusCode).toBe(200);
      expect((read.json() as TDashboard).setup.warehouse).toBe(true);
      // The replica (paused) does not have it: the read was the primary's.
      const [onReplica] = await on<{ n: number }>(
        replicaUrl,
        'select count(*)::int as n from warehouses where customer_id = $1',
        [a.customerId],
      );
      expect(onReplica!.n).toBe(0);
      expect(served.primary).toBe(before.primary + 1);
      // Another seller, who wrote nothing since, still reads on the (lagging) replica.
      const other = await ctx.api.analysisRoutes.dashboard({ token: b.token });
      expect(other.statusCode).toBe(200);
      expect(served.replica).toBe(before.replica + 1);
    } finally {
      await on(replicaUrl, 'select pg_wal_replay_resume()');
    }
    // Once the replica has replayed the write, the writer's reads go back to it, and see the row there.
    await caughtUp();
    const before = { ...served };
    const again = await ctx.api.analysisRoutes.dashboard({ token: a.token });
    expect((again.json() as TDashboard).setup.warehouse).toBe(true);
    expect(served.replica).toBe(before.replica + 1);
  });

  it('the stock log list and the analysis exports read on the replica too', async () => {
    const seller = await ctx.newCustomer();
    await caughtUp();
    const before = { ...ctx.deps.database.replica!.served };
    for (const [name, read] of Object.entries({
      stockLog: ctx.api.stockRoutes.stockLog,
      exportStockLog: ctx.api.stockRoutes.exportStockLog,
      locationOccupancy: ctx.api.analysisRoutes.locationOccupancy,
    }))
      expect((await read({ token: seller.token })).statusCode, name).toBe(200);
    expect(ctx.deps.database.replica!.served.replica).toBe(before.replica + 3);
  });

  it('a replica that stops answering: the read is answered by the primary, without an error', async () => {
    const seller = await ctx.newCustomer();
    await caughtUp();
    const served = ctx.deps.database.replica!.served;
    expect((await ctx.api.analysisRoutes.dashboard({ token: seller.token })).statusCode).toBe(200);
    const before = { ...served };
    stopReplica();
    const res = await ctx.api.analysisRoutes.dashboard({ token: seller.token });
    expect(res.statusCode).toBe(200);
    expect((res.json() as TDashboard).setup.warehouse).toBe(false);
    expect(served.fallbacks).toBe(before.fallbacks + 1);
    expect(served.primary).toBe(before.primary + 1);
    // Then left alone for a while: the next read goes to the primary at once.
    expect((await ctx.api.stockRoutes.stockLog({ token: seller.token })).statusCode).toBe(200);
    expect(served).toMatchObject({ fallbacks: before.fallbacks + 1, primary: before.primary + 2 });
  });
});
