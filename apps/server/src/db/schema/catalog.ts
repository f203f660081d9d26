import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { ecommerce_platforms, logistics_providers } from './partners';

/** Product categories; every seller has the default category 0015 "other". */
export const product_categories = pgTable(
  'product_categories',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('product_categories_customer_code_key').on(t.customer_id, t.code)],
);

/** A product (spec §3). `type` single or combination; a combination lists its components in product_components. */
export const products = pgTable(
  'products',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    number: text('number').notNull(),
    name: text('name').notNull(),
    barcode: text('barcode'),
    type: text('type').notNull().default('single'),
    category_id: uuid('category_id').references(() => product_categories.id),
    unit: text('unit').notNull().default(''),
    unit_price: numeric('unit_price', { precision: 14, scale: 4 }),
    selling_price: numeric('selling_price', { precision: 14, scale: 4 }),
    cost: numeric('cost', { precision: 14, scale: 4 }),
    weight: numeric('weight', { precision: 12, scale: 3 }),
    weight_unit: text('weight_unit').notNull().default('g'),
    length_cm: numeric('length_cm', { precision: 10, scale: 2 }),
    width_cm: numeric('width_cm', { precision: 10, scale: 2 }),
    height_cm: numeric('height_cm', { precision: 10, scale: 2 }),
    volume_required: boolean('volume_required').notNull().default(false),
    fragile: boolean('fragile').notNull().default(false),
    can_pack_together: boolean('can_pack_together').notNull().default(true),
    safety_stock: integer('safety_stock').notNull().default(0),
    stocking_days: integer('stocking_days').notNull().default(0),
    /** Shelf life in months (1–12); null = no shelf life, so FIFO instead of FEFO and no expiry on lots. */
    shelf_life_months: integer('shelf_life_months'),
    /** Sellable-date rule in months (1–12): a lot is sellable until expiry minus this many months. */
    sellable_rule_months: integer('sellable_rule_months'),
    allowed_sale_date: date('allowed_sale_date'),
    allow_shipping: boolean('allow_shipping').notNull().default(true),
    online_listing: boolean('online_listing').notNull().default(false),
    status: text('status').notNull().default('active'),
    /** Items of this product need an IMEI/serial captured at packing. */
    requires_serial: boolean('requires_serial').notNull().default(false),
    default_logistics_provider_id: uuid('default_logistics_provider_id').references(() => logistics_providers.id),
    default_platform_id: uuid('default_platform_id').references(() => ecommerce_platforms.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_customer_number_key').on(t.customer_id, t.number),
    index('products_customer_barcode_idx').on(t.customer_id, t.barcode),
    index('products_customer_name_idx').on(t.customer_id, t.name),
    check('products_type_check', sql`${t.type} in ('single', 'combination')`),
    check('products_status_check', sql`${t.status} in ('active', 'inactive')`),
    check('products_weight_unit_check', sql`${t.weight_unit} in ('g', 'kg')`),
    check('products_shelf_life_check', sql`${t.shelf_life_months} is null or ${t.shelf_life_months} between 1 and 12`),
    check(
      'products_sellable_rule_check',
      sql`${t.sellable_rule_months} is null or ${t.sellable_rule_months} between 1 and 12`,
    ),
    check('products_safety_stock_check', sql`${t.safety_stock} >= 0`),
    index('products_category_idx').on(t.category_id),
  ],
);

/** Components of a combination product and the quantity of each per kit. */
export const product_components = pgTable(
  'product_components',
  {
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    product_id: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    component_id: uuid('component_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.component_id] }),
    index('product_components_component_idx').on(t.component_id),
    check('product_components_quantity_check', sql`${t.quantity} >= 1`),
    check('product_components_not_self_check', sql`${t.product_id} <> ${t.component_id}`),
  ],
);

/** Packaging material (boxes, bags, fillers) with its inventory quantity; outbound packing consumes it. */
export const packaging_materials = pgTable(
  'packaging_materials',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull().default(''),
    category: text('category').notNull().default(''),
    quantity: integer('quantity').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('packaging_materials_customer_code_key').on(t.customer_id, t.code),
    check('packaging_materials_quantity_check', sql`${t.quantity} >= 0`),
  ],
);

/**
 * Label sheet layouts as data (A4 label stock): cells, grid, label size, margins and pitch in mm. Rows without a
 * customer are the built-in sheets (seeded by migration); a seller adds their own or a copy with printer offsets.
 */
export const label_sheets = pgTable(
  'label_sheets',
  {
    id: id(),
    customer_id: uuid('customer_id').references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    cells: integer('cells').notNull(),
    columns: integer('columns').notNull(),
    rows: integer('rows').notNull(),
    page_width_mm: doublePrecision('page_width_mm').notNull().default(210),
    page_height_mm: doublePrecision('page_height_mm').notNull().default(297),
    label_width_mm: doublePrecision('label_width_mm').notNull(),
    label_height_mm: doublePrecision('label_height_mm').notNull(),
    margin_left_mm: doublePrecision('margin_left_mm').notNull(),
    margin_top_mm: doublePrecision('margin_top_mm').notNull(),
    pitch_x_mm: doublePrecision('pitch_x_mm').notNull(),
    pitch_y_mm: doublePrecision('pitch_y_mm').notNull(),
    /** Printer correction added to every cell (a printer that feeds 1 mm low gets offset_y_mm = -1). */
    offset_x_mm: doublePrecision('offset_x_mm').notNull().default(0),
    offset_y_mm: doublePrecision('offset_y_mm').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    unique('label_sheets_customer_code_key').on(t.customer_id, t.code).nullsNotDistinct(),
    check(
      'label_sheets_grid_check',
      sql`${t.columns} >= 1 and ${t.rows} >= 1 and ${t.cells} = ${t.columns} * ${t.rows}`,
    ),
  ],
);
