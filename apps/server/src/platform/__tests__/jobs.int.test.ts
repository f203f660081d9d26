import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../db/client';
import { job_files, jobs } from '../../db/schema';
import { createTestContext, type TTestContext } from '../../test/harness';
import { AppError } from '../errors';
import { defineJob, JobQueue } from '../jobs';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const stateOf = async (id: string) => (await ctx.deps.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const bossJob = async (id: string) =>
  (
    await queryRows<{
      state: string;
      retry_count: number;
      start_after: Date;
      started_on: Date | null;
      output: unknown;
    }>(
      ctx.deps.database.db,
      sql`select state, retry_count, start_after, started_on, output from pgboss.job where id = ${id}`,
    )
  )[0]!;

describe('jobs on pg-boss', () => {
  it('runs a job with its file, reports progress and result, and is visible only to its customer', async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    const seen: number[] = [];
    const countLines = defineJob(
      'test.count-lines',
      z.object({ sep: z.string() }),
      async ({ file, progress, payload }) => {
        const f = await file();
        const lines = f!.content.toString('utf8').split(payload.sep);
        for (let i = 0; i < lines.length; i++) {
          await progress(i + 1, lines.length);
          seen.push(i);
        }
        return { lines: lines.length, name: f!.name };
      },
    );
    await ctx.deps.jobs.register(countLines);
    const job = await ctx.deps.jobs.enqueue(
      ctx.deps.database.db,
      countLines,
      { sep: '\n' },
      { customerId: a.customerId, file: { name: 'x.csv', content: Buffer.from('a\nb\nc') } },
    );
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const res = await ctx.api.jobRoutes.getJob({ params: { id: job.id }, token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'succeeded',
      progress: 3,
      total: 3,
      attempts: 1,
      result: { lines: 3, name: 'x.csv' },
    });
    expect(seen).toEqual([0, 1, 2]);
    await vi.waitFor(async () => expect((await bossJob(job.id)).state).toBe('completed'));
    expect(await ctx.deps.database.db.select().from(job_files).where(eq(job_files.job_id, job.id))).toHaveLength(0);
    expect((await ctx.api.jobRoutes.getJob({ params: { id: job.id }, token: b.token })).statusCode).toBe(404);
  });

  it('a payload that does not match its schema is refused at enqueue', async () => {
    const typed = defineJob('test.typed', z.object({ n: z.number().int() }), async () => null);
    await ctx.deps.jobs.register(typed);
    await expect(
      ctx.deps.jobs.enqueue(ctx.deps.database.db, typed, { n: 1.5 } as { n: number }, { customerId: null }),
    ).rejects.toThrow();
  });

  it('a refusal (AppError) fails at once with its code, without retries', async () => {
    const a = await ctx.newCustomer();
    let runs = 0;
    const refuse = defineJob('test.refuse', z.object({}), async () => {
      runs++;
      throw new AppError('ABNORMAL_QUANTITY', { row: 7 });
    });
    await ctx.deps.jobs.register(refuse);
    const job = await ctx.deps.jobs.enqueue(ctx.deps.database.db, refuse, {}, { customerId: a.customerId });
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const res = await ctx.api.jobRoutes.getJob({ params: { id: job.id }, token: a.token });
    expect(res.json()).toMatchObject({ state: 'failed', error: { code: 'ABNORMAL_QUANTITY', params: { row: 7 } } });
    expect(runs).toBe(1);
    await vi.waitFor(async () => expect((await bossJob(job.id)).state).toBe('failed'));
  });

  it('a job that ended is never run again when pg-boss hands it out a second time (its outcome and file stay)', async () => {
    const a = await ctx.newCustomer();
    let runs = 0;
    const once = defineJob('test.once', z.object({ fail: z.boolean() }), async ({ file, payload }) => {
      runs++;
      const f = await file();
      if (!f) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
      if (payload.fail) throw new AppError('ABNORMAL_QUANTITY', { row: 2 });
      return { bytes: f.content.length };
    });
    await ctx.deps.jobs.register(once);
    const file = { name: 'x.csv', content: Buffer.from('abc') };
    const ok = await ctx.deps.jobs.enqueue(
      ctx.deps.database.db,
      once,
      { fail: false },
      { customerId: a.customerId, file },
    );
    const bad = await ctx.deps.jobs.enqueue(
      ctx.deps.database.db,
      once,
      { fail: true },
      { customerId: a.customerId, file },
    );
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    await vi.waitFor(async () => expect((await bossJob(ok.id)).state).toBe('completed'));
    await vi.waitFor(async () => expect((await bossJob(bad.id)).state).toBe('failed'));
    expect(runs).toBe(2);
    // A second delivery of both (what a lost completion or an expired lock does): back to created in pg-boss.
    await ctx.deps.database.db.execute(
      sql`update pgboss.job set state = 'created', start_after = now(), retry_limit = 2 where id in (${ok.id}, ${bad.id})`,
    );
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    expect(runs).toBe(2);
    expect(await stateOf(ok.id)).toMatchObject({ state: 'succeeded', result: { bytes: 3 }, error: null });
    expect(await stateOf(bad.id)).toMatchObject({ state: 'failed', error: { code: 'ABNORMAL_QUANTITY' } });
  });

  it('a failing job retries with growing delays and ends failed with its last error', async () => {
    const a = await ctx.newCustomer();
    const runs: number[] = [];
    const flaky = defineJob(
      'test.flaky',
      z.object({}),
      async ({ attempt }) => {
        runs.push(Date.now());
        throw new Error(`connection reset (run ${attempt})`);
      },
      { retryLimit: 3, retryDelaySeconds: 1 },
    );
    await ctx.deps.jobs.register(flaky);
    const job = await ctx.deps.jobs.enqueue(ctx.deps.database.db, flaky, {}, { customerId: a.customerId });
    ctx.deps.jobs.kick();
    // Between runs the row says queued with the last error.
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
    await vi.waitFor(async () => expect((await stateOf(job.id)).state).toBe('queued'), { timeout: 5_000 });
    expect((await stateOf(job.id)).error).toMatchObject({ code: 'INTERNAL_ERROR' });
    await vi.waitFor(async () => expect((await stateOf(job.id)).state).toBe('failed'), {
      timeout: 60_000,
      interval: 200,
    });
    expect(runs).toHaveLength(4);
    const gaps = runs.slice(1).map((t, i) => t - runs[i]!);
    // Back-off: delay × 2^n / 2 plus up to as much jitter: 1–2 s, 2–4 s, 4–8 s (minus the poll's slack).
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[2]).toBeGreaterThanOrEqual(3_900);
    expect(gaps[2]).toBeGreaterThan(gaps[0]!);
    expect(await stateOf(job.id)).toMatchObject({
      state: 'failed',
      attempts: 4,
      error: { code: 'INTERNAL_ERROR', params: { reason: 'connection reset (run 4)' } },
    });
    expect((await bossJob(job.id)).state).toBe('failed');
  }, 90_000);

  it('a delayed job does not run before its time', async () => {
    const a = await ctx.newCustomer();
    let ranAt = 0;
    const later = defineJob('test.later', z.object({}), async () => {
      ranAt = Date.now();
      return null;
    });
    await ctx.deps.jobs.register(later);
    const t0 = Date.now();
    const job = await ctx.deps.jobs.enqueue(
      ctx.deps.database.db,
      later,
      {},
      { customerId: a.customerId, startAfter: 3 },
    );
    ctx.deps.jobs.kick();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ranAt).toBe(0);
    expect((await stateOf(job.id)).state).toBe('queued');
    await vi.waitFor(() => expect(ranAt).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });
    expect(ranAt - t0).toBeGreaterThanOrEqual(2_900);
  });

  it('cancels a queued job, and a running one at its next progress report (its transaction rolls back)', async () => {
    const a = await ctx.newCustomer();
    const b = await ctx.newCustomer();
    const later = defineJob('test.cancel-queued', z.object({}), async () => null);
    await ctx.deps.jobs.register(later);
    const queued = await ctx.deps.jobs.enqueue(
      ctx.deps.database.db,
      later,
      {},
      { customerId: a.customerId, startAfter: 60 },
    );
    expect((await ctx.api.jobRoutes.cancelJob({ params: { id: queued.id }, token: b.token })).statusCode).toBe(404);
    const res = await ctx.api.jobRoutes.cancelJob({ params: { id: queued.id }, token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'cancelled' });
    expect((await bossJob(queued.id)).state).toBe('cancelled');
    expect((await ctx.api.jobRoutes.cancelJob({ params: { id: queued.id }, token: a.token })).statusCode).toBe(409);

    let started = false;
    const long = defineJob('test.cancel-running', z.object({}), async ({ progress, signal }) => {
      started = true;
      for (let i = 0; i < 200 && !signal.aborted; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await progress(1, 2); // throws JOB_CANCELLED once cancelled
      return { finished: true };
    });
    await ctx.deps.jobs.register(long);
    const running = await ctx.deps.jobs.enqueue(ctx.deps.database.db, long, {}, { customerId: a.customerId });
    ctx.deps.jobs.kick();
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 10_000 });
    const cancel = await ctx.api.jobRoutes.cancelJob({ params: { id: running.id }, token: a.token });
    expect(cancel.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await stateOf(running.id)).state).toBe('cancelled'), { timeout: 10_000 });
    expect((await stateOf(running.id)).result).toBeNull();
  });

  /** A job as a crashed process leaves it: running in pg-boss and in its row, last heard of `ageMs` ago. */
  async function cutOffJob(customerId: string, ageMs: number, retryLimit = 2) {
    const orphan = defineJob(`test.orphan-${retryLimit}`, z.object({}), async () => ({ ran: true }), {
      retryLimit,
      retryDelaySeconds: 3600, // a retry waits: nothing here runs it during the test
      retryBackoff: false,
    });
    await ctx.deps.jobs.register(orphan);
    const db = ctx.deps.database.db;
    // Queued a minute in the future so no worker here takes it; then made to look taken by a dead process.
    const row = await ctx.deps.jobs.enqueue(db, orphan, {}, { customerId, startAfter: 3600 });
    await db.execute(sql`update pgboss.job set state = 'active', started_on = now(), retry_count = ${retryLimit}
                         where id = ${row.id}`);
    await db.execute(sql`update jobs set state = 'running', attempts = ${retryLimit + 1},
                         locked_at = now() - make_interval(secs => ${ageMs / 1000}) where id = ${row.id}`);
    return row;
  }

  it('an exclusive queue (PGlite: one process per database) fails every job left running at start into its retries', async () => {
    const a = await ctx.newCustomer();
    const fresh = await cutOffJob(a.customerId, 0, 2); // its last heartbeat a moment ago, retries left
    await ctx.deps.database.db.execute(sql`update pgboss.job set retry_count = 0 where id = ${fresh.id}`);
    const spent = await cutOffJob(a.customerId, 0, 1); // no retries left
    const queue = new JobQueue(ctx.deps.database, [], { exclusive: true });
    await queue.start();
    try {
      expect((await stateOf(fresh.id)).state).toBe('queued');
      expect((await bossJob(fresh.id)).state).toBe('retry');
      expect(await stateOf(spent.id)).toMatchObject({
        state: 'failed',
        error: { code: 'INTERNAL_ERROR', params: { reason: 'interrupted' } },
      });
      expect((await bossJob(spent.id)).state).toBe('failed');
    } finally {
      await queue.stop();
    }
  });

  it('a shared queue (PostgreSQL) recovers a running job once its heartbeat stopped, and keeps beating its own', async () => {
    const a = await ctx.newCustomer();
    const db = ctx.deps.database.db;
    const recent = await cutOffJob(a.customerId, 100, 3);
    await db.execute(sql`update pgboss.job set retry_count = 0 where id = ${recent.id}`);
    const silent = await cutOffJob(a.customerId, 5_000, 4);
    await db.execute(sql`update pgboss.job set retry_count = 0 where id = ${silent.id}`);
    const other = new JobQueue(ctx.deps.database, [], { staleAfterMs: 2_000 });
    await other.recoverStale();
    expect((await stateOf(recent.id)).state).toBe('running');
    expect((await stateOf(silent.id)).state).toBe('queued');
    expect((await bossJob(silent.id)).state).toBe('retry');

    // A job that runs for 3 stale windows without reporting progress is not taken for cut off: its queue beats.
    const runs: number[] = [];
    const slow = defineJob('test.slow', z.object({}), async () => {
      runs.push(Date.now());
      await new Promise((r) => setTimeout(r, 4_500));
      return { ok: true };
    });
    // Windows wide enough that a loaded CI machine does not delay a beat past one.
    const owner = new JobQueue(ctx.deps.database, [slow], { staleAfterMs: 1_500, pollSeconds: 0.5 });
    await owner.start();
    try {
      const job = await owner.enqueue(db, slow, {}, { customerId: a.customerId });
      owner.kick();
      await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 10_000 });
      const watcher = new JobQueue(ctx.deps.database, [], { staleAfterMs: 1_500 });
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 900));
        await watcher.recoverStale();
        expect((await stateOf(job.id)).state).toBe('running');
      }
      await vi.waitFor(async () => expect(await stateOf(job.id)).toMatchObject({ state: 'succeeded', attempts: 1 }), {
        timeout: 10_000,
      });
      expect(runs).toHaveLength(1);
    } finally {
      await owner.stop();
    }
  });
});

describe('retry delay scale', () => {
  it("multiplies every definition's retry delay (a test set-up's short back-off), never below 1 s", async () => {
    const short = new JobQueue(ctx.deps.database, [], { retryDelayScale: 0.05 });
    await short.start();
    try {
      await short.register(defineJob('test.scaled', z.object({}), async () => null, { retryDelaySeconds: 100 }));
      await short.register(defineJob('test.scaled-min', z.object({}), async () => null, { retryDelaySeconds: 10 }));
      const rows = await queryRows<{ name: string; retry_delay: number }>(
        ctx.deps.database.db,
        sql`select name, retry_delay from pgboss.queue where name in ('test.scaled', 'test.scaled-min') order by name`,
      );
      expect(rows).toEqual([
        { name: 'test.scaled', retry_delay: 5 },
        { name: 'test.scaled-min', retry_delay: 1 },
      ]);
    } finally {
      await short.stop();
    }
  });
});
