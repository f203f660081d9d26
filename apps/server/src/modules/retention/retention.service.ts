import {
  DEFAULT_RETENTION_MONTHS,
  RETENTION_KINDS,
  type TJob,
  type TPurgeRequest,
  type TRetentionKind,
  type TRetentionPreview,
  type TRetentionSettings,
  type TUpdateRetentionSettings,
} from '@wms/contracts';
import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { retention_settings } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { type JobQueue, jobView } from '../../platform/jobs';
import { queuePurge } from './retention.jobs';
import { countKind, cutoffOf, cutoffSql, KINDS, PURGE_JOB, runningPurge } from './retention.kinds';

export type TRetentionDeps = { db: Db; jobs: JobQueue; ageScale: number };

export async function preview(deps: TRetentionDeps, actor: TActor, months: number): Promise<TRetentionPreview> {
  const customerId = tenantOf(actor);
  const cutoff = cutoffOf(months, deps.ageScale);
  const counts = [];
  for (const kind of RETENTION_KINDS) counts.push({ kind, count: await countKind(deps.db, customerId, kind, cutoff) });
  const running = await runningPurge(deps.db, customerId);
  return { months, cutoff: cutoff.toISOString(), counts, running_job: running ? jobView(running) : null };
}

/** Rows of the export (at most EXPORT_LIMIT, oldest first): what a purge of this kind would delete. */
export const EXPORT_LIMIT = 100_000;
export async function exportRows(deps: TRetentionDeps, actor: TActor, months: number, kind: TRetentionKind) {
  const customerId = tenantOf(actor);
  const def = KINDS[kind];
  return queryRows<{ ref: string; status: string; at: Date | string | null; detail: string | null }>(
    deps.db,
    sql`select ${def.exportSelect} from ${sql.raw(def.table)} t
        where ${def.where(customerId, cutoffSql(cutoffOf(months, deps.ageScale)))} order by 3, 1 limit ${EXPORT_LIMIT}`,
  );
}

export async function requestPurge(deps: TRetentionDeps, actor: TActor, input: TPurgeRequest): Promise<TJob> {
  const customerId = tenantOf(actor);
  const job = await withTx(deps.db, async (tx) => {
    const [company] = await queryRows<{ name: string }>(tx, sql`select name from customers where id = ${customerId}`);
    if (!company || company.name.trim() !== input.confirm_name.trim()) throw new AppError('CONFIRM_NAME_MISMATCH');
    return queuePurge(tx, deps.jobs, actor, customerId, { ...input, scheduled: false }, deps.ageScale);
  });
  deps.jobs.kick(PURGE_JOB);
  return jobView(job);
}

function settingsView(row: typeof retention_settings.$inferSelect | undefined): TRetentionSettings {
  return {
    schedule_enabled: row?.schedule_enabled ?? false,
    months: row?.months ?? DEFAULT_RETENTION_MONTHS,
    kinds: (row?.kinds ?? [...RETENTION_KINDS]).filter((k): k is TRetentionKind =>
      (RETENTION_KINDS as readonly string[]).includes(k),
    ),
    last_run_at: row?.last_run_at?.toISOString() ?? null,
  };
}

export async function getSettings(deps: TRetentionDeps, actor: TActor): Promise<TRetentionSettings> {
  const customerId = tenantOf(actor);
  const [row] = await deps.db.select().from(retention_settings).where(eq(retention_settings.customer_id, customerId));
  return settingsView(row);
}

export async function updateSettings(
  deps: TRetentionDeps,
  actor: TActor,
  input: TUpdateRetentionSettings,
): Promise<TRetentionSettings> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const [before] = await tx
      .select()
      .from(retention_settings)
      .where(eq(retention_settings.customer_id, customerId))
      .for('update');
    const values = {
      schedule_enabled: input.schedule_enabled,
      months: input.months,
      kinds: RETENTION_KINDS.filter((k) => input.kinds.includes(k)),
      updated_by: actor.id,
    };
    const [row] = await tx
      .insert(retention_settings)
      .values({ customer_id: customerId, ...values })
      .onConflictDoUpdate({ target: retention_settings.customer_id, set: values })
      .returning();
    const after = settingsView(row);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'retention_settings',
      entityId: customerId,
      before: before ? settingsView(before) : null,
      after,
    });
    return after;
  });
}
