import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import {
  type PgColumn,
  type PgDatabase,
  PgDialect,
  type PgQueryResultHKT,
  type PgTable,
  PgTransaction,
} from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm/relations';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { ReplicaReads } from './replica';
import * as schema from './schema';

export type TSchema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, TSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, TSchema, ExtractTablesWithRelations<TSchema>>;
/** What a repository function takes as its first argument: the transaction (or the db for plain reads). */
export type Executor = Db | Tx;

/**
 * Run independent reads and get their results in order: at once on the pool (each on its own connection), one after
 * another inside a transaction — a transaction is one client, and pg queues overlapping queries on one client with a
 * deprecation warning (pg 9 refuses them). Pass functions, so that nothing starts before its turn.
 */
export async function allOf<T extends readonly (() => unknown)[] | []>(
  ex: Executor,
  queries: T,
): Promise<{ -readonly [K in keyof T]: T[K] extends () => infer R ? Awaited<R> : never }> {
  type TOut = { -readonly [K in keyof T]: T[K] extends () => infer R ? Awaited<R> : never };
  if (!(ex instanceof PgTransaction)) return (await Promise.all(queries.map((q) => q()))) as TOut;
  const out: unknown[] = [];
  for (const q of queries) out.push(await q());
  return out as TOut;
}

export const MIGRATIONS_FOLDER = path.join(import.meta.dirname, 'migrations');

export interface TDatabase {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The pg pool when engine is postgres. */
  pool?: pg.Pool;
  /** The pool `preparedRows` reads on outside a transaction (PostgreSQL: generic plans only; see there). */
  readPool?: pg.Pool;
  /**
   * PostgreSQL: a small pool on PostgreSQL itself (`directUrl`), for what holds session state — the session advisory
   * locks of migrations and of the job queue's set-up, the job wake-ups' LISTEN. Without a pooler it is `pool`.
   */
  directPool?: pg.Pool;
  /**
   * True when `pool` goes through a transaction pooler (pgbouncer `pool_mode = transaction`: `directUrl` given and
   * not the URL): no named prepared statements, no start-up `options`, nothing that outlives a transaction.
   */
  pooled?: boolean;
  /** The streaming replica's reads (`replicaUrl`), when one is given: see db/replica.ts. */
  replica?: ReplicaReads<Db>;
  /** The embedded database when engine is pglite (its one connection). */
  pglite?: PGlite;
  close(): Promise<void>;
}

const sidePools = new WeakMap<object, pg.Pool>();
/**
 * The pools (and their clients) behind a transaction pooler, and the replica's: `preparedRows` sends unnamed statements
 * there. A named statement lives in one server session, and pgbouncer (1.18, transaction mode) hands each transaction
 * any server session: the next Bind of the name would find none there ("prepared statement … does not exist").
 */
const unnamedOnly = new WeakSet<object>();
function sendsUnnamed(pool: pg.Pool): void {
  unnamedOnly.add(pool);
  pool.on('connect', (client) => unnamedOnly.add(client));
}
/** The read pool of a main pool, as a drizzle database (`preparedRows` outside a transaction). */
const readDbs = new WeakMap<object, Db>();

/**
 * Run one statement in a transaction of its own — committed at once, whatever the caller's transaction `ex` does next
 * — on PostgreSQL (through the side pool of `ex`'s database). On PGlite (one connection: a second transaction would
 * wait for the caller's) and for an executor this module did not open, it runs in `ex`. For counters whose row lock
 * must not last as long as the caller's transaction (document numbers during a 40,000-row import).
 */
export async function ownStatement<T>(ex: Executor, query: SQL): Promise<T[]> {
  const holder = ex as unknown as { session?: { client?: object }; $client?: object };
  const client = holder.session?.client ?? holder.$client;
  const side = client ? sidePools.get(client) : undefined;
  if (!side) return queryRows<T>(ex, query);
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  return (await side.query(text, params as unknown[])).rows as T[];
}

