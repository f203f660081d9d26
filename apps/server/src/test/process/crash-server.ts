import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFetchClient, type TRouteClient } from '@wms/contracts/client';
import { type Db, migrateDatabase, openDatabase } from '../../db/client';
import { createScratchDatabase } from '../harness';

/**
 * The crash tests' process harness: the real server (`src/main.ts`, as `npm start` runs it) as a child process on a
 * database that outlives it — a PGlite directory, or a scratch database on the test's PostgreSQL — so a test can
 * kill it with SIGKILL mid-work and start it again on the same data. Used by the crash-safety suite and Shopee's
 * kill -9 tests.
 */

const root = path.resolve(import.meta.dirname, '../../../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the killed server's data lives between its lives, and the secrets every life shares. */
export interface TCrashTarget {
  dataDir: string;
  databaseUrl: string | undefined;
  secrets: { JWT_SECRET: string; APP_SECRET_KEY: string };
  /** Kill every server still running, drop the scratch database, remove the data directory. */
  dispose(): Promise<void>;
}

export interface TCrashServer {
  child: ChildProcessWithoutNullStreams;
  base: string;
  /** The typed route client over HTTP against this process. */
  api: TRouteClient;
  /** Resolves with the signal (`SIGKILL`) or the exit code (`0`) once the process ended. */
  exited: Promise<string>;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
}

const running = new Set<ChildProcessWithoutNullStreams>();

export async function crashTarget(prefix: string): Promise<TCrashTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `wms-${prefix}-`));
  let databaseUrl: string | undefined;
  let drop: () => Promise<void> = async () => {};
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    drop = scratch.drop;
  }
  return {
    dataDir,
    databaseUrl,
    secrets: { JWT_SECRET: randomBytes(32).toString('hex'), APP_SECRET_KEY: randomBytes(32).toString('hex') },
    async dispose() {
      for (const c of [...running]) c.kill('SIGKILL');
      await sleep(200);
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Open the target's database (PGlite: only while no server runs on it), migrate, work, close. */
export async function withDatabase<T>(target: TCrashTarget, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase(
    target.databaseUrl ? { databaseUrl: target.databaseUrl, poolSize: 2 } : { dataDir: target.dataDir },
  );
  try {
    await migrateDatabase(database);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/**
 * Start the server on the target; resolves once it listens. PostgreSQL: a job whose heartbeat stopped 4 s ago lost
 * its process (`JOB_STALE_SECONDS`, default 60 s); PGlite recovers every running job at start.
 */
export async function startCrashServer(target: TCrashTarget, env: Record<string, string> = {}): Promise<TCrashServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...target.secrets,
      DATA_DIR: target.dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(target.dataDir, 'no-web'),
      JOB_STALE_SECONDS: '4',
      ...env,
    },
  });
  running.add(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d;
  });
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(signal ?? String(code));
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /running on http:\/\/localhost:(\d+)/.exec(out);
    if (m) {
      const base = `http://127.0.0.1:${m[1]}`;
      return { child, base, api: createFetchClient(base), exited, output: () => out };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${out}`);
    await sleep(50);
  }
}

/** SIGKILL: no shutdown hook runs, open transactions die with the process. Resolves once it is gone. */
export async function kill9(server: TCrashServer): Promise<string> {
  process.kill(server.child.pid!, 'SIGKILL');
  return server.exited;
}

/** SIGTERM: the graceful stop. Resolves with its exit code (`'0'` when the stop was clean). */
export async function stopServer(server: TCrashServer): Promise<string> {
  server.child.kill('SIGTERM');
  return server.exited;
}
