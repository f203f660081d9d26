import { createRequire } from 'node:module';
import type { TJob } from '@wms/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Db, Executor, TDatabase } from '../db/client';
import { queryRows } from '../db/client';
import { cron_periods, job_files, jobs } from '../db/schema';
import { AppError } from './errors';
import type { TMailer } from './mail-types';
import type { ProviderRegistry, TProviderServices } from './providers';

/** What a job handler may call out through: the outgoing client, the provider registry, the operator's settings. */
export type TJobServices = TProviderServices & { providers: ProviderRegistry; mailer?: TMailer };

/**
 * Background and timed work on pg-boss (a maintained PostgreSQL queue: SKIP LOCKED claims, retries with exponential
 * back-off, cron schedules stored in the database, a failed state with the last error). pg-boss runs on PostgreSQL
 * through its own SQL and on PGlite through the `db` hook below. Every job also has a row in our `jobs` table (same
 * id): what the web app polls — state, progress, result or error, the uploaded file — and the heartbeat that finds a
 * job whose process died (pg-boss 10 has none: a dead process' job would otherwise wait for its expiry).
 */

export type TJobRow = typeof jobs.$inferSelect;
export type TJobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TJobContext<P = unknown> {
  job: TJobRow;
  /** The payload, parsed with the definition's schema. */
  payload: P;
  db: Db;
  engine: 'pglite' | 'postgres';
  services: TJobServices;
  /** The queue running the job: for work that queues follow-up jobs. */
  queue: JobQueue;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** Aborted when the job is cancelled; `progress()` throws then, so a handler inside its transaction rolls back. */
  signal: AbortSignal;
  /** Record progress (done of total); cheap enough to call every few hundred rows. */
  progress(done: number, total?: number): Promise<void>;
  /** The uploaded file of this job, if any. */
  file(): Promise<{ name: string; content: Buffer } | null>;
}

export interface TJobOptions<P> {
  /** Retries after the first run (default 2: three runs in all). An AppError is never retried (a refusal). */
  retryLimit?: number;
  /** Seconds before the first retry (default 10); doubled per retry with jitter (`retryBackoff`, default on). */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Longest a run may take before pg-boss fails it (default 1 h). */
  expireInSeconds?: number;
  /** Queue that receives the job when it finally fails (pg-boss dead letter). */
  deadLetter?: string;
  /** A cron schedule (5 fields, minute precision): fires once per period across every process. */
  cron?: { schedule: string; tz?: string; payload: P };
  /** Jobs of this kind run at once in one process (default 1). */
  concurrency?: number;
  /**
   * Queue a job when the database sends a notification (`pg_notify(channel, text)`, e.g. from a trigger): at once
   * after the notifying transaction commits, instead of waiting for a schedule. Notifications within `debounceMs`
   * with the same payload text become one job, queued after the last of them (default 200 ms). Each time the
   * process starts listening (start, a re-opened connection) it queues one job with `payload('')`: the handler's
   * catch-up for notifications sent while nobody listened.
   */
  wakeOn?: { channel: string; payload: (text: string) => P; debounceMs?: number };
}

export interface TJobDefinition<P = unknown> {
  name: string;
  payload: z.ZodType<P>;
  handler: (ctx: TJobContext<P>) => Promise<unknown>;
  options: TJobOptions<P>;
}

/** A typed job: declared in its module (`<context>.jobs.ts`), listed in `src/jobs.ts`. */
export function defineJob<P>(
  name: string,
  payload: z.ZodType<P>,
  handler: (ctx: TJobContext<P>) => Promise<unknown>,
  options: TJobOptions<P> = {},
): TJobDefinition<P> {
  if (!/^[a-z][a-z0-9_.-]*$/.test(name)) throw new Error(`job name ${name}: lower-case words, dots, dashes`);
  return { name, payload, handler, options };
}

// biome-ignore lint/suspicious/noExplicitAny: a list of definitions of different payloads
export type TAnyJobDefinition = TJobDefinition<any>;

