import type pg from 'pg';

/** A WAL position `X/Y` (both hex) as one number, to compare. */
export function lsnValue(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * Read-heavy calls on a streaming replica (DATABASE_REPLICA_URL), with read-your-writes: a writer's next read never
 * sees older data than it wrote.
 *
 * After a write request of a scope (a seller, or a user without one) commits, `markWrite` stores the primary's WAL
 * insert position (`pg_current_wal_insert_lsn()`: at or past the end of the commit record just written) in the
 * `read_marks` table of the primary — shared by every app process, so the next request may land on any of them. A
 * read of that scope (`dbFor`) is sent to the replica only when the replica has replayed up to that mark
 * (`pg_last_wal_replay_lsn()`); otherwise, or when the replica does not answer, it reads on the primary. The highest
 * replay position seen is kept (it only grows), so a scope that has not written lately costs one primary lookup by key
 * and no replica round trip. `Db` is the drizzle database type of db/client.ts (a parameter: no import loop).
 */
export class ReplicaReads<Db> {
  private replayed = -1n;
  /** After a failed read on the replica, reads go to the primary until then. */
  private downUntil = 0;
  static readonly RESTING_MS = 5_000;
  /**
   * Reads answered by the replica and by the primary since start, and how many of the primary's were the replica's
   * first but failed there (tests, diagnostics).
   */
  readonly served = { replica: 0, primary: 0, fallbacks: 0 };

  constructor(
    private readonly primary: Db,
    private readonly primaryPool: pg.Pool,
    private readonly replicaPool: pg.Pool,
    /** The replica as a drizzle database. */
    readonly db: Db,
  ) {}

  /** Remember where the primary's WAL stands after `scope`'s write (call after its transaction committed). */
  async markWrite(scope: string): Promise<void> {
    await this.primaryPool.query(
      `insert into read_marks (scope, lsn, at) values ($1, pg_current_wal_insert_lsn(), now())
       on conflict (scope) do update set lsn = greatest(read_marks.lsn, excluded.lsn), at = excluded.at`,
      [scope],
    );
  }

  /** A read sent to the replica failed there and is being answered by the primary (platform/replica.ts readOn). */
  fellBack(): void {
    // Left alone for a few seconds (each read would otherwise try it first), then asked again from scratch.
    this.downUntil = Date.now() + ReplicaReads.RESTING_MS;
    this.replayed = -1n;
    this.served.replica--;
    this.served.primary++;
    this.served.fallbacks++;
  }

  /** The replica's replay position now (null: not a replica, or unreachable). */
  private async replayPosition(): Promise<bigint | null> {
    try {
      const { rows } = await this.replicaPool.query<{ lsn: string | null }>(
        'select pg_last_wal_replay_lsn()::text as lsn',
      );
      return rows[0]?.lsn ? lsnValue(rows[0].lsn) : null;
    } catch {
      return null;
    }
  }

  /** Where a read of `scope` goes: the replica when it has replayed the scope's latest write, else the primary. */
  async dbFor(scope: string | null): Promise<Db> {
    if (Date.now() < this.downUntil) {
      this.served.primary++;
      return this.primary;
    }
    let needed = 0n;
    if (scope) {
      const { rows } = await this.primaryPool.query<{ lsn: string }>(
        'select lsn::text as lsn from read_marks where scope = $1',
        [scope],
      );
      if (rows[0]) needed = lsnValue(rows[0].lsn);
    }
    if (needed > this.replayed) {
      const now = await this.replayPosition();
      if (now !== null && now > this.replayed) this.replayed = now;
    }
    if (this.replayed >= 0n && needed <= this.replayed) {
      this.served.replica++;
      return this.db;
    }
    this.served.primary++;
    return this.primary;
  }
}
