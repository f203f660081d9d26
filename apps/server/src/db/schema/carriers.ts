import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, id, timestamps } from './_columns';
import { customers } from './account';
import { outbound_orders } from './outbound';
import { logistics_providers } from './partners';

/**
 * An order's tracking history from its carrier: one row per status callback (ECPay `ServerReplyURL`), verified
 * before it is written. A repeated callback (ECPay resends until it reads `1|OK`) is stored once.
 */
export const carrier_events = pgTable(
  'carrier_events',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    logistics_provider_id: uuid('logistics_provider_id')
      .notNull()
      .references(() => logistics_providers.id),
    /** Null when no order of the seller matches the trade number or consignment number. */
    order_id: uuid('order_id').references(() => outbound_orders.id),
    carrier: text('carrier').notNull(),
    merchant_trade_no: text('merchant_trade_no').notNull().default(''),
    logistics_id: text('logistics_id').notNull().default(''),
    booking_note: text('booking_note').notNull().default(''),
    /** The carrier's status code and text (ECPay RtnCode / RtnMsg). */
    status_code: text('status_code').notNull(),
    status_text: text('status_text').notNull().default(''),
    /** When the carrier says the status changed (ECPay UpdateStatusDate, Taipei time as sent). */
    status_at: text('status_at').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carrier_events_dedupe_key').on(
      t.logistics_provider_id,
      t.merchant_trade_no,
      t.logistics_id,
      t.status_code,
      t.status_at,
    ),
    index('carrier_events_order_idx').on(t.order_id, t.created_at),
  ],
);

/**
 * The carrier's label of an order (T-cat PrintOBT → DownloadOBT), stored when the number is fetched because T-cat's
 * FileNo lives only 24 hours. `content` is null while the label could not be fetched (`error` says why); printing
 * tries again with `file_no`. One row per order: a new consignment replaces it.
 */
export const carrier_labels = pgTable(
  'carrier_labels',
  {
    order_id: uuid('order_id')
      .primaryKey()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    carrier: text('carrier').notNull(),
    consignment_number: text('consignment_number').notNull(),
    /** The carrier's reference to fetch the label again (T-cat FileNo) or to print it (ECPay AllPayLogisticsID). */
    file_no: text('file_no'),
    content: bytea('content'),
    error: text('error'),
    fetched_at: timestamp('fetched_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('carrier_labels_customer_idx').on(t.customer_id),
    // ECPay's status notices find their order by AllPayLogisticsID (kept here as file_no) on every notice.
    index('carrier_labels_file_no_idx').on(t.carrier, t.file_no),
  ],
);

/**
 * The convenience store an order is picked up at (超商取貨 through ECPay): the chain and contract kind as ECPay's
 * LogisticsSubType (UNIMART, FAMI, HILIFE, OKMART and their C2C kinds), the store's id, name and address, and where it
 * came from (ECPay's store map, an order file, the partner API, typed). After `/Express/Create`, the numbers the
 * store-to-store (C2C) print pages take: CVSPaymentNo and CVSValidationNo (7-ELEVEN's only).
 */
export const order_cvs_stores = pgTable(
  'order_cvs_stores',
  {
    order_id: uuid('order_id')
      .primaryKey()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    subtype: text('subtype').notNull(),
    store_id: text('store_id').notNull(),
    store_name: text('store_name').notNull().default(''),
    store_address: text('store_address').notNull().default(''),
    source: text('source').notNull().default('manual'),
    payment_no: text('payment_no'),
    validation_no: text('validation_no'),
    ...timestamps,
  },
  (t) => [
    index('order_cvs_stores_customer_idx').on(t.customer_id),
    check(
      'order_cvs_stores_subtype_check',
      sql`${t.subtype} in ('UNIMART', 'FAMI', 'HILIFE', 'OKMART', 'UNIMARTC2C', 'FAMIC2C', 'HILIFEC2C', 'OKMARTC2C')`,
    ),
    check('order_cvs_stores_source_check', sql`${t.source} in ('map', 'import', 'api', 'manual')`),
  ],
);

/**
 * One opening of ECPay's store map for an order: `token` is the MerchantTradeNo sent to the map, unguessable, and the
 * map's answer (posted back by the buyer's browser, unsigned) is taken only for an open request of that token, once.
 */
export const cvs_map_requests = pgTable(
  'cvs_map_requests',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    logistics_provider_id: uuid('logistics_provider_id')
      .notNull()
      .references(() => logistics_providers.id),
    token: text('token').notNull(),
    subtype: text('subtype').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('cvs_map_requests_token_key').on(t.token), index('cvs_map_requests_order_idx').on(t.order_id)],
);
