import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { partnerKey } from '../api-key';
import { createTestContext, type TTestContext } from '../harness';
import { allRoutes, pathParams, sampleOf } from '../route-table';
import { storeMemberToken } from '../store-member';
import { type TSeller, WORLD_BUILDERS } from '../world';

/**
 * Seller A's token against seller B's rows on every customer route: 404/403 (or a 4xx refusal of the input), never
 * B's data, and nothing of B's changes. Driven by the contracts' route tables and by the database's own list of
 * seller-owned tables, so routes and tables added later are covered without editing this file.
 */
let ctx: TTestContext;
let a: TSeller & { email: string };
/** Seller A's partner API key: the partner API's (v1) routes are swept with it. */
let aKey: string;
/** A member of seller A's online store: the member portal's routes are swept with it. */
let aMember: string;
let b: TSeller & { email: string };
let victimIds: string[] = [];
let tenantTables: string[] = [];

/** Tables whose rows are not addressable documents (no `id` to probe) or are written by design on any request. */
// stock_movements: the ledger's bigserial ids are small numbers no route takes (and would match any digit in a body).
const NOT_PROBED = new Set(['audit_logs', 'doc_sequences', 'stock_movements']);

async function fingerprint(customerId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tenantTables) {
    const [row] = await queryRows<{ h: string | null; n: number }>(
      ctx.deps.database.db,
      sql`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h, count(*)::int as n
          from ${sql.identifier(t)} x where x.customer_id = ${customerId}`,
    );
    out[t] = `${row?.n}:${row?.h}`;
  }
  return out;
}

beforeAll(async () => {
  ctx = await createTestContext();
  a = await ctx.newCustomer({ name: 'Seller A' });
  aKey = await partnerKey(ctx, a.token);
  aMember = await storeMemberToken(ctx, a.token);
  b = await ctx.newCustomer({ name: 'Seller B' });
  for (const build of WORLD_BUILDERS) await build(ctx, b);
  const tables = await queryRows<{ table_name: string }>(
    ctx.deps.database.db,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.table_schema = 'public' and c.column_name = 'customer_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  tenantTables = tables.map((t) => t.table_name);
  const ids = new Set<string>([b.customerId]);
  for (const t of tenantTables) {
    if (NOT_PROBED.has(t)) continue;
    const hasId = await queryRows<{ n: number }>(
      ctx.deps.database.db,
      sql`select count(*)::int as n from information_schema.columns where table_schema = 'public' and table_name = ${t} and column_name = 'id'`,
    );
    if (!hasId[0]?.n) continue;
    const rows = await queryRows<{ id: string }>(
      ctx.deps.database.db,
      sql`select id::text as id from ${sql.identifier(t)} where customer_id = ${b.customerId}`,
    );
    // Only uuids are document ids; ledger rows have serial ids no route takes (and "2" would match any body).
    for (const r of rows) if (/^[0-9a-f-]{36}$/.test(r.id)) ids.add(r.id);
  }
  victimIds = [...ids];
}, 120_000);
afterAll(() => ctx?.close());

describe('tenant isolation sweep', () => {
  it('has seller B rows in every seller-owned table (add a world builder for a new table)', async () => {
    const fp = await fingerprint(b.customerId);
    const empty = Object.entries(fp)
      .filter(([t, v]) => !NOT_PROBED.has(t) && v.startsWith('0:'))
      .map(([t]) => t);
    expect(empty, 'tables with no row of the victim seller: add a builder to apps/server/src/test/world.ts').toEqual(
      [],
    );
  });

  it("answers seller A's calls on seller B's ids with 403/404, leaks nothing and changes nothing", async () => {
    const routes = allRoutes().filter(
      (r) => r.auth === 'customer' || r.auth === 'user' || r.auth === 'apikey' || r.auth === 'member',
    );
    const tokenOf = (r: { auth: string }) => (r.auth === 'apikey' ? aKey : r.auth === 'member' ? aMember : a.token);
    const withParams = routes.filter((r) => pathParams(r.path).length > 0);
    const lists = routes.filter((r) => r.method === 'GET' && pathParams(r.path).length === 0);
    const before = await fingerprint(b.customerId);
    const failures: string[] = [];
    let calls = 0;

    for (const r of withParams) {
      const params = pathParams(r.path);
      const sampleParams = (sampleOf(r.params) ?? {}) as Record<string, unknown>;
      for (const id of victimIds) {
        let url = r.path;
        for (const p of params)
          url = url.replace(
            `:${p}`,
            encodeURIComponent(p === 'id' || p.endsWith('_id') ? id : String(sampleParams[p] ?? id)),
          );
        const body = sampleOf(r.body);
        const res = await ctx.inject({
          method: r.method,
          url,
          token: tokenOf(r),
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        calls++;
        const leaked = victimIds.some((v) => v !== id && res.body.includes(v));
        if (res.statusCode < 400 || res.statusCode >= 500 || leaked) {
          failures.push(
            `${r.name} ${r.method} ${url} → ${res.statusCode}${leaked ? ' (leaks B ids)' : ''} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    for (const r of lists) {
      const res = await ctx.inject({ method: 'GET', url: r.path, token: tokenOf(r) });
      if (res.statusCode === 401) failures.push(`${r.name} GET ${r.path} → 401 (the sweep's credentials were refused)`);
      calls++;
      if (res.statusCode >= 500) failures.push(`${r.name} GET ${r.path} → ${res.statusCode}`);
      const leaked = victimIds.filter((v) => res.body.includes(v));
      if (leaked.length) failures.push(`${r.name} GET ${r.path} leaks ${leaked.length} of B's ids`);
    }
    expect(failures).toEqual([]);
    expect(await fingerprint(b.customerId)).toEqual(before);
    expect(calls).toBeGreaterThan(0);
    console.info(
      `isolation sweep: ${withParams.length} routes with ids × ${victimIds.length} ids of B, ${lists.length} lists, ${calls} calls`,
    );
  });

  it('refuses every employee route (the CRM area, the only cross-tenant one) to seller and member tokens', async () => {
    const routes = allRoutes().filter((r) => r.auth === 'employee');
    const [member] = await queryRows<{ id: string; store_id: string }>(
      ctx.deps.database.db,
      sql`select id::text as id, store_id::text as store_id from store_members where customer_id = ${b.customerId} limit 1`,
    );
    const memberToken = await ctx.deps.tokens.sign(
      { sub: member!.id, typ: 'member_access', sid: member!.store_id, cid: b.customerId },
      300,
    );
    const before = await fingerprint(b.customerId);
    const failures: string[] = [];
    for (const r of routes) {
      const sampleParams = (sampleOf(r.params) ?? {}) as Record<string, unknown>;
      let url = r.path;
      for (const p of pathParams(r.path))
        url = url.replace(
          `:${p}`,
          encodeURIComponent(p === 'id' || p.endsWith('_id') ? b.customerId : String(sampleParams[p])),
        );
      const body = sampleOf(r.body);
      for (const [who, token] of [
        ['seller', a.token],
        ['member', memberToken],
      ] as const) {
        const res = await ctx.inject({
          method: r.method,
          url,
          token,
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        if (res.statusCode !== 401 && res.statusCode !== 403)
          failures.push(`${r.name} ${r.method} ${url} as ${who} → ${res.statusCode}`);
        if (res.body.includes(b.customerId) && res.statusCode < 400) failures.push(`${r.name} leaks B to ${who}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await fingerprint(b.customerId)).toEqual(before);
    expect(routes.length).toBeGreaterThan(10);
  });
});
