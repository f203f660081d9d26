import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('liveness and readiness', () => {
  it('live and ready answer 200 without logging in while the database answers', async () => {
    const live = await ctx.api.authRoutes.healthLive();
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live', version: ctx.config.version });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await ctx.api.authRoutes.healthReady();
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: TEST_ENGINE });
  });

  it('ready answers 503 DATABASE_UNAVAILABLE when the database does not answer; live stays 200', async () => {
    // The real database goes away under the running app (closed pool / embedded database).
    await ctx.deps.jobs.stop();
    const database = ctx.deps.database;
    await database.close();
    database.close = async () => {};

    const ready = await ctx.api.authRoutes.healthReady({ lang: 'en' });
    expect(ready.statusCode).toBe(503);
    expect(ready.error()).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is not answering at the moment, please try again later',
    });
    const live = await ctx.api.authRoutes.healthLive();
    expect(live.statusCode).toBe(200);
  });
});
