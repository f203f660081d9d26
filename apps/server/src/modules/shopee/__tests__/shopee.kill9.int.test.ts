import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { hashPassword } from '../../../platform/crypto';
import { fakeShopeeOrder, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
import { loggedIn, TEST_ENGINE } from '../../../test/harness';
import {
  crashTarget,
  kill9,
  startCrashServer,
  stopServer,
  type TCrashTarget,
  withDatabase,
} from '../../../test/process/crash-server';
import * as accountRepo from '../../account/account.repository';
import { stockFactory } from '../../stock/__tests__/factories';

/**
 * The real server (`src/main.ts`, a child process) syncing 2,000 Shopee orders from a slow fake Shopee is killed with
 * SIGKILL halfway; the database outlives it. Started again on the same database, the cut-off sync job runs again
 * (PGlite: every job found running at start; PostgreSQL: its heartbeat went stale) and the shop ends with exactly
 * 2,000 orders — none lost, none twice.
 */
const N = 2000;
const SHOP = 990_001;
let target: TCrashTarget;
let fake: TFakeShopee;
let seller: { email: string; password: string; product: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const startServer = () =>
  startCrashServer(target, {
    JOB_RETRY_DELAY_SCALE: '0.01',
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
  });

beforeAll(async () => {
  target = await crashTarget('shopee-kill');
  // Every order call answers 40 ms later: the 2,000-order run takes seconds, so the kill lands in its middle.
  fake = await startFakeShopee({ delayMs: 40 });
  await withDatabase(target, async (db) => {
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
  await target?.dispose();
  await fake?.close();
});

describe(`Shopee sync killed with SIGKILL halfway (${TEST_ENGINE})`, () => {
  it('ends with exactly 2,000 orders after the restart', async () => {
    let server = await startServer();
    const login = async () =>
      loggedIn(await server.api.authRoutes.login({ body: { email: seller.email, password: seller.password } })).access;
    let token = await login();
    const connected = await server.api.shopeeRoutes.connectShopeeShop({
      body: { code: fake.issueCode(SHOP), shop_id: SHOP },
      token,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const shop = connected.json();
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
        await server.api.shopeeRoutes.listShopeeOrders({
          params: { id: shop.id },
          query: { state: 'created', page_size: 10 },
          token,
        })
      ).json().count;
    expect((await server.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token })).statusCode).toBe(202);
    let before = 0;
    for (let i = 0; i < 600 && before < N / 4; i++) {
      await sleep(50);
      before = await created();
    }
    expect(await kill9(server)).toBe('SIGKILL');
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
    expect(await stopServer(server), server.output()).toBe('0');
    await withDatabase(target, async (db) => {
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
