import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { allOf, type Executor, type Tx, uuidArray } from '../../db/client';
import { areas, shelves, storage_locations, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

export type TWarehouseRow = typeof warehouses.$inferSelect;
export type TAreaRow = typeof areas.$inferSelect;
export type TShelfRow = typeof shelves.$inferSelect;
export type TLocationRow = typeof storage_locations.$inferSelect;

// ---- warehouses ----
export async function listWarehouses(tx: Executor, customerId: string, q: TPageOpts & { code?: string }) {
  const where = and(
    eq(warehouses.customer_id, customerId),
    q.code ? eq(warehouses.code, q.code) : undefined,
    searchWhere(q.search, [warehouses.code, warehouses.name, warehouses.address]),
  );
  const order = orderingOf(
    q.ordering,
    { code: warehouses.code, name: warehouses.name, created_at: warehouses.created_at },
    'code',
    warehouses.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select()
        .from(warehouses)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(warehouses).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findWarehouse(tx: Executor, customerId: string, id: string) {
  const [row] = await tx
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.id, id), eq(warehouses.customer_id, customerId)));
  return row;
}

export async function findWarehouseByCode(tx: Executor, customerId: string, code: string) {
  const [row] = await tx
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.code, code), eq(warehouses.customer_id, customerId)));
  return row;
}

export async function insertWarehouse(tx: Executor, values: typeof warehouses.$inferInsert) {
  const [row] = await tx.insert(warehouses).values(values).returning();
  return row!;
}

