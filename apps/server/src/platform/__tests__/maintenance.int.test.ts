import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, outbox_messages } from '../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../test/harness';
import { JOB_RETENTION_DAYS } from '../jobs.maintenance';
import { deleteOldPlatformRows } from '../maintenance.repository';

/** The daily clean-up (`platform.job-retention`) deletes only finished rows older than the retention. */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
});
afterAll(() => ctx?.close());

describe('platform clean-up', () => {
  it(`deletes finished jobs and delivered messages past the retention, keeps the rest (${TEST_ENGINE})`, async () => {
    const db = ctx.deps.database.db;
    const old = new Date(Date.now() - (JOB_RETENTION_DAYS + 1) * 86_400_000);
    const recent = new Date(Date.now() - 86_400_000);
    const made = await db
      .insert(jobs)
      .values([
        { kind: 'test.old-finished', state: 'succeeded', finished_at: old },
        { kind: 'test.old-failed', state: 'failed', finished_at: old },
        { kind: 'test.recent-finished', state: 'succeeded', finished_at: recent },
        { kind: 'test.old-running', state: 'running', finished_at: null, created_at: old },
      ])
      .returning({ id: jobs.id, kind: jobs.kind });
    const messages = await db
      .insert(outbox_messages)
      .values([
        { topic: 'test', payload: {}, idempotency_key: 'm-old-delivered', state: 'delivered', delivered_at: old },
        { topic: 'test', payload: {}, idempotency_key: 'm-recent-delivered', state: 'delivered', delivered_at: recent },
        { topic: 'test', payload: {}, idempotency_key: 'm-old-pending', state: 'pending', created_at: old },
      ])
      .returning({ id: outbox_messages.id, key: outbox_messages.idempotency_key });

    const counts = await deleteOldPlatformRows(db, JOB_RETENTION_DAYS);

    expect(counts).toMatchObject({ jobs: 2, outbox: 1 });
    const jobsLeft = await db
      .select({ kind: jobs.kind })
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          made.map((m) => m.id),
        ),
      );
    expect(jobsLeft.map((j) => j.kind).sort()).toEqual(['test.old-running', 'test.recent-finished']);
    const messagesLeft = await db
      .select({ key: outbox_messages.idempotency_key })
      .from(outbox_messages)
      .where(
        inArray(
          outbox_messages.id,
          messages.map((m) => m.id),
        ),
      );
    expect(messagesLeft.map((m) => m.key).sort()).toEqual(['m-old-pending', 'm-recent-delivered']);
  });
});
