import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/** A warehouse of a seller's workspace; areas, shelves and storage locations hang below it. */
export const warehouses = pgTable(
  'warehouses',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    /** The warehouse's label printer for raw ZPL over TCP (port 9100 by convention); null: none (issue #37). */
    label_printer_host: text('label_printer_host'),
    label_printer_port: integer('label_printer_port'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('warehouses_customer_code_key').on(t.customer_id, t.code),
    index('warehouses_customer_idx').on(t.customer_id),
  ],
);

/** An area (subzone) of a warehouse. */
export const areas = pgTable(
  'areas',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('areas_warehouse_code_key').on(t.warehouse_id, t.code),
    index('areas_customer_idx').on(t.customer_id),
  ],
);

/** A shelf (rack) in an area: category and number of layers. */
export const shelves = pgTable(
  'shelves',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    area_id: uuid('area_id').references(() => areas.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    category: text('category').notNull().default(''),
    layers: integer('layers').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('shelves_warehouse_code_key').on(t.warehouse_id, t.code),
    index('shelves_customer_idx').on(t.customer_id),
    check('shelves_layers_check', sql`${t.layers} between 1 and 99`),
  ],
);

export const LOCATION_KINDS = ['sellable', 'defective', 'expired', 'staging'] as const;

/**
 * A storage location: what a scanner reads (`code`, unique within its warehouse). `kind` says whether its stock
 * can be sold: defective stock from receipts and returns goes to a `defective` location, expired lots to `expired`.
 */
export const storage_locations = pgTable(
  'storage_locations',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    warehouse_id: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    area_id: uuid('area_id').references(() => areas.id),
    shelf_id: uuid('shelf_id').references(() => shelves.id),
    code: text('code').notNull(),
    name: text('name').notNull().default(''),
    layer: integer('layer'),
    cells: integer('cells').notNull().default(1),
    kind: text('kind').notNull().default('sellable'),
    /**
     * Walking order for pick lists (lower first); code order when equal. Derived from the location's place (area →
     * shelf → layer → cell, serpentine by shelf; modules/warehouse/warehouse.walk.ts) unless set by hand.
     */
    pick_sequence: integer('pick_sequence').notNull().default(0),
    /** The pick sequence was set by hand (screen, import, API): renumbering the warehouse's walk keeps it. */
    pick_sequence_manual: boolean('pick_sequence_manual').notNull().default(false),
    is_active: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('storage_locations_warehouse_code_key').on(t.warehouse_id, t.code),
    index('storage_locations_customer_idx').on(t.customer_id, t.warehouse_id),
    index('storage_locations_shelf_idx').on(t.shelf_id),
    check('storage_locations_kind_check', sql`${t.kind} in ('sellable', 'defective', 'expired', 'staging')`),
    check('storage_locations_cells_check', sql`${t.cells} >= 1`),
  ],
);
