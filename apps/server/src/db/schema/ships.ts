import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { customers } from './account';
import { logistics_providers } from './partners';
import { warehouses } from './warehouse';

/**
 * Ship-by promises (issue #36, module `ships`): a warehouse's daily cut-off and pick-up time per carrier, its holidays,
 * and the seller's promise to buyers. Times are Asia/Taipei wall-clock `HH:MM`.
 */

/** A carrier's daily cut-off (orders before it leave that day) and pick-up time at one warehouse, on working days. */
export const ship_cutoffs = pgTable(
  'ship_cutoffs',
  {
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id, { onDelete: 'cascade' }),
    logistics_provider_id: uuid('logistics_provider_id')
      .notNull()
      .references(() => logistics_providers.id, { onDelete: 'cascade' }),
    cutoff_time: text('cutoff_time').notNull(),
    pickup_time: text('pickup_time').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.warehouse_id, t.logistics_provider_id] })],
);

/** The weekdays a warehouse ships on (0 Sunday … 6 Saturday); without a row, Monday to Friday. */
export const warehouse_ship_days = pgTable('warehouse_ship_days', {
  warehouse_id: uuid('warehouse_id')
    .primaryKey()
    .references(() => warehouses.id, { onDelete: 'cascade' }),
  customer_id: uuid('customer_id')
    .notNull()
    .references(() => customers.id),
  weekdays: integer('weekdays').array().notNull(),
  ...timestamps,
});

/** A day a warehouse does not ship although it is one of its working weekdays (a national holiday). */
export const warehouse_holidays = pgTable(
  'warehouse_holidays',
  {
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.warehouse_id, t.day] })],
);

/** The seller's promise: `same_day` when ordered before `before_time` (and the carrier's cut-off), or `next_day`. */
export const seller_ship_slas = pgTable('seller_ship_slas', {
  customer_id: uuid('customer_id')
    .primaryKey()
    .references(() => customers.id),
  kind: text('kind').notNull(),
  before_time: text('before_time'),
  ...timestamps,
});
