import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { products } from './catalog';
import { storage_locations, warehouses } from './warehouse';

/** Why stock moved. Kept in step with `STOCK_REASONS` in packages/contracts/src/stock.ts. */
export const STOCK_REASON_VALUES = [
  'inbound',
  'inbound_cancel',
  'outbound',
  'outbound_cancel',
  'return',
  'return_cancel',
  'return_to_supplier',
  'transfer',
  'expiry_transfer',
  'adjust',
  'stocktake',
] as const;

const reasonList = sql.raw(STOCK_REASON_VALUES.map((r) => `'${r}'`).join(', '));

/**
 * One pile of stock: a seller's product in one storage location, one lot. The lot of a shelf-life product is its
 * expiry date; other products have one lot (expiry null). Written only by the stock engine (modules/stock/stock.engine.ts),
 * in the same transaction as the ledger rows that explain the change.
 */
export const stock_balances = pgTable(
  'stock_balances',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    location_id: uuid('location_id')
      .notNull()
      .references(() => storage_locations.id),
    expiry_date: date('expiry_date'),
    on_hand: integer('on_hand').notNull().default(0),
    reserved: integer('reserved').notNull().default(0),
    /** FIFO key: when stock first entered this pile (a transfer carries the older date along; an emptied pile restarts). */
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    unique('stock_balances_key').on(t.customer_id, t.product_id, t.location_id, t.expiry_date).nullsNotDistinct(),
    // What a reservation's foreign key points at: its pile, of its own seller.
    unique('stock_balances_id_customer_key').on(t.id, t.customer_id),
    index('stock_balances_product_idx').on(t.customer_id, t.product_id, t.warehouse_id),
    index('stock_balances_location_idx').on(t.location_id),
    index('stock_balances_expiry_idx')
      .on(t.customer_id, t.expiry_date)
      .where(sql`${t.expiry_date} is not null and ${t.on_hand} > 0`),
    check('stock_balances_on_hand_check', sql`${t.on_hand} >= 0`),
    check('stock_balances_reserved_check', sql`${t.reserved} >= 0 and ${t.reserved} <= ${t.on_hand}`),
  ],
);

/**
 * The append-only stock ledger: one row per change of a balance's on_hand, never updated or deleted. For every
 * balance, on_hand = sum(quantity) of its rows.
 */
export const stock_movements = pgTable(
  'stock_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    balance_id: uuid('balance_id')
      .notNull()
      .references(() => stock_balances.id),
    product_id: uuid('product_id').notNull(),
    warehouse_id: uuid('warehouse_id').notNull(),
    location_id: uuid('location_id').notNull(),
    expiry_date: date('expiry_date'),
    /** Signed: positive into the location, negative out of it. */
    quantity: integer('quantity').notNull(),
    /** on_hand of the balance right after this row (the log shows it). */
    on_hand_after: integer('on_hand_after').notNull(),
    reason: text('reason').notNull(),
    document_type: text('document_type').notNull(),
    document_id: uuid('document_id'),
    document_number: text('document_number').notNull().default(''),
    user_id: uuid('user_id'),
    note: text('note').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The log lists a seller's movements newest first, optionally within a date range: this index serves that
    // order directly. Product, location and document filters get their own leading columns so a filter on one
    // of them never scans the whole tenant's history.
    index('stock_movements_customer_time_idx').on(t.customer_id, t.created_at.desc(), t.id.desc()),
    index('stock_movements_product_time_idx').on(t.customer_id, t.product_id, t.created_at.desc()),
    index('stock_movements_location_time_idx').on(t.customer_id, t.location_id, t.created_at.desc()),
    index('stock_movements_document_idx').on(t.customer_id, t.document_number),
    // Analysis (modules/analysis): the last shipment of a product, and the inflows that make up /stock-age's FIFO
    // layers. The outbound scan by time (/purchase-advice) has a covering index written by hand in its migration.
    index('stock_movements_out_product_idx')
      .on(t.customer_id, t.product_id, t.created_at.desc())
      .where(sql`${t.reason} = 'outbound'`),
    index('stock_movements_inflow_idx')
      .on(t.customer_id, t.product_id, t.warehouse_id, t.created_at.desc(), t.id.desc())
      .where(sql`${t.quantity} > 0 and ${t.reason} in ('inbound', 'return', 'adjust', 'stocktake')`),
    check('stock_movements_quantity_check', sql`${t.quantity} <> 0`),
    check('stock_movements_on_hand_after_check', sql`${t.on_hand_after} >= 0`),
    check('stock_movements_reason_check', sql`${t.reason} in (${reasonList})`),
  ],
);

/**
 * Stock held for a document (an outbound order, a return-to-supplier, …): per document and balance. The sum of a
 * balance's reservations is its `reserved`, so a document can release or consume only what it holds.
 */
export const stock_reservations = pgTable(
  'stock_reservations',
  {
    id: id(),
    customer_id: uuid('customer_id').notNull(),
    balance_id: uuid('balance_id').notNull(),
    document_type: text('document_type').notNull(),
    document_id: uuid('document_id').notNull(),
    document_number: text('document_number').notNull().default(''),
    quantity: integer('quantity').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stock_reservations_document_balance_key').on(t.document_type, t.document_id, t.balance_id),
    // One check per row instead of two (the seller's pile is the seller's): a bulk export writes 30,000 of these rows.
    foreignKey({
      name: 'stock_reservations_balance_customer_fk',
      columns: [t.balance_id, t.customer_id],
      foreignColumns: [stock_balances.id, stock_balances.customer_id],
    }),
    check('stock_reservations_quantity_check', sql`${t.quantity} >= 0`),
  ],
);

/** A transfer document (single, multi-line or expiry transfer); its lines are the ledger rows it wrote. */
export const stock_transfers = pgTable(
  'stock_transfers',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    kind: text('kind').notNull(),
    remark: text('remark').notNull().default(''),
    line_count: integer('line_count').notNull(),
    unit_count: integer('unit_count').notNull(),
    created_by: uuid('created_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stock_transfers_customer_number_key').on(t.customer_id, t.number),
    index('stock_transfers_customer_time_idx').on(t.customer_id, t.created_at),
    check('stock_transfers_kind_check', sql`${t.kind} in ('single', 'multi', 'expiry')`),
  ],
);
