import type { TRouteContract } from '@wms/contracts';
import { expect } from 'vitest';
import type { TTestContext } from './harness';

/** The job of an import as the web app polls it. */
export interface TImportJobView {
  state: string;
  progress: number;
  total: number;
  result: Record<string, unknown> | null;
  error: {
    code: string;
    params?: { count?: number; errors?: Array<{ row: number; code: string; field: string | null; message: string }> };
  } | null;
}

/** Upload a file to an import route (202), let the job runner finish, and return the job. */
export async function runImportJob(
  ctx: TTestContext,
  url: string,
  token: string,
  content: Buffer,
  extra: Record<string, unknown> = {},
): Promise<TImportJobView> {
  const res = await ctx.inject({
    method: 'POST',
    url,
    token,
    payload: { file_base64: content.toString('base64'), ...extra },
  });
  expect(res.statusCode, res.body).toBe(202);
  ctx.deps.jobs.kick();
  // The test's own timeout bounds a normal import; the 100,000-row one runs in a child with 10 minutes (a loaded CI
  // machine took over 2 minutes, the queue's default wait).
  await ctx.deps.jobs.whenIdle(600_000);
  return (await ctx.api.jobRoutes.getJob({ params: { id: res.json().id }, token })).json() as TImportJobView;
}

/**
 * The round trip of a list that has an import: its export, in every language, imported by the seller it came from
 * updates every row and changes nothing; imported by another seller with the same codes it creates the same rows.
 * `snapshot` reads a seller's rows without ids and times.
 */
export async function expectExportReimports(
  ctx: TTestContext,
  opts: {
    /** The list's export route and its import route (both without path parameters). */
    exportRoute: TRouteContract;
    importRoute: TRouteContract;
    home: string;
    other: string;
    rows: number;
    snapshot: (token: string) => Promise<unknown>;
  },
): Promise<void> {
  const before = await opts.snapshot(opts.home);
  for (const lang of ['zh-TW', 'ja', 'en']) {
    const file = (await ctx.inject({ method: 'GET', url: opts.exportRoute.path, token: opts.home, lang })).rawPayload;
    const job = await runImportJob(ctx, opts.importRoute.path, opts.home, file);
    expect(job, lang).toMatchObject({
      state: 'succeeded',
      result: { created: 0, updated: opts.rows, rows: opts.rows },
    });
    expect(await opts.snapshot(opts.home), lang).toEqual(before);
  }
  const file = (await ctx.inject({ method: 'GET', url: opts.exportRoute.path, token: opts.home })).rawPayload;
  const job = await runImportJob(ctx, opts.importRoute.path, opts.other, file);
  expect(job).toMatchObject({ state: 'succeeded', result: { created: opts.rows, updated: 0 } });
  expect(await opts.snapshot(opts.other)).toEqual(before);
}
