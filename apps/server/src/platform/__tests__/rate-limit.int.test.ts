import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, queryRows, type TDatabase } from '../../db/client';
import { appDatabaseUrls, createScratchDatabase, TEST_ENGINE } from '../../test/harness';
import { AppError } from '../errors';
import { RateLimits } from '../rate-limit';

const databases: TDatabase[] = [];
let scratch: { url: string; drop: () => Promise<void> } | undefined;
beforeAll(async () => {
  if (TEST_ENGINE === 'postgres') {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    for (let i = 0; i < 2; i++) databases.push(await openDatabase({ ...appDatabaseUrls(scratch.url), poolSize: 4 }));
  } else {
    databases.push(await openDatabase({ dataDir: 'memory://' }));
  }
  await migrateDatabase(databases[0]!);
});
afterAll(async () => {
  for (const d of databases) await d.close();
  await scratch?.drop();
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected RATE_LIMITED');
}

describe('rate limits', () => {
  it('allows the rule’s points per window, then refuses with a retry-after; keys and buckets are apart', async () => {
    const limits = new RateLimits(databases[0]!);
    const rule = { points: 3, durationSeconds: 60 };
    for (let i = 0; i < 3; i++) await limits.consume('test', 'a', rule);
    const err = await refusal(limits.consume('test', 'a', rule));
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.params.retry_after).toBeGreaterThanOrEqual(1);
    expect(err.params.retry_after).toBeLessThanOrEqual(60);
    await limits.consume('test', 'b', rule);
    await limits.consume('other', 'a', rule);
    await limits.reset('test', 'a', rule);
    await limits.consume('test', 'a', rule);
  });

  it.skipIf(TEST_ENGINE !== 'postgres')(
    'two processes share one counter on PostgreSQL (atomic under a burst)',
    async () => {
      const [one, two] = databases.map((d) => new RateLimits(d)) as [RateLimits, RateLimits];
      const rule = { points: 10, durationSeconds: 60 };
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).consume('burst', 'k', rule)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      const rows = await queryRows<{ points: number }>(
        databases[0]!.db,
        sql`select points from rate_limits where key = ${'burst:k'}`,
      );
      expect(rows[0]?.points).toBe(30);
    },
  );
});
