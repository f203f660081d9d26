import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../test/harness';
import { allOf, type Executor, queryRows } from '../client';
import { withTx } from '../tx';

let ctx: TTestContext;
beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
});
afterAll(() => ctx?.close());

/** Three reads that note when they start and end; each takes 150 ms in the database. */
function probes(ex: Executor, events: string[]) {
  return [1, 2, 3].map((n) => async () => {
    events.push(`start ${n}`);
    const [row] = await queryRows<{ n: number }>(ex, sql`select ${n}::int as n from pg_sleep(0.15)`);
    events.push(`end ${n}`);
    return row!.n;
  });
}

describe(`allOf (${TEST_ENGINE})`, () => {
  it('inside a transaction runs the reads one after another, in order, and returns their results', async () => {
    const events: string[] = [];
    const results = await withTx(ctx.deps.database.db, (tx) => allOf(tx, probes(tx, events)));
    expect(results).toEqual([1, 2, 3]);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it.skipIf(TEST_ENGINE !== 'postgres')('on the pool starts every read at once', async () => {
    const events: string[] = [];
    const results = await allOf(ctx.deps.database.db, probes(ctx.deps.database.db, events));
    expect(results).toEqual([1, 2, 3]);
    expect(events.slice(0, 3)).toEqual(['start 1', 'start 2', 'start 3']);
  });
});
