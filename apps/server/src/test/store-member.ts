import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TTestContext } from './harness';

/**
 * A member access token of the seller of `token`: its online store is created (open) if it has none, a member is
 * added through /store-member with a known password and logs in at its short URL.
 */
export async function storeMemberToken(ctx: TTestContext, token: string): Promise<string> {
  const admin = await ctx.inject({ method: 'GET', url: '/api/store-admin/', token });
  let shortUrl: string | undefined = admin.json().store?.short_url;
  if (!shortUrl) {
    shortUrl = `sweep-${randomUUID().slice(0, 8)}`;
    const store = await ctx.inject({
      method: 'PUT',
      url: '/api/store-admin/',
      token,
      payload: { name: 'Sweep store', short_url: shortUrl, is_open: true },
    });
    expect(store.statusCode, store.body).toBe(200);
  }
  const email = `member-${randomUUID().slice(0, 8)}@sweep.tw`;
  const created = await ctx.inject({
    method: 'POST',
    url: '/api/store-members/',
    token,
    payload: { name: 'Sweep member', email, password: 'member-pass-1' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const login = await ctx.inject({
    method: 'POST',
    url: '/api/member-login/',
    payload: { corp: shortUrl, email, password: 'member-pass-1' },
  });
  expect(login.statusCode, login.body).toBe(200);
  return login.json().access as string;
}
