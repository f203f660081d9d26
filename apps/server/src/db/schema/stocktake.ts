import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { products } from './catalog';
import { storage_locations, warehouses } from './warehouse';

/**
 * A stocktake sheet (spec §3, §4): number, name, year, attribute, type and status. Type (what is counted, how many
 * rounds): full (every active location of the warehouse, up to three rounds), random (N locations or products drawn
 * at random, up to three rounds), first / review / third (chosen locations or products, at most one / two / three
 * rounds). Status: first → review → third → closed (each open round can also close the case), or cancelled.
 * Rules: stocktake.workflow.ts and apps/server/src/modules/stocktake/README.md.
 */
export const stocktakes = pgTable(
  'stocktakes',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    name: text('name').notNull(),
    year: integer('year').notNull(),
    attribute: text('attribute').notNull().default(''),
    type: text('type').notNull(),
    status: text('status').notNull().default('first'),
    /** What a sheet's scope is made of: locations (every product in them) or products (wherever they lie). */
    scope: text('scope').notNull().default('location'),
    /** Random sheets: how many locations or products were drawn. */
    sample_size: integer('sample_size'),
    remark: text('remark').notNull().default(''),
    /** When the current round began: a count's book quantity is never taken from before it. */
    round_started_at: timestamp('round_started_at', { withTimezone: true }).notNull().defaultNow(),
    created_by: uuid('created_by'),
    closed_at: timestamp('closed_at', { withTimezone: true }),
    closed_by: uuid('closed_by'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancelled_by: uuid('cancelled_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stocktakes_customer_number_key').on(t.customer_id, t.number),
    index('stocktakes_customer_status_idx').on(t.customer_id, t.status, t.created_at),
    check('stocktakes_type_check', sql`${t.type} in ('full', 'first', 'review', 'third', 'random')`),
    check('stocktakes_status_check', sql`${t.status} in ('first', 'review', 'third', 'closed', 'cancelled')`),
    check('stocktakes_scope_check', sql`${t.scope} in ('location', 'product')`),
    check('stocktakes_sample_size_check', sql`${t.sample_size} is null or ${t.sample_size} > 0`),
    check('stocktakes_year_check', sql`${t.year} between 2000 and 2999`),
  ],
);

/** A storage location on a sheet, and when it was counted in each round (a location is counted as a whole). */
export const stocktake_locations = pgTable(
  'stocktake_locations',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    stocktake_id: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => storage_locations.id),
    counted_1_at: timestamp('counted_1_at', { withTimezone: true }),
    counted_2_at: timestamp('counted_2_at', { withTimezone: true }),
    counted_3_at: timestamp('counted_3_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stocktake_locations_sheet_location_key').on(t.stocktake_id, t.location_id),
    index('stocktake_locations_location_idx').on(t.customer_id, t.location_id),
  ],
);

/** The products of a product-scoped sheet: only these are counted in its locations. */
export const stocktake_products = pgTable(
  'stocktake_products',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    stocktake_id: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    ...timestamps,
  },
  (t) => [uniqueIndex('stocktake_products_sheet_product_key').on(t.stocktake_id, t.product_id)],
);

/**
 * A line of a sheet: one pile (location, product, lot). Per round r: `count_r` (what was counted), `book_r` (the
 * ledger's on_hand of that pile at the moment the location was scanned) and when. `last_round` is the last round
 * the line takes part in: a line goes on to the next round only while its count differs from its book. At close,
 * `variance` = count − book of its last round is posted as a stocktake adjustment; `on_hand_after` is the pile's
 * on_hand right after that posting.
 */
export const stocktake_lines = pgTable(
  'stocktake_lines',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    stocktake_id: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => storage_locations.id),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    expiry_date: date('expiry_date'),
    /** on_hand when the line joined the sheet (informational; counts compare with book_r). */
    book_initial: integer('book_initial').notNull().default(0),
    last_round: integer('last_round').notNull().default(1),
    count_1: integer('count_1'),
    book_1: integer('book_1'),
    counted_1_at: timestamp('counted_1_at', { withTimezone: true }),
    counted_1_by: uuid('counted_1_by'),
    count_2: integer('count_2'),
    book_2: integer('book_2'),
    counted_2_at: timestamp('counted_2_at', { withTimezone: true }),
    counted_2_by: uuid('counted_2_by'),
    count_3: integer('count_3'),
    book_3: integer('book_3'),
    counted_3_at: timestamp('counted_3_at', { withTimezone: true }),
    counted_3_by: uuid('counted_3_by'),
    variance: integer('variance'),
    on_hand_after: integer('on_hand_after'),
    ...timestamps,
  },
  (t) => [
    unique('stocktake_lines_key').on(t.stocktake_id, t.location_id, t.product_id, t.expiry_date).nullsNotDistinct(),
    index('stocktake_lines_sheet_round_idx').on(t.stocktake_id, t.last_round),
    index('stocktake_lines_product_idx').on(t.customer_id, t.product_id),
    check('stocktake_lines_last_round_check', sql`${t.last_round} between 1 and 3`),
    check(
      'stocktake_lines_counts_check',
      sql`coalesce(${t.count_1}, 0) >= 0 and coalesce(${t.count_2}, 0) >= 0 and coalesce(${t.count_3}, 0) >= 0
        and coalesce(${t.book_1}, 0) >= 0 and coalesce(${t.book_2}, 0) >= 0 and coalesce(${t.book_3}, 0) >= 0`,
    ),
  ],
);
