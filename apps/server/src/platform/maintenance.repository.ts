import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';

const affected = (r: unknown) =>
  (r as { affectedRows?: number; rowCount?: number }).affectedRows ?? (r as { rowCount?: number }).rowCount ?? 0;

/**
 * The platform's daily clean-up (jobs.maintenance.ts): finished job rows, delivered outbox messages, outside-call
 * attempts and cron periods older than `days`, and rate-limit counters whose window has passed. Answers how many
 * jobs, outbox messages and attempts went.
 */
export async function deleteOldPlatformRows(ex: Executor, days: number) {
  const cutoff = sql`now() - make_interval(days => ${days})`;
  const jobs = await ex.execute(
    sql`delete from jobs where state in ('succeeded', 'failed', 'cancelled') and finished_at < ${cutoff}`,
  );
  const outbox = await ex.execute(
    sql`delete from outbox_messages where state = 'delivered' and delivered_at < ${cutoff}`,
  );
  const attempts = await ex.execute(sql`delete from integration_attempts where created_at < ${cutoff}`);
  await ex.execute(sql`delete from cron_periods where created_at < ${cutoff}`);
  // Rate-limit counters whose window has passed (PostgreSQL; expire is epoch milliseconds).
  await ex.execute(sql`delete from rate_limits where expire < (extract(epoch from now()) * 1000)::bigint`);
  return { jobs: affected(jobs), outbox: affected(outbox), attempts: affected(attempts) };
}
