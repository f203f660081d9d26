import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkBoundaries } from '../../../../../scripts/check-boundaries.mjs';

/**
 * The boundary check of `npm test` (scripts/check-boundaries.mjs with the repository's .dependency-cruiser.cjs),
 * run on a small tree of its own: a clean tree passes, and each kind of planted violation — another module's
 * internals, drizzle-orm outside a repository, an import loop, a repository naming another module's table — is
 * reported as new until the baseline lists it; a baseline entry that no longer occurs is reported too, so the
 * baseline stays exact.
 */
let dir: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};
const baseline = (violations: string[]) => {
  writeFileSync(path.join(dir, 'baseline.json'), JSON.stringify({ violations }));
  return path.join(dir, 'baseline.json');
};
const check = (violations: string[] = []) => checkBoundaries({ cwd: dir, baseline: baseline(violations) });

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  write('apps/server/src/modules/orders/index.ts', "export { placeOrder } from './orders.service';\n");
  write(
    'apps/server/src/modules/orders/orders.service.ts',
    "import { findProduct } from '../catalog';\nimport { insertOrder } from './orders.repository';\n" +
      'export const placeOrder = (id: string) => insertOrder(findProduct(id));\n',
  );
  write(
    'apps/server/src/modules/orders/orders.repository.ts',
    "import { sql } from 'drizzle-orm';\nimport { orders } from '../../db/schema';\n" +
      'export const insertOrder = (p: unknown) => [sql`insert into orders values (1)`, orders, p];\n',
  );
  // The schema: one file per owning module (db/schema/<module>.ts) behind a barrel, as in the real tree.
  write(
    'apps/server/src/db/schema/orders.ts',
    "import { pgTable } from 'drizzle-orm';\nexport const orders = pgTable('orders', {});\n",
  );
  write(
    'apps/server/src/db/schema/catalog.ts',
    "import { pgTable } from 'drizzle-orm';\nexport const products = pgTable(\n  'products',\n  {},\n);\n",
  );
  write('apps/server/src/db/schema/index.ts', "export * from './catalog';\nexport * from './orders';\n");
  write('apps/server/src/modules/catalog/index.ts', "export { findProduct } from './catalog.repository';\n");
  write('apps/server/src/modules/catalog/catalog.repository.ts', 'export const findProduct = (id: string) => id;\n');
  // A stand-in package, resolved as the real one is (node_modules/drizzle-orm/…).
  write('node_modules/drizzle-orm/package.json', '{"name":"drizzle-orm","main":"index.js","types":"index.d.ts"}');
  write('node_modules/drizzle-orm/index.js', 'export const sql = 1;\nexport const pgTable = () => ({});\n');
  write(
    'node_modules/drizzle-orm/index.d.ts',
    'export declare const sql: number;\nexport type SQL = string;\nexport declare const pgTable: (n: string, c: object) => object;\n',
  );
  write('bench/src/main.ts', "import { step } from './steps';\nstep();\n");
  write('bench/src/steps.ts', 'export const step = () => 1;\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('boundary check', () => {
  it('passes a tree that keeps the rules', async () => {
    const r = await check();
    expect(r.found).toEqual([]);
    expect(r.modules).toBeGreaterThanOrEqual(7);
  });

  it('fails on an import of another module’s internals, until the baseline lists it', async () => {
    write(
      'apps/server/src/modules/orders/orders.service.ts',
      "import { findProduct } from '../catalog/catalog.repository';\nexport const placeOrder = findProduct;\n",
    );
    const key =
      'module-internals: apps/server/src/modules/orders/orders.service.ts -> apps/server/src/modules/catalog/catalog.repository.ts';
    expect((await check()).added).toEqual([key]);
    const listed = await check([key]);
    expect(listed.added).toEqual([]);
    expect(listed.gone).toEqual([]);
  });

  it('fails on drizzle-orm outside a repository, schema or db file; tests and type-only imports are exempt', async () => {
    write('apps/server/src/modules/orders/orders.routes.ts', "import { eq } from 'drizzle-orm';\nexport { eq };\n");
    write('apps/server/src/modules/orders/orders.schema.ts', "import { sql } from 'drizzle-orm';\nexport { sql };\n");
    write('apps/server/src/db/client.ts', "import { sql } from 'drizzle-orm';\nexport { sql };\n");
    write('apps/server/src/platform/purge.ts', "import type { SQL } from 'drizzle-orm';\nexport type T = SQL;\n");
    write(
      'apps/server/src/modules/orders/__tests__/orders.int.test.ts',
      "import { sql } from 'drizzle-orm';\nimport '../../catalog/catalog.repository';\nexport { sql };\n",
    );
    expect((await check()).added).toEqual([
      'sql-outside-repositories: apps/server/src/modules/orders/orders.routes.ts -> drizzle-orm',
    ]);
  });

  it('fails on an import loop (server, web or bench), type-only imports included', async () => {
    write('bench/src/steps.ts', "import type { T } from './main';\nexport const step = (t?: T) => t;\n");
    write('bench/src/main.ts', "import { step } from './steps';\nexport type T = number;\nstep();\n");
    write('apps/web/src/a.tsx', "import { b } from './b';\nexport const a = () => b;\n");
    write('apps/web/src/b.tsx', "import { a } from './a';\nexport const b = () => a;\n");
    const { added } = await check();
    expect(added).toContain('no-import-loops: bench/src/main.ts -> bench/src/steps.ts -> bench/src/main.ts');
    expect(added).toContain('no-import-loops: apps/web/src/a.tsx -> apps/web/src/b.tsx -> apps/web/src/a.tsx');
  });

  it('fails on a repository that names another module’s table (its table object or its name in SQL text)', async () => {
    write(
      'apps/server/src/modules/orders/orders.repository.ts',
      "import { sql } from 'drizzle-orm';\nimport { orders, products as p } from '../../db/schema/index';\n" +
        'export const listOrders = () => [sql`select * from orders o`, orders, p];\n',
    );
    write(
      'apps/server/src/modules/catalog/catalog.report.repository.ts',
      "import { sql } from 'drizzle-orm';\n" +
        'export const report = () => sql`select p.id from products p left join "orders" o on o.id = p.id`;\n',
    );
    const keys = [
      'repository-foreign-table: apps/server/src/modules/catalog -> orders (orders)',
      'repository-foreign-table: apps/server/src/modules/orders -> products (catalog)',
    ];
    const r = await check();
    expect(r.added).toEqual(keys);
    expect(r.where.get(keys[0]!)).toEqual(['apps/server/src/modules/catalog/catalog.report.repository.ts']);
    const listed = await check(keys);
    expect(listed.added).toEqual([]);
    expect(listed.gone).toEqual([]);
  });

  it('keeps one entry per module and table, so moving code between a module’s files changes no baseline', async () => {
    const key = 'repository-foreign-table: apps/server/src/modules/orders -> products (catalog)';
    write(
      'apps/server/src/modules/orders/orders.lines.repository.ts',
      "import { sql } from 'drizzle-orm';\nexport const lines = () => sql`select * from products`;\n",
    );
    const one = await check([key]);
    expect(one.added).toEqual([]);
    write(
      'apps/server/src/modules/orders/orders.report.repository.ts',
      "import { products } from '../../db/schema';\nexport const t = products;\n",
    );
    const two = await check([key]);
    expect(two.added).toEqual([]);
    expect(two.where.get(key)).toEqual([
      'apps/server/src/modules/orders/orders.lines.repository.ts',
      'apps/server/src/modules/orders/orders.report.repository.ts',
    ]);
  });

  it('lets a module name its own tables; type-only imports of another’s table, its index.ts and tests are exempt', async () => {
    write(
      'apps/server/src/modules/orders/orders.service.ts',
      "import type { products } from '../../db/schema';\nimport { type orders } from '../../db/schema';\n" +
        "import { findProduct } from '../catalog';\n" +
        'export type TRow = typeof products | typeof orders;\nexport const placeOrder = findProduct;\n',
    );
    write(
      'apps/server/src/modules/orders/__tests__/orders.int.test.ts',
      "import { products } from '../../../db/schema';\nexport const q = `select * from products`, t = products;\n",
    );
    write(
      'apps/server/src/modules/catalog/catalog.repository.ts',
      "import { sql } from 'drizzle-orm';\nimport { products } from '../../db/schema';\n" +
        'export const findProduct = (id: string) => [sql`update products set x = 1`, products, id];\n',
    );
    expect((await check()).found).toEqual([]);
  });

  it('reports a baseline entry that no longer occurs, so the baseline only shrinks and stays exact', async () => {
    const stale =
      'module-internals: apps/server/src/modules/orders/orders.service.ts -> apps/server/src/modules/catalog/catalog.repository.ts';
    const r = await check([stale]);
    expect(r.added).toEqual([]);
    expect(r.gone).toEqual([stale]);
  });
});
