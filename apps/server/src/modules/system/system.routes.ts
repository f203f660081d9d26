import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { apiDocsRoutes, jobRoutes, authRoutes as r, type TOpenApiDocument } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client';
import { tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http';
import { getJob, jobView } from '../../platform/jobs';

/** The web build writes dist/build.json; re-read when it changes so a redeploy shows the 'system needs update' dialog. */
function buildIdReader(webDist: string): () => string {
  const file = path.join(webDist, 'build.json');
  let cached = { mtime: -1, id: 'dev' };
  return () => {
    try {
      const mtime = statSync(file).mtimeMs;
      if (mtime !== cached.mtime) {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as { build_id?: string };
        cached = { mtime, id: parsed.build_id ?? 'dev' };
      }
    } catch {
      cached = { mtime: -1, id: 'dev' };
    }
    return cached.id;
  };
}

const READY_TIMEOUT_MS = 3000;

/** `select 1` within READY_TIMEOUT_MS, else DATABASE_UNAVAILABLE (503): a hung pool must not hang the probe too. */
async function databaseAnswers(deps: TAppDeps): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness probe timed out')), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([pingDatabase(deps.database.db), timeout]);
  } catch {
    throw new AppError('DATABASE_UNAVAILABLE');
  } finally {
    clearTimeout(timer);
  }
}

export function registerSystemRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const buildId = buildIdReader(deps.config.webDist);
  route(app, deps.tokens, r.health, async () => {
    await pingDatabase(deps.database.db);
    return { status: 'ok' as const, database: deps.database.engine, version: deps.config.version, build_id: buildId() };
  });
  route(app, deps.tokens, r.healthLive, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { status: 'live' as const, version: deps.config.version };
  });
  route(app, deps.tokens, r.healthReady, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    await databaseAnswers(deps);
    return { status: 'ready' as const, database: deps.database.engine };
  });
  route(app, deps.tokens, jobRoutes.getJob, async ({ actor, params }) =>
    jobView(await getJob(deps.database.db, tenantOf(actor), params.id)),
  );
  route(app, deps.tokens, jobRoutes.cancelJob, async ({ actor, params }) =>
    jobView(await deps.jobs.cancel(tenantOf(actor), params.id)),
  );
  // Built once from the routes' contracts (cached by @fastify/swagger); for any logged-in user.
  route(app, deps.tokens, apiDocsRoutes.openapi, async () => app.swagger() as unknown as TOpenApiDocument);
  route(app, deps.tokens, r.build, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { build_id: buildId(), version: deps.config.version };
  });
}
