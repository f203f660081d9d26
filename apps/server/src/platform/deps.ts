import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import type { TokenService } from './auth';
import type { JobRunner } from './jobs';
import type { TMailer } from './mail';

/** Everything a module needs, built once in main.ts (or by the test harness) and passed to buildApp. */
export interface TAppDeps {
  config: TConfig;
  database: TDatabase;
  tokens: TokenService;
  mailer: TMailer;
  /** Background jobs (imports, exports): register handlers at start-up, `kick()` after enqueueing. */
  jobs: JobRunner;
  log?: FastifyBaseLogger;
}
