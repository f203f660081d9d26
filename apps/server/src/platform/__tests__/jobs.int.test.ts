import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job_files, jobs } from '../../db/schema';
import { createTestContext, type TTestContext } from '../../test/harness';
import { AppError } from '../errors';
import { enqueueJob } from '../jobs';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('jobs', () => {
  it('runs a queued job with its file, reports progress and result, and is visible only to its customer', async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    const seen: number[] = [];
    ctx.deps.jobs.register('test.count-lines', async ({ file, progress }) => {
      const f = await file();
      const lines = f!.content.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        await progress(i + 1, lines.length);
        seen.push(i);
      }
      return { lines: lines.length, name: f!.name };
    });
    const job = await enqueueJob(ctx.deps.database.db, {
      customerId: a.customerId,
      kind: 'test.count-lines',
      file: { name: 'x.csv', content: Buffer.from('a\nb\nc') },
    });
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const res = await ctx.inject({ method: 'GET', url: `/api/jobs/${job.id}/`, token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'succeeded',
      progress: 3,
      total: 3,
      result: { lines: 3, name: 'x.csv' },
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(await ctx.deps.database.db.select().from(job_files).where(eq(job_files.job_id, job.id))).toHaveLength(0);
    expect((await ctx.inject({ method: 'GET', url: `/api/jobs/${job.id}/`, token: b.token })).statusCode).toBe(404);
  });

  it('records a domain failure with its code, and re-queues a job cut off mid-run', async () => {
    const a = await ctx.newCustomer();
    ctx.deps.jobs.register('test.fail', async () => {
      throw new AppError('ABNORMAL_QUANTITY', { row: 7 });
    });
    const job = await enqueueJob(ctx.deps.database.db, { customerId: a.customerId, kind: 'test.fail' });
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const res = await ctx.inject({ method: 'GET', url: `/api/jobs/${job.id}/`, token: a.token });
    expect(res.json()).toMatchObject({ state: 'failed', error: { code: 'ABNORMAL_QUANTITY', params: { row: 7 } } });

    // a job left 'running' by a crashed process goes back to the queue
    const [stale] = await ctx.deps.database.db
      .insert(jobs)
      .values({
        customer_id: a.customerId,
        kind: 'test.unregistered',
        state: 'running',
        attempts: 1,
        locked_at: new Date(Date.now() - 3600_000),
      })
      .returning();
    await ctx.deps.jobs.recoverStale();
    const [after] = await ctx.deps.database.db.select().from(jobs).where(eq(jobs.id, stale!.id));
    expect(after!.state).toBe('queued');
  });
});
