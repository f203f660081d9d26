import type { SQL } from 'drizzle-orm';
import type { Tx } from '../db/client';

/**
 * How a module's finished rows of one kind are purged (module retention, /database-clean): the module that owns the
 * table declares it in its repository and exports it from its index.ts; the retention module lists the kinds and
 * runs them (count, export, batches of deletes), never writing another module's table itself.
 */
export interface TPurgeKind {
  table: string;
  /** Condition on alias `t`: the seller's rows of this kind finished before the cut-off (a `timestamptz`). */
  where(customerId: string, cutoff: SQL): SQL;
  /** Export columns (alias `t`): reference, status, finished at, detail. */
  exportSelect: SQL;
  /** Delete one batch (ids from the select, as text) and what points at it; returns how many rows went. */
  purge(tx: Tx, customerId: string, ids: string[]): Promise<number>;
}
