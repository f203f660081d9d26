import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { jobRoutes, authRoutes as r } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { getJob } from '../../platform/jobs';

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

export function registerSystemRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const buildId = buildIdReader(deps.config.webDist);
  route(app, deps.tokens, r.health, async () => {
    await deps.database.db.execute(sql`select 1`);
    return { status: 'ok' as const, database: deps.database.engine, version: deps.config.version, build_id: buildId() };
  });
  route(app, deps.tokens, jobRoutes.getJob, async ({ actor, params }) => {
    const job = await getJob(deps.database.db, tenantOf(actor), params.id);
    return {
      id: job.id,
      kind: job.kind,
      state: job.state as 'queued' | 'running' | 'succeeded' | 'failed',
      progress: job.progress,
      total: job.total,
      result: job.result ?? null,
      error: (job.error as { code: string; params?: Record<string, unknown> } | null) ?? null,
      created_at: job.created_at.toISOString(),
      finished_at: job.finished_at?.toISOString() ?? null,
    };
  });
  route(app, deps.tokens, r.build, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { build_id: buildId(), version: deps.config.version };
  });
}
