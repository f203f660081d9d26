import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { job_files, jobs } from '../../db/schema';
import { createTestContext, type TTestContext } from '../../test/harness';
import { AppError } from '../errors';
import { enqueueJob, JobRunner } from '../jobs';

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

  /** A job row as a crashed process leaves it: running, claimed `ageMs` ago, never heard of since. */
  async function cutOffJob(customerId: string, ageMs: number, attempts = 1) {
    const [row] = await ctx.deps.database.db
      .insert(jobs)
      .values({
        customer_id: customerId,
        kind: 'test.orphan',
        state: 'running',
        attempts,
        locked_at: new Date(Date.now() - ageMs),
      })
      .returning();
    return row!;
  }
  const stateOf = async (id: string) => (await ctx.deps.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  it('an exclusive runner (PGlite: one process per database) recovers every job left running at start', async () => {
    const a = await ctx.newCustomer();
    const fresh = await cutOffJob(a.customerId, 0); // cut off a moment ago: no heartbeat would look stale yet
    const spent = await cutOffJob(a.customerId, 0, 3);
    const runner = new JobRunner(ctx.deps.database.db, { exclusive: true, pollMs: 60_000 });
    runner.start();
    try {
      await vi.waitFor(async () => expect((await stateOf(fresh.id)).state).toBe('queued'), { timeout: 10_000 });
      expect(await stateOf(spent.id)).toMatchObject({
        state: 'failed',
        error: { code: 'INTERNAL_ERROR', params: { reason: 'interrupted' } },
      });
    } finally {
      await runner.stop();
    }
  });

  it('a shared runner (PostgreSQL) recovers a running job once its heartbeat stopped, and keeps beating its own', async () => {
    const a = await ctx.newCustomer();
    const db = ctx.deps.database.db;
    const recent = await cutOffJob(a.customerId, 100);
    const silent = await cutOffJob(a.customerId, 5_000);
    const other = new JobRunner(db, { staleAfterMs: 2_000 });
    await other.recoverStale();
    expect((await stateOf(recent.id)).state).toBe('running');
    expect((await stateOf(silent.id)).state).toBe('queued');

    // A job that runs for 3 stale windows without reporting progress is not taken for cut off: its runner beats.
    const runs: number[] = [];
    // Windows wide enough that a loaded CI machine does not delay a beat past one.
    const owner = new JobRunner(db, { staleAfterMs: 1_500 });
    owner.register('test.slow', async () => {
      runs.push(Date.now());
      await new Promise((r) => setTimeout(r, 4_500));
      return { ok: true };
    });
    const slow = await enqueueJob(db, { customerId: a.customerId, kind: 'test.slow' });
    owner.kick();
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    const watcher = new JobRunner(db, { staleAfterMs: 1_500 });
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 900));
      await watcher.recoverStale();
      expect((await stateOf(slow.id)).state).toBe('running');
    }
    await owner.whenIdle();
    expect(await stateOf(slow.id)).toMatchObject({ state: 'succeeded', attempts: 1 });
    expect(runs).toHaveLength(1);
  });
});
