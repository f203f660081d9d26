import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { allOf, type Executor } from '../../db/client';
import { areas, shelves, warehouses } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

/** The SQL of shelves (with their area and location count). */

export type TShelfRow = typeof shelves.$inferSelect;

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
