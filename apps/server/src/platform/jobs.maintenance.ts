import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from './jobs';

/** How long finished job rows (and their attempt logs) are kept for the screens. */
export const JOB_RETENTION_DAYS = 30;

/**
 * Daily clean-up at 03:30 Taipei time: finished job rows, delivered outbox messages and outside-call attempts
 * older than the retention are deleted (pg-boss archives and deletes its own rows). Fires once across processes.
 */
export const jobRetention = defineJob(
  'platform.job-retention',
  z.object({ days: z.number().int().min(1) }),
  async ({ db, payload }) => {
    const cutoff = sql`now() - make_interval(days => ${payload.days})`;
    const jobs = await db.execute(
      sql`delete from jobs where state in ('succeeded', 'failed', 'cancelled') and finished_at < ${cutoff}`,
    );
    const outbox = await db.execute(
      sql`delete from outbox_messages where state = 'delivered' and delivered_at < ${cutoff}`,
    );
    const attempts = await db.execute(sql`delete from integration_attempts where created_at < ${cutoff}`);
    await db.execute(sql`delete from cron_periods where created_at < ${cutoff}`);
    // Rate-limit counters whose window has passed (PostgreSQL; expire is epoch milliseconds).
    await db.execute(sql`delete from rate_limits where expire < (extract(epoch from now()) * 1000)::bigint`);
    const n = (r: unknown) =>
      (r as { affectedRows?: number; rowCount?: number }).affectedRows ?? (r as { rowCount?: number }).rowCount ?? 0;
    return { jobs: n(jobs), outbox: n(outbox), attempts: n(attempts) };
  },
  { cron: { schedule: '30 3 * * *', tz: 'Asia/Taipei', payload: { days: JOB_RETENTION_DAYS } }, retryLimit: 3 },
);
