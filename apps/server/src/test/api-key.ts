import { expect } from 'vitest';
import type { TTestContext } from './harness';

/** A partner API key of the seller of `token` (enabled through the API, with a limit no sweep reaches). */
export async function partnerKey(ctx: TTestContext, token: string): Promise<string> {
  const created = await ctx.inject({
    method: 'POST',
    url: '/api/api-settings/',
    token,
    payload: { name: `Sweep ${Date.now()}`, kind: 'partner', rate_limit_per_minute: 6000 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const enabled = await ctx.inject({ method: 'POST', url: `/api/api-settings/${created.json().id}/enable/`, token });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return enabled.json().api_key as string;
}