/**
 * The URL with `plan_cache_mode = force_generic_plan` in the session's start-up options (no statement of its own),
 * after the options the URL or PGOPTIONS already give.
 */
function withGenericPlans(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const given = url.searchParams.get('options') ?? process.env.PGOPTIONS ?? '';
  url.searchParams.set('options', `${given} -c plan_cache_mode=force_generic_plan`.trim());
  return url.toString();
}

/** Where a lost database connection is told: one JSON log line (never a stack on stderr). */
export type TConnectionLog = { warn(obj: object, msg: string): void };

/**
 * Every pg client of `pool` handles a lost connection (the server stopped, restarted, failed over, or ended the
 * session). Without a listener, a client that loses its connection emits an 'error' nobody hears — an uncaught
 * exception that ends the process. An idle client's error the pool reports itself ('error' on the pool; it has
 * dropped that client); a checked-out client — a transaction in progress, an advisory-lock holder, a LISTEN
 * connection — emits it on the client, so each one gets a listener when the pool opens it. Its query (if any) fails
 * with the error, its holder releases it, and the pool, finding it unusable, drops it; the next checkout connects
 * anew. Lines are told at most once per second per pool.
 */
function survivesLostConnections(pool: pg.Pool, name: string, log?: TConnectionLog): void {
  let lastLogged = 0;
  let unlogged = 0;
  const report = (err: Error) => {
    unlogged++;
    if (!log || Date.now() - lastLogged < 1000) return;
    lastLogged = Date.now();
    log.warn(
      { pool: name, err: { message: err.message, code: (err as { code?: string }).code }, errors: unlogged },
      'database connection lost',
    );
    unlogged = 0;
  };
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
}

