import { errorMessage, type TErrorCode, type TImportRowError, type TJob, type TLanguage } from '@wms/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { enqueueJob, type JobRunner, type TJobRow } from '../../platform/jobs';

/** Largest accepted upload (the decoded .xlsx). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Row errors kept on a rejected job (the count says how many there were in all). */
const MAX_REPORTED_ERRORS = 500;

export interface TRowIssue {
  /** The sheet row (null when the change did not come from a file). */
  row: number | null;
  field: string | null;
  code: TErrorCode;
  params?: Record<string, unknown>;
}

/** zod issues of one row → row issues (missing → REQUIRED_FIELD, anything else INVALID_FIELD), named by field. */
export function zodRowIssues(row: number, error: z.ZodError): TRowIssue[] {
  return error.issues.map((i) => {
    const field = i.path.length ? i.path.map(String).join('.') : null;
    const missing =
      (i.code === 'invalid_type' && i.input === undefined) ||
      (i.code === 'too_small' && i.origin === 'string' && Number(i.minimum) === 1);
    return { row, field, code: missing ? 'REQUIRED_FIELD' : 'INVALID_FIELD' };
  });
}

/** Reject the whole file: the job fails with IMPORT_REJECTED and the row errors, rendered in the uploader's language. */
export function rejectImport(issues: TRowIssue[], lang: TLanguage): never {
  const sorted = [...issues].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  const errors: TImportRowError[] = sorted.slice(0, MAX_REPORTED_ERRORS).map((i) => ({
    row: i.row ?? 0,
    field: i.field,
    code: i.code,
    message: `${errorMessage(i.code, lang, { field: i.field ?? '', ...i.params })}`,
  }));
  throw new AppError('IMPORT_REJECTED', { count: issues.length, errors });
}

/** Decode an uploaded base64 .xlsx (size-checked). */
export function decodeUpload(base64: string): Buffer {
  const content = Buffer.from(base64, 'base64');
  if (content.length === 0) throw new AppError('REQUIRED_FIELD', { field: 'file_base64' });
  if (content.length > IMPORT_MAX_BYTES) throw new AppError('BODY_TOO_LARGE', { field: 'file_base64' });
  // An .xlsx is a zip: refuse anything else before it reaches the job.
  if (content[0] !== 0x50 || content[1] !== 0x4b) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  return content;
}

export function toJob(job: TJobRow): TJob {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state as TJob['state'],
    progress: job.progress,
    total: job.total,
    result: job.result ?? null,
    error: (job.error as TJob['error']) ?? null,
    created_at: job.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
  };
}

/**
 * Queue an import: the file is stored with the job in one transaction (with its audit row), then the runner is
 * kicked. The web app polls GET /api/jobs/:id/ for progress; the job writes everything or nothing.
 */
export async function queueImport(
  deps: { db: Db; jobs: JobRunner },
  actor: TActor,
  kind: string,
  upload: { file_base64: string; filename?: string },
  lang: TLanguage,
): Promise<TJob> {
  const customerId = tenantOf(actor);
  const content = decodeUpload(upload.file_base64);
  const job = await withTx(deps.db, async (tx) => {
    const row = await enqueueJob(tx, {
      customerId,
      kind,
      payload: { lang, actor },
      createdBy: actor.id,
      file: { name: upload.filename ?? 'import.xlsx', content },
    });
    await writeAudit(tx, actor, {
      action: 'import_requested',
      entity: 'job',
      entityId: row.id,
      after: { kind, filename: upload.filename ?? null, bytes: content.length },
    });
    return row;
  });
  deps.jobs.kick();
  return toJob(job);
}

/** The uploader's language and identity, saved on the job when it was queued. */
export function jobPayload(job: TJobRow): { lang: TLanguage; actor: TActor } {
  const p = job.payload as { lang: TLanguage; actor: TActor };
  return { lang: p.lang, actor: p.actor };
}
