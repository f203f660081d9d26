import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { migrateDatabase, openDatabase, queryRows, type TDatabase } from '../../db/client';
import { appDatabaseUrls, createScratchDatabase, TEST_ENGINE } from '../../test/harness';
import { defineJob, JobQueue } from '../jobs';

/**
 * Two app processes on one PostgreSQL: each has its own pool and its own pg-boss, as two servers behind a load
 * balancer would. A cron job declared by both fires once per period.
 *
 * The database's clock is set forward instead of waiting for the next minute: in this scratch database an unqualified
 * `now()` — pg-boss' statements, its tables' defaults, ours — is `test_clock.now()`, the server's time plus
 * `test_clock.shift` (the schema stands before pg_catalog in the database's search_path, set before anything is
 * created). pg-boss takes a cron period from the database's time (the per-minute singleton of its send, a job's
 * created_on), so moving that clock a minute on is a minute passing for the schedule.
 */
const onPostgres = TEST_ENGINE === 'postgres';

let scratch: { url: string; drop: () => Promise<void> };
const databases: TDatabase[] = [];
beforeAll(async () => {
  if (!onPostgres) return;
  scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  const name = new URL(scratch.url).pathname.slice(1);
  const setup = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
  for (const statement of [
    'create schema test_clock',
    'create table test_clock.shift (s interval not null)',
    "insert into test_clock.shift values (interval '0')",
    'create function test_clock.now() returns timestamptz language sql stable as $$ select pg_catalog.now() + (select s from test_clock.shift) $$',
    `alter database ${name} set search_path = "$user", public, test_clock, pg_catalog`,
  ])
    await setup.pool!.query(statement);
  await setup.close();
  for (let i = 0; i < 2; i++) databases.push(await openDatabase({ ...appDatabaseUrls(scratch.url), poolSize: 5 }));
  await migrateDatabase(databases[0]!);
});

/** Set the database's clock `seconds` on (every connection's `now()`). */
async function advanceDatabaseClock(seconds: number): Promise<void> {
  await queryRows(databases[0]!.db, sql`update test_clock.shift set s = s + make_interval(secs => ${seconds})`);
}
afterAll(async () => {
  for (const d of databases) await d.close();
  await scratch?.drop();
});

describe.skipIf(!onPostgres)('cron jobs across processes (PostgreSQL)', () => {
  it('a schedule declared by two processes fires once per minute, and survives their restart', async () => {
    const fired: Array<{ process: number; at: number }> = [];
    const tick = (process: number) =>
      defineJob(
        'test.every-minute',
        z.object({ source: z.string() }),
        async ({ payload }) => {
          expect(payload.source).toBe('cron');
          fired.push({ process, at: Date.now() });
          return null;
        },
        { cron: { schedule: '* * * * *', tz: 'Asia/Taipei', payload: { source: 'cron' } } },
      );
    const queues = databases.map((d, i) => new JobQueue(d, [tick(i)], { cronCheckSeconds: 1, pollSeconds: 0.5 }));
    await Promise.all(queues.map((q) => q.start()));
    try {
      // Two periods at least: wait for the first firing, set the database's clock a minute on, wait for the next
      // firing, and give both processes' cron checks (every second) room to fire twice in it if they would. A firing is
      // sent in one minute and run a moment later (the send-it queue, then this queue's poll), so a send at 12:00:59
      // runs at 12:01:00 and the window can hold three periods: count the minutes pg-boss sent in.
      const t0 = Date.now();
      while (fired.length === 0 && Date.now() - t0 < 75_000) await new Promise((r) => setTimeout(r, 200));
      expect(fired.length, 'the schedule never fired').toBe(1);
      await advanceDatabaseClock(60);
      // Every connection's now() is the moved clock (pg-boss' pool included: the same database's search_path).
      const [clock] = await queryRows<{ shifted: number }>(
        databases[1]!.db,
        sql`select extract(epoch from now() - pg_catalog.now())::int as shifted`,
      );
      expect(clock?.shifted).toBe(60);
      const t1 = Date.now();
      while (fired.length < 2 && Date.now() - t1 < 30_000) await new Promise((r) => setTimeout(r, 200));
      expect(fired.length, 'the schedule did not fire in the next minute').toBeGreaterThanOrEqual(2);
      await new Promise((r) => setTimeout(r, 5_000));
    } finally {
      await Promise.all(queues.map((q) => q.stop()));
    }
    // Both processes checked the schedule every second; each minute was sent once (pg-boss' per-minute singleton on
    // the send-it job) and each completed send ran once (one process took it).
    const sends = await queryRows<{ minute: string }>(
      databases[0]!.db,
      sql`select to_char(singleton_on, 'YYYY-MM-DD"T"HH24:MI') as minute from pgboss.job
          where name = '__pgboss__send-it' and state = 'completed'
          union all
          select to_char(singleton_on, 'YYYY-MM-DD"T"HH24:MI') from pgboss.archive where name = '__pgboss__send-it'`,
    );
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(sends.length).toBeLessThanOrEqual(3);
    expect(new Set(sends.map((s) => s.minute)).size).toBe(sends.length);
    expect(fired).toHaveLength(sends.length);
    // Every firing ran once: one completed job per minute sent.
    const runs = await queryRows<{ n: number }>(
      databases[0]!.db,
      sql`select count(*)::int as n from jobs where kind = 'test.every-minute' and state = 'succeeded'`,
    );
    expect(runs[0]!.n).toBe(sends.length);
    const [before] = await queryRows<{ created_on: Date; cron: string }>(
      databases[0]!.db,
      sql`select created_on, cron from pgboss.schedule where name = 'test.every-minute'`,
    );
    expect(before?.cron).toBe('* * * * *');
    // Restart both: the schedule is the same row (stored in the database, not in a process).
    const again = databases.map((d, i) => new JobQueue(d, [tick(i)], { cronCheckSeconds: 1 }));
    await Promise.all(again.map((q) => q.start()));
    await Promise.all(again.map((q) => q.stop()));
    const [after] = await queryRows<{ created_on: Date }>(
      databases[0]!.db,
      sql`select created_on from pgboss.schedule where name = 'test.every-minute'`,
    );
    expect(after?.created_on).toEqual(before!.created_on);
  }, 180_000);
});
