import { z } from 'zod';
import { ZIdParams } from './common';
import { defineRoutes } from './routes';

/** queued (also: waiting for a retry, with the last error), running, and the three ends. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** A long-running job (import, export) as the web app polls it for its progress bar. */
export const ZJob = z.object({
  id: z.uuid(),
  kind: z.string(),
  state: z.enum(JOB_STATES),
  progress: z.number().int(),
  total: z.number().int(),
  result: z.unknown().nullable(),
  error: z
    .object({ code: z.string(), message: z.string().optional(), params: z.record(z.string(), z.unknown()).optional() })
    .nullable(),
  /** Runs so far (a failed run is retried with growing delays). */
  attempts: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TJob = z.infer<typeof ZJob>;

export const jobRoutes = defineRoutes({
  getJob: {
    method: 'GET',
    path: '/api/jobs/:id/',
    auth: 'customer',
    perm: 'self',
    params: ZIdParams,
    response: ZJob,
    tenantScoped: true,
  },
  /** Cancel a queued or running job (a running import rolls back at its next progress report). */
  cancelJob: {
    method: 'POST',
    path: '/api/jobs/:id/cancel/',
    auth: 'customer',
    perm: 'self',
    params: ZIdParams,
    response: ZJob,
    tenantScoped: true,
  },
});
