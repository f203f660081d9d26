import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { migrateDatabase, openDatabase, queryRows, type TDatabase } from '../db/client';
import { JOBS } from '../jobs';
import { JobQueue } from '../platform/jobs';

/**
 * The migrated database every test file starts from, made once per run and engine (vitest's globalSetup,
 * `test/global-setup.ts`): the 35 migrations and the job queue's schema with every queue of `JOBS`. Each file then
 * gets a copy — PGlite loads a dump of the template's data directory (no initdb, no migrations), PostgreSQL creates
 * its database `TEMPLATE` the template database — instead of booting, initialising and migrating its own.
 *
 * The template is found through these environment variables (set by the global set-up before the workers start); a
 * process without them (a script, a single file run outside vitest's set-up) makes its own once, in process.
 */
export const PGLITE_TEMPLATE_ENV = 'WMS_TEST_PGLITE_TEMPLATE';
export const PG_TEMPLATE_ENV = 'WMS_TEST_PG_TEMPLATE';

/** Migrate, install the queue's schema and queues, and leave no job, firing or queue timestamp behind. */
async function fillTemplate(database: TDatabase): Promise<void> {
  await migrateDatabase(database);
  // Handlers never run here (a schedule could fire while the queue starts): the queue is only created.
  const idle = JOBS.map((d) => ({ ...d, handler: async () => null }));
  const queue = new JobQueue(database, idle, { exclusive: database.engine === 'pglite', cronCheckSeconds: 45 });
  await queue.start();
  await queue.stop();
  // A copy starts as a fresh database would: no job (a wake-up's catch-up job, a cron firing), and pg-boss' "last
  // maintained / cron checked" marks empty, so the copy's first cron check runs at once.
  for (const statement of [
    sql`delete from pgboss.job`,
    sql`delete from pgboss.archive`,
    sql`delete from job_files`,
    sql`delete from jobs`,
    sql`delete from cron_periods`,
    sql`update pgboss.version set maintained_on = null, cron_on = null, monitored_on = null`,
  ])
    await queryRows(database.db, statement);
}

/** PGlite: a migrated in-memory database dumped to a tar file; its path. */
export async function makePgliteTemplate(): Promise<string> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await fillTemplate(database);
    const dump = await database.pglite!.dumpDataDir('none');
    const file = path.join(tmpdir(), `wms-pglite-template-${randomBytes(6).toString('hex')}.tar`);
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

/** PostgreSQL: a migrated database on `serverUrl`'s server to copy from; its name and `drop()`. */
export async function makePostgresTemplate(serverUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `wms_tmpl_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  try {
    await fillTemplate(database);
  } finally {
    await database.close();
  }
  // pool.end() resolves before its sockets are closed; a copy is refused while any session is still connected.
  const a = new pg.Client({ connectionString: serverUrl });
  await a.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await a.end();
  }
  return {
    name,
    drop: async () => {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      try {
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

let pgliteDump: Promise<Uint8Array> | null = null;

/** A new in-memory PGlite holding a copy of the template (made in this process when no global set-up made one). */
export async function pgliteFromTemplate(): Promise<PGlite> {
  pgliteDump ??= (async () => {
    const given = process.env[PGLITE_TEMPLATE_ENV];
    if (given) return readFileSync(given);
    const file = await makePgliteTemplate();
    try {
      return readFileSync(file);
    } finally {
      rmSync(file, { force: true });
    }
  })();
  const tarball = await pgliteDump;
  const client = new PGlite({ loadDataDir: new Blob([tarball as Uint8Array<ArrayBuffer>]) });
  await client.waitReady;
  return client;
}

let pgTemplate: Promise<string> | null = null;

/**
 * The template database's name on `serverUrl`'s server: the global set-up's, or one made by this process (dropped
 * when the process exits — best effort; its name marks it as a test template).
 */
export function postgresTemplate(serverUrl: string): Promise<string> {
  pgTemplate ??= (async () => {
    const given = process.env[PG_TEMPLATE_ENV];
    if (given) return given;
    const made = await makePostgresTemplate(serverUrl);
    process.once('beforeExit', () => void made.drop().catch(() => undefined));
    return made.name;
  })();
  return pgTemplate;
}
