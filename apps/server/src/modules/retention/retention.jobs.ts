import { RETENTION_KINDS, type TRetentionKind } from '@wms/contracts';
import { z } from 'zod';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, ZActor } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { defineJob, type JobQueue } from '../../platform/jobs';
import { lockCustomer } from '../account';
import { countKind, cutoffOf, KINDS, PURGE_JOB, runningPurge } from './retention.kinds';
import * as repo from './retention.repository';

/** Rows deleted per transaction: each batch commits on its own (with its audit row), so progress is real. */
export const PURGE_BATCH = 500;

const ZPurgePayload = z.object({
  actor: ZActor,
  months: z.number().int(),
  kinds: z.array(z.enum(RETENTION_KINDS)),
  /** Fixed when the purge was asked for, so the run deletes what the preview counted (and nothing newer). */
  cutoff: z.string(),
  scheduled: z.boolean(),
});

/**
 * The purge of one seller: per kind, batches of PURGE_BATCH rows, each batch one transaction with one audit row
 * (kind, count, the documents' numbers). Progress is rows deleted of the rows counted at the start. Cancelling stops
 * between batches (what was committed stays deleted). Never touches stock balances or the stock ledger.
 */
export const retentionPurge = defineJob(
  PURGE_JOB,
  ZPurgePayload,
  async ({ db, job, payload, progress }) => {
    const customerId = job.customer_id;
    if (!customerId) throw new AppError('NOT_FOUND');
    const cutoff = new Date(payload.cutoff);
    const actor: TActor = payload.actor;
    let total = 0;
    for (const kind of payload.kinds) total += await countKind(db, customerId, kind, cutoff);
    await progress(0, total);
    const deleted: Record<string, number> = {};
    let done = 0;
    for (const kind of payload.kinds) {
      const def = KINDS[kind];
      deleted[kind] = 0;
      for (;;) {
        const n = await withTx(db, async (tx) => {
          const rows = await repo.lockPurgeBatch(tx, def, customerId, cutoff, PURGE_BATCH);
          if (rows.length === 0) return 0;
          const count = await def.purge(
            tx,
            customerId,
            rows.map((r) => r.id),
          );
          await writeAudit(tx, actor, {
            action: 'purge',
            entity: def.table,
            customerId,
            after: {
              job_id: job.id,
              kind,
              count,
              cutoff: payload.cutoff,
              ...(kind.endsWith('_logs') ? {} : { numbers: rows.map((r) => r.ref) }),
            },
          });
          return count;
        });
        if (n === 0) break;
        deleted[kind] += n;
        done += n;
        await progress(done, Math.max(total, done));
      }
    }
    return { cutoff: payload.cutoff, deleted };
  },
  { retryLimit: 2, expireInSeconds: 6 * 3600 },
);

/**
 * Queue a purge of this seller in the caller's transaction: one at a time per seller (PURGE_RUNNING), the seller's
 * row locked so two requests cannot both pass the check. The audit row names who asked (a user, or the schedule).
 */
export async function queuePurge(
  tx: Executor,
  queue: JobQueue,
  actor: TActor,
  customerId: string,
  input: { months: number; kinds: TRetentionKind[]; scheduled: boolean },
  scale = 1,
) {
  await lockCustomer(tx, customerId);
  if (await runningPurge(tx, customerId)) throw new AppError('PURGE_RUNNING');
  const cutoff = cutoffOf(input.months, scale).toISOString();
  const kinds = RETENTION_KINDS.filter((k) => input.kinds.includes(k));
  const job = await queue.enqueue(
    tx,
    retentionPurge,
    { actor, months: input.months, kinds, cutoff, scheduled: input.scheduled },
    { customerId, createdBy: actor.kind === 'user' ? actor.id : null },
  );
  await writeAudit(tx, actor, {
    action: input.scheduled ? 'purge_scheduled' : 'purge_requested',
    entity: 'database_clean',
    entityId: job.id,
    customerId,
    after: { months: input.months, kinds, cutoff },
  });
  return job;
}

/**
 * Daily at 04:15 Taipei time: every seller whose scheduled retention is on and whose last scheduled run is a month
 * ago (or never) gets a purge queued with their saved months and kinds. A seller with a purge already running is
 * skipped (tried again the next day). Fires once across processes.
 */
export const retentionSchedule = defineJob(
  'retention.schedule',
  z.object({}),
  async ({ db, queue }) => {
    const due = await repo.dueSchedules(db);
    let queued = 0;
    for (const s of due) {
      const kinds = RETENTION_KINDS.filter((k) => s.kinds.includes(k));
      const ok = await withTx(db, async (tx) => {
        try {
          const actor: TActor = { kind: 'system', id: null, customerId: s.customer_id };
          await queuePurge(tx, queue, actor, s.customer_id, { months: s.months, kinds, scheduled: true });
        } catch (err) {
          if (err instanceof AppError && err.code === 'PURGE_RUNNING') return false;
          throw err;
        }
        await repo.markScheduleRun(tx, s.customer_id);
        return true;
      });
      if (ok) queued++;
    }
    if (queued > 0) queue.kick(PURGE_JOB);
    return { due: due.length, queued };
  },
  { cron: { schedule: '15 4 * * *', tz: 'Asia/Taipei', payload: {} }, retryLimit: 3 },
);
