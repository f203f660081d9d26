import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { allOf, type Executor } from '../../db/client';
import { areas, shelves, storage_locations, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

/** The SQL of storage locations: views with their warehouse, area and shelf, filters, look-ups by code, batch inserts. */

export type TLocationRow = typeof storage_locations.$inferSelect;

// ---- storage locations ----
export const locArea = alias(areas, 'loc_area');
export const locShelf = alias(shelves, 'loc_shelf');
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
