import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/**
 * Usage billing (issue #35): what the warehouse charges a seller for the work it did.
 *
 * A rate card prices each charge kind (`rates`: kind → TWD per unit before tax, decimal strings) from `valid_from` (a
 * day in Asia/Taipei) until the next card of the same owner. `customer_id` null: the operator's default card, which
 * applies to a seller until the seller's own first card. One card per owner and day.
 */
export const usage_rate_cards = pgTable(
  'usage_rate_cards',
  {
    id: id(),
    customer_id: uuid('customer_id').references(() => customers.id),
    valid_from: date('valid_from', { mode: 'string' }).notNull(),
    rates: jsonb('rates').$type<Record<string, string>>().notNull(),
    tax_rate: numeric('tax_rate', { precision: 6, scale: 4 }).notNull().default('0.05'),
    /** Days after receipt a unit is stored free (the storage kinds charge only units received longer ago). */
    storage_free_days: integer('storage_free_days').notNull().default(0),
    note: text('note').notNull().default(''),
    updated_by: uuid('updated_by'),
    ...timestamps,
  },
  (t) => [unique('usage_rate_cards_owner_day').on(t.customer_id, t.valid_from).nullsNotDistinct()],
);

/**
 * A billable event: one charge kind caused by one piece of work (a confirmed receipt, a shipped order), priced by the
 * card valid on the work's day (price and card copied: a later card never changes it). Immutable. Written by the
 * usage module's subscribers to the work's domain event, once per source document and kind (the unique index makes a
 * redelivered event add nothing).
 */
export const usage_charges = pgTable(
  'usage_charges',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind').notNull(),
    /** The work's document: inbound_receipt | outbound_order. */
    source_type: text('source_type').notNull(),
    source_id: uuid('source_id').notNull(),
    document_number: text('document_number').notNull(),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The work's day in Asia/Taipei (the card and the month it belongs to). */
    day: date('day', { mode: 'string' }).notNull(),
    quantity: integer('quantity').notNull(),
    unit_price: numeric('unit_price', { precision: 14, scale: 4 }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 4 }).notNull(),
    rate_card_id: uuid('rate_card_id')
      .notNull()
      .references(() => usage_rate_cards.id),
    /**
     * The order charges were recorded in (a sequence): a statement bills its seller's charges of its month up to its
     * `billed_through`. Nothing is written to a charge when it is billed — issuing a month of 350,000 events marked each
     * one, seconds of row updates (bench `statements`, 2026-11-28).
     */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    /**
     * A correction (source_type `correction`, staff answering a dispute): the event it corrects. Its quantity and
     * amount are the difference (negative to credit); the corrected event stays as it was.
     */
    corrects_id: uuid('corrects_id').references((): AnyPgColumn => usage_charges.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_charges_source_kind').on(t.source_type, t.source_id, t.kind),
    // A month's events in drill-down order (all kinds; one kind), `seq` last: the billed ones counted from the index.
    index('usage_charges_customer_day').on(t.customer_id, t.day, t.occurred_at, t.document_number, t.kind, t.seq),
    index('usage_charges_customer_kind_day').on(t.customer_id, t.kind, t.day, t.occurred_at, t.document_number, t.seq),
    index('usage_charges_corrects').on(t.corrects_id),
    check('usage_charges_quantity_check', sql`${t.quantity} > 0 or ${t.corrects_id} is not null`),
    check('usage_charges_amount_check', sql`${t.amount} >= 0 or ${t.corrects_id} is not null`),
  ],
);

/**
 * The daily storage snapshot has run for a warehouse and day (Asia/Taipei): written in the transaction that records
 * the day's snapshots and charges, so a day is recorded once (a re-run or a second process adds nothing).
 */
