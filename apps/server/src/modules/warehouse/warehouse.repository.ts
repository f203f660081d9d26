import { and, eq, sql } from 'drizzle-orm';
import { allOf, type Executor, type Tx, uuidArray } from '../../db/client';
import { areas, storage_locations, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';
import { locArea, locShelf } from './warehouse.locations.repository';

export type TWarehouseRow = typeof warehouses.$inferSelect;
export type TAreaRow = typeof areas.$inferSelect;

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
