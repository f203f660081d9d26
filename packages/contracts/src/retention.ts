import { z } from 'zod';
import { ZJob } from './jobs';
import { defineRoutes } from './routes';

/**
 * /database-clean (spec §2.2, §9): a seller's admin purges finished documents and logs older than a retention
 * period — previewed with counts, exportable first, confirmed by typing the company name, run as a job in batches.
 */
export const RETENTION_MONTHS = [3, 6, 12, 24] as const;
export const DEFAULT_RETENTION_MONTHS = 12;
/**
 * What can be purged: closed/cancelled outbound orders, confirmed inbound receipts, confirmed return receipts,
 * closed/cancelled stocktakes, finished job rows, outside-call attempt logs.
 */
export const RETENTION_KINDS = [
  'outbound_orders',
  'inbound_receipts',
  'return_receipts',
  'stocktakes',
  'job_logs',
  'attempt_logs',
] as const;
export type TRetentionKind = (typeof RETENTION_KINDS)[number];

const ZMonths = z.coerce
  .number()
  .int()
  .refine((n) => (RETENTION_MONTHS as readonly number[]).includes(n), { message: 'months: 3, 6, 12 or 24' });

export const ZRetentionQuery = z.object({ months: ZMonths.default(DEFAULT_RETENTION_MONTHS) });
export type TRetentionQuery = z.infer<typeof ZRetentionQuery>;

export const ZRetentionExportQuery = ZRetentionQuery.extend({ kind: z.enum(RETENTION_KINDS) });
export type TRetentionExportQuery = z.infer<typeof ZRetentionExportQuery>;

export const ZRetentionPreview = z.object({
  months: z.number().int(),
  /** Rows finished before this instant are purged. */
  cutoff: z.string(),
  counts: z.array(z.object({ kind: z.enum(RETENTION_KINDS), count: z.number().int() })),
  /** The purge of this seller queued or running now, if any (the screen follows its progress). */
  running_job: ZJob.nullable(),
});
export type TRetentionPreview = z.infer<typeof ZRetentionPreview>;

export const ZPurgeRequest = z.strictObject({
  months: z
    .number()
    .int()
    .refine((n) => (RETENTION_MONTHS as readonly number[]).includes(n)),
  kinds: z.array(z.enum(RETENTION_KINDS)).min(1).max(RETENTION_KINDS.length),
  /** Must equal the company name exactly (leading/trailing spaces ignored). */
  confirm_name: z.string().max(200),
});
export type TPurgeRequest = z.infer<typeof ZPurgeRequest>;

export const ZRetentionSettings = z.object({
  schedule_enabled: z.boolean(),
  months: z.number().int(),
  kinds: z.array(z.enum(RETENTION_KINDS)),
  last_run_at: z.string().nullable(),
});
export type TRetentionSettings = z.infer<typeof ZRetentionSettings>;

export const ZUpdateRetentionSettings = z.strictObject({
  schedule_enabled: z.boolean(),
  months: z
    .number()
    .int()
    .refine((n) => (RETENTION_MONTHS as readonly number[]).includes(n)),
  kinds: z.array(z.enum(RETENTION_KINDS)).min(1).max(RETENTION_KINDS.length),
});
export type TUpdateRetentionSettings = z.infer<typeof ZUpdateRetentionSettings>;

/** What a finished purge job reports (`job.result`): rows deleted per kind. */
export const ZPurgeResult = z.object({
  cutoff: z.string(),
  deleted: z.record(z.string(), z.number().int()),
});
export type TPurgeResult = z.infer<typeof ZPurgeResult>;

export const retentionRoutes = defineRoutes({
  previewRetention: {
    method: 'GET',
    path: '/api/database-clean/preview/',
    auth: 'customer',
    perm: 'users:read',
    query: ZRetentionQuery,
    response: ZRetentionPreview,
  },
  exportRetention: {
    method: 'GET',
    path: '/api/database-clean/export/',
    auth: 'customer',
    perm: 'users:read',
    query: ZRetentionExportQuery,
    response: z.unknown(),
  },
  purgeRetention: {
    method: 'POST',
    path: '/api/database-clean/purge/',
    auth: 'customer',
    perm: 'users:write',
    body: ZPurgeRequest,
    response: ZJob,
  },
  getRetentionSettings: {
    method: 'GET',
    path: '/api/database-clean/settings/',
    auth: 'customer',
    perm: 'users:read',
    response: ZRetentionSettings,
  },
  updateRetentionSettings: {
    method: 'PUT',
    path: '/api/database-clean/settings/',
    auth: 'customer',
    perm: 'users:write',
    body: ZUpdateRetentionSettings,
    response: ZRetentionSettings,
  },
});
