import { and, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { queryRows } from '../db/client';
import { job_files, jobs } from '../db/schema';
import { AppError } from './errors';

export type TJobRow = typeof jobs.$inferSelect;

export interface TJobContext {
  job: TJobRow;
  db: Db;
  /** Record progress (done of total); cheap enough to call every few hundred rows. */
  progress(done: number, total?: number): Promise<void>;
  /** The uploaded file of this job, if any. */
  file(): Promise<{ name: string; content: Buffer } | null>;
}

/** A job handler does its writes in its own transaction(s) and returns the result stored on the job. */
export type TJobHandler = (ctx: TJobContext) => Promise<unknown>;

const MAX_ATTEMPTS = 3;
/**
 * A running job whose heartbeat (`locked_at`) is older than this lost its process (crash, kill -9) and is retried or
 * failed. The runner refreshes `locked_at` of its own running jobs every quarter of this (at most every 15 s).
 */
export const STALE_AFTER_MS = 60_000;

/** Queue a job in the caller's transaction (so a job exists exactly when its request committed). */
export async function enqueueJob(
  tx: Executor,
  input: {
    customerId: string | null;
    kind: string;
    payload?: unknown;
    createdBy?: string | null;
    file?: { name: string; content: Buffer };
  },
): Promise<TJobRow> {
  const [job] = await tx
    .insert(jobs)
    .values({
      customer_id: input.customerId,
      kind: input.kind,
      payload: input.payload ?? null,
      created_by: input.createdBy ?? null,
    })
    .returning();
  if (input.file)
    await tx.insert(job_files).values({ job_id: job!.id, file_name: input.file.name, content: input.file.content });
  return job!;
}

/** A job of this customer (404 for anyone else's). */
export async function getJob(db: Executor, customerId: string, id: string): Promise<TJobRow> {
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.customer_id, customerId)));
  if (!job) throw new AppError('NOT_FOUND');
  return job;
}

/**
 * Runs queued jobs in this process. Claims with FOR UPDATE SKIP LOCKED, so several app processes on one PostgreSQL
 * share the work. `kick()` after enqueueing starts work at once; a slow poll picks up the rest.
 *
 * A job cut off mid-run (the process died; its writes rolled back with its transaction) is queued again, or failed
 * after MAX_ATTEMPTS: with `exclusive` (PGlite: one process per data directory) every job found running at start is
 * such a job and is recovered before this runner claims anything; otherwise (several processes on one PostgreSQL) a
 * running job whose heartbeat stopped for `staleAfterMs` is.
 */