export async function updateWarehouse(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof warehouses.$inferInsert>,
) {
  const [row] = await tx
    .update(warehouses)
    .set(patch)
    .where(and(eq(warehouses.id, id), eq(warehouses.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteWarehouse(tx: Executor, customerId: string, id: string) {
  const rows = await tx
    .delete(warehouses)
    .where(and(eq(warehouses.id, id), eq(warehouses.customer_id, customerId)))
    .returning({ id: warehouses.id });
  return rows.length;
}

// ---- areas ----
const areaSelect = {
  id: areas.id,
  customer_id: areas.customer_id,
  warehouse_id: areas.warehouse_id,
  warehouse_code: warehouses.code,
  code: areas.code,
  name: areas.name,
  created_at: areas.created_at,
  updated_at: areas.updated_at,
};
export interface TAreaView {
  id: string;
  customer_id: string;
  warehouse_id: string;
  warehouse_code: string;
  code: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export async function listAreas(
  tx: Executor,
  customerId: string,
  q: TPageOpts & { warehouse_id?: string; code?: string },
) {
  const where = and(
    eq(areas.customer_id, customerId),
    q.warehouse_id ? eq(areas.warehouse_id, q.warehouse_id) : undefined,
    q.code ? eq(areas.code, q.code) : undefined,
    searchWhere(q.search, [areas.code, areas.name, warehouses.code]),
  );
  const order = orderingOf(
    q.ordering,
    { code: areas.code, name: areas.name, warehouse_code: warehouses.code, created_at: areas.created_at },
    'code',
    areas.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select(areaSelect)
        .from(areas)
        .innerJoin(warehouses, eq(warehouses.id, areas.warehouse_id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () =>
      tx.select({ n: countAll }).from(areas).innerJoin(warehouses, eq(warehouses.id, areas.warehouse_id)).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findArea(tx: Executor, customerId: string, id: string): Promise<TAreaView | undefined> {
  const [row] = await tx
    .select(areaSelect)
    .from(areas)
    .innerJoin(warehouses, eq(warehouses.id, areas.warehouse_id))
    .where(and(eq(areas.id, id), eq(areas.customer_id, customerId)));
  return row;
}

export async function insertArea(tx: Executor, values: typeof areas.$inferInsert) {
  const [row] = await tx.insert(areas).values(values).returning();
  return row!;
}

export async function updateArea(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof areas.$inferInsert>,
) {
  const [row] = await tx
    .update(areas)
    .set(patch)
    .where(and(eq(areas.id, id), eq(areas.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteArea(tx: Executor, customerId: string, id: string) {
  const rows = await tx
    .delete(areas)
    .where(and(eq(areas.id, id), eq(areas.customer_id, customerId)))
    .returning({ id: areas.id });
  return rows.length;
}

// ---- shelves ----
const shelfArea = alias(areas, 'shelf_area');
const locationCount = sql<number>`(select count(*)::int from storage_locations sl where sl.shelf_id = "shelves"."id")`;
const shelfSelect = {
  id: shelves.id,
  customer_id: shelves.customer_id,
  warehouse_id: shelves.warehouse_id,
  warehouse_code: warehouses.code,
  area_id: shelves.area_id,
  area_code: shelfArea.code,
  code: shelves.code,
  name: shelves.name,
  category: shelves.category,
  layers: shelves.layers,
  location_count: locationCount,
  created_at: shelves.created_at,
  updated_at: shelves.updated_at,
};
export interface TShelfView {
  id: string;
  customer_id: string;
  warehouse_id: string;
  warehouse_code: string;
  area_id: string | null;
  area_code: string | null;
  code: string;
  name: string;
  category: string;
  layers: number;
  location_count: number;
  created_at: Date;
  updated_at: Date;
}

function shelfQuery(tx: Executor, where: SQL | undefined) {
  return tx
    .select(shelfSelect)
    .from(shelves)
    .innerJoin(warehouses, eq(warehouses.id, shelves.warehouse_id))
    .leftJoin(shelfArea, eq(shelfArea.id, shelves.area_id))
    .where(where);
}

export async function listShelves(
  tx: Executor,
  customerId: string,
  q: TPageOpts & { warehouse_id?: string; area_id?: string; category?: string },
) {
  const where = and(
    eq(shelves.customer_id, customerId),
    q.warehouse_id ? eq(shelves.warehouse_id, q.warehouse_id) : undefined,
    q.area_id ? eq(shelves.area_id, q.area_id) : undefined,
    q.category ? eq(shelves.category, q.category) : undefined,
    searchWhere(q.search, [shelves.code, shelves.name, shelves.category]),
  );
  const order = orderingOf(
    q.ordering,
    {
      code: shelves.code,
      name: shelves.name,
      category: shelves.category,
      layers: shelves.layers,
      warehouse_code: warehouses.code,
      created_at: shelves.created_at,
    },
    'code',
    shelves.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      shelfQuery(tx, where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(shelves).where(where),
  ]);
  return { rows: rows as TShelfView[], count: Number(total?.n ?? 0) };
}

export async function findShelf(tx: Executor, customerId: string, id: string): Promise<TShelfView | undefined> {
  const [row] = await shelfQuery(tx, and(eq(shelves.id, id), eq(shelves.customer_id, customerId)));
  return row as TShelfView | undefined;
}

export async function insertShelf(tx: Executor, values: typeof shelves.$inferInsert) {
  const [row] = await tx.insert(shelves).values(values).returning();
  return row!;
}

export async function updateShelf(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof shelves.$inferInsert>,
) {
  const [row] = await tx
    .update(shelves)
    .set(patch)
    .where(and(eq(shelves.id, id), eq(shelves.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteShelf(tx: Executor, customerId: string, id: string) {
  const rows = await tx
    .delete(shelves)
    .where(and(eq(shelves.id, id), eq(shelves.customer_id, customerId)))
    .returning({ id: shelves.id });
  return rows.length;
}

// ---- storage locations ----
const locArea = alias(areas, 'loc_area');
const locShelf = alias(shelves, 'loc_shelf');
const locationSelect = {
  id: storage_locations.id,
  customer_id: storage_locations.customer_id,
  warehouse_id: storage_locations.warehouse_id,
  warehouse_code: warehouses.code,
  area_id: storage_locations.area_id,
  area_code: locArea.code,
  shelf_id: storage_locations.shelf_id,
  shelf_code: locShelf.code,
  code: storage_locations.code,
  name: storage_locations.name,
  layer: storage_locations.layer,
  cells: storage_locations.cells,
  kind: storage_locations.kind,
  pick_sequence: storage_locations.pick_sequence,
  pick_sequence_manual: storage_locations.pick_sequence_manual,
  is_active: storage_locations.is_active,
  created_at: storage_locations.created_at,
  updated_at: storage_locations.updated_at,
};
export interface TLocationView {
  id: string;
  customer_id: string;
  warehouse_id: string;
  warehouse_code: string;
  area_id: string | null;
  area_code: string | null;
  shelf_id: string | null;
  shelf_code: string | null;
  code: string;
  name: string;
  layer: number | null;
  cells: number;
  kind: string;
  pick_sequence: number;
  pick_sequence_manual: boolean;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

function locationQuery(tx: Executor, where: SQL | undefined) {
  return tx
    .select(locationSelect)
    .from(storage_locations)
    .innerJoin(warehouses, eq(warehouses.id, storage_locations.warehouse_id))
    .leftJoin(locArea, eq(locArea.id, storage_locations.area_id))
    .leftJoin(locShelf, eq(locShelf.id, storage_locations.shelf_id))
    .where(where);
}

export interface TLocationFilter {
  warehouse_id?: string;
  area_id?: string;
  shelf_id?: string;
  kind?: string;
  is_active?: boolean;
  code?: string;
  ids?: string[];
}

function locationWhere(customerId: string, q: TLocationFilter & { search?: string }) {
  const l = storage_locations;
  return and(
    eq(l.customer_id, customerId),
    q.warehouse_id ? eq(l.warehouse_id, q.warehouse_id) : undefined,
    q.area_id ? eq(l.area_id, q.area_id) : undefined,
    q.shelf_id ? eq(l.shelf_id, q.shelf_id) : undefined,
    q.kind ? eq(l.kind, q.kind) : undefined,
    q.is_active !== undefined ? eq(l.is_active, q.is_active) : undefined,
    q.code ? eq(l.code, q.code) : undefined,
    q.ids ? inArray(l.id, q.ids) : undefined,
    searchWhere(q.search, [l.code, l.name]),
  );
}

export async function listLocations(tx: Executor, customerId: string, q: TPageOpts & TLocationFilter) {
  const where = locationWhere(customerId, q);
  const l = storage_locations;
  const order = orderingOf(
    q.ordering,
    {
      code: l.code,
      name: l.name,
      kind: l.kind,
      cells: l.cells,
      pick_sequence: l.pick_sequence,
      warehouse_code: warehouses.code,
      created_at: l.created_at,
    },
    'code',
    l.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      locationQuery(tx, where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(l).where(where),
  ]);
  return { rows: rows as TLocationView[], count: Number(total?.n ?? 0) };
}

export async function findLocation(tx: Executor, customerId: string, id: string): Promise<TLocationView | undefined> {
  const [row] = await locationQuery(
    tx,
    and(eq(storage_locations.id, id), eq(storage_locations.customer_id, customerId)),
  );
  return row as TLocationView | undefined;
}

/** Storage locations by id, in code order (labels, batch screens). Unknown or foreign ids are simply absent. */
export async function findLocationsByIds(tx: Executor, customerId: string, ids: string[]): Promise<TLocationView[]> {
  if (ids.length === 0) return [];
  const rows = await locationQuery(tx, locationWhere(customerId, { ids })).orderBy(asc(storage_locations.code));
  return rows as TLocationView[];
}

export async function findLocationByCode(
  tx: Executor,
  customerId: string,
  warehouseId: string,
  code: string,
): Promise<TLocationView | undefined> {
  const [row] = await locationQuery(tx, locationWhere(customerId, { warehouse_id: warehouseId, code }));
  return row as TLocationView | undefined;
}

/** The ids of the warehouse's locations of these codes. */
export async function locationIdsByCode(ex: Executor, customerId: string, warehouseId: string, codes: string[]) {
  if (codes.length === 0) return [];
  return ex
    .select({ id: storage_locations.id, code: storage_locations.code })
    .from(storage_locations)
    .where(
      and(
        eq(storage_locations.customer_id, customerId),
        eq(storage_locations.warehouse_id, warehouseId),
        inArray(storage_locations.code, codes),
      ),
    );
}

export async function insertLocation(tx: Executor, values: typeof storage_locations.$inferInsert) {
  const [row] = await tx.insert(storage_locations).values(values).returning();
  return row!;
}

/** Insert many; codes that already exist in the warehouse are skipped. Returns the inserted codes. */
export async function insertLocationsSkippingExisting(
  tx: Executor,
  values: Array<typeof storage_locations.$inferInsert>,
): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await tx
    .insert(storage_locations)
    .values(values)
    .onConflictDoNothing({ target: [storage_locations.warehouse_id, storage_locations.code] })
    .returning({ code: storage_locations.code });
  return rows.map((r) => r.code);
}

export async function updateLocation(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof storage_locations.$inferInsert>,
) {
  const [row] = await tx
    .update(storage_locations)
    .set(patch)
    .where(and(eq(storage_locations.id, id), eq(storage_locations.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteLocations(tx: Executor, customerId: string, ids: string[]) {
  const rows = await tx
    .delete(storage_locations)
    .where(and(inArray(storage_locations.id, ids), eq(storage_locations.customer_id, customerId)))
    .returning({ id: storage_locations.id, code: storage_locations.code });
  return rows;
}

/** Areas and shelves of a customer by code, per warehouse (imports resolve codes in one query each). */
export async function codeMaps(tx: Executor, customerId: string) {
  const [ws, as, ss] = await allOf(tx, [
    () =>
      tx
        .select({ id: warehouses.id, code: warehouses.code })
        .from(warehouses)
        .where(eq(warehouses.customer_id, customerId)),
    () =>
      tx
        .select({ id: areas.id, code: areas.code, warehouse_id: areas.warehouse_id })
        .from(areas)
        .where(eq(areas.customer_id, customerId)),
    () =>
      tx
        .select({
          id: shelves.id,
          code: shelves.code,
          warehouse_id: shelves.warehouse_id,
          area_id: shelves.area_id,
          layers: shelves.layers,
        })
        .from(shelves)
        .where(eq(shelves.customer_id, customerId)),
  ]);
  return {
    warehouses: new Map(ws.map((w) => [w.code, w.id])),
    areas: new Map(as.map((a) => [`${a.warehouse_id}\u0000${a.code}`, a.id])),
    shelves: new Map(ss.map((s) => [`${s.warehouse_id}\u0000${s.code}`, s])),
  };
}

// ---- pick paths ----

/** Lock a warehouse of the seller (its walk is renumbered one change at a time); undefined when not theirs. */
export async function lockWarehouse(tx: Tx, customerId: string, id: string) {
  const [row] = await tx
    .select({ id: warehouses.id })
    .from(warehouses)
    .where(and(eq(warehouses.id, id), eq(warehouses.customer_id, customerId)))
    .for('update');
  return row;
}

/** What the walk needs of every location of a warehouse. */
export async function walkLocations(ex: Executor, customerId: string, warehouseId: string) {
  return ex
    .select({
      id: storage_locations.id,
      code: storage_locations.code,
      area_code: locArea.code,
      shelf_code: locShelf.code,
      layer: storage_locations.layer,
      pick_sequence: storage_locations.pick_sequence,
      pick_sequence_manual: storage_locations.pick_sequence_manual,
    })
    .from(storage_locations)
    .leftJoin(locArea, eq(locArea.id, storage_locations.area_id))
    .leftJoin(locShelf, eq(locShelf.id, storage_locations.shelf_id))
    .where(and(eq(storage_locations.customer_id, customerId), eq(storage_locations.warehouse_id, warehouseId)));
}

/** Set derived pick sequences (one statement per 5,000 locations). */
export async function setPickSequences(
  tx: Tx,
  customerId: string,
  rows: Array<{ id: string; pick_sequence: number }>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const part = rows.slice(i, i + 5000);
    await tx.execute(sql`
      update storage_locations l set pick_sequence = v.seq, updated_at = now()
      from unnest(${uuidArray(part.map((r) => r.id))}, ${`{${part.map((r) => r.pick_sequence).join(',')}}`}::int[])
        as v(id, seq)
      where l.id = v.id and l.customer_id = ${customerId}`);
  }
}

/** Forget the hand-set sequences of a warehouse (they are derived again). */
export async function clearManualSequences(tx: Tx, customerId: string, warehouseId: string): Promise<void> {
  await tx
    .update(storage_locations)
    .set({ pick_sequence_manual: false })
    .where(and(eq(storage_locations.customer_id, customerId), eq(storage_locations.warehouse_id, warehouseId)));
}
