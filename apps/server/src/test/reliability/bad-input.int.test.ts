import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { JOBS } from '../../jobs';
import { partnerKey } from '../api-key';
import { createTestContext, type TTestContext } from '../harness';
import { allRoutes, jsonSchemaOf, pathParams, sampleOf, stringLeaves, type TJsonSchema } from '../route-table';
import { storeMemberToken } from '../store-member';

/**
 * Bad input on every write route of the contracts: payloads that are invalid by construction (wrong types,
 * missing required fields, fractional/out-of-range numbers, non-objects, broken JSON) always get a 4xx with an
 * error code and write nothing; generated hostile payloads (injection strings, odd Unicode, huge and negative
 * numbers, extra fields) never get a 5xx.
 */
let ctx: TTestContext;
let customerToken: string;
let apiKey: string;
let employeeToken: string;
/** A store member of the customer's online store: the member portal's routes are swept with it. */
let memberToken: string;

const HOSTILE_STRINGS = [
  "'; drop table products; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '\u0000',
  '\u202e\u0301\ud83d\ude00',
  '𠜎𠜱𠝹𠱓',
  '../../etc/passwd',
  '%00%ff',
  `\${7*7}{{7*7}}`,
];

/** Text PostgreSQL cannot store: NUL, and UTF-16 surrogates without their pair (high alone, low alone). */
const UNSTORABLE: Array<[string, string]> = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', 'x\ud800y'],
  ['lone low surrogate', 'x\udc00y'],
];

type TRefusal = { code?: string; params?: { field?: string } };

/**
 * Kinds of job the platform starts by itself: a schedule's, and a LISTEN wake-up's (on PostgreSQL the listening
 * connection comes up after start-up and queues its catch-up, e.g. `callbacks.dispatch` for every customer, at a
 * moment of its own: once the test's set-up got faster, inside the sweep).
 */
const SCHEDULED = JOBS.filter((j) => j.options.cron || j.options.wakeOn).map((j) => j.name);

async function databaseFingerprint(): Promise<string> {
  const tables = await queryRows<{ table_name: string }>(
    ctx.deps.database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    // A call's own bookkeeping is not a write of its input: the rate limiter's counters and a key's last use.
    if (table_name === 'rate_limits') continue;
    // Nor a schedule's claim of its period (a cron firing mid-sweep).
    if (table_name === 'cron_periods') continue;
    // Nor is a schedule or a wake-up firing mid-sweep (the Shopee ship scan, the callbacks' catch-up): rows of those kinds
    // are left out.
    const own = table_name === 'jobs' && SCHEDULED.length ? sql`where x.kind not in ${SCHEDULED}` : sql``;
    const [row] = await queryRows<{ h: string }>(
      ctx.deps.database.db,
      sql`select count(*)::text || ':' || md5(coalesce(string_agg((to_jsonb(x) - 'last_used_at')::text, '|' order by (to_jsonb(x) - 'last_used_at')::text), '')) as h from ${sql.identifier(table_name)} x ${own}`,
    );
    parts.push(`${table_name}=${row?.h}`);
  }
  return parts.join('\n');
}

function typeOf(s: TJsonSchema | undefined): string | undefined {
  if (!s) return undefined;
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return typeOf(alt.find((a) => a.type !== 'null'));
  return Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
}

function wrongValueFor(s: TJsonSchema | undefined): unknown {
  switch (typeOf(s)) {
    case 'string':
      return { nested: ['not', 'a', 'string'] };
    case 'integer':
    case 'number':
      return 'twelve';
    case 'boolean':
      return 'maybe';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return 42;
    default:
      return undefined;
  }
}

/** Payloads each of which the route must refuse. */
function mutations(schema: TJsonSchema, valid: Record<string, unknown>): Array<{ label: string; payload: unknown }> {
  const out: Array<{ label: string; payload: unknown }> = [
    { label: 'array body', payload: [1, 2, 3] },
    { label: 'string body', payload: 'hello' },
  ];
  if (typeOf(schema) !== 'object') return out;
  const props = schema.properties ?? {};
  for (const key of schema.required ?? []) {
    const { [key]: _dropped, ...rest } = valid;
    out.push({ label: `missing ${key}`, payload: rest });
  }
  for (const [key, prop] of Object.entries(props)) {
    if ((prop.anyOf ?? prop.oneOf)?.some((a) => a.type === undefined)) continue; // unknown shape: skip
    const wrong = wrongValueFor(prop);
    if (wrong !== undefined) out.push({ label: `${key}: wrong type`, payload: { ...valid, [key]: wrong } });
    const t = typeOf(prop);
    if (t === 'integer') out.push({ label: `${key}: fractional`, payload: { ...valid, [key]: 1.5 } });
    if ((t === 'integer' || t === 'number') && typeof prop.minimum === 'number') {
      out.push({ label: `${key}: below minimum`, payload: { ...valid, [key]: prop.minimum - 1 } });
    }
    if ((t === 'integer' || t === 'number') && typeof prop.maximum === 'number') {
      out.push({ label: `${key}: above maximum`, payload: { ...valid, [key]: prop.maximum + 1 } });
    }
    if (t === 'string' && typeof prop.maxLength === 'number') {
      out.push({ label: `${key}: too long`, payload: { ...valid, [key]: 'x'.repeat(prop.maxLength + 1) } });
    }
  }
  return out;
}

beforeAll(async () => {
  ctx = await createTestContext();
  customerToken = (await ctx.newCustomer()).token;
  apiKey = await partnerKey(ctx, customerToken);
  employeeToken = (await ctx.newEmployee()).token;
  memberToken = await storeMemberToken(ctx, customerToken);
}, 60_000);
afterAll(() => ctx?.close());

