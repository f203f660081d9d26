import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { usage_charges, usage_disputes } from '../../db/schema';

/** SQL of statement disputes (their corrections are charges: usage.repository.ts). */

export type TDisputeRow = typeof usage_disputes.$inferSelect;

export async function insertDispute(
  ex: Executor,
  values: Pick<
    TDisputeRow,
    'customer_id' | 'statement_id' | 'kind' | 'event_id' | 'ticket_id' | 'reason' | 'created_by'
  >,
): Promise<TDisputeRow> {
  const [row] = await ex.insert(usage_disputes).values(values).returning();
  return row!;
}

export async function findDispute(ex: Executor, id: string, lock = false): Promise<TDisputeRow | null> {
  const q = ex.select().from(usage_disputes).where(eq(usage_disputes.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function updateDispute(
  ex: Executor,
  id: string,
  values: Partial<Pick<TDisputeRow, 'status' | 'answer' | 'correction_id' | 'resolved_by' | 'resolved_at'>>,
): Promise<TDisputeRow> {
  const [row] = await ex
    .update(usage_disputes)
    .set({ ...values, updated_at: new Date() })
    .where(eq(usage_disputes.id, id))
    .returning();
  return row!;
}

/** A statement's disputes, oldest first, each with its correction event (if any). */
export async function statementDisputes(ex: Executor, statementId: string) {
  return ex
    .select({ dispute: usage_disputes, correction: usage_charges })
    .from(usage_disputes)
    .leftJoin(usage_charges, eq(usage_charges.id, usage_disputes.correction_id))
    .where(eq(usage_disputes.statement_id, statementId))
    .orderBy(asc(usage_disputes.created_at));
}
