import type { Executor } from '../db/client';
import { taipeiDay } from './calendar';
import { advanceSequence } from './sequences.repository';

/**
 * Human-readable document numbers per customer, prefix and Taipei day, e.g. `IN202611220001`: `count` consecutive
 * ones in one statement (an import numbers thousands of orders at once).
 *
 * On PostgreSQL the counter row is advanced in a statement of its own, committed at once (`ownStatement`), not in
 * the caller's transaction: its row lock lasts one statement, so a 40,000-row import no longer makes the seller's
 * other documents wait for the import to commit. Numbers are unique and increasing; like a PostgreSQL sequence, a
 * document whose transaction rolls back leaves a gap. On PGlite (one connection, everything in turn) the counter moves
 * in the caller's transaction and stays gap-free.
 */
export async function nextDocumentNumbers(
  ex: Executor,
  customerId: string,
  prefix: string,
  count: number,
  now: Date = new Date(),
): Promise<string[]> {
  if (count === 0) return [];
  const day = taipeiDay(now);
  const last = await advanceSequence(ex, customerId, prefix, day, count);
  return Array.from({ length: count }, (_, i) => `${prefix}${day}${String(last - count + 1 + i).padStart(4, '0')}`);
}

/** The next document number (see `nextDocumentNumbers`). */
export async function nextDocumentNumber(
  ex: Executor,
  customerId: string,
  prefix: string,
  now: Date = new Date(),
): Promise<string> {
  return (await nextDocumentNumbers(ex, customerId, prefix, 1, now))[0]!;
}
