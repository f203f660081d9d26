import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers, users } from './account';

/**
 * A seller's support ticket (spec §2.2 support: /user-help, /bug, /request): a help question, a bug report or a
 * feature request, with its status and a thread of replies. Employees triage them on /crm/board.
 */
export const support_tickets = pgTable(
  'support_tickets',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull().default(''),
    /** Bug reports: the steps, the screen the seller came from and the app version it ran. */
    steps: text('steps').notNull().default(''),
    screen: text('screen').notNull().default(''),
    app_version: text('app_version').notNull().default(''),
    /** Bug reports: an optional screenshot as a `data:image/…;base64,` URL (PNG, JPEG or WebP, checked by its bytes). */
    screenshot: text('screenshot'),
    status: text('status').notNull().default('new'),
    created_by: uuid('created_by')
      .notNull()
      .references(() => users.id),
    last_reply_at: timestamp('last_reply_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('support_tickets_customer_idx').on(t.customer_id, t.created_at),
    index('support_tickets_status_idx').on(t.status, t.created_at),
    check('support_tickets_kind_check', sql`${t.kind} in ('help', 'bug', 'request')`),
    check('support_tickets_status_check', sql`${t.status} in ('new', 'in_progress', 'waiting', 'done')`),
  ],
);

/** One message of a ticket's thread: from the seller or from the operator's staff. */
export const support_replies = pgTable(
  'support_replies',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    ticket_id: uuid('ticket_id')
      .notNull()
      .references(() => support_tickets.id),
    author_side: text('author_side').notNull(),
    author_id: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    ...timestamps,
  },
  (t) => [
    index('support_replies_ticket_idx').on(t.ticket_id, t.created_at),
    check('support_replies_side_check', sql`${t.author_side} in ('seller', 'staff')`),
  ],
);

/** The operator's notice (no tenant: written by employees, shown to all sellers or to the chosen ones). */
export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    title: text('title').notNull(),
    /** Markdown (rendered by the web app's Markdown reader, raw HTML off). */
    body: text('body').notNull().default(''),
    audience: text('audience').notNull().default('all'),
    starts_at: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    ends_at: timestamp('ends_at', { withTimezone: true }),
    pinned: boolean('pinned').notNull().default(false),
    created_by: uuid('created_by')
      .notNull()
      .references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('announcements_window_idx').on(t.starts_at),
    check('announcements_audience_check', sql`${t.audience} in ('all', 'chosen')`),
  ],
);

/** The sellers an announcement with audience `chosen` is for. */
export const announcement_targets = pgTable(
  'announcement_targets',
  {
    announcement_id: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (t) => [
    primaryKey({ columns: [t.announcement_id, t.customer_id] }),
    index('announcement_targets_customer_idx').on(t.customer_id),
  ],
);

/** A seller's acknowledgement of an announcement (one per seller company; who and when). */
export const announcement_acks = pgTable(
  'announcement_acks',
  {
    announcement_id: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id),
    acked_at: timestamp('acked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.announcement_id, t.customer_id] }),
    index('announcement_acks_customer_idx').on(t.customer_id),
  ],
);
