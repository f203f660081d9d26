import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_charges_source_kind').on(t.source_type, t.source_id, t.kind),
    index('usage_charges_customer_day').on(t.customer_id, t.day),
    check('usage_charges_quantity_check', sql`${t.quantity} > 0`),
    check('usage_charges_amount_check', sql`${t.amount} >= 0`),
  ],
);
