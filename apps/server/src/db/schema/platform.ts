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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, id, timestamps } from './_columns';

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

/**
 * What the web app sees of a background job (pg-boss holds the queue; same id): state, progress, result or error,
 * attempts, and the heartbeat (`locked_at`) that finds a job whose process died.
 */
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
    check('jobs_state_check', sql`${t.state} in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`),
  ],
);

/**
 * The period (the schedule's tick) each firing of a cron job belongs to, and the job that runs it: a schedule fired
 * twice for one tick (a send retried across a restart) runs once. Kept as long as finished jobs.
 */
export const cron_periods = pgTable(
  'cron_periods',
  {
    kind: text('kind').notNull(),
    period: timestamp('period', { withTimezone: true }).notNull(),
    job_id: uuid('job_id').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.period] })],
);

/** An uploaded file a job works on (imports); deleted with its job. */
export const job_files = pgTable('job_files', {
  job_id: uuid('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  file_name: text('file_name').notNull(),
  content: bytea('content').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every outgoing HTTP call to an outside system (payment, marketplace, carrier, a partner's callback URL): one row
 * per attempt, secrets masked, bodies cut at 16 kB, so screens can show what was sent and answered.
 */
export const integration_attempts = pgTable(
  'integration_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customer_id: uuid('customer_id'),
    provider: text('provider').notNull(),
    operation: text('operation').notNull(),
    /** What the call was for (an outbox message id, an order number, …). */
    reference: text('reference'),
    attempt: integer('attempt').notNull().default(1),
    method: text('method').notNull(),
    url: text('url').notNull(),
    request_headers: jsonb('request_headers'),
    request_body: text('request_body'),
    status: integer('status'),
    response_body: text('response_body'),
    /** Transport failure (timeout, refused, target not allowed); null when an HTTP answer came back. */
    error: text('error'),
    duration_ms: integer('duration_ms').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_attempts_customer_idx').on(t.customer_id, t.created_at.desc()),
    index('integration_attempts_reference_idx').on(t.reference),
  ],
);

/**
 * Transactional outbox: a use case that must call an outside system writes its change and a message here in one
 * transaction; the `outbox.deliver` job makes the call, records the answer and retries with back-off.
 */
export const outbox_messages = pgTable(
  'outbox_messages',
  {
    id: id(),
    customer_id: uuid('customer_id'),
    topic: text('topic').notNull(),
    payload: jsonb('payload').notNull(),
    /** Sent to the other side where it supports one (Idempotency-Key); unique, so a message is written once. */
    idempotency_key: text('idempotency_key').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    result: jsonb('result'),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    /**
     * Messages with the same key are delivered one after another in the order written (e.g. one order's callbacks
     * to one URL): only the oldest pending message of a key has a delivery job; finishing it queues the next.
     */
    ordering_key: text('ordering_key'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('outbox_messages_idempotency_key_idx').on(t.idempotency_key),
    index('outbox_messages_ordering_idx').on(t.ordering_key, t.created_at),
    index('outbox_messages_customer_idx').on(t.customer_id, t.created_at),
    check('outbox_messages_state_check', sql`${t.state} in ('pending', 'delivered', 'failed')`),
  ],
);

/** A WAL position (PostgreSQL's `pg_lsn`), as its text `16/B374D848`. */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => 'pg_lsn' });

/**
 * Read-your-writes with a streaming replica (db/replica.ts): per writer scope (`c:<seller id>`, `u:<user id>`), the
 * primary's WAL insert position after its latest write. A read of that scope goes to the replica only once the
 * replica has replayed up to it. UNLOGGED (hand-written in the migration): a mark is worth nothing after a crash of
 * the primary, and its writes cost no WAL — nor reach the replica, which never reads it.
 */
export const read_marks = pgTable('read_marks', {
  scope: text('scope').primaryKey(),
  lsn: pgLsn('lsn').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
