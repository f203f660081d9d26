import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client';
import { taipeiDay } from './calendar';

/**
 * Next human-readable document number for a customer, e.g. `IN202611220001`. The sequence row is upserted and
 * locked in the caller's transaction, so numbers are unique and gap-free per customer, prefix and day.
 */
export async function nextDocumentNumber(
  tx: Tx,
  customerId: string,
  prefix: string,
  now: Date = new Date(),
): Promise<string> {
  const day = taipeiDay(now);
  const rows = await queryRows<{ last_value: number }>(
    tx,
    sql`
    insert into doc_sequences (customer_id, prefix, day, last_value) values (${customerId}, ${prefix}, ${day}, 1)
    on conflict (customer_id, prefix, day) do update set last_value = doc_sequences.last_value + 1
    returning last_value`,
  );
  const value = Number(rows[0]!.last_value);
  return `${prefix}${day}${String(value).padStart(4, '0')}`;
}
