import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/**
 * An API setting of a seller (spec §3: name, kind, API key, callback URL, HTTP headers, order callback enabled,
 * user name, password, access token, refresh token). Two kinds:
 * - `partner`: the seller's own system calls our public API (`/api/v1/…`) with a key, and receives order callbacks.
 *   The key is random, shown once and stored only as a SHA-256 hash (`key_hash`); `key_prefix` names it on screens.
 * - `connection`: an outgoing connection to the seller's external system (user name, password, access/refresh token,
 *   token URL for the OAuth2 `refresh_token` grant) that callbacks can authenticate with instead of static headers.
 * Every secret (headers, signing secret, password, tokens) is AES-256-GCM encrypted with the app key.
 */
export const api_settings = pgTable(
  'api_settings',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    key_hash: text('key_hash'),
    key_prefix: text('key_prefix'),
    key_issued_at: timestamp('key_issued_at', { withTimezone: true }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    /** Requests per minute this key may make (429 with Retry-After beyond). */
    rate_limit_per_minute: integer('rate_limit_per_minute').notNull().default(120),
    /** What a partner key may do: read, orders or full (contracts API_SCOPES); keys made before scopes are full. */
    scope: text('scope').notNull().default('full'),
    callback_url: text('callback_url'),
    /** The partner's own HTTP headers for callbacks, as encrypted JSON. */
    http_headers_enc: text('http_headers_enc'),
    /** Header names (not values) kept to show without decrypting. */
    http_header_names: jsonb('http_header_names').$type<string[]>().notNull().default([]),
    order_callback_enabled: boolean('order_callback_enabled').notNull().default(false),
    callback_events: jsonb('callback_events').$type<string[]>().notNull().default([]),
    signing_secret_enc: text('signing_secret_enc'),
    /** A `connection` setting whose bearer token authenticates this setting's callbacks. */
    connection_id: uuid('connection_id').references((): AnyPgColumn => api_settings.id, { onDelete: 'set null' }),
    base_url: text('base_url'),
    token_url: text('token_url'),
    user_name: text('user_name'),
    password_enc: text('password_enc'),
    access_token_enc: text('access_token_enc'),
    refresh_token_enc: text('refresh_token_enc'),
    /** Last characters of each secret, to show it masked without decrypting. */
    secret_hints: jsonb('secret_hints').$type<Record<string, string>>().notNull().default({}),
    token_expires_at: timestamp('token_expires_at', { withTimezone: true }),
    last_test_at: timestamp('last_test_at', { withTimezone: true }),
    last_test_ok: boolean('last_test_ok'),
    last_test_message: text('last_test_message'),
    created_by: uuid('created_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_settings_customer_name_idx').on(t.customer_id, t.name),
    uniqueIndex('api_settings_key_hash_idx').on(t.key_hash),
    index('api_settings_customer_idx').on(t.customer_id, t.kind),
    check('api_settings_kind_check', sql`${t.kind} in ('partner', 'connection')`),
  ],
);

/** Counters of the rate limiter on PostgreSQL (rate-limiter-flexible's table layout), shared by every app process. */
export const rate_limits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Answers of the partner API's writes by `Idempotency-Key`, per API setting: the same key again gets the same
 * answer (and nothing is written twice); the same key with another request is refused.
 */
export const api_idempotency_keys = pgTable(
  'api_idempotency_keys',
  {
    setting_id: uuid('setting_id')
      .notNull()
      .references(() => api_settings.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Method, path and SHA-256 of the body: what the key was first used for. */
    request_hash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    /** The created row's id, answered again by reading it (its current state). */
    resource_id: uuid('resource_id').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.setting_id, t.key] })],
);

/**
 * What happened to a seller's orders that partners are called back about: written by a database trigger on
 * `outbound_orders` (creation, status change, consignment number) for sellers with order callbacks enabled, so no
 * code path that changes an order can forget it. The callbacks dispatcher turns them into outbox messages.
 */
export const order_events = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customer_id: uuid('customer_id').notNull(),
    order_id: uuid('order_id').notNull(),
    type: text('type').notNull(),
    order_number: text('order_number').notNull(),
    platform_order_number: text('platform_order_number'),
    status: text('status').notNull(),
    previous_status: text('previous_status'),
    consignment_number: text('consignment_number'),
    dispatched_at: timestamp('dispatched_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_pending_idx').on(t.customer_id, t.id).where(sql`${t.dispatched_at} is null`)],
);
