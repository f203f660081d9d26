import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { createDeps } from './bootstrap';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { readDemoLogins, saveDemoLogins } from './modules/seed/demo-logins';
import { seedDemoData } from './modules/seed/seed.service';
import { createLogger } from './platform/logger';

/** Set once the configuration is read: a start-up failure after that is a pino line too. */
let log: ReturnType<typeof createLogger> | null = null;

async function main(): Promise<void> {
  const config = loadConfig();
  // One pino logger for the process: start-up, Fastify's requests, the job runner, the mailer and shutdown.
  log = createLogger(config);
  installLastResort(log);
  const { deps, seed, app } = await startServices(config, log);
  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  const url = `http://localhost:${port}`;
  log.info({ url, port, database: deps.database.engine, version: config.version }, 'server listening');
  installShutdown(deps, app, log);

  const lines = [
    '',
    `  WMS is running on ${url}  (database: ${deps.database.engine}${deps.database.engine === 'pglite' ? `, ${config.dataDir}` : ''})`,
  ];
  // Generated passwords are printed by the start that created the accounts; later starts print them from the file.
  const created = seed.seeded && seed.logins.length > 0;
  // Generated passwords are also kept in DATA_DIR/demo-logins.json (mode 600) so that later starts print them again.
  const generated = seed.logins.filter((l) => l.password !== null);
  if (created) saveDemoLogins(config.dataDir, generated);
  const kept = created ? [] : config.seedDemo ? readDemoLogins(config.dataDir) : [];
  if (created) {
    lines.push('  Logins created now (initial passwords; set DEMO_*_PASSWORD to choose them):');
    for (const l of seed.logins)
      lines.push(`    ${l.role.padEnd(8)} ${l.email}  ${l.password ?? '(password from env)'}`);
    if (generated.length > 0) lines.push(`  (kept in ${path.join(config.dataDir, 'demo-logins.json')})`);
  } else if (kept.length > 0) {
    lines.push(`  Demo logins (initial passwords from ${path.join(config.dataDir, 'demo-logins.json')}):`);
    for (const l of kept) lines.push(`    ${l.role.padEnd(8)} ${l.email}  ${l.password ?? '(password from env)'}`);
  } else if (config.seedDemo) {
    lines.push(`  Demo logins: ${config.demo.customerEmail} (CUSTOMER), ${config.demo.employeeEmail} (EMPLOYEE)`);
  }
  lines.push(
    `  Your own account: ${url}/register${config.smtpUrl ? '' : `  (no SMTP_URL: the mail lands in ${path.join(config.dataDir, 'outbox')})`}`,
    '',
  );
  // The screen for a person trying it (`npm start`), last, so the URL and the logins stay in view while the server
  // waits. With JSON logs (production) only the one-time initial passwords are printed, outside the log stream.
  if (config.logFormat === 'pretty' || created) console.log(lines.join('\n'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An error of reaching PostgreSQL (down, starting, shutting down, connection cut), not of our own doing. */
function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | null;
  if (!e) return false;
  if (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08006', '08001'].includes(
      e.code ?? '',
    )
  )
    return true;
  if (
    /Connection terminated|connect ECONNREFUSED|the database system is (starting up|shutting down)/i.test(
      e.message ?? '',
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== err && isConnectionError(e.cause);
}

/** How long a start waits for PostgreSQL to be reachable before giving up (exit 1). */
const START_WAIT_MS = 120_000;

/**
 * Open and migrate the database, seed, build the app and start the job queue. PostgreSQL not reachable at that moment
 * (stopped, restarting, still starting) is waited for — a JSON line per try, the next try later, up to START_WAIT_MS —
 * instead of ending the process: what a try opened is closed before the next.
 */
async function startServices(config: ReturnType<typeof loadConfig>, log: ReturnType<typeof createLogger>) {
  const since = Date.now();
  for (let attempt = 1; ; attempt++) {
    let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
    let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      database = await openDatabase({
        databaseUrl: config.databaseUrl,
        directUrl: config.databaseDirectUrl,
        replicaUrl: config.databaseReplicaUrl,
        dataDir: config.dataDir,
        log: { warn: (obj, msg) => log.warn(obj, msg) },
      });
      deps = await createDeps(config, log, { database });
      const seed = await seedDemoData(deps.database.db, config);
      const app = await buildApp(deps, { loggerInstance: log as FastifyBaseLogger });
      await deps.jobs.start();
      return { deps, seed, app };
    } catch (err) {
      if (!config.databaseUrl || !isConnectionError(err) || Date.now() - since > START_WAIT_MS) throw err;
      const waitMs = Math.min(5000, 250 * 2 ** attempt);
      log.warn(
        { err: { message: (err as Error).message }, attempt, waitMs },
        'database not reachable at start: trying again',
      );
      await deps?.jobs.stop().catch(() => undefined);
      await database?.close().catch(() => undefined);
      await sleep(waitMs);
    }
  }
}

/**
 * What nothing else caught is a JSON line too, never a bare stack on stderr: a promise nobody awaited that failed
 * (a library's fire-and-forget call while the database is away) is logged and the process goes on; an exception
 * nobody caught is logged as fatal and ends the process (its state is unknown), as Node would.
 */
function installLastResort(log: ReturnType<typeof createLogger>): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled rejection');
  });
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception');
    log.flush?.();
    process.exit(1);
  });
}

/**
 * SIGTERM/SIGINT: stop accepting connections (a request arriving on a kept-alive connection gets 503), let in-flight
 * requests finish, stop the job queue (no new jobs; running ones finish), close the database, exit 0. Whatever is not
 * done within SHUTDOWN_TIMEOUT_SECONDS is cut off and the process exits 1: a job cut off is handed back — found by
 * another process when its heartbeat goes stale (PostgreSQL), or run again at the next start (PGlite).
 */
function installShutdown(
  deps: Awaited<ReturnType<typeof createDeps>>,
  app: Awaited<ReturnType<typeof buildApp>>,
  log: ReturnType<typeof createLogger>,
): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // `npm start` forwards the terminal's Ctrl-C, so one press can arrive twice: the first one counts.
    if (stopping) return;
    stopping = true;
    const limit = deps.config.shutdownTimeoutMs;
    log.info({ signal, timeoutMs: limit }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: limit }, 'shutdown timed out: requests or jobs cut off (jobs are handed back)');
      process.exit(1);
    }, limit);
    deadline.unref();
    try {
      await app.close();
      log.info({}, 'stopping: requests done');
      await deps.jobs.stop();
      log.info({}, 'stopping: jobs done');
      await deps.database.close();
      log.info({}, 'stopped');
      clearTimeout(deadline);
      log.flush?.();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  // The message alone on stderr (a configuration error is read by a person); with a logger also as a pino line.
  console.error(err instanceof Error ? err.message : err);
  log?.fatal({ err }, 'start failed');
  process.exit(1);
});
