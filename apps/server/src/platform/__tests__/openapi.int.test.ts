import type { TRouteContract } from '@wms/contracts';
import * as contracts from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestContext, type TTestContext } from '../../test/harness';

interface TOperation {
  operationId?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  'x-auth'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface TDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, TOperation>>;
  components: {
    schemas?: Record<string, unknown>;
    securitySchemes?: Record<string, { type: string; scheme?: string }>;
  };
}

const isRoute = (v: unknown): v is TRouteContract =>
  !!v && typeof v === 'object' && typeof (v as TRouteContract).path === 'string' && 'response' in v;

/** The route tables of the contracts, found here on their own (not through the server's helper it tests). */
function routeTables(): Array<[string, Record<string, TRouteContract>]> {
  const out: Array<[string, Record<string, TRouteContract>]> = [];
  for (const [name, value] of Object.entries(contracts) as Array<[string, unknown]>) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const entries = Object.values(value);
    if (entries.length > 0 && entries.every(isRoute)) out.push([name, value as Record<string, TRouteContract>]);
  }
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const docPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const keysOf = (schema: z.ZodType | undefined) =>
  schema
    ? Object.keys(
        (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object }).properties ?? {},
      )
    : [];

/** Every `$ref` in the document, with where it stands. */
function refsOf(node: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) refsOf(n, `${at}/${i}`, out);
  } else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push([at, v]);
      else refsOf(v, `${at}/${k}`, out);
    }
  return out;
}

/** A local JSON pointer (`#/components/schemas/Error`) resolved in the document, or undefined. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as never)[key] : undefined), doc);
}

let ctx: TTestContext;
let doc: TDocument;
beforeAll(async () => {
  ctx = await createTestContext();
  const seller = await ctx.newCustomer();
  const res = await ctx.api.apiDocsRoutes.openapi({ token: seller.token });
  expect(res.statusCode).toBe(200);
  doc = res.json() as TDocument;
});
afterAll(() => ctx?.close());

describe('OpenAPI document (/api/openapi.json)', () => {
  it('is for logged-in users: a seller or an employee, not an anonymous caller', async () => {
    expect((await ctx.api.apiDocsRoutes.openapi()).statusCode).toBe(401);
    const staff = await ctx.newEmployee();
    const res = await ctx.api.apiDocsRoutes.openapi({ token: staff.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe(doc.openapi);
  });

  it('is OpenAPI 3.1 in shape: version, info, paths, components, operations with responses, refs that resolve', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    expect(doc.components.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes?.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.schemas?.Error).toBeDefined();
    const problems: string[] = [];
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/')) problems.push(`${path}: a path starts with /`);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!METHODS.includes(method)) problems.push(`${where}: not an HTTP method`);
        if (!op.operationId || operationIds.has(op.operationId))
          problems.push(`${where}: operationId missing or twice`);
        operationIds.add(op.operationId ?? '');
        const codes = Object.keys(op.responses ?? {});
        if (!codes.some((c) => /^2\d\d$/.test(c))) problems.push(`${where}: no 2xx response`);
        for (const [code, r] of Object.entries(op.responses ?? {}))
          if (typeof r.description !== 'string') problems.push(`${where} ${code}: a response needs a description`);
        for (const p of op.parameters ?? []) {
          if (!['query', 'path', 'header', 'cookie'].includes(p.in) || !p.name || !p.schema)
            problems.push(`${where}: parameter ${p.name} lacks name, in or schema`);
          if (p.in === 'path' && p.required !== true) problems.push(`${where}: path parameter ${p.name} not required`);
        }
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        if (JSON.stringify(templated) !== JSON.stringify(declared))
          problems.push(`${where}: path parameters ${declared} ≠ template ${templated}`);
      }
    }
    for (const [at, ref] of refsOf(doc, '#'))
      if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
    expect(problems).toEqual([]);
  });

  it('documents every route of every contract route table, named, secured and shaped by its contract', () => {
    const tables = routeTables();
    // Every export named …Routes is a route table the walk found (a table of another shape would be skipped).
    const named = Object.entries(contracts)
      .filter(([k, v]) => k.endsWith('Routes') && typeof v === 'object')
      .map(([k]) => k);
    expect(tables.map(([t]) => t).sort()).toEqual(named.sort());
    const missing: string[] = [];
    const wrong: string[] = [];
    let routes = 0;
    for (const [table, routeTable] of tables) {
      for (const [name, r] of Object.entries(routeTable)) {
        routes++;
        const id = `${table}.${name}`;
        const op = doc.paths[docPath(r.path)]?.[r.method.toLowerCase()];
        if (!op) {
          missing.push(`${id}: ${r.method} ${r.path}`);
          continue;
        }
        if (op.operationId !== id) wrong.push(`${id}: operationId ${op.operationId}`);
        if (op['x-auth'] !== r.auth) wrong.push(`${id}: x-auth ${op['x-auth']} ≠ ${r.auth}`);
        // Public: no scheme; the partner API: its key; every other route: the bearer token.
        const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
        const expected = r.auth === 'public' ? [] : r.auth === 'apikey' ? ['apiKey'] : ['bearer'];
        if (JSON.stringify(schemes) !== JSON.stringify(expected))
          wrong.push(`${id}: security ${JSON.stringify(op.security)}`);
        if (!!op.requestBody !== !!r.body) wrong.push(`${id}: request body documented ${!!op.requestBody}`);
        const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        if (JSON.stringify(query.sort()) !== JSON.stringify(keysOf(r.query).sort()))
          wrong.push(`${id}: query parameters ${query}`);
      }
    }
    expect(missing, 'contract routes missing from the OpenAPI document').toEqual([]);
    expect(wrong).toEqual([]);
    // …and nothing else: every documented operation is a contract route.
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item));
    expect(operations.length).toBe(routes);
  });
});
