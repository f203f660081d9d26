import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cron_periods, jobs } from '../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../test/harness';
import { cronPeriod, defineJob } from '../jobs';

/**
 * A schedule that fires twice for one period — pg-boss' send of the cron job retried after a restart (the 5- and
 * 10-minute Shopee jobs fired at 17:50:11 and again at 17:51:09) — runs its job once: each firing claims its period
 * (the schedule's tick) and a second firing of a claimed period is recorded as skipped. Time is not waited for: the
 * periods of given moments are computed, and the firings are sent as pg-boss' cron sends them.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('cron periods', () => {
  it('a firing belongs to the schedule tick at or before it, across a restart around the minute', () => {
    const at = (iso: string) => cronPeriod('*/5 * * * *', 'Asia/Taipei', new Date(iso)).toISOString();
    expect(at('2026-11-27T09:50:11Z')).toBe('2026-11-27T09:50:00.000Z');
    expect(at('2026-11-27T09:51:09Z')).toBe('2026-11-27T09:50:00.000Z');
    expect(at('2026-11-27T09:54:59.999Z')).toBe('2026-11-27T09:50:00.000Z');
    expect(at('2026-11-27T09:55:00.000Z')).toBe('2026-11-27T09:55:00.000Z');
    expect(at('2026-11-27T09:55:00.200Z')).toBe('2026-11-27T09:55:00.000Z');
    // A daily schedule in Taipei time: 09:00 Taipei is 01:00 UTC.
    const daily = (iso: string) => cronPeriod('0 9 * * *', 'Asia/Taipei', new Date(iso)).toISOString();
    expect(daily('2026-11-27T00:59:59Z')).toBe('2026-11-26T01:00:00.000Z');
    expect(daily('2026-11-27T01:00:01Z')).toBe('2026-11-27T01:00:00.000Z');
  });

  it(`a period fired twice, with a restart between, runs once; a failed run is retried (${TEST_ENGINE})`, async () => {
    const runs: string[] = [];
    let failFirst = true;
    const daily = defineJob(
      'test.daily-period',
      z.object({ source: z.string() }),
      async ({ job }) => {
        runs.push(job.id);
        if (failFirst) {
          failFirst = false;
          throw new Error('outside system down');
        }
        return { done: true };
      },
      {
        cron: { schedule: '0 9 * * *', tz: 'Asia/Taipei', payload: { source: 'cron' } },
        retryLimit: 2,
        retryDelaySeconds: 1,
        retryBackoff: false,
      },
    );
    const queue = ctx.deps.jobs;
    await queue.register(daily);
    // What pg-boss' cron does when the schedule fires (its send-it worker sends the job with the schedule's payload).
    const fire = async () => (await (queue as unknown as { boss: PgBoss }).boss.send(daily.name, { source: 'cron' }))!;
    const waitFor = async (check: () => boolean | Promise<boolean>) => {
      const until = Date.now() + 20_000;
      while (!(await check())) {
        if (Date.now() > until) throw new Error('timed out');
        queue.kick(daily.name);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const stateOf = async (id: string) => (await ctx.deps.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];

    const first = await fire();
    // The first attempt fails; pg-boss retries the same job, which runs again (its own period).
    await waitFor(async () => (await stateOf(first))?.state === 'succeeded');
    expect(runs).toEqual([first, first]);

    // The process restarts; the schedule's send, retried, fires the same period again.
    await queue.stop();
    await queue.start();
    const second = await fire();
    await waitFor(async () => (await stateOf(second))?.state === 'succeeded');
    await queue.whenIdle();
    expect(runs).toEqual([first, first]);
    expect((await stateOf(second))?.result).toMatchObject({ skipped: 'period_already_run', ran_as: first });
    const claims = await ctx.deps.database.db.select().from(cron_periods).where(eq(cron_periods.kind, daily.name));
    expect(claims).toHaveLength(1);
    expect(claims[0]!.job_id).toBe(first);
    expect(claims[0]!.period.toISOString()).toBe(cronPeriod('0 9 * * *', 'Asia/Taipei', new Date()).toISOString());

    // A cron kind queued by hand (a "sync now") is not a firing: it runs whatever the period.
    const byHand = await queue.enqueue(ctx.deps.database.db, daily, { source: 'hand' }, { customerId: null });
    await waitFor(async () => (await stateOf(byHand.id))?.state === 'succeeded');
    expect(runs).toEqual([first, first, byHand.id]);
  }, 60_000);
});
