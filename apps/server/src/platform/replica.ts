import type { Db, TDatabase } from '../db/client';
import type { TActor } from './auth';

/**
 * Whose writes a read must see (db/replica.ts): a seller's users, members and API keys share their seller's scope; a
 * user without a seller (warehouse staff) has their own. The system actor has none.
 */
export function writerScope(actor: TActor | null): string | null {
  if (!actor) return null;
  if (actor.customerId) return `c:${actor.customerId}`;
  return actor.id ? `u:${actor.id}` : null;
}

/**
 * The database a read-heavy call of `actor` reads on: the streaming replica when one is configured and has replayed
 * the actor's latest write, else the primary (docs/ARCHITECTURE.md, "pgbouncer and replicas", lists the routes).
 */
export function readDb(database: TDatabase, actor: TActor | null): Promise<Db> | Db {
  return database.replica ? database.replica.dbFor(writerScope(actor)) : database.db;
}

/** After a write of `actor` committed: the mark its next replica read waits for (nothing without a replica). */
export async function markWrite(database: TDatabase, actor: TActor | null): Promise<void> {
  const scope = writerScope(actor);
  if (database.replica && scope) await database.replica.markWrite(scope);
}
