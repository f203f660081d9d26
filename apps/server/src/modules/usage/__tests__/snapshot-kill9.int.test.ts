import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../../db/client';
import { withTx } from '../../../db/tx';
import { taipeiToday } from '../../../platform/calendar';
import { TEST_ENGINE } from '../../../test/harness';
import { crashTarget, type TCrashTarget, withDatabase } from '../../../test/process/crash-server';
import * as accountRepo from '../../account/account.repository';
import { stockFactory } from '../../stock/__tests__/factories';
import { postInbound } from '../../stock/stock.engine';
import { takeStorageSnapshots } from '../usage.jobs';
import * as snapshotRepo from '../usage.snapshots.repository';

/**
 * Issue #35: kill -9 in the middle of the daily storage snapshot leaves each warehouse-day recorded whole or not at
 * all, and the next run catches the rest up, each day once. The run (`takeStorageSnapshots`, as the
 * `usage.storage-snapshot` job runs it) is a child process on a database that outlives it (PGlite: a data directory;
 * PostgreSQL: a scratch database); the test kills it with SIGKILL after it has recorded some days and before the last.
 */
const root = path.resolve(import.meta.dirname, '../../../../../..');
const WAREHOUSES = 4;
/** Days to catch up per warehouse: each warehouse's last recorded day is set this many days before yesterday. */
const DAYS = 40;
const KILL_AFTER = 25;

let target: TCrashTarget;
const now = new Date();
const DAY_MS = 86_400_000;
const dayOf = (offset: number) =>
  new Date(Date.parse(`${taipeiToday(now)}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

async function consistency(db: Db) {
  const [row] = await queryRows<{ recorded: number; torn_runs: number; orphans: number; charges_without: number }>(
    db,
    sql`select
          (select count(*)::int from usage_snapshot_runs r where r.day > ${dayOf(-1 - DAYS)}) as recorded,
          (select count(*)::int from usage_snapshot_runs r
            where r.day > ${dayOf(-1 - DAYS)}
              and (r.sellers <> (select count(*) from usage_storage_snapshots s
                                 where s.warehouse_id = r.warehouse_id and s.day = r.day)
                   -- every day to record holds the seller's stock: a day claimed with nobody recorded is torn
                   or r.sellers = 0)) as torn_runs,
          (select count(*)::int from usage_storage_snapshots s
            where not exists (select 1 from usage_snapshot_runs r where r.warehouse_id = s.warehouse_id and r.day = s.day)) as orphans,
          (select count(*)::int from usage_charges c where c.source_type = 'storage_snapshot'
            and not exists (select 1 from usage_storage_snapshots s where s.id = c.source_id)) as charges_without`,
  );
  return row!;
}

beforeAll(async () => {
  target = await crashTarget('usage-snap');
  await withDatabase(target, async (db) => {
    const customer = await accountRepo.insertCustomer(db, { name: 'Snapshot seller' });
    const f = stockFactory(db, customer.id);
    const product = await f.product({ number: 'SNAP-P1' });
    for (let i = 0; i < WAREHOUSES; i++) {
      const wh = await f.warehouse(`WH-SNAP-${i}`);
      const loc = await f.location(wh.id, { code: `A-${i}` });
      await withTx(db, (tx) =>
        postInbound(
          tx,
          { customerId: customer.id, userId: null },
          {
            document: { type: 'inbound', id: null, number: `SNAP-SEED-${i}` },
            lines: [{ productId: product.id, locationId: loc.id, expiryDate: null, quantity: 100 }],
          },
        ),
      );
      // Received long before the days to record, and recorded up to DAYS days before yesterday.
      await db.execute(
        sql`update stock_movements set created_at = now() - interval '120 days' where warehouse_id = ${wh.id}`,
      );
      await snapshotRepo.claimSnapshotDay(db, wh.id, dayOf(-1 - DAYS));
    }
    // Test only: each snapshot row takes 50 ms to write, so a warehouse-day's transaction lasts long enough for the
    // kill to land inside it (dropped before the catch-up run).
    await db.execute(sql`create function wms_test_slow() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.05); return new; end $$`);
    await db.execute(sql`create trigger wms_test_slow before insert on usage_storage_snapshots
      for each row execute function wms_test_slow()`);
  });
}, 120_000);

afterAll(async () => {
  await target?.dispose();
});

describe(`the daily storage snapshot killed with SIGKILL mid-run (${TEST_ENGINE})`, () => {
  it('leaves whole warehouse-days or none; the next run records the rest, each day once', async () => {
    // Node itself with tsx's loader (not the tsx wrapper, whose own child would outlive the SIGKILL).
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'snapshot.child.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: target.dataDir,
          DATABASE_URL: target.databaseUrl ?? '',
          SNAPSHOT_NOW: now.toISOString(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let killed = false;
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? String(code))),
    );
    // Kill it right after the KILL_AFTER-th day is told: the next day's transaction is then under way.
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if ((output.match(/^day /gm) ?? []).length >= KILL_AFTER && !killed) {
          killed = true;
          // 20 ms into the next warehouse-day (50 ms or more): the kill lands inside its transaction.
          setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, 20);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (c: Buffer) => {
        output += c.toString();
      });
      void exited.then(() => reject(new Error(`the snapshot run ended before it was killed:\n${output}`)));
    });
    expect(await exited).toBe('SIGKILL');
    expect(output).not.toContain('done');

    // After the kill: the days told are there whole; none is torn; nothing without its run or its snapshot.
    const after = await withDatabase(target, consistency);
    expect(after.recorded).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(after.recorded).toBeLessThan(WAREHOUSES * DAYS);
    expect(after).toMatchObject({ torn_runs: 0, orphans: 0, charges_without: 0 });

    // The next run (the job after a restart) records the rest, each day once; one more run adds nothing.
    await withDatabase(target, async (db) => {
      await db.execute(sql`drop trigger wms_test_slow on usage_storage_snapshots`);
      const rest = await takeStorageSnapshots(db, now);
      expect(rest.days).toBe(WAREHOUSES * DAYS - after.recorded);
      expect(await consistency(db)).toMatchObject({
        recorded: WAREHOUSES * DAYS,
        torn_runs: 0,
        orphans: 0,
        charges_without: 0,
      });
      const [each] = await queryRows<{ days: number; sellers: number }>(
        db,
        sql`select count(*)::int as days, sum(sellers)::int as sellers from usage_snapshot_runs where day > ${dayOf(-1 - DAYS)}`,
      );
      // Every warehouse-day holds the one seller's 100 units: one snapshot row each.
      expect(each).toEqual({ days: WAREHOUSES * DAYS, sellers: WAREHOUSES * DAYS });
      expect((await takeStorageSnapshots(db, now)).days).toBe(0);
    });
  }, 180_000);
});
