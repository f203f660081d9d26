import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { integration_attempts, jobs, retention_settings } from '../../db/schema';
import type { TPurgeKind } from '../../platform/purge';

/**
 * Retention's data access (SQL only, the transaction or executor first): its own retention_settings; the purge
 * kinds' generic statements (count, export, a batch of ids), each over the table and conditions a kind declares
 * (`TPurgeKind`, defined by the module that owns the table); and the two kinds of the platform's own logs (jobs,
 * integration_attempts), which belong to no module.
 */

export const cutoffSql = (cutoff: Date) => sql`${cutoff.toISOString()}::timestamptz`;

/** How many of the seller's rows of this kind a purge with this cut-off deletes. */
export async function countKind(ex: Executor, def: TPurgeKind, customerId: string, cutoff: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from ${sql.raw(def.table)} t where ${def.where(customerId, cutoffSql(cutoff))}`,
  );
  return Number(row?.n ?? 0);
}

/** The next batch of the seller's rows of this kind to purge, locked (skipping rows another run holds). */
export async function lockPurgeBatch(tx: Tx, def: TPurgeKind, customerId: string, cutoff: Date, limit: number) {
  return queryRows<{ id: string; ref: string }>(
    tx,
    sql`select t.id::text as id, ${def.exportSelect} from ${sql.raw(def.table)} t
        where ${def.where(customerId, cutoffSql(cutoff))}
        order by t.id limit ${limit} for update of t skip locked`,
  );
}

/** The export of what a purge of this kind would delete, oldest first. */
export async function exportKindRows(ex: Executor, def: TPurgeKind, customerId: string, cutoff: Date, limit: number) {
  return queryRows<{ ref: string; status: string; at: Date | string | null; detail: string | null }>(
    ex,
    sql`select ${def.exportSelect} from ${sql.raw(def.table)} t
        where ${def.where(customerId, cutoffSql(cutoff))} order by 3, 1 limit ${limit}`,
  );
}

/** The purge job (`kind`) of this seller that is queued or running, if any. */
export async function runningJob(ex: Executor, customerId: string, kind: string) {
  const [row] = await ex
    .select()
    .from(jobs)
    .where(and(eq(jobs.customer_id, customerId), eq(jobs.kind, kind), inArray(jobs.state, ['queued', 'running'])))
    .limit(1);
  return row ?? null;
}

/** The sellers whose scheduled retention is on and last ran a month ago or more (or never). */
export async function dueSchedules(ex: Executor) {
  return queryRows<{ customer_id: string; months: number; kinds: string[] }>(
    ex,
    sql`select customer_id, months, kinds from retention_settings
        where schedule_enabled and (last_run_at is null or last_run_at <= now() - interval '1 month')`,
  );
}

export async function markScheduleRun(tx: Tx, customerId: string): Promise<void> {
  await tx
    .update(retention_settings)
    .set({ last_run_at: new Date() })
    .where(sql`${retention_settings.customer_id} = ${customerId}`);
}

export type TRetentionSettingsRow = typeof retention_settings.$inferSelect;

/** The seller's retention settings (locked for the rest of the transaction when `lock`). */
export async function findSettings(
  ex: Executor,
  customerId: string,
  opts: { lock?: boolean } = {},
): Promise<TRetentionSettingsRow | undefined> {
  const q = ex.select().from(retention_settings).where(eq(retention_settings.customer_id, customerId));
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

export async function upsertSettings(
  tx: Tx,
  customerId: string,
  values: Omit<typeof retention_settings.$inferInsert, 'customer_id'>,
): Promise<TRetentionSettingsRow> {
  const [row] = await tx
    .insert(retention_settings)
    .values({ customer_id: customerId, ...values })
    .onConflictDoUpdate({ target: retention_settings.customer_id, set: values })
    .returning();
  return row!;
}

/** The platform's job log: the seller's finished jobs. */
export const jobLogsPurge: TPurgeKind = {
  table: 'jobs',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.state in ('succeeded', 'failed', 'cancelled')
      and coalesce(t.finished_at, t.updated_at) < ${cutoff}`,
  exportSelect: sql`t.kind as ref, t.state as status, coalesce(t.finished_at, t.updated_at) as at,
      t.id::text as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(jobs)
      .where(and(eq(jobs.customer_id, c), inArray(jobs.id, ids)))
      .returning({ id: jobs.id });
    return gone.length;
  },
};

/** The platform's log of outgoing calls (OutgoingHttp's attempts). */
export const attemptLogsPurge: TPurgeKind = {
  table: 'integration_attempts',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.created_at < ${cutoff}`,
  exportSelect: sql`t.provider || ' ' || t.operation as ref, coalesce(t.status::text, t.error, '') as status,
      t.created_at as at, t.method || ' ' || t.url as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(integration_attempts)
      .where(
        and(
          eq(integration_attempts.customer_id, c),
          inArray(
            integration_attempts.id,
            ids.map((id) => Number(id)),
          ),
        ),
      )
      .returning({ id: integration_attempts.id });
    return gone.length;
  },
};
