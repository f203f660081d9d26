import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';

/** Audit trail: who did what, with before/after, written in the same transaction as the change. */
export const audit_logs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customer_id: uuid('customer_id'),
    actor_type: text('actor_type').notNull(),
    actor_id: uuid('actor_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entity_id: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_logs_customer_entity_idx').on(t.customer_id, t.entity, t.entity_id)],
);

/** Per-customer document number sequences (e.g. IN202611220001), locked in the writing transaction. */
export const doc_sequences = pgTable(
  'doc_sequences',
  {
    customer_id: uuid('customer_id').notNull(),
    prefix: text('prefix').notNull(),
    day: text('day').notNull(),
    last_value: integer('last_value').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customer_id, t.prefix, t.day] })],
);

/** Long work (imports, exports, callbacks) as rows claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    customer_id: uuid('customer_id'),
    kind: text('kind').notNull(),
    state: text('state').notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    total: integer('total').notNull().default(0),
    payload: jsonb('payload'),
    result: jsonb('result'),
    error: jsonb('error'),
    attempts: integer('attempts').notNull().default(0),
    created_by: uuid('created_by'),
    locked_at: timestamp('locked_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('jobs_state_idx').on(t.state, t.created_at),
    check('jobs_state_check', sql`${t.state} in ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** An uploaded file a job works on (imports); deleted with its job. */
export const job_files = pgTable('job_files', {
  job_id: uuid('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  file_name: text('file_name').notNull(),
  content: bytea('content').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