interface TBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss' `db` hook on a transaction (or the pool): its insert commits or rolls back with the caller's writes. Its
 * statements reuse numbered placeholders ($5 three times), so they go to the driver's client as they are — the
 * transaction's client (drizzle keeps it as `session.client`), or the pool / PGlite itself.
 */
function executorDb(ex: Executor): TBossDb {
  const holder = ex as unknown as { session?: { client?: TQueryable }; $client?: TQueryable };
  const client = holder.session?.client ?? holder.$client;
  if (!client?.query) throw new Error('no driver client behind this executor');
  return { executeSql: (text, values) => client.query(text, values ?? []) };
}

interface TQueryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss' connection for our own awaited calls: errors reach the caller. */
function strictBossDb(database: TDatabase): TBossDb {
  return database.pool ? executorDb(database.db) : bossDb(database);
}

/** pg-boss' SQL of the two statements that record a worker's outcome (its own plans, as it sends them). */
const bossPlans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};

type TJobLog = { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };

/**
 * pg-boss' own connection: the pool on PostgreSQL; on PGlite its single connection (multi-statement DDL by exec).
 *
 * pg-boss (10.4) records a worker's outcome — complete or fail — without awaiting it: with the database away, that
 * rejection would be unhandled and end the process. So on this connection a failed outcome statement is logged and
 * answered as "no job affected": the job stays active in the queue, which hands it out again once it expires, and
 * `run` answers a job that already ended with its recorded outcome, never running it twice. (Our own awaited calls
 * — recoverStale's fail — go through `strictBossDb` and see the error.)
 */
