import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, TEST_PGBOUNCER_URL, type TTestContext } from '../../test/harness';
import { preparedRows, queryRows } from '../client';
import { withTx } from '../tx';

let ctx: TTestContext;
beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
});
afterAll(() => ctx?.close());

const planMode = sql`select current_setting('plan_cache_mode') as mode, pg_backend_pid() as pid`;

describe(`preparedRows (${TEST_ENGINE})`, () => {
  // Behind pgbouncer (transaction pooling) no statement is named and no session keeps a plan: pgbouncer.int.test.
  it.skipIf(TEST_ENGINE !== 'postgres' || !!TEST_PGBOUNCER_URL)(
    'outside a transaction reads on sessions that keep generic plans; inside one, on the transaction',
    async () => {
      const db = ctx.deps.database.db;
      const [outside] = await preparedRows<{ mode: string; pid: number }>(db, planMode);
      expect(outside!.mode).toBe('force_generic_plan');
      // Other statements on the main pool keep PostgreSQL's own choice (custom plans for skewed parameters).
      const [plain] = await queryRows<{ mode: string }>(db, sql`select current_setting('plan_cache_mode') as mode`);
      expect(plain!.mode).toBe('auto');
      await withTx(db, async (tx) => {
        const [txPid] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        const [inside] = await preparedRows<{ mode: string; pid: number }>(tx, planMode);
        expect(inside).toMatchObject({ mode: 'auto', pid: txPid!.pid });
      });
    },
  );

  it('reads what a transaction committed, and runs the same statement again with other values', async () => {
    const db = ctx.deps.database.db;
    const tag = `prepared-${Date.now()}`;
    await withTx(db, (tx) => queryRows(tx, sql`create table ${sql.raw(`"${tag}"`)} (n int)`));
    await withTx(db, (tx) => queryRows(tx, sql`insert into ${sql.raw(`"${tag}"`)} values (1), (2), (3)`));
    const count = (min: number) =>
      preparedRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(`"${tag}"`)} where n >= ${min}`);
    // More than five calls: PostgreSQL's own choice would switch plans after the fifth; the answers must not change.
    for (let i = 0; i < 8; i++) {
      expect(await count(1)).toEqual([{ n: 3 }]);
      expect(await count(3)).toEqual([{ n: 1 }]);
    }
    await withTx(db, (tx) => queryRows(tx, sql`drop table ${sql.raw(`"${tag}"`)}`));
  });
});
