import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { products } from './catalog';
import { storage_locations, warehouses } from './warehouse';

/**
 * An inbound receipt (spec §3): stock a seller sends into a warehouse. Status (spec §4): pending confirmation →
 * confirmed → cancelled-confirmed (a confirmation undone; it can be confirmed again). Transitions: inbound.workflow.ts.
 */
export const inbound_receipts = pgTable(
  'inbound_receipts',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    category: text('category').notNull().default('purchase'),
    planned_date: date('planned_date').notNull(),
    status: text('status').notNull().default('pending'),
    remark: text('remark').notNull().default(''),
    /** Created and confirmed in one step at /entry-quick. */
    quick: boolean('quick').notNull().default(false),
    created_by: uuid('created_by'),
    confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
    confirmed_by: uuid('confirmed_by'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancelled_by: uuid('cancelled_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('inbound_receipts_customer_number_key').on(t.customer_id, t.number),
    index('inbound_receipts_customer_status_idx').on(t.customer_id, t.status, t.planned_date),
    index('inbound_receipts_customer_planned_idx').on(t.customer_id, t.planned_date),
    check('inbound_receipts_status_check', sql`${t.status} in ('pending', 'confirmed', 'cancelled')`),
    check(
      'inbound_receipts_category_check',
      sql`${t.category} in ('purchase', 'consignment', 'transfer', 'return', 'other')`,
    ),
  ],
);

/**
 * A line of a receipt: the planned quantity, then at confirmation the accepted, defective and good quantities and
 * where the good and the defective stock went.
 */
export const inbound_receipt_lines = pgTable(
  'inbound_receipt_lines',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    receipt_id: uuid('receipt_id')
      .notNull()
      .references(() => inbound_receipts.id, { onDelete: 'cascade' }),
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
    uniqueIndex('inbound_receipt_lines_receipt_line_key').on(t.receipt_id, t.line_no),
    index('inbound_receipt_lines_product_idx').on(t.customer_id, t.product_id),
    check('inbound_receipt_lines_quantity_check', sql`${t.quantity} > 0`),
    check(
      'inbound_receipt_lines_confirmed_check',
      sql`${t.accepted_quantity} is null or (${t.accepted_quantity} >= 0 and ${t.defective_quantity} >= 0
        and ${t.defective_quantity} <= ${t.accepted_quantity}
        and ${t.good_quantity} = ${t.accepted_quantity} - ${t.defective_quantity})`,
    ),
  ],
);