function bossDb(database: TDatabase, log?: TJobLog): TBossDb {
  if (database.pool) {
    const pool = database.pool;
    const outcomes = new Set([bossPlans.completeJobs(BOSS_SCHEMA), bossPlans.failJobsById(BOSS_SCHEMA)]);
    return {
      executeSql: async (text, values) => {
        try {
          return await pool.query(text, values as unknown[]);
        } catch (err) {
          if (!outcomes.has(text)) throw err;
          (log?.warn ?? log?.error)?.call(
            log,
            { err: { message: (err as Error).message }, queue: (values as unknown[] | undefined)?.[0] },
            'job outcome not recorded in the queue (database unavailable): it is handed out again when it expires',
          );
          return { rows: [{ count: 0 }] };
        }
      },
    };
  }
  const client = database.pglite!;
  return {
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values as unknown[]);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

const BOSS_SCHEMA = 'pgboss';

/** A channel name as a quoted identifier. */
/** `work`, or nothing after `ms` (the work goes on unobserved; a failure after that is ignored). */
function within(ms: number, work: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

function pgIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface TBossJob {
  id: string;
  name: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  /** When the job was sent (pg-boss' metadata; for a cron job, when its schedule fired it). */
  createdOn?: Date | string;
}

/** pg-boss' own cron parser (the one its schedules fire by), so a period here is a tick there. */
const cronParser = createRequire(createRequire(import.meta.url).resolve('pg-boss'))('cron-parser') as {
  parseExpression(cron: string, opts: { tz?: string; currentDate?: Date }): { prev(): { getTime(): number } };
};

/**
 * The period a firing of `cron` at `firedAt` belongs to: the schedule's latest tick at or before that moment. A send
 * retried after a restart (17:51:09 for the 17:50 tick of a 5-minute schedule) falls in the same period.
 */
export function cronPeriod(cron: string, tz: string, firedAt: Date): Date {
  const tick = cronParser.parseExpression(cron, { tz, currentDate: new Date(firedAt.getTime() + 1) }).prev();
  return new Date(tick.getTime());
}

/**
 * The job queue of this process: registers every definition's queue, worker and schedule on pg-boss, and keeps our
 * `jobs` rows (state, progress, result, error, heartbeat) in step.
 *
 * A job cut off mid-run (the process died; its writes rolled back with its transaction) is failed into pg-boss'
 * retry policy (run again later, or failed when its retries are spent): with `exclusive` (PGlite: one process per
 * data directory) every job found running at start is such a job; otherwise (several processes on one PostgreSQL) a
 * running job whose heartbeat stopped for `staleAfterMs` is.
 */
export class JobQueue {
  private readonly definitions = new Map<string, TAnyJobDefinition>();
  private readonly boss: PgBoss;
  private readonly workers = new Map<string, string[]>();
  private started: Promise<void> | null = null;
  private stopped = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Jobs running in this process, with their abort controllers: never taken for cut off. */
  private readonly active = new Map<string, AbortController>();
  private readonly idle = new Set<() => void>();
  /** Undo of the LISTENs of `wakeOn` definitions. */
  private readonly unlisten: Array<() => Promise<void>> = [];
  private readonly wakeTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly database: TDatabase,
    definitions: readonly TAnyJobDefinition[],
    private readonly opts: {
      /** Only this process uses the database, so a job left running at start was cut off. */
      exclusive?: boolean;
      staleAfterMs?: number;
      /** Seconds between polls of an idle queue (a job enqueued here is picked up at once through kick()). */
      pollSeconds?: number;
      /** Seconds between cron checks (default 10; tests use 1). */
      cronCheckSeconds?: number;
      /** Factor on every retry delay (default 1; an e2e set-up shortens real back-offs without a special path). */
      retryDelayScale?: number;
      log?: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
      /** Handed to every handler (ctx.services). */
      services?: TJobServices;
    } = {},
  ) {
    for (const d of definitions) this.definitions.set(d.name, d);
    this.boss = new PgBoss({
      db: bossDb(database, opts.log),
      schema: BOSS_SCHEMA,
      supervise: true,
      schedule: true,
      migrate: true,
      cronMonitorIntervalSeconds: opts.cronCheckSeconds ?? 10,
      cronWorkerIntervalSeconds: opts.cronCheckSeconds ?? 5,
      maintenanceIntervalSeconds: 60,
      archiveCompletedAfterSeconds: 60 * 60 * 24,
      deleteAfterDays: 30,
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', (err) => this.opts.log?.error({ err }, 'job queue error'));
  }

  get staleAfterMs(): number {
    return this.opts.staleAfterMs ?? 60_000;
  }

  private get pollSeconds(): number {
    return this.opts.pollSeconds ?? 2;
  }

  /** Install or migrate pg-boss' schema, then start every queue, worker and schedule. */
  start(): Promise<void> {
    this.stopped = false;
    this.started ??= (async () => {
      await this.boss.start();
      if (this.opts.exclusive) await this.recoverStale(0);
      await this.serialised(async () => {
        for (const d of this.definitions.values()) await this.startQueue(d);
        await this.dropStaleSchedules();
      });
      await this.listenForWakeUps();
      const sweep = () => {
        if (this.stopped) return;
        if (!this.opts.exclusive)
          void this.recoverStale().catch((err) => this.opts.log?.error({ err }, 'job recovery failed'));
        this.sweepTimer = setTimeout(sweep, Math.max(500, this.staleAfterMs / 4));
        this.sweepTimer.unref();
      };
      sweep();
    })();
    return this.started;
  }

  /**
   * Queue and schedule set-up of several processes starting at once deadlocks inside pg-boss' create_queue (each
   * creates the same partitions); on PostgreSQL it runs under one advisory lock, one process after another.
   */
  private async serialised(work: () => Promise<void>): Promise<void> {
    // A session lock, held across the statements of `work`: on PostgreSQL itself, never through a transaction pooler.
    const pool = this.database.directPool ?? this.database.pool;
    if (!pool) return work();
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock(72062)');
      await work();
    } finally {
      await lock.query('select pg_advisory_unlock(72062)').catch(() => undefined);
      lock.release();
    }
  }

  /** Stop fetching, wait for running jobs (up to 20 s), stop pg-boss (up to 12 s). */
  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => undefined);
    this.stopped = true;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    for (const t of this.wakeTimers.values()) clearTimeout(t);
    this.wakeTimers.clear();
    // Each step is bounded, so a stop after a database outage (a worker or a running job waiting on a connection that
    // will not answer) still ends within the process's shutdown limit (40 s): a job still running then is handed back
    // (pg-boss retries it once it expires), as a job cut off by a crash would be.
    for (const undo of this.unlisten.splice(0))
      await within(
        2_000,
        undo().catch(() => undefined),
      );
    for (const name of this.workers.keys()) await within(2_000, this.boss.offWork(name));
    // A later start() in this process makes its workers again.
    this.workers.clear();
    await within(20_000, this.whenRunningDone());
    // Graceful: a job pg-boss fetched just before its worker stopped may start after `whenRunningDone`; pg-boss
    // waits for it (its answer, complete or fail, needs the connection the caller closes next).
    await within(12_000, this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 }));
    this.started = null;
  }

  /** Add a definition after construction (tests); its queue, worker and schedule start now when running. */
  async register(def: TAnyJobDefinition): Promise<void> {
    this.definitions.set(def.name, def);
    if (this.started) {
      await this.started;
      await this.serialised(() => this.startQueue(def));
    }
  }

  private retryDelayOf(def: TAnyJobDefinition): number {
    return Math.max(1, Math.round((def.options.retryDelaySeconds ?? 10) * (this.opts.retryDelayScale ?? 1)));
  }

  private async startQueue(def: TAnyJobDefinition): Promise<void> {
    const o = def.options;
    await this.boss.createQueue(def.name, {
      name: def.name,
      retryLimit: o.retryLimit ?? 2,
      retryDelay: this.retryDelayOf(def),
      retryBackoff: o.retryBackoff ?? true,
      expireInSeconds: o.expireInSeconds ?? 3600,
      ...(o.deadLetter ? { deadLetter: o.deadLetter } : {}),
    });
    // createQueue keeps an existing queue's settings; a changed definition updates them.
    await this.boss.updateQueue(def.name, {
      retryLimit: o.retryLimit ?? 2,
      retryDelay: this.retryDelayOf(def),
      retryBackoff: o.retryBackoff ?? true,
      expireInSeconds: o.expireInSeconds ?? 3600,
      ...(o.deadLetter ? { deadLetter: o.deadLetter } : {}),
    } as PgBoss.Queue);
    if (o.cron)
      await this.boss.schedule(def.name, o.cron.schedule, o.cron.payload as object, { tz: o.cron.tz ?? 'Asia/Taipei' });
    if (this.workers.has(def.name)) return;
    const ids: string[] = [];
    for (let i = 0; i < (o.concurrency ?? 1); i++) {
      let workerId = '';
      workerId = await this.boss.work<unknown>(
        def.name,
        { pollingIntervalSeconds: this.pollSeconds, batchSize: 1, includeMetadata: true },
        async ([job]) => {
          // A worker that just ran a job fetches again at once (there may be more) instead of waiting out its poll.
          try {
            return await this.run(def, job as unknown as TBossJob);
          } finally {
            if (workerId) this.boss.notifyWorker(workerId);
          }
        },
      );
      ids.push(workerId);
    }
    this.workers.set(def.name, ids);
  }

  /**
   * LISTEN on the channels of `wakeOn` definitions: on PostgreSQL on one connection of its own (held, re-opened when
   * lost), on PGlite on its single connection. Each notification (debounced per payload) queues the job.
   */
  private async listenForWakeUps(): Promise<void> {
    const defs = [...this.definitions.values()].filter((d) => d.options.wakeOn);
    if (defs.length === 0) return;
    const onNotify = (def: TAnyJobDefinition, text: string) => {
      const wake = def.options.wakeOn!;
      const key = `${def.name}|${text}`;
      if (this.stopped || this.wakeTimers.has(key)) return;
      const timer = setTimeout(() => {
        this.wakeTimers.delete(key);
        if (this.stopped) return;
        void this.enqueue(this.database.db, def, wake.payload(text), { customerId: null })
          .then(() => this.kick(def.name))
          .catch((err) => this.opts.log?.error({ err, job: def.name }, 'job wake-up failed'));
      }, wake.debounceMs ?? 200);
      timer.unref();
      this.wakeTimers.set(key, timer);
    };
    const channels = [...new Set(defs.map((d) => d.options.wakeOn!.channel))];
    const deliver = (channel: string, text: string) => {
      for (const d of defs) if (d.options.wakeOn!.channel === channel) onNotify(d, text);
    };
    // Once listening (at start, and again after a lost connection), a catch-up job with an empty payload text
    // covers what was notified while nobody listened.
    const catchUp = () => {
      for (const d of defs) onNotify(d, '');
    };
    if (this.database.pglite) {
      for (const channel of channels) {
        const undo = await this.database.pglite.listen(channel, (text) => deliver(channel, text));
        this.unlisten.push(undo);
      }
      catchUp();
      return;
    }
    // LISTEN belongs to a session: on PostgreSQL itself (the direct pool), never through a transaction pooler.
    const pool = this.database.directPool ?? this.database.pool!;
    let client: import('pg').PoolClient | null = null;
    const connect = async (): Promise<void> => {
      if (this.stopped) return;
      try {
        const c = await pool.connect();
        client = c;
        c.on('notification', (n) => deliver(n.channel, n.payload ?? ''));
        c.on('error', () => {
          c.release(true);
          if (client === c) client = null;
          // Connection lost: listen again shortly (notifications in between are the cron sweep's).
          if (!this.stopped) setTimeout(() => void connect(), 1000).unref();
        });
        for (const channel of channels) await c.query(`listen ${pgIdent(channel)}`);
        catchUp();
      } catch (err) {
        this.opts.log?.error({ err }, 'job wake-up listen failed');
        if (!this.stopped) setTimeout(() => void connect(), 1000).unref();
      }
    };
    await connect();
    this.unlisten.push(async () => {
      const c = client as import('pg').PoolClient | null;
      client = null;
      if (!c) return;
      await c.query('unlisten *').catch(() => undefined);
      c.release();
    });
  }

  /** A schedule whose definition is gone (renamed, removed) stops firing. */
  private async dropStaleSchedules(): Promise<void> {
    for (const s of await this.boss.getSchedules()) {
      const def = this.definitions.get(s.name);
      if (!def?.options.cron) await this.boss.unschedule(s.name);
    }
  }

  /** Ask the workers to fetch now instead of at their next poll. */
  kick(name?: string): void {
    for (const [queue, ids] of this.workers)
      if (!name || queue === name) for (const id of ids) this.boss.notifyWorker(id);
  }

  /**
   * Queue a job in the caller's transaction (so it exists exactly when the request committed), with its `jobs` row
   * and file. `startAfter`: a Date or seconds from now. Call `kick()` after the commit to start it at once.
   */
  async enqueue<P>(
    ex: Executor,
    def: TJobDefinition<P>,
    payload: P,
    opts: {
      customerId: string | null;
      createdBy?: string | null;
      file?: { name: string; content: Buffer };
      startAfter?: Date | number;
      /** At most one queued job with this key per kind (pg-boss singleton); null is answered when one exists. */
      singletonKey?: string;
    },
  ): Promise<TJobRow> {
    if (!this.definitions.has(def.name)) throw new Error(`job ${def.name} is not registered`);
    const data = def.payload.parse(payload);
    const [row] = await ex
      .insert(jobs)
      .values({
        customer_id: opts.customerId,
        kind: def.name,
        payload: data as object,
        created_by: opts.createdBy ?? null,
      })
      .returning();
    // The file first: a job is never visible to a worker without it (a refused send rolls both back with the caller).
    if (opts.file)
      await ex.insert(job_files).values({ job_id: row!.id, file_name: opts.file.name, content: opts.file.content });
    const id = await this.boss.send(
      def.name,
      data as object,
      {
        id: row!.id,
        db: executorDb(ex),
        ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      } as PgBoss.SendOptions,
    );
    if (!id) throw new AppError('JOB_ALREADY_QUEUED', { kind: def.name });
    return row!;
  }

  /** `enqueue` by name, for a definition built from a list (the outbox' delivery job). */
  enqueueByName(
    ex: Executor,
    name: string,
    payload: unknown,
    opts: Parameters<JobQueue['enqueue']>[3],
  ): Promise<TJobRow> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`job ${name} is not registered`);
    return this.enqueue(ex, def, payload, opts);
  }

  /**
   * Cancel a queued or running job of this customer. A queued one ends at once; a running one is told to stop (its
   * handler sees `signal` aborted and `progress()` throws, so its transaction rolls back) and ends as cancelled — or
   * as succeeded when its work had already committed.
   */
  async cancel(customerId: string, id: string): Promise<TJobRow> {
    const row = await getJob(this.database.db, customerId, id);
    if (row.state !== 'queued' && row.state !== 'running')
      throw new AppError('INVALID_STATUS_TRANSITION', { from: row.state, to: 'cancelled' });
    await this.boss.cancel(row.kind, id);
    this.active.get(id)?.abort();
    const [after] = await this.database.db
      .update(jobs)
      .set({ state: 'cancelled', finished_at: new Date(), updated_at: new Date() })
      .where(and(eq(jobs.id, id), eq(jobs.state, 'queued')))
      .returning();
    if (after) await this.database.db.delete(job_files).where(eq(job_files.job_id, id));
    return after ?? (await getJob(this.database.db, customerId, id));
  }

  /** Resolves when no job is running in this process. */
  private whenRunningDone(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /**
   * Resolves when no job of this process' kinds is waiting to start or running (tests: "let the queue drain").
   * Jobs that wait for a later start (delayed, backing off) do not count.
   */
  async whenIdle(timeoutMs = 120_000): Promise<void> {
    const t0 = Date.now();
    const names = [...this.definitions.keys()];
    for (;;) {
      const rows = await queryRows<{ n: number }>(
        this.database.db,
        sql`select count(*)::int as n from ${sql.identifier(BOSS_SCHEMA)}.job
            where name in ${names} and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
      );
      if (rows[0]!.n === 0 && this.active.size === 0) return;
      if (Date.now() - t0 > timeoutMs) throw new Error('jobs did not finish in time');
      this.kick();
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private async run(def: TAnyJobDefinition, bossJob: TBossJob): Promise<unknown> {
    const db = this.database.db;
    const attempt = bossJob.retryCount + 1;
    const controller = new AbortController();
    this.active.set(bossJob.id, controller);
    const repeat = await this.periodAlreadyRun(def, bossJob);
    if (repeat) {
      this.finish(bossJob.id);
      return repeat;
    }
    // Cron and outbox jobs are queued by pg-boss itself: their row is made on their first run.
    const [row] = await db
      .insert(jobs)
      .values({
        id: bossJob.id,
        kind: def.name,
        payload: bossJob.data as object,
        state: 'running',
        attempts: attempt,
        locked_at: sql`now()`,
      })
      .onConflictDoUpdate({
        target: jobs.id,
        set: { state: 'running', attempts: attempt, locked_at: sql`now()`, updated_at: sql`now()` },
        // A job that already ended (cancelled, succeeded, failed) never runs again, even if pg-boss hands it out a
        // second time: a rerun would find its file deleted and overwrite the real outcome.
        setWhere: sql`${jobs.state} in ('queued', 'running')`,
      })
      .returning();
    if (!row) {
      this.finish(bossJob.id);
      const [ended] = await db
        .select({ state: jobs.state, result: jobs.result })
        .from(jobs)
        .where(eq(jobs.id, bossJob.id));
      if (ended?.state === 'cancelled') return { cancelled: true };
      this.opts.log?.warn?.(
        { jobId: bossJob.id, kind: def.name, state: ended?.state },
        'job delivered again after it ended',
      );
      return ended?.result ?? null;
    }
    // Heartbeat: on PostgreSQL through another pooled connection, so it beats while the handler's transaction runs.
    // It also notices a cancellation made by another process.
    const beat = setInterval(
      () => {
        void db
          .update(jobs)
          .set({ locked_at: sql`now()` })
          .where(eq(jobs.id, row.id))
          .then(() => this.bossState(bossJob.id))
          .then((state) => {
            if (state === 'cancelled') controller.abort();
          })
          .catch(() => undefined);
      },
      Math.min(15_000, this.staleAfterMs / 4),
    );
    beat.unref();
    const ctx: TJobContext = {
      job: row,
      payload: undefined,
      db,
      engine: this.database.engine,
      services: this.opts.services as TJobServices,
      queue: this,
      attempt,
      signal: controller.signal,
      progress: async (done, total) => {
        if (controller.signal.aborted) throw new AppError('JOB_CANCELLED');
        await db
          .update(jobs)
          .set({ progress: done, ...(total !== undefined ? { total } : {}), locked_at: sql`now()` })
          .where(eq(jobs.id, row.id));
      },
      file: async () => {
        const [f] = await db.select().from(job_files).where(eq(job_files.job_id, row.id));
        return f ? { name: f.file_name, content: f.content } : null;
      },
    };
    try {
      ctx.payload = def.payload.parse(bossJob.data);
      const result = await def.handler(ctx);
      // With a streaming replica: the job's writes are its seller's (or its user's), whose reads wait for them there
      // from before the job is seen to have succeeded (platform/replica.ts).
      const scope = row.customer_id ? `c:${row.customer_id}` : row.created_by ? `u:${row.created_by}` : null;
      if (this.database.replica && scope) await this.database.replica.markWrite(scope);
      // A cancellation that came after the work committed lost the race: the job succeeded.
      await db
        .update(jobs)
        .set({
          state: 'succeeded',
          result: result ?? null,
          error: null,
          finished_at: new Date(),
          progress: sql`greatest(${jobs.progress}, ${jobs.total})`,
        })
        .where(and(eq(jobs.id, row.id), eq(jobs.state, 'running')));
      await db.delete(job_files).where(eq(job_files.job_id, row.id));
      return result ?? null;
    } catch (err) {
      await this.recordFailure(def, bossJob, err, controller.signal.aborted);
      throw err instanceof AppError ? Object.assign(new Error(err.code), { code: err.code, params: err.params }) : err;
    } finally {
      clearInterval(beat);
      this.finish(bossJob.id);
    }
  }

  /**
   * A cron job's firing claims its period (the schedule's tick; `cronPeriod`) on its first run. A second firing for a
   * period another job already claimed — the schedule's send retried across a restart — is recorded as succeeded
   * without running, and answered with `{ skipped: 'period_already_run' }`. Retries of the claiming job run as usual;
   * a cron kind queued by hand (its `jobs` row made by `enqueue`) is not a firing and claims nothing.
   */
  private async periodAlreadyRun(def: TAnyJobDefinition, bossJob: TBossJob): Promise<object | null> {
    const cron = def.options.cron;
    if (!cron || !bossJob.createdOn) return null;
    const db = this.database.db;
    const [own] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, bossJob.id));
    if (own) return null;
    const period = cronPeriod(cron.schedule, cron.tz ?? 'Asia/Taipei', new Date(bossJob.createdOn));
    const [mine] = await db
      .insert(cron_periods)
      .values({ kind: def.name, period, job_id: bossJob.id })
      .onConflictDoNothing()
      .returning({ job_id: cron_periods.job_id });
    if (mine) return null;
    // Claimed already (by another firing, or by this job on an earlier attempt): a statement of its own sees it.
    const [claim] = await db
      .select({ job_id: cron_periods.job_id })
      .from(cron_periods)
      .where(and(eq(cron_periods.kind, def.name), eq(cron_periods.period, period)));
    if (!claim || claim.job_id === bossJob.id) return null;
    const result = { skipped: 'period_already_run', period: period.toISOString(), ran_as: claim.job_id };
    await db
      .insert(jobs)
      .values({
        id: bossJob.id,
        kind: def.name,
        payload: bossJob.data as object,
        state: 'succeeded',
        result,
        attempts: bossJob.retryCount + 1,
        finished_at: new Date(),
      })
      .onConflictDoNothing();
    this.opts.log?.warn?.(
      { jobId: bossJob.id, kind: def.name, ...result },
      'cron firing skipped: its period already ran',
    );
    return result;
  }

  private async bossState(id: string): Promise<string | undefined> {
    const [r] = await queryRows<{ state: string }>(
      this.database.db,
      sql`select state from ${sql.identifier(BOSS_SCHEMA)}.job where id = ${id}`,
    );
    return r?.state;
  }

  private finish(id: string): void {
    this.active.delete(id);
    if (this.active.size === 0) {
      for (const r of this.idle) r();
      this.idle.clear();
    }
  }

  /**
   * An AppError is a refusal (bad file, a rule): final, never retried — pg-boss is told there are no retries left.
   * Anything else is retried by pg-boss with back-off until its retries are spent; the row shows it queued again
   * with the last error, or failed.
   */
  private async recordFailure(def: TAnyJobDefinition, bossJob: TBossJob, err: unknown, cancelled: boolean) {
    const db = this.database.db;
    if (cancelled) {
      await db
        .update(jobs)
        .set({ state: 'cancelled', finished_at: new Date() })
        .where(and(eq(jobs.id, bossJob.id), eq(jobs.state, 'running')));
      await db.delete(job_files).where(eq(job_files.job_id, bossJob.id));
      return;
    }
    const refusal = err instanceof AppError;
    if (!refusal) this.opts.log?.error({ err, jobId: bossJob.id, kind: def.name }, 'job failed');
    const error = refusal
      ? { code: err.code, params: err.params }
      : { code: 'INTERNAL_ERROR', params: { reason: err instanceof Error ? err.message.slice(0, 500) : 'error' } };
    const final = refusal || bossJob.retryCount >= bossJob.retryLimit;
    if (refusal)
      await db.execute(
        sql`update ${sql.identifier(BOSS_SCHEMA)}.job set retry_limit = retry_count where name = ${def.name} and id = ${bossJob.id}`,
      );
    await db
      .update(jobs)
      .set(final ? { state: 'failed', error, finished_at: new Date() } : { state: 'queued', error })
      .where(and(eq(jobs.id, bossJob.id), eq(jobs.state, 'running')));
    if (final) await db.delete(job_files).where(eq(job_files.job_id, bossJob.id));
  }

  /**
   * Jobs cut off mid-run: every running job of another process whose heartbeat is older than `staleAfterMs`
   * (database clock; 0: every running job not running here) is failed into pg-boss' retry policy.
   */
  async recoverStale(staleAfterMs: number = this.staleAfterMs): Promise<void> {
    const mine = [...this.active.keys()];
    const db = this.database.db;
    const stale = await queryRows<{ id: string; kind: string }>(
      db,
      sql`select id, kind from jobs
          where state = 'running' and (locked_at is null or locked_at <= now() - make_interval(secs => ${staleAfterMs / 1000}))
          ${mine.length ? sql`and id not in ${mine}` : sql``}`,
    );
    // At start on PGlite every job pg-boss holds active was cut off too, whether or not its row got to say running.
    if (staleAfterMs === 0)
      for (const j of await queryRows<{ id: string; kind: string }>(
        db,
        sql`select id, name as kind from ${sql.identifier(BOSS_SCHEMA)}.job where state = 'active'
            ${mine.length ? sql`and id not in ${mine}` : sql``}`,
      ))
        if (!stale.some((s) => s.id === j.id)) stale.push(j);
    for (const job of stale) {
      await this.boss.fail(
        job.kind,
        job.id,
        { code: 'INTERNAL_ERROR', reason: 'interrupted' },
        { db: strictBossDb(this.database) },
      );
      const state = await this.bossState(job.id);
      const failed = !state || state === 'failed';
      await db
        .update(jobs)
        .set(
          failed
            ? {
                state: 'failed',
                error: { code: 'INTERNAL_ERROR', params: { reason: 'interrupted' } },
                finished_at: new Date(),
              }
            : { state: 'queued', error: { code: 'INTERNAL_ERROR', params: { reason: 'interrupted' } } },
        )
        .where(and(eq(jobs.id, job.id), inArray(jobs.state, ['queued', 'running'])));
      if (failed) await db.delete(job_files).where(eq(job_files.job_id, job.id));
    }
  }
}

/** A job as the web app polls it. */
export function jobView(job: TJobRow): TJob {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state as TJob['state'],
    progress: job.progress,
    total: job.total,
    result: job.result ?? null,
    error: (job.error as TJob['error']) ?? null,
    attempts: job.attempts,
    created_at: job.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
  };
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
