import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { products } from './catalog';
import { outbound_orders } from './outbound';
import { stock_balances } from './stock';
import { storage_locations, warehouses } from './warehouse';

/**
 * A return receipt (spec §3): stock coming back into a warehouse. Category: a customer return of a shipped order,
 * an undeliverable parcel coming back, or other. Status (spec §4), as for inbound receipts: pending confirmation →
 * confirmed → cancelled (the confirmation undone; it can be confirmed again). Transitions: returns.workflow.ts.
 * `order_id` optionally names the original outbound order; confirming moves that order's status (outbound module).
 */
export const return_receipts = pgTable(
  'return_receipts',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    category: text('category').notNull().default('customer_return'),
    planned_date: date('planned_date').notNull(),
    status: text('status').notNull().default('pending'),
    /** The original outbound order (optional); confirming the return moves its status (outbound module). */
    order_id: uuid('order_id').references(() => outbound_orders.id),
    /** The order's number as it was when linked (shown and searched without a join). */
    order_number: text('order_number').notNull().default(''),
    /** The carrier's consignment number of the parcel that came back. */
    consignment_number: text('consignment_number').notNull().default(''),
    remark: text('remark').notNull().default(''),
    created_by: uuid('created_by'),
    confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
    confirmed_by: uuid('confirmed_by'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancelled_by: uuid('cancelled_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('return_receipts_customer_number_key').on(t.customer_id, t.number),
    index('return_receipts_customer_status_idx').on(t.customer_id, t.status, t.planned_date),
    index('return_receipts_customer_planned_idx').on(t.customer_id, t.planned_date),
    index('return_receipts_order_idx').on(t.customer_id, t.order_id),
    check('return_receipts_status_check', sql`${t.status} in ('pending', 'confirmed', 'cancelled')`),
    check('return_receipts_category_check', sql`${t.category} in ('customer_return', 'undeliverable', 'other')`),
  ],
);

/**
 * A line of a return receipt: the expected quantity, then at confirmation the accepted, defective and good
 * quantities and where the good (sellable location) and the defective stock (defective location) went.
 */
export const return_receipt_lines = pgTable(
  'return_receipt_lines',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    receipt_id: uuid('receipt_id')
      .notNull()
      .references(() => return_receipts.id, { onDelete: 'cascade' }),
    line_no: integer('line_no').notNull(),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    /** Required for products with a shelf life: the lot's expiry date. */
    expiry_date: date('expiry_date'),
    accepted_quantity: integer('accepted_quantity'),
    defective_quantity: integer('defective_quantity'),
    good_quantity: integer('good_quantity'),
    location_id: uuid('location_id').references(() => storage_locations.id),
    defective_location_id: uuid('defective_location_id').references(() => storage_locations.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('return_receipt_lines_receipt_line_key').on(t.receipt_id, t.line_no),
    index('return_receipt_lines_product_idx').on(t.customer_id, t.product_id),
    check('return_receipt_lines_quantity_check', sql`${t.quantity} > 0`),
    check(
      'return_receipt_lines_confirmed_check',
      sql`${t.accepted_quantity} is null or (${t.accepted_quantity} >= 0 and ${t.defective_quantity} >= 0
        and ${t.defective_quantity} <= ${t.accepted_quantity}
        and ${t.good_quantity} = ${t.accepted_quantity} - ${t.defective_quantity})`,
    ),
  ],
);

/**
 * A return-to-supplier order: stock sent back to a supplier. Status (apps/server/src/modules/returns/README.md,
 * supplier-returns.workflow.ts): reserved (created; its stock is held) → dispatched (the stock left), or → cancelled
 * (the stock is released).
 */
export const supplier_returns = pgTable(
  'supplier_returns',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    status: text('status').notNull().default('reserved'),
    reason: text('reason').notNull().default('defective'),
    supplier_name: text('supplier_name').notNull(),
    supplier_contact: text('supplier_contact').notNull().default(''),
    supplier_phone: text('supplier_phone').notNull().default(''),
    supplier_address: text('supplier_address').notNull().default(''),
    planned_date: date('planned_date').notNull(),
    consignment_number: text('consignment_number').notNull().default(''),
    remark: text('remark').notNull().default(''),
    created_by: uuid('created_by'),
    dispatched_at: timestamp('dispatched_at', { withTimezone: true }),
    dispatched_by: uuid('dispatched_by'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancelled_by: uuid('cancelled_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('supplier_returns_customer_number_key').on(t.customer_id, t.number),
    index('supplier_returns_customer_status_idx').on(t.customer_id, t.status, t.planned_date),
    check('supplier_returns_status_check', sql`${t.status} in ('reserved', 'dispatched', 'cancelled')`),
    check(
      'supplier_returns_reason_check',
      sql`${t.reason} in ('defective', 'expired', 'overstock', 'wrong_item', 'other')`,
    ),
  ],
);

/** A line of a return-to-supplier order: one pile of stock (product, location, lot) and how much of it goes back. */
export const supplier_return_lines = pgTable(
  'supplier_return_lines',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    supplier_return_id: uuid('supplier_return_id')
      .notNull()
      .references(() => supplier_returns.id, { onDelete: 'cascade' }),
    line_no: integer('line_no').notNull(),
    balance_id: uuid('balance_id')
      .notNull()
      .references(() => stock_balances.id),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    location_id: uuid('location_id')
      .notNull()
      .references(() => storage_locations.id),
    expiry_date: date('expiry_date'),
    quantity: integer('quantity').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('supplier_return_lines_doc_line_key').on(t.supplier_return_id, t.line_no),
    uniqueIndex('supplier_return_lines_doc_balance_key').on(t.supplier_return_id, t.balance_id),
    index('supplier_return_lines_product_idx').on(t.customer_id, t.product_id),
    index('supplier_return_lines_balance_idx').on(t.balance_id),
    check('supplier_return_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);