export const usage_snapshot_runs = pgTable(
  'usage_snapshot_runs',
  {
    warehouse_id: uuid('warehouse_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sellers: integer('sellers').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.warehouse_id, t.day] })],
);

/**
 * What one seller stored in one warehouse at the end of one day (Asia/Taipei), from the stock ledger: locations
 * holding its stock, units, volume in litres (product dimensions; a product without them counts 0); and the part
 * charged (units received more than the card's free days before). The document of the storage charges.
 */
export const usage_storage_snapshots = pgTable(
  'usage_storage_snapshots',
  {
    id: id(),
    warehouse_id: uuid('warehouse_id').notNull(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    day: date('day', { mode: 'string' }).notNull(),
    locations: integer('locations').notNull(),
    units: integer('units').notNull(),
    litres: integer('litres').notNull(),
    charged_locations: integer('charged_locations').notNull(),
    charged_units: integer('charged_units').notNull(),
    charged_litres: integer('charged_litres').notNull(),
    free_days: integer('free_days').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_storage_snapshots_key').on(t.warehouse_id, t.customer_id, t.day),
    index('usage_storage_snapshots_customer_day').on(t.customer_id, t.day),
  ],
);

/**
 * A seller's statement of one month: issued (numbered; its lines and totals frozen, its charges the month's up to
 * `billed_through`) → paid (staff mark a bank transfer) or void (with a reason; the month can then be issued again).
 * At most one statement of a seller and month is not void (the partial unique index): two parallel issues make one.
 */
export const usage_statements = pgTable(
  'usage_statements',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    month: text('month').notNull(),
    number: text('number').notNull(),
    status: text('status').notNull(),
    /** The frozen lines: kind, events, quantity, amount (decimal strings), in kind order. */
    lines: jsonb('lines').$type<Array<{ kind: string; events: number; quantity: number; amount: string }>>().notNull(),
    subtotal: numeric('subtotal', { precision: 16, scale: 4 }).notNull(),
    minimum_fee: numeric('minimum_fee', { precision: 16, scale: 4 }).notNull(),
    tax_rate: numeric('tax_rate', { precision: 6, scale: 4 }).notNull(),
    tax: numeric('tax', { precision: 16, scale: 4 }).notNull(),
    total: numeric('total', { precision: 16, scale: 4 }).notNull(),
    /**
     * The last charge (`seq`) it bills: its seller's charges of its month recorded up to its issue (taken under the
     * seller's charge lock, so none recorded before it is still uncommitted). A void statement bills nothing.
     */
    billed_through: bigint('billed_through', { mode: 'number' }).notNull().default(0),
    issued_at: timestamp('issued_at', { withTimezone: true }).notNull(),
    issued_by: uuid('issued_by'),
    paid_at: timestamp('paid_at', { withTimezone: true }),
    paid_by: uuid('paid_by'),
    payment_note: text('payment_note').notNull().default(''),
    voided_at: timestamp('voided_at', { withTimezone: true }),
    voided_by: uuid('voided_by'),
    void_reason: text('void_reason').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('usage_statements_month_open').on(t.customer_id, t.month).where(sql`${t.status} <> 'void'`),
    uniqueIndex('usage_statements_number').on(t.customer_id, t.number),
    index('usage_statements_month').on(t.month),
    check('usage_statements_status_check', sql`${t.status} in ('issued', 'paid', 'void')`),
  ],
);

/**
 * A seller's dispute of a statement line (issue #35): one line (kind), optionally one of its events, the seller's
 * reason, and the support request filed with it (support_tickets). The staff answer with a correction (a new charge
 * event referencing the disputed one: `correction_id`) or reject it with a reason.
 */
export const usage_disputes = pgTable(
  'usage_disputes',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    statement_id: uuid('statement_id')
      .notNull()
      .references(() => usage_statements.id),
    kind: text('kind').notNull(),
    event_id: uuid('event_id').references(() => usage_charges.id),
    ticket_id: uuid('ticket_id').notNull(),
    reason: text('reason').notNull(),
    /** open → corrected (a correction event) or rejected (with the staff's answer). */
    status: text('status').notNull().default('open'),
    answer: text('answer').notNull().default(''),
    correction_id: uuid('correction_id').references(() => usage_charges.id),
    created_by: uuid('created_by'),
    resolved_by: uuid('resolved_by'),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('usage_disputes_statement').on(t.statement_id),
    check('usage_disputes_status_check', sql`${t.status} in ('open', 'corrected', 'rejected')`),
  ],
);
