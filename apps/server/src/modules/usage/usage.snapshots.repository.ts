import { and, eq, max } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { usage_snapshot_runs, usage_storage_snapshots } from '../../db/schema';

/** SQL of the daily storage snapshots: the runs (one per warehouse and day) and what each seller stored. */

export type TSnapshotRow = typeof usage_storage_snapshots.$inferSelect;

/** The last day the snapshot ran for a warehouse, or null. */
export async function lastSnapshotDay(ex: Executor, warehouseId: string): Promise<string | null> {
  const [row] = await ex
    .select({ day: max(usage_snapshot_runs.day) })
    .from(usage_snapshot_runs)
    .where(eq(usage_snapshot_runs.warehouse_id, warehouseId));
  return row?.day ?? null;
}

/**
 * Claim a warehouse's day for the snapshot: false when it ran already (or another process runs it: on PostgreSQL the
 * second insert waits for the first's commit, then finds the row).
 */
export async function claimSnapshotDay(ex: Executor, warehouseId: string, day: string): Promise<boolean> {
  const rows = await ex
    .insert(usage_snapshot_runs)
    .values({ warehouse_id: warehouseId, day, sellers: 0 })
    .onConflictDoNothing()
    .returning({ day: usage_snapshot_runs.day });
  return rows.length > 0;
}

export async function setSnapshotSellers(ex: Executor, warehouseId: string, day: string, sellers: number) {
  await ex
    .update(usage_snapshot_runs)
    .set({ sellers })
    .where(and(eq(usage_snapshot_runs.warehouse_id, warehouseId), eq(usage_snapshot_runs.day, day)));
}

export async function insertSnapshot(
  ex: Executor,
  values: Omit<TSnapshotRow, 'id' | 'created_at'>,
): Promise<TSnapshotRow> {
  const [row] = await ex.insert(usage_storage_snapshots).values(values).returning();
  return row!;
}

export async function findSnapshot(ex: Executor, id: string, customerId?: string): Promise<TSnapshotRow | null> {
  const [row] = await ex
    .select()
    .from(usage_storage_snapshots)
    .where(
      customerId
        ? and(eq(usage_storage_snapshots.id, id), eq(usage_storage_snapshots.customer_id, customerId))
        : eq(usage_storage_snapshots.id, id),
    );
  return row ?? null;
}