const writeRoutes = () => allRoutes().filter((r) => r.method !== 'GET' && r.body);

function urlOf(path: string): string {
  let url = path;
  for (const p of pathParams(path)) url = url.replace(`:${p}`, randomUUID());
  return url;
}

function tokenFor(auth: string): string | undefined {
  if (auth === 'employee') return employeeToken;
  if (auth === 'public') return undefined;
  if (auth === 'apikey') return apiKey;
  if (auth === 'member') return memberToken;
  return customerToken;
}

describe('bad input on every write route', () => {
  it('refuses payloads that are invalid by construction with a 4xx and an error code, writing nothing', async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    let calls = 0;
    for (const r of writeRoutes()) {
      const schema = jsonSchemaOf(r.body);
      if (!schema) continue;
      const valid = (sampleOf(r.body) ?? {}) as Record<string, unknown>;
      const url = urlOf(r.path);
      const cases = mutations(schema, valid);
      for (const c of cases) {
        const res = await ctx.inject({ method: r.method, url, token: tokenFor(r.auth), payload: c.payload as object });
        calls++;
        const code = res.statusCode < 500 ? (res.json() as { error?: { code?: string } }).error?.code : undefined;
        if (res.statusCode < 400 || res.statusCode >= 500 || !code) {
          failures.push(`${r.name} ${c.label} → ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
      const broken = await ctx.inject({
        method: r.method,
        url,
        token: tokenFor(r.auth),
        payload: '{"quantity": NaN, ',
        headers: { 'content-type': 'application/json' },
      });
      calls++;
      if (broken.statusCode !== 400) failures.push(`${r.name} broken JSON → ${broken.statusCode}`);
    }
    console.info(`bad input: ${writeRoutes().length} write routes, ${calls} invalid payloads`);
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(10);
    expect(await databaseFingerprint()).toBe(before);
  });

  it('refuses text PostgreSQL cannot store (NUL, lone surrogates) in every string field with 400 naming it', async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    let calls = 0;
    const expectRefused = async (label: string, field: string, call: Promise<{ statusCode: number; body: string }>) => {
      calls++;
      const res = await call.catch((err: Error) => ({ statusCode: 0, body: err.message }));
      const error = res.statusCode === 400 ? (JSON.parse(res.body) as { error?: TRefusal }).error : undefined;
      if (error?.code !== 'INVALID_FIELD' || error.params?.field !== field) {
        failures.push(`${label} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    };
    for (const r of writeRoutes()) {
      const schema = jsonSchemaOf(r.body);
      if (!schema) continue;
      const valid = sampleOf(r.body) ?? {};
      for (const leaf of stringLeaves(schema, valid)) {
        for (const [name, text] of UNSTORABLE) {
          const res = ctx.inject({
            method: r.method,
            url: urlOf(r.path),
            token: tokenFor(r.auth),
            payload: leaf.build(text) as object,
          });
          await expectRefused(`${r.name} ${leaf.field} ${name}`, leaf.field, res);
        }
      }
    }
    // Query strings and path parameters of every route (a NUL arrives percent-encoded).
    for (const r of allRoutes()) {
      for (const key of Object.keys(jsonSchemaOf(r.query)?.properties ?? {})) {
        const res = ctx.inject({ method: r.method, url: `${urlOf(r.path)}?${key}=a%00b`, token: tokenFor(r.auth) });
        await expectRefused(`${r.name} ?${key} NUL`, key, res);
      }
      for (const p of pathParams(r.path)) {
        const res = ctx.inject({ method: r.method, url: r.path.replace(`:${p}`, 'a%00b'), token: tokenFor(r.auth) });
        await expectRefused(`${r.name} :${p} NUL`, p, res);
      }
    }
    console.info(`unstorable text: ${calls} payloads`);
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(100);
    expect(await databaseFingerprint()).toBe(before);
  });

  it('never answers an ordering named after an Object property with a 5xx', async () => {
    const failures: string[] = [];
    const listRoutes = allRoutes().filter(
      (r) => r.method === 'GET' && 'ordering' in (jsonSchemaOf(r.query)?.properties ?? {}),
    );
    for (const r of listRoutes) {
      for (const ordering of ['constructor', '-constructor', '__proto__', 'toString', '-hasOwnProperty', 'valueOf']) {
        const res = await ctx.inject({
          method: 'GET',
          url: `${urlOf(r.path)}?ordering=${ordering}`,
          token: tokenFor(r.auth),
        });
        if (res.statusCode >= 500) failures.push(`${r.name} ?ordering=${ordering} → ${res.statusCode}`);
      }
    }
    expect(listRoutes.length).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });

  it('never answers generated hostile payloads with a 5xx', async () => {
    const hostileValue = fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ minLength: 5000, maxLength: 20000 }),
      fc.integer(),
      fc.constantFrom(-1, 0, -0.5, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.constantFrom(...HOSTILE_STRINGS), { maxLength: 3 }),
    );
    const failures: string[] = [];
    for (const r of writeRoutes()) {
      const schema = jsonSchemaOf(r.body);
      const valid = (sampleOf(r.body) ?? {}) as Record<string, unknown>;
      const keys = [...Object.keys(schema?.properties ?? {}), 'extra_field', '__proto__', 'customer_id'];
      await fc
        .assert(
          fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: 4 }), async (patch) => {
            const payload = { ...valid, ...patch };
            const res = await ctx.inject({ method: r.method, url: urlOf(r.path), token: tokenFor(r.auth), payload });
            if (res.statusCode >= 500) {
              failures.push(`${r.name} ${JSON.stringify(patch).slice(0, 150)} → ${res.statusCode}`);
              return false;
            }
            return true;
          }),
          { numRuns: 15, seed: 20261122 },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
  });
});
