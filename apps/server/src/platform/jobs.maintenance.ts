import { z } from 'zod';
import { defineJob } from './jobs';
import { deleteOldPlatformRows } from './maintenance.repository';

/** How long finished job rows (and their attempt logs) are kept for the screens. */
export const JOB_RETENTION_DAYS = 30;

/**
 * Daily clean-up at 03:30 Taipei time: finished job rows, delivered outbox messages and outside-call attempts
 * older than the retention are deleted (pg-boss archives and deletes its own rows). Fires once across processes.
 */
export const jobRetention = defineJob(
  'platform.job-retention',
  z.object({ days: z.number().int().min(1) }),
  async ({ db, payload }) => deleteOldPlatformRows(db, payload.days),
  { cron: { schedule: '30 3 * * *', tz: 'Asia/Taipei', payload: { days: JOB_RETENTION_DAYS } }, retryLimit: 3 },
);
