import { sql } from 'drizzle-orm';
import {
  boolean,
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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { packaging_materials, products } from './catalog';
import { ecommerce_platforms, logistics_providers } from './partners';
import { areas, storage_locations, warehouses } from './warehouse';

const statusList = sql.raw(
  ['pending_export', 'exported', 'cancel_export', 'online', 'closed', 'returned', 'closed_returned', 'cancelled']
    .map((s) => `'${s}'`)
    .join(', '),
);

/** A collection batch (/deliver-opser): exported orders picked together from one pick list. */
export const collection_batches = pgTable(
  'collection_batches',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    warehouse_id: uuid('warehouse_id').references(() => warehouses.id),
    remark: text('remark').notNull().default(''),
    picking_started_at: timestamp('picking_started_at', { withTimezone: true }),
    created_by: uuid('created_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('collection_batches_customer_number_key').on(t.customer_id, t.number),
    index('collection_batches_customer_created_idx').on(t.customer_id, t.created_at),
  ],
);

/**
 * An outbound order (spec §3) with its status (spec §4; transitions in modules/outbound/outbound.workflow.ts).
 * Stock is held for it in stock_reservations (document_type 'outbound') from export until it ships or the export
 * is undone; the stock engine writes those, never this module.
 */
export const outbound_orders = pgTable(
  'outbound_orders',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    platform_order_number: text('platform_order_number'),
    third_party_number: text('third_party_number'),
    consignment_number: text('consignment_number'),
    shipping_date: date('shipping_date'),
    category: text('category').notNull().default('normal'),
    channel: text('channel').notNull().default('manual'),
    is_cross_border: boolean('is_cross_border').notNull().default(false),
    recipient_name: text('recipient_name').notNull(),
    recipient_phone: text('recipient_phone').notNull().default(''),
    recipient_mobile: text('recipient_mobile').notNull().default(''),
    recipient_postcode: text('recipient_postcode').notNull().default(''),
    recipient_address: text('recipient_address').notNull().default(''),
    sender_name: text('sender_name').notNull().default(''),
    sender_phone: text('sender_phone').notNull().default(''),
    sender_postcode: text('sender_postcode').notNull().default(''),
    sender_address: text('sender_address').notNull().default(''),
    shipping_remark: text('shipping_remark').notNull().default(''),
    warehouse_id: uuid('warehouse_id').references(() => warehouses.id),
    arrival_date: date('arrival_date'),
    arrival_time_slot: text('arrival_time_slot'),
    logistics_provider_id: uuid('logistics_provider_id').references(() => logistics_providers.id),
    platform_id: uuid('platform_id').references(() => ecommerce_platforms.id),
    cod: boolean('cod').notNull().default(false),
    cod_amount: numeric('cod_amount', { precision: 14, scale: 2 }),
    total_amount: numeric('total_amount', { precision: 14, scale: 2 }),
    piece_count: integer('piece_count').notNull().default(1),
    /** Package size code 0001–0004 (材積); required when a line's product has volume_required. */
    volume: text('volume'),
    /**
     * The marketplace arranges the delivery (a Shopee integrated channel): the recipient may come masked ("****") and
     * is kept as given; the tracking number and label come from the marketplace.
     */
    platform_logistics: boolean('platform_logistics').notNull().default(false),
    status: text('status').notNull().default('pending_export'),
    /** When the order must leave the warehouse (the carrier's pick-up), set at creation by the ships module's rules. */
    ship_by: timestamp('ship_by', { withTimezone: true }),
    /** The status before a cancel-export request (exported or online), restored when the request is refused. */
    status_before_cancel: text('status_before_cancel'),
    /** Why the last export failed (INVENTORY_SHORTAGE …) and its params; null after a successful export. */
    abnormal_code: text('abnormal_code'),
    abnormal_params: jsonb('abnormal_params'),
    batch_id: uuid('batch_id').references(() => collection_batches.id),
    created_by: uuid('created_by'),
    exported_at: timestamp('exported_at', { withTimezone: true }),
    online_at: timestamp('online_at', { withTimezone: true }),
    closed_at: timestamp('closed_at', { withTimezone: true }),
    closed_by: uuid('closed_by'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('outbound_orders_customer_number_key').on(t.customer_id, t.number),
    // Re-importing a platform's order never duplicates it (imports insert with ON CONFLICT DO NOTHING).
    uniqueIndex('outbound_orders_platform_order_key')
      .on(
        t.customer_id,
        sql`coalesce(${t.platform_id}, '00000000-0000-0000-0000-000000000000'::uuid)`,
        t.platform_order_number,
      )
      .where(sql`${t.platform_order_number} is not null`),
    // A consignment number identifies one parcel: the packing station finds the order by it.
    uniqueIndex('outbound_orders_consignment_key')
      .on(t.customer_id, t.consignment_number)
      .where(sql`${t.consignment_number} is not null`),
    index('outbound_orders_customer_status_idx').on(t.customer_id, t.status, t.created_at),
    index('outbound_orders_customer_created_idx').on(t.customer_id, t.created_at),
    index('outbound_orders_customer_shipping_idx').on(t.customer_id, t.shipping_date),
    index('outbound_orders_customer_platform_number_idx').on(t.customer_id, t.platform_order_number),
    index('outbound_orders_batch_idx').on(t.batch_id),
    // "Due today / late" on /deliver.
    index('outbound_orders_customer_ship_by_idx').on(t.customer_id, t.ship_by),
    // Shipments by time (/deliver-statistics, the dashboard's chart).
    index('outbound_orders_customer_closed_idx').on(t.customer_id, t.closed_at).where(sql`${t.closed_at} is not null`),
    check('outbound_orders_status_check', sql`${t.status} in (${statusList})`),
    check(
      'outbound_orders_status_before_cancel_check',
      sql`${t.status_before_cancel} is null or ${t.status_before_cancel} in ('exported', 'online')`,
    ),
    check('outbound_orders_channel_check', sql`${t.channel} in ('ecommerce', 'store', 'api', 'manual', 'other')`),
    check(
      'outbound_orders_category_check',
      sql`${t.category} in ('normal', 'presale', 'replacement', 'sample', 'wholesale', 'other')`,
    ),
    check(
      'outbound_orders_time_slot_check',
      sql`${t.arrival_time_slot} is null or ${t.arrival_time_slot} in ('morning', 'afternoon', 'any')`,
    ),
    check('outbound_orders_volume_check', sql`${t.volume} is null or ${t.volume} in ('0001', '0002', '0003', '0004')`),
    check('outbound_orders_piece_count_check', sql`${t.piece_count} between 1 and 99`),
    check(
      'outbound_orders_amounts_check',
      sql`coalesce(${t.cod_amount}, 0) >= 0 and coalesce(${t.total_amount}, 0) >= 0`,
    ),
  ],
);

/** A line of an order: a single or a combination product and its quantity. */
export const outbound_order_lines = pgTable(
  'outbound_order_lines',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    line_no: integer('line_no').notNull(),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    unit_price: numeric('unit_price', { precision: 14, scale: 2 }),
    /** The row of the imported file this line came from (shown next to allocation problems). */
    source_row: integer('source_row'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('outbound_order_lines_order_line_key').on(t.order_id, t.line_no),
    index('outbound_order_lines_product_idx').on(t.customer_id, t.product_id),
    check('outbound_order_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/**
 * Packing progress of an order: per product to put in the box (combinations exploded, from the order's
 * reservations), how many units were scanned. `packed` only grows by conditional updates below `expected`.
 */
export const outbound_pack_items = pgTable(
  'outbound_pack_items',
  {
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    expected: integer('expected').notNull(),
    packed: integer('packed').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.order_id, t.product_id] }),
    check('outbound_pack_items_packed_check', sql`${t.packed} >= 0 and ${t.packed} <= ${t.expected}`),
  ],
);

/**
 * IMEI/serial numbers captured at packing. A serial ships once per seller: unique while not returned (a device
 * that came back through a confirmed return may ship again).
 */
export const outbound_serials = pgTable(
  'outbound_serials',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    serial: text('serial').notNull(),
    created_by: uuid('created_by'),
    returned_at: timestamp('returned_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('outbound_serials_customer_serial_key')
      .on(t.customer_id, t.serial)
      .where(sql`${t.returned_at} is null`),
    index('outbound_serials_customer_serial_idx').on(t.customer_id, t.serial),
    index('outbound_serials_order_idx').on(t.order_id),
  ],
);

/** Packaging material used for an order at the packing station (its stock went down by `quantity`). */
export const outbound_packaging_uses = pgTable(
  'outbound_packaging_uses',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    packaging_material_id: uuid('packaging_material_id')
      .notNull()
      .references(() => packaging_materials.id),
    quantity: integer('quantity').notNull(),
    ...timestamps,
  },
  (t) => [
    index('outbound_packaging_uses_order_idx').on(t.order_id),
    index('outbound_packaging_uses_material_idx').on(t.packaging_material_id),
    check('outbound_packaging_uses_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/**
 * A seller's own order-file layout (/deliver-customize-form): which of their columns hold which of our fields,
 * saved per channel (e-commerce platform; null = files without a platform).
 */
export const order_import_forms = pgTable(
  'order_import_forms',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    platform_id: uuid('platform_id').references(() => ecommerce_platforms.id),
    name: text('name').notNull(),
    header_row: integer('header_row').notNull().default(1),
    /** { field: [header, fallback header, …] } with headers whitespace-normalised. */
    mapping: jsonb('mapping').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('order_import_forms_customer_platform_key').on(
      t.customer_id,
      sql`coalesce(${t.platform_id}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    check('order_import_forms_header_row_check', sql`${t.header_row} between 1 and 50`),
  ],
);

/** /customize: the columns a seller's order list and order exports show, in order. */
export const outbound_column_settings = pgTable(
  'outbound_column_settings',
  {
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    screen: text('screen').notNull(),
    columns: jsonb('columns').notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.customer_id, t.screen] }),
    check('outbound_column_settings_screen_check', sql`${t.screen} in ('deliver_list', 'deliver_export')`),
  ],
);

/**
 * A saved release channel (like OCA's `stock_release_channel`): named rules at one warehouse by which "release next
 * wave" builds a picking batch — which carriers (none: all), which convenience-store chain (null: any parcel), which
 * orders by ship-by (`priority`: all, due by the end of today, late), one zone or all, and the picker's limits. Its
 * `cutoff_time` (null: the earliest cut-off of its carriers there) is the one the board counts down to. Channels are
 * listed by `sequence`; an inactive one is kept but cannot release.
 */
export const release_channels = pgTable(
  'release_channels',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    logistics_provider_ids: uuid('logistics_provider_ids').array().notNull().default(sql`'{}'::uuid[]`),
    cvs_chain: text('cvs_chain'),
    cutoff_time: text('cutoff_time'),
    area_id: uuid('area_id').references(() => areas.id, { onDelete: 'set null' }),
    priority: text('priority').notNull().default('all'),
    max_orders: integer('max_orders').notNull(),
    max_units: integer('max_units'),
    sequence: integer('sequence').notNull().default(10),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('release_channels_warehouse_name_key').on(t.customer_id, t.warehouse_id, t.name),
    index('release_channels_customer_sequence_idx').on(t.customer_id, t.sequence),
    check('release_channels_priority_check', sql`${t.priority} in ('all', 'due', 'late')`),
    check('release_channels_cvs_chain_check', sql`${t.cvs_chain} in ('UNIMART', 'FAMI', 'HILIFE', 'OKMART')`),
  ],
);

/**
 * The handheld pick walk of a collection batch (issue #37 pick screen, #36 cluster pick): one row per accepted scan —
 * units of a product taken from a location for an order (`pick`), or units reported missing there (`short`). What a
 * batch still has to pick is its orders' reserved piles less these rows; the stock itself is consumed at shipping as
 * before (a pick moves no stock). `scan_id` is the handheld's id of the scan: a resent scan is not counted twice.
 */
export const pick_scans = pgTable(
  'pick_scans',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    batch_id: uuid('batch_id')
      .notNull()
      .references(() => collection_batches.id, { onDelete: 'cascade' }),
    scan_id: uuid('scan_id').notNull(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => storage_locations.id),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id),
    expiry_date: date('expiry_date'),
    kind: text('kind').notNull(),
    quantity: integer('quantity').notNull(),
    created_by: uuid('created_by'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pick_scans_customer_scan_key').on(t.customer_id, t.scan_id, t.order_id),
    index('pick_scans_batch_idx').on(t.batch_id),
    check('pick_scans_kind_check', sql`${t.kind} in ('pick', 'short')`),
    check('pick_scans_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/**
 * Cluster pick: the tote an order of a batch is picked into (slot on the cart, and the tote's scanned code). The
 * packing station opens the order by scanning its tote; a tote code belongs to one order until that order leaves
 * the warehouse (a later assignment of the code takes it over).
 */
export const pick_totes = pgTable(
  'pick_totes',
  {
    order_id: uuid('order_id')
      .primaryKey()
      .references(() => outbound_orders.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    batch_id: uuid('batch_id')
      .notNull()
      .references(() => collection_batches.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    tote_code: text('tote_code').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pick_totes_customer_code_key').on(t.customer_id, t.tote_code),
    uniqueIndex('pick_totes_batch_slot_key').on(t.batch_id, t.slot),
  ],
);
