import { and, eq, type InferInsertModel, type InferSelectModel, inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

/** A table of one seller's rows: an `id` key and the owning seller's `customer_id`. */
export type TTenantScopedTable = PgTable & { id: AnyPgColumn; customer_id: AnyPgColumn };

/**
 * The seller-scoped reads and writes of a table (issue #33 item 4), instead of writing `customer_id = ?` by hand in
 * every repository function: each call takes the executor (a transaction or the pool) and the seller, and every
 * statement it makes is limited to that seller's rows — another seller's row is never returned, changed or removed
 * (a `get`, `update` or `remove` of it answers undefined, as a missing row). `insert` stamps the seller on the row
 * and `update` never moves a row to another seller. `scope(customerId, …conds)` is the same condition for the
 * repository's own queries (lists with paging, search, joins).
 *
 *   const providers = tenantTable(logistics_providers);
 *   const row = await providers.get(tx, customerId, id);
 */
export function tenantTable<T extends TTenantScopedTable>(table: T) {
  type TRow = InferSelectModel<T>;
  type TNew = Omit<InferInsertModel<T>, 'customer_id'>;
  type TPatch = Partial<TNew>;
  // The generic table widened for drizzle's builders (their row types are T's: the casts only name them).
  const t = table as PgTable;
  const scope = (customerId: string, ...conds: Array<SQL | undefined>): SQL =>
    and(eq(table.customer_id, customerId), ...conds) as SQL;
  const byId = (customerId: string, id: string) => scope(customerId, eq(table.id, id));
  const withoutOwner = (values: TPatch) => {
    const { customer_id: _ignored, ...rest } = values as TPatch & { customer_id?: unknown };
    return rest;
  };

  return {
    table,
    scope,
    /** The seller's rows (matching `where`, if given), in no particular order. */
    async list(ex: Executor, customerId: string, where?: SQL): Promise<TRow[]> {
      return (await ex.select().from(t).where(scope(customerId, where))) as TRow[];
    },
    /** The seller's row of this id, or undefined (also when it is another seller's). */
    async get(ex: Executor, customerId: string, id: string): Promise<TRow | undefined> {
      const [row] = await ex.select().from(t).where(byId(customerId, id));
      return row as TRow | undefined;
    },
    /** The seller's rows of these ids (ids of other sellers' rows are left out). */
    async byIds(ex: Executor, customerId: string, ids: string[]): Promise<TRow[]> {
      if (!ids.length) return [];
      return (await ex
        .select()
        .from(t)
        .where(scope(customerId, inArray(table.id, ids)))) as TRow[];
    },
    /** Insert a row of the seller (its `customer_id` is the seller's, whatever `values` says). */
    async insert(ex: Executor, customerId: string, values: TNew): Promise<TRow> {
      const row = { ...withoutOwner(values), customer_id: customerId } as InferInsertModel<T>;
      const [inserted] = await ex.insert(t).values(row).returning();
      return inserted as TRow;
    },
    /** Change the seller's row of this id (never its seller): the row after, or undefined when there is none. */
    async update(ex: Executor, customerId: string, id: string, patch: TPatch): Promise<TRow | undefined> {
      const [row] = await ex.update(t).set(withoutOwner(patch)).where(byId(customerId, id)).returning();
      return row as TRow | undefined;
    },
    /** Delete the seller's row of this id: the row deleted, or undefined when there is none. */
    async remove(ex: Executor, customerId: string, id: string): Promise<TRow | undefined> {
      const [row] = await ex.delete(t).where(byId(customerId, id)).returning();
      return row as TRow | undefined;
    },
  };
}