export class JobRunner {
  private readonly handlers = new Map<string, TJobHandler>();
  private running = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly idle = new Set<() => void>();
  /** Jobs this runner is running: never taken for cut off, whatever their heartbeat says. */
  private readonly active = new Set<string>();
  /** Claims wait for the start-up recovery, so a job claimed by this runner is never mistaken for an orphan. */
  private recovered: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: {
      concurrency?: number;
      pollMs?: number;
      log?: { error(obj: object, msg: string): void };
      /** Only this process uses the database, so a job left running at start was cut off. */
      exclusive?: boolean;
      staleAfterMs?: number;
    } = {},
  ) {}

  private get staleAfterMs(): number {
    return this.opts.staleAfterMs ?? STALE_AFTER_MS;
  }

  register(kind: string, handler: TJobHandler): void {
    this.handlers.set(kind, handler);
  }

  start(): void {
    this.stopped = false;
    if (this.opts.exclusive)
      this.recovered = this.recoverStale(0).catch((err) => this.opts.log?.error({ err }, 'job recovery failed'));
    const poll = () => {
      if (this.stopped) return;
      void this.recovered
        .then(() => this.recoverStale())
        .catch((err) => this.opts.log?.error({ err }, 'job recovery failed'))
        .then(() => this.kick());
      this.timer = setTimeout(poll, this.opts.pollMs ?? 2000);
      this.timer.unref();
    };
    poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.whenIdle();
  }

  /** Resolves when no job is running in this process (tests use it to wait for a job). */
  whenIdle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Claim and run jobs until none is queued or the concurrency limit is reached. */
  kick(): void {
    const limit = this.opts.concurrency ?? 1;
    while (!this.stopped && this.running < limit) {
      this.running++;
      void this.runOne()
        .catch((err) => this.opts.log?.error({ err }, 'job runner error'))
        .then((ran) => {
          this.running--;
          if (ran) this.kick();
          if (this.running === 0) {
            for (const r of this.idle) r();
            this.idle.clear();
          }
        });
      break;
    }
  }

  private async claim(): Promise<TJobRow | undefined> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return undefined;
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`update jobs set state = 'running', locked_at = now(), attempts = attempts + 1, updated_at = now()
          where id = (select id from jobs where state = 'queued' and kind in ${kinds}
                      order by created_at for update skip locked limit 1)
          returning id`,
    );
    if (!rows[0]) return undefined;
    const [job] = await this.db.select().from(jobs).where(eq(jobs.id, rows[0].id));
    return job;
  }

  private async runOne(): Promise<boolean> {
    await this.recovered;
    const job = await this.claim();
    if (!job) return false;
    this.active.add(job.id);
    // Heartbeat: on PostgreSQL through another pooled connection, so it beats while the handler's transaction runs.
    const beat = setInterval(
      () => {
        void this.db
          .update(jobs)
          .set({ locked_at: sql`now()` })
          .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
          .catch(() => undefined);
      },
      Math.min(15_000, this.staleAfterMs / 4),
    );
    beat.unref();
    try {
      return await this.runClaimed(job);
    } finally {
      clearInterval(beat);
      this.active.delete(job.id);
    }
  }

  private async runClaimed(job: TJobRow): Promise<boolean> {
    const handler = this.handlers.get(job.kind)!;
    const ctx: TJobContext = {
      job,
      db: this.db,
      progress: async (done, total) => {
        await this.db
          .update(jobs)
          .set({ progress: done, ...(total !== undefined ? { total } : {}), locked_at: sql`now()` })
          .where(eq(jobs.id, job.id));
      },
      file: async () => {
        const [f] = await this.db.select().from(job_files).where(eq(job_files.job_id, job.id));
        return f ? { name: f.file_name, content: f.content } : null;
      },
    };
    try {
      const result = await handler(ctx);
      await this.db
        .update(jobs)
        .set({
          state: 'succeeded',
          result: result ?? null,
          finished_at: new Date(),
          progress: sql`greatest(${jobs.progress}, ${jobs.total})`,
        })
        .where(eq(jobs.id, job.id));
    } catch (err) {
      const error =
        err instanceof AppError ? { code: err.code, params: err.params } : { code: 'INTERNAL_ERROR', params: {} };
      if (!(err instanceof AppError)) this.opts.log?.error({ err, jobId: job.id }, 'job failed');
      await this.db.update(jobs).set({ state: 'failed', error, finished_at: new Date() }).where(eq(jobs.id, job.id));
    }
    await this.db.delete(job_files).where(eq(job_files.job_id, job.id));
    return true;
  }

  /**
   * Jobs cut off mid-run (their writes rolled back with their transaction) are queued again, or failed after
   * MAX_ATTEMPTS: every running job of another runner whose heartbeat is older than `staleAfterMs` (database clock;
   * 0: every running job of another runner).
   */
  async recoverStale(staleAfterMs: number = this.staleAfterMs): Promise<void> {
    const mine = [...this.active];
    await this.db.execute(sql`
      update jobs set
        state = case when attempts >= ${MAX_ATTEMPTS} then 'failed' else 'queued' end,
        error = case when attempts >= ${MAX_ATTEMPTS} then '{"code":"INTERNAL_ERROR","params":{"reason":"interrupted"}}'::jsonb else error end,
        finished_at = case when attempts >= ${MAX_ATTEMPTS} then now() else null end,
        updated_at = now()
      where state = 'running' and (locked_at is null or locked_at <= now() - make_interval(secs => ${staleAfterMs / 1000}))
        ${mine.length ? sql`and id not in ${mine}` : sql``}`);
  }
}