/** Open PostgreSQL when a URL is given, else PGlite in `dataDir` (or in memory when dataDir is 'memory://'). */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite: this (ready) in-memory database instead of a new one (tests: a copy of the migrated template). */
  pglite?: PGlite;
  poolSize?: number;
  /**
   * PostgreSQL itself when `databaseUrl` is a transaction pooler (DATABASE_DIRECT_URL): session advisory locks and
   * LISTEN go there. Unset or equal to `databaseUrl`: no pooler.
   */
  directUrl?: string;
  /** A streaming replica of the database (DATABASE_REPLICA_URL): see db/replica.ts. */
  replicaUrl?: string;
  /** PostgreSQL: where lost connections are told (the process's logger); else they are only survived. */
  log?: TConnectionLog;
}): Promise<TDatabase> {
  if (opts.databaseUrl) {
    const pooled = !!opts.directUrl && opts.directUrl !== opts.databaseUrl;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    survivesLostConnections(pool, 'main', opts.log);
    // Numeric and bigint come back as strings by default; keep money exact, but give counts as numbers.
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    // A second, small pool for statements that commit on their own while the caller's transaction goes on
    // (`ownStatement`): never the main pool, so a request that holds a connection never waits for another one there.
    const side = new pg.Pool({ connectionString: opts.databaseUrl, max: 2, idleTimeoutMillis: 10_000 });
    survivesLostConnections(side, 'side', opts.log);
    sidePools.set(pool, side);
    pool.on('connect', (client) => sidePools.set(client, side));
    const ends: pg.Pool[] = [side];
    let reads: pg.Pool | undefined;
    let direct = pool;
    if (pooled) {
      // Behind pgbouncer: statements unnamed (no generic-plan read pool: pgbouncer refuses the start-up `options` it
      // is set by, and a plan kept in one server session is no use to the next transaction), and a direct pool for
      // session state (advisory locks held across statements, LISTEN).
      sendsUnnamed(pool);
      direct = new pg.Pool({ connectionString: opts.directUrl, max: 3, idleTimeoutMillis: 10_000 });
      survivesLostConnections(direct, 'direct', opts.log);
      ends.push(direct);
    } else {
      // The hot list reads' pool (`preparedRows` outside a transaction): its sessions keep generic plans for the named
      // statements they prepare, so such a read is never planned again (see preparedRows). Every statement on it is one.
      reads = new pg.Pool({ connectionString: withGenericPlans(opts.databaseUrl), max: opts.poolSize ?? 10 });
      survivesLostConnections(reads, 'reads', opts.log);
      readDbs.set(pool, drizzlePg(reads, { schema, casing: 'snake_case' }) as unknown as Db);
      ends.push(reads);
    }
    let replica: ReplicaReads<Db> | undefined;
    if (opts.replicaUrl) {
      const replicaPool = new pg.Pool({
        connectionString: opts.replicaUrl,
        max: opts.poolSize ?? 10,
        // A replica that does not answer is given up on soon: the primary answers the read instead.
        connectionTimeoutMillis: 2_000,
      });
      survivesLostConnections(replicaPool, 'replica', opts.log);
      sendsUnnamed(replicaPool);
      ends.push(replicaPool);
      replica = new ReplicaReads<Db>(
        db,
        pool,
        replicaPool,
        drizzlePg(replicaPool, { schema, casing: 'snake_case' }) as unknown as Db,
      );
    }
    return {
      db,
      engine: 'postgres',
      pool,
      directPool: direct,
      pooled,
      readPool: reads,
      replica,
      close: async () => {
        try {
          await pool.end();
        } finally {
          await Promise.all(ends.map((p) => p.end()));
        }
      },
    };
  }
  let client: PGlite;
  if (opts.pglite) {
    client = opts.pglite;
  } else if (!opts.dataDir || opts.dataDir === 'memory://') {
    client = new PGlite();
  } else {
    const dir = path.join(opts.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    const release = lockDataDir(opts.dataDir);
    try {
      client = new PGlite(dir);
      await client.waitReady;
    } catch (err) {
      release();
      throw err;
    }
    const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      db,
      engine: 'pglite',
      pglite: client,
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return { db, engine: 'pglite', pglite: client, close: () => client.close() };
}

/** Apply committed SQL migrations. On PostgreSQL an advisory lock keeps several app processes from racing. */
export async function migrateDatabase(database: TDatabase): Promise<void> {
  if (database.engine === 'postgres') {
    // A session lock: on PostgreSQL itself (the direct pool), never through a transaction pooler.
    const lock = await (database.directPool ?? database.pool!).connect();
    try {
      await lock.query('select pg_advisory_lock(72061)');
      // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type
      await migratePg(database.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await lock.query('select pg_advisory_unlock(72061)').catch(() => undefined);
      lock.release();
    }
    return;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type
  await migratePglite(database.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** Raw SQL through either driver: both answer with `{ rows }`. */
export async function queryRows<T>(tx: Executor, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Statements with more bind parameters are not worth keeping prepared (their text varies with a list's length). */
const PREPARED_MAX_PARAMS = 64;

interface TPreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    arrayMode: boolean,
  ): { execute(): Promise<{ rows: unknown[] }> };
}

/**
 * `queryRows` for a hot read whose text does not vary from call to call (filters may add clauses; each distinct text is
 * its own statement): on PostgreSQL it runs as a named prepared statement, so each pooled connection parses it once,
 * and outside a transaction it runs on the database's read pool, whose sessions use the statement's generic plan
 * (`plan_cache_mode = force_generic_plan`): it is planned once per connection, never per call. Left to itself
 * (`auto`) PostgreSQL kept planning every call of the list pages — their generic plans look costlier because a
 * LIMIT/OFFSET parameter is costed as 10 % of the rows — and planning cost more than running them (product stock page
 * 1.3 ms planning against 0.9 ms running, order list 0.9 against 1.8; issue #20). The generic plans of these
 * statements were checked with EXPLAIN on skewed data (docs/BENCHMARKS.md). Inside a transaction it runs on the
 * transaction's connection (plans as PostgreSQL chooses). PGlite (one in-process connection) runs it as `queryRows`.
 */
export async function preparedRows<T>(ex: Executor, query: SQL): Promise<T[]> {
  // biome-ignore lint/suspicious/noExplicitAny: drizzle's session and dialect are internal to its executors
  const { session, dialect } = ex as any;
  if (!(session instanceof NodePgSession)) return queryRows<T>(ex, query);
  if (unnamedOnly.has((session as unknown as { client: object }).client)) return queryRows<T>(ex, query);
  const built = (dialect as PgDialect).sqlToQuery(query);
  if (built.params.length > PREPARED_MAX_PARAMS) return queryRows<T>(ex, query);
  const name = `q${createHash('sha1').update(built.sql).digest('base64url').slice(0, 24)}`;
  const read = ex instanceof PgTransaction ? undefined : readDbs.get((session as unknown as { client: object }).client);
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const on = read ? ((read as any).session as TPreparingSession) : (session as unknown as TPreparingSession);
  const result = await on.prepareQuery(built, undefined, name, false).execute();
  return result.rows as T[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Many uuids as ONE bind parameter, for `column = any(${uuidArray(ids)})`: drizzle's `inArray` sends a parameter per
 * id (thousands for a bulk chunk: each built, sent and parsed, and a new plan per list length). Ids are checked to be
 * uuids (they come from the database or a validated contract; anything else is a programming error).
 */
export function uuidArray(ids: Iterable<string>): SQL {
  const list = [...ids];
  for (const id of list) if (!UUID.test(id)) throw new Error(`uuidArray: not a uuid: ${JSON.stringify(id)}`);
  return sql`${`{${list.join(',')}}`}::uuid[]`;
}

/**
 * Insert many rows with one parameter: the rows as one JSON array of value arrays, unpacked in PostgreSQL by
 * `jsonb_array_elements` and cast to each column's SQL type from the schema. A multi-row `VALUES` costs a parameter
 * per cell — built one by one by drizzle and sent one by one by pg, seconds of CPU for a 50,000-order import — this
 * costs one string, without property names (a few hundred rows stay a small string the young generation frees). Only
 * `columns` are written (the others take their defaults), each from the row's property of that name (the schema
 * names properties as its columns). `suffix` follows the insert (`on conflict …`, `returning …`).
 */
export async function insertJsonRows<R = never>(
  ex: Executor,
  table: PgTable,
  columns: readonly string[],
  rows: ReadonlyArray<Record<string, unknown>>,
  suffix?: SQL,
): Promise<R[]> {
  // An undefined value is written as null, as `values` would send it.
  return insertJsonTuples<R>(
    ex,
    table,
    columns,
    rows.map((r) => columns.map((c) => r[c] ?? null)),
    suffix,
  );
}

/**
 * `insertJsonRows` with each row given as its values in `columns` order (a caller writing many rows builds the arrays
 * the JSON is made of, without an object per row first).
 */
export async function insertJsonTuples<R = never>(
  ex: Executor,
  table: PgTable,
  columns: readonly string[],
  tuples: ReadonlyArray<readonly unknown[]>,
  suffix?: SQL,
): Promise<R[]> {
  if (tuples.length === 0) return [];
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const values = columns.map((key, i) => {
    const column = all[key];
    if (!column || column.name !== key) throw new Error(`insertJsonRows: ${key} is no column of its own name`);
    const type = column.getSQLType();
    // `->>` reads the value as text (null stays null), cast to the column's type; a json column takes it as json.
    return type === 'jsonb' || type === 'json' ? sql.raw(`(v -> ${i})::${type}`) : sql.raw(`(v ->> ${i})::${type}`);
  });
  const names = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const json = JSON.stringify(tuples);
  return queryRows<R>(
    ex,
    sql`insert into ${table} (${names}) select ${sql.join(values, sql`, `)} from jsonb_array_elements(${json}::jsonb) as v ${suffix ?? sql``}`,
  );
}

/** One round trip to the database (`select 1`): the health and readiness probes. */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}
