import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateDatabase, openDatabase, queryRows } from '../../../db/client';
import { hashPassword } from '../../../platform/crypto';
import { fakeShopeeOrder, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
import { createScratchDatabase, TEST_ENGINE } from '../../../test/harness';
import * as accountRepo from '../../account/account.repository';
import { stockFactory } from '../../stock/__tests__/factories';

/**
 * The real server (`src/main.ts`, a child process) syncing 2,000 Shopee orders from a slow fake Shopee is killed with
 * SIGKILL halfway; the database outlives it. Started again on the same database, the cut-off sync job runs again
 * (PGlite: every job found running at start; PostgreSQL: its heartbeat went stale) and the shop ends with exactly
 * 2,000 orders — none lost, none twice.
 */
const root = path.resolve(import.meta.dirname, '../../../../../..');
const N = 2000;
const SHOP = 990_001;
const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), APP_SECRET_KEY: randomBytes(32).toString('hex') };
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: () => Promise<void> = async () => {};
let fake: TFakeShopee;
let seller: { email: string; password: string; product: string };
const children = new Set<ChildProcessWithoutNullStreams>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir });
  try {
    await migrateDatabase(database);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...secrets,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      JOB_STALE_SECONDS: '4',
      JOB_RETRY_DELAY_SCALE: '0.01',
      SHOPEE_PARTNER_ID: String(fake.partnerId),
      SHOPEE_PARTNER_KEY: fake.partnerKey,
      SHOPEE_BASE_URL: fake.url,
    },
  });
  children.add(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d;
  });
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(signal ?? String(code));
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /running on http:\/\/localhost:(\d+)/.exec(out);
    if (m) return { child, exited, base: `http://127.0.0.1:${m[1]}`, output: () => out };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${out}`);
    await sleep(50);
  }
}

async function call<T>(base: string, method: 'GET' | 'POST', url: string, token?: string, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wms-shopee-kill-'));
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  // Every order call answers 40 ms later: the 2,000-order run takes seconds, so the kill lands in its middle.
  fake = await startFakeShopee({ delayMs: 40 });
  await withDatabase(async (db) => {
    const password = 'kill-pass-1';
    const customer = await accountRepo.insertCustomer(db, { name: 'Shopee kill seller' });
    const user = await accountRepo.insertUser(db, {
      customer_id: customer.id,
      email: 'shopee-kill@test.local',
      name: 'Shopee seller',
      role: 'CUSTOMER',
      password_hash: await hashPassword(password),
    });
    const f = stockFactory(db, customer.id);
    await f.warehouse('WH-KILL');
    const product = await f.product({ number: 'SK-P1' });
    seller = { email: user.email, password, product: product.number };
  });
}, 60_000);

afterAll(async () => {
  for (const c of [...children]) c.kill('SIGKILL');
  await sleep(200);
  await fake?.close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`Shopee sync killed with SIGKILL halfway (${TEST_ENGINE})`, () => {
  it('ends with exactly 2,000 orders after the restart', async () => {
    let server = await startServer();
    const login = async () =>
      (
        await call<{ access: string }>(server.base, 'POST', '/api/login/', undefined, {
          email: seller.email,
          password: seller.password,
        })
      ).access;
    let token = await login();
    const shop = await call<{ id: string }>(server.base, 'POST', '/api/shopee/shops/', token, {
      code: fake.issueCode(SHOP),
      shop_id: SHOP,
    });
    await sleep(1500); // the connect's first (empty) sync
    const now = Math.floor(Date.now() / 1000);
    fake.addOrders(
      SHOP,
      Array.from({ length: N }, (_, i) =>
        fakeShopeeOrder(`K${String(i).padStart(5, '0')}`, [{ sku: seller.product, quantity: 1 }], {
          update_time: now - 60,
        }),
      ),
    );
    const created = async () =>
      (
        await call<{ count: number }>(
          server.base,
          'GET',
          `/api/shopee/shops/${shop.id}/orders/?state=created&page_size=10`,
          token,
        )
      ).count;
    await call(server.base, 'POST', `/api/shopee/shops/${shop.id}/sync/`, token);
    let before = 0;
    for (let i = 0; i < 600 && before < N / 4; i++) {
      await sleep(50);
      before = await created();
    }
    process.kill(server.child.pid!, 'SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(N);
    console.info(`[shopee kill ${TEST_ENGINE}] killed with ${before} of ${N} orders written`);

    server = await startServer();
    token = await login();
    const t0 = Date.now();
    let after = 0;
    for (let i = 0; i < 1200 && after < N; i++) {
      await sleep(100);
      after = await created();
    }
    console.info(
      `[shopee kill ${TEST_ENGINE}] after the restart: ${after} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    expect(after).toBe(N);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe('0');
    await withDatabase(async (db) => {
      const [orders] = await queryRows<{ n: number; d: number }>(
        db,
        sql`select count(*)::int as n, count(distinct platform_order_number)::int as d from outbound_orders
            where platform_order_number like 'K%'`,
      );
      expect(orders).toEqual({ n: N, d: N });
      const [lines] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from outbound_order_lines l join outbound_orders o on o.id = l.order_id
            where o.platform_order_number like 'K%'`,
      );
      expect(lines!.n).toBe(N);
    });
  }, 240_000);
});
