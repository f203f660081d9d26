import { and, asc, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { billing_payments, billing_reconciliation_items, customers, users } from '../../db/schema';
import { countAll } from '../../platform/listing';

/**
 * The daily reconciliation's data access (SQL only, the executor first): billing_reconciliation_items, and the day's
 * billing_payments. The staff's list shows each item's seller and resolver by name: `selectItems` joins customers and
 * users read-only for that.
 */

export type TReconciliationItemRow = typeof billing_reconciliation_items.$inferSelect;
export type TReconciliationItemInsert = typeof billing_reconciliation_items.$inferInsert;

/** Our payment records made in [from, to). */
export async function paymentsCreatedBetween(ex: Executor, from: Date, to: Date) {
  return ex
    .select()
    .from(billing_payments)
    .where(and(gte(billing_payments.created_at, from), lt(billing_payments.created_at, to)));
}

/** Keeps a difference once (day, gateway, kind, order number): true when it is new. */
export async function insertItemOnce(ex: Executor, item: TReconciliationItemInsert): Promise<boolean> {
  const inserted = await ex.insert(billing_reconciliation_items).values(item).onConflictDoNothing().returning();
  return inserted.length > 0;
}

const resolver = sql<
  string | null
>`(select ${users.name} from ${users} where ${users.id} = ${billing_reconciliation_items.resolved_by})`;

function selectItems(ex: Executor, where: SQL | undefined) {
  return ex
    .select({
      item: billing_reconciliation_items,
      customer_name: customers.name,
      resolved_by_name: resolver,
    })
    .from(billing_reconciliation_items)
    .leftJoin(customers, eq(customers.id, billing_reconciliation_items.customer_id))
    .where(where);
}

export type TItemWithNames = Awaited<ReturnType<typeof selectItems>>[number];

/** A page of the items (open first, newest day first), and how many match. */
export async function itemPage(
  ex: Executor,
  status: 'open' | 'resolved' | undefined,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: TItemWithNames[] }> {
  const where = status ? eq(billing_reconciliation_items.status, status) : undefined;
  const [count] = await ex.select({ n: countAll }).from(billing_reconciliation_items).where(where);
  const rows = await selectItems(ex, where)
    .orderBy(
      // Open first, newest day first.
      desc(sql`${billing_reconciliation_items.status} = 'open'`),
      desc(billing_reconciliation_items.day),
      asc(billing_reconciliation_items.order_number),
    )
    .limit(page.limit)
    .offset(page.offset);
  return { count: count!.n, rows };
}

/** One item with its names. */
export async function findItemWithNames(ex: Executor, id: string): Promise<TItemWithNames | undefined> {
  const [row] = await selectItems(ex, eq(billing_reconciliation_items.id, id));
  return row;
}

export async function lockItem(tx: Tx, id: string): Promise<TReconciliationItemRow | undefined> {
  const [row] = await tx
    .select()
    .from(billing_reconciliation_items)
    .where(eq(billing_reconciliation_items.id, id))
    .for('update');
  return row;
}

export async function markItemResolved(tx: Tx, id: string, resolution: string, resolvedBy: string | null) {
  await tx
    .update(billing_reconciliation_items)
    .set({
      status: 'resolved',
      resolution,
      resolved_by: resolvedBy,
      resolved_at: new Date(),
      updated_at: new Date(),
    })
    .where(eq(billing_reconciliation_items.id, id));
}
