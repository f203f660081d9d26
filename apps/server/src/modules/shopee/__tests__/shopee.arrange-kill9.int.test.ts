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
 * The real server (`src/main.ts`, a child process) arranging a batch of Shopee-arranged (7-ELEVEN) orders with a fake
 * Shopee slow on `ship_order` is killed with SIGKILL in the middle of the batch — one `ship_order` in flight, whose
 * answer never comes back, though Shopee acts on it. Started again on the same database, the batch is asked for again
 * until every order has its tracking number: Shopee received exactly one `ship_order` per order (none arranged twice)
 * and every order is arranged (none left), each with Shopee's tracking number as its consignment number.
 */
const root = path.resolve(import.meta.dirname, '../../../../../..');
const N = 8;
const SHOP = 990_002;
const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), APP_SECRET_KEY: randomBytes(32).toString('hex') };
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: () => Promise<void> = async () => {};
let fake: TFakeShopee;
let seller: { email: string; password: string; product: string; warehouseId: string };
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
  dataDir = mkdtempSync(path.join(tmpdir(), 'wms-shopee-arrange-kill-'));
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  // Every ship_order answers 700 ms later: the batch of 8 takes seconds, the kill lands in its middle.
  fake = await startFakeShopee({ shipDelayMs: 700 });
  await withDatabase(async (db) => {
    const password = 'kill-pass-2';
    const customer = await accountRepo.insertCustomer(db, { name: 'Shopee arrange kill seller' });
    const user = await accountRepo.insertUser(db, {
      customer_id: customer.id,
      email: 'shopee-arrange-kill@test.local',
      name: 'Shopee seller',
      role: 'CUSTOMER',
      password_hash: await hashPassword(password),
    });
    const f = stockFactory(db, customer.id);
    const wh = await f.warehouse('WH-KILL2');
    await f.location(wh.id, { code: 'A-01' });
    const product = await f.product({ number: 'SK-P2' });
    seller = { email: user.email, password, product: product.number, warehouseId: wh.id };
  });
}, 60_000);

afterAll(async () => {
  for (const c of [...children]) c.kill('SIGKILL');
  await sleep(200);
  await fake?.close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

type TOutcome = { order_id: string; outcome: string; consignment_number: string | null; code: string | null };

describe(`Shopee ship_order batch killed with SIGKILL halfway (${TEST_ENGINE})`, () => {
  it('after the restart every order is arranged, none twice', async () => {
    let server = await startServer();
    const login = async () =>
      (
        await call<{ access: string }>(server.base, 'POST', '/api/login/', undefined, {
          email: seller.email,
          password: seller.password,
        })
      ).access;
    let token = await login();
    await call(server.base, 'POST', '/api/entry-quick/', token, {
      warehouse_id: seller.warehouseId,
      code: seller.product,
      quantity: 100,
      location_code: 'A-01',
    });
    const shop = await call<{ id: string }>(server.base, 'POST', '/api/shopee/shops/', token, {
      code: fake.issueCode(SHOP),
      shop_id: SHOP,
    });
    const sns = Array.from({ length: N }, (_, i) => `A${String(i).padStart(3, '0')}`);
    fake.addOrders(
      SHOP,
      sns.map((sn) => fakeShopeeOrder(sn, [{ sku: seller.product }], { logistics_channel_id: 30005 })),
    );
    await call(server.base, 'POST', `/api/shopee/shops/${shop.id}/sync/`, token);
    let orders: Array<{ order_id: string | null; order_sn: string }> = [];
    for (let i = 0; i < 400 && orders.length < N; i++) {
      await sleep(100);
      orders = (
        await call<{ results: Array<{ order_id: string | null; order_sn: string }> }>(
          server.base,
          'GET',
          `/api/shopee/shops/${shop.id}/orders/?state=created&page_size=50`,
          token,
        )
      ).results;
    }
    expect(orders).toHaveLength(N);
    const ids = orders.map((o) => o.order_id!);
    for (const id of ids)
      await call(server.base, 'POST', `/api/outbound-orders/${id}/transition/`, token, { action: 'export' });

    // The batch: one request arranging the eight, one after the other. Killed once three are arranged.
    const batch = call(server.base, 'POST', '/api/carriers/consignments/', token, { order_ids: ids }).catch(
      (err: Error) => err,
    );
    const arranged = () => sns.filter((sn) => (fake.order(SHOP, sn)?.arranged ?? 0) > 0).length;
    for (let i = 0; i < 600 && arranged() < 3; i++) await sleep(20);
    // The next ship_order is on its way to Shopee (it answers 700 ms later): kill while it is in flight.
    const inFlight = fake.calls('/api/v2/logistics/ship_order');
    for (let i = 0; i < 200 && fake.calls('/api/v2/logistics/ship_order') === inFlight; i++) await sleep(5);
    process.kill(server.child.pid!, 'SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    expect(await batch).toBeInstanceOf(Error);
    await sleep(1000); // Shopee acts on the call whose answer never reaches us
    const before = arranged();
    console.info(`[shopee arrange kill ${TEST_ENGINE}] killed with ${before} of ${N} arranged`);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(N);

    server = await startServer();
    token = await login();
    let results: TOutcome[] = [];
    const t0 = Date.now();
    // Asked again until done: an order still claimed by the dead run says "being arranged" until its claim lapses.
    for (let i = 0; i < 60; i++) {
      results = (
        await call<{ results: TOutcome[] }>(server.base, 'POST', '/api/carriers/consignments/', token, {
          order_ids: ids,
        })
      ).results;
      if (results.every((r) => r.outcome === 'created' || r.outcome === 'already')) break;
      await sleep(1000);
    }
    console.info(
      `[shopee arrange kill ${TEST_ENGINE}] finished ${((Date.now() - t0) / 1000).toFixed(1)} s after the restart`,
    );
    expect(results.map((r) => r.outcome).filter((o) => o !== 'created' && o !== 'already')).toEqual([]);
    for (const sn of sns) {
      const o = fake.order(SHOP, sn)!;
      expect({ sn, arranged: o.arranged, calls: o.ship_calls }).toEqual({ sn, arranged: 1, calls: 1 });
    }
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe('0');
    await withDatabase(async (db) => {
      const rows = await queryRows<{ sn: string; consignment_number: string | null }>(
        db,
        sql`select s.order_sn as sn, o.consignment_number from shopee_orders s
            join outbound_orders o on o.id = s.order_id `,
      );
      const mine = rows.filter((r) => sns.includes(r.sn));
      expect(mine).toHaveLength(N);
      for (const r of mine) expect(r.consignment_number, r.sn).toBe(fake.order(SHOP, r.sn)!.tracking_number);
    });
  }, 240_000);
});
