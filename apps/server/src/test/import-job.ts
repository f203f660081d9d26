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
  await ctx.deps.jobs.whenIdle();
  return (await ctx.inject({ method: 'GET', url: `/api/jobs/${res.json().id}/`, token })).json() as TImportJobView;
}
