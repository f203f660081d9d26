import type { TConfig } from './config';
import { migrateDatabase, openDatabase, type TDatabase } from './db/client';
import { JOBS } from './jobs';
import { TokenService } from './platform/auth';
import type { TAppDeps } from './platform/deps';
import { JobQueue } from './platform/jobs';
import { createMailer, type TMailer } from './platform/mail';
import { OutgoingHttp } from './platform/outgoing-http';
import { ProviderRegistry } from './platform/providers';
import { RateLimits } from './platform/rate-limit';
import { registerProviders } from './providers';

/** Open and migrate the database and build the services every module shares. */
export async function createDeps(
  config: TConfig,
  /** The process's pino logger (main.ts); the mailer and the job runner write their lines to it. */
  log: {
    info(obj: object, msg: string): void;
    warn?(obj: object, msg: string): void;
    error?(obj: object, msg: string): void;
  },
  opts: { database?: TDatabase; mailer?: TMailer } = {},
): Promise<TAppDeps> {
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      replicaUrl: config.databaseReplicaUrl,
      dataDir: config.dataDir,
      log: { warn: (obj, msg) => (log.warn ?? log.info).call(log, obj, msg) },
    }));
  await migrateDatabase(database);
  const tokens = new TokenService(config.jwtSecret, config.accessTtl, config.refreshTtl);
  const mailer =
    opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log });
  // PGlite: one process per data directory, so a job found running at start was cut off by a crash.
  const http = new OutgoingHttp(database.db, { allowPrivateTargets: config.outgoingAllowPrivate });
  const providers = registerProviders(new ProviderRegistry({ http, config }));
  const jobs = new JobQueue(database, JOBS, {
    services: { http, config, providers, mailer },
    exclusive: database.engine === 'pglite',
    staleAfterMs: config.jobStaleMs,
    cronCheckSeconds: config.jobCronCheckSeconds,
    retryDelayScale: config.jobRetryDelayScale,
    log: {
      error: (obj, msg) => (log.error ?? log.info).call(log, obj, msg),
      warn: (obj, msg) => (log.warn ?? log.info).call(log, obj, msg),
    },
  });
  return { config, database, tokens, mailer, jobs, http, providers, rateLimits: new RateLimits(database) };
}
