import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers, users } from './account';
import { outbound_orders } from './outbound';
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
    /**
     * A convenience-store chain (ECPay's chain code: UNIMART, FAMI, HILIFE, OKMART) whose parcels this carrier picks up
     * at its own time; '' for the carrier's cut-off of every other parcel. An order delivered to a store of a chain takes
     * the chain's cut-off when there is one, else the carrier's.
     */
    cvs_chain: text('cvs_chain').notNull().default(''),
    cutoff_time: text('cutoff_time').notNull(),
    pickup_time: text('pickup_time').notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.warehouse_id, t.logistics_provider_id, t.cvs_chain] }),
    check('ship_cutoffs_cvs_chain_check', sql`${t.cvs_chain} in ('', 'UNIMART', 'FAMI', 'HILIFE', 'OKMART')`),
  ],
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

/**
 * A carrier's pick-up at a warehouse (the handover scan): parcels are scanned into the open manifest, closing it hands
 * them over. At most one open manifest per warehouse and carrier.
 */
export const ship_manifests = pgTable(
  'ship_manifests',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    logistics_provider_id: uuid('logistics_provider_id')
      .notNull()
      .references(() => logistics_providers.id),
    number: text('number').notNull(),
    /** `open` (scanning) or `closed` (handed over). */
    status: text('status').notNull().default('open'),
    closed_at: timestamp('closed_at', { withTimezone: true }),
    created_by: uuid('created_by').references(() => users.id),
    closed_by: uuid('closed_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('ship_manifests_customer_number_key').on(t.customer_id, t.number),
    uniqueIndex('ship_manifests_one_open_key')
      .on(t.customer_id, t.warehouse_id, t.logistics_provider_id)
      .where(sql`${t.status} = 'open'`),
    index('ship_manifests_customer_created_idx').on(t.customer_id, t.created_at),
  ],
);

/** A parcel (an order) scanned into a manifest; an order is in one manifest at most (the primary key). */
export const ship_manifest_parcels = pgTable(
  'ship_manifest_parcels',
  {
    order_id: uuid('order_id')
      .primaryKey()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    manifest_id: uuid('manifest_id')
      .notNull()
      .references(() => ship_manifests.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    /** What was scanned (tracking or order number). */
    scanned_code: text('scanned_code').notNull(),
    scanned_at: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
    scanned_by: uuid('scanned_by').references(() => users.id),
  },
  (t) => [index('ship_manifest_parcels_manifest_idx').on(t.manifest_id)],
);
