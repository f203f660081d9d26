import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createTestContext, type TTestContext } from '../harness';
import { allRoutes, pathParams, sampleOf } from '../route-table';

/**
 * Every route of a seller user is guarded by the permission its contract declares: a user whose role opens nothing
 * gets 403 PERMISSION_DENIED on every route but `self` ones, and a read-only user on every write. Driven by the
 * contracts' route tables, so a route added later is covered without editing this file.
 */
let ctx: TTestContext;
let none: string;
let readonly: string;
let owner: Awaited<ReturnType<TTestContext['newCustomer']>>;

async function withRole(role: 'custom' | 'readonly', menuAccess: string[] = []): Promise<string> {
  const s = await ctx.newCustomer();
  await ctx.deps.database.db
    .update(users)
    .set({ seller_role: role, menu_access: menuAccess })
    .where(eq(users.id, s.userId));
  return s.token;
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await ctx.newCustomer();
  none = await withRole('custom');
  readonly = await withRole('readonly');
}, 60_000);
afterAll(() => ctx?.close());

function urlOf(path: string, params: unknown): string {
  const sample = (params ?? {}) as Record<string, unknown>;
  let url = path;
  for (const p of pathParams(path))
    url = url.replace(`:${p}`, encodeURIComponent(p === 'id' || p.endsWith('_id') ? randomUUID() : String(sample[p])));
  return url;
}

describe('permission sweep', () => {
  const sellerRoutes = () => allRoutes().filter((r) => r.auth === 'customer' || r.auth === 'user');

  it('refuses every non-self route to a role that opens nothing, and every write to read-only', async () => {
    const failures: string[] = [];
    let denied = 0;
    for (const r of sellerRoutes()) {
      const url = urlOf(r.path, sampleOf(r.params));
      const body = sampleOf(r.body);
      const call = (token: string) =>
        ctx.inject({ method: r.method, url, token, ...(body !== undefined ? { payload: body as object } : {}) });
      const expectDenied = async (token: string, who: string) => {
        const res = await call(token);
        if (res.statusCode !== 403 || res.json().error?.code !== 'PERMISSION_DENIED')
          failures.push(`${r.name} ${r.method} ${url} as ${who} → ${res.statusCode} ${res.body.slice(0, 100)}`);
        else denied++;
      };
      if (r.perm !== 'self') await expectDenied(none, 'no grants');
      if (r.perm?.endsWith(':write')) await expectDenied(readonly, 'read-only');
    }
    expect(failures).toEqual([]);
    expect(denied).toBeGreaterThan(200);
  });

  it('lets the owner past the permission guard on every route', async () => {
    const failures: string[] = [];
    for (const r of sellerRoutes().filter((x) => x.method === 'GET' && pathParams(x.path).length === 0)) {
      const res = await ctx.inject({ method: 'GET', url: r.path, token: owner.token });
      if (res.statusCode === 403 || res.statusCode === 401) failures.push(`${r.name} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
