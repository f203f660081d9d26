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
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { type JobQueue, jobView } from '../../platform/jobs';
import { lockCustomer } from '../account';
import { queuePurge } from './retention.jobs';
import { countKind, cutoffOf, KINDS, PURGE_JOB, runningPurge } from './retention.kinds';
import * as repo from './retention.repository';

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
  return repo.exportKindRows(deps.db, KINDS[kind], customerId, cutoffOf(months, deps.ageScale), EXPORT_LIMIT);
}

export async function requestPurge(deps: TRetentionDeps, actor: TActor, input: TPurgeRequest): Promise<TJob> {
  const customerId = tenantOf(actor);
  const job = await withTx(deps.db, async (tx) => {
    const company = await lockCustomer(tx, customerId);
    if (!company || company.name.trim() !== input.confirm_name.trim()) throw new AppError('CONFIRM_NAME_MISMATCH');
    return queuePurge(tx, deps.jobs, actor, customerId, { ...input, scheduled: false }, deps.ageScale);
  });
  deps.jobs.kick(PURGE_JOB);
  return jobView(job);
}

function settingsView(row: repo.TRetentionSettingsRow | undefined): TRetentionSettings {
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
  return settingsView(await repo.findSettings(deps.db, customerId));
}

export async function updateSettings(
  deps: TRetentionDeps,
  actor: TActor,
  input: TUpdateRetentionSettings,
): Promise<TRetentionSettings> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findSettings(tx, customerId, { lock: true });
    const values = {
      schedule_enabled: input.schedule_enabled,
      months: input.months,
      kinds: RETENTION_KINDS.filter((k) => input.kinds.includes(k)),
      updated_by: actor.id,
    };
    const row = await repo.upsertSettings(tx, customerId, values);
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
