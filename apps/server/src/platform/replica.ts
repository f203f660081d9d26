import type { Db, TDatabase } from '../db/client';
import { sqlState } from '../db/tx';
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

/**
 * True for an error of the replica rather than of the read: a statement cancelled by a recovery conflict (40001 on a
 * hot standby), a server shutting down or starting (57P0x), a lost or refused connection (class 08, or no SQLSTATE).
 */
function replicaTrouble(err: unknown): boolean {
  const code = sqlState(err);
  if (!code) return true;
  return code === '40001' || code.startsWith('57P') || code.startsWith('08');
}

/**
 * Run a read-heavy call's `work` on `readDb`'s choice; when it was the replica and the replica failed it (see
 * `replicaTrouble`), run it again on the primary — a reader never gets an error for the replica's sake.
 */
export async function readOn<T>(database: TDatabase, actor: TActor | null, work: (db: Db) => Promise<T>): Promise<T> {
  const db = await readDb(database, actor);
  if (db === database.db) return work(db);
  try {
    return await work(db);
  } catch (err) {
    if (!replicaTrouble(err)) throw err;
    database.replica!.fellBack();
    return work(database.db);
  }
}
