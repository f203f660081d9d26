import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import type { TokenService } from './auth';
import type { JobQueue } from './jobs';
import type { TMailer } from './mail';
import type { OutgoingHttp } from './outgoing-http';
import type { ProviderRegistry } from './providers';
import type { RateLimits } from './rate-limit';

/** Everything a module needs, built once in main.ts (or by the test harness) and passed to buildApp. */
export interface TAppDeps {
  config: TConfig;
  database: TDatabase;
  tokens: TokenService;
  mailer: TMailer;
  /** Background and timed work (pg-boss): `enqueue(tx, definition, payload, …)` inside the writing transaction. */
  jobs: JobQueue;
  /** The one outgoing HTTP client (timeouts, retries where idempotent, attempt log, SSRF guard). */
  http: OutgoingHttp;
  /** Outside-system adapters by kind and code. */
  providers: ProviderRegistry;
  /** The one rate limiter (shared counters on PostgreSQL, memory on PGlite). */
  rateLimits: RateLimits;
  log?: FastifyBaseLogger;
}
