import { sql } from 'drizzle-orm';
import { type Executor, ownStatement } from '../db/client';

/**
 * The document counters' data access (doc_sequences): advance the counter of a seller, prefix and day by `count`,
 * in a statement of its own on PostgreSQL (`ownStatement`; see sequences.ts). Answers the counter's new last value.
 */
export async function advanceSequence(
  ex: Executor,
  customerId: string,
  prefix: string,
  day: string,
  count: number,
): Promise<number> {
  const rows = await ownStatement<{ last_value: number }>(
    ex,
    sql`insert into doc_sequences (customer_id, prefix, day, last_value) values (${customerId}, ${prefix}, ${day}, ${count})
        on conflict (customer_id, prefix, day) do update set last_value = doc_sequences.last_value + ${count}
        returning last_value`,
  );
  return Number(rows[0]!.last_value);
}
