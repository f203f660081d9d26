import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { allOf, type Executor } from '../../db/client';
import { integration_attempts } from '../../db/schema';

export type TAttemptRow = typeof integration_attempts.$inferSelect;

/** A seller's recorded outgoing calls, newest first, with the total for paging. */
export async function listAttempts(
  ex: Executor,
  customerId: string,
  filter: { provider?: string; reference?: string; limit: number; offset: number },
): Promise<{ rows: TAttemptRow[]; count: number }> {
  const where: SQL[] = [eq(integration_attempts.customer_id, customerId)];
  if (filter.provider) where.push(eq(integration_attempts.provider, filter.provider));
  if (filter.reference) where.push(eq(integration_attempts.reference, filter.reference));
  const [rows, total] = await allOf(ex, [
    () =>
      ex
        .select()
        .from(integration_attempts)
        .where(and(...where))
        .orderBy(desc(integration_attempts.created_at), desc(integration_attempts.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () =>
      ex
        .select({ n: count() })
        .from(integration_attempts)
        .where(and(...where)),
  ]);
  return { rows, count: total[0]?.n ?? 0 };
}
