import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { hashPassword } from '../../../platform/crypto';
import { fakeShopeeOrder, SHOPEE_PATH, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
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
 * The real server (`src/main.ts`, a child process) arranging a batch of Shopee-arranged (7-ELEVEN) orders with a fake
 * Shopee slow on `ship_order` is killed with SIGKILL in the middle of the batch — one `ship_order` in flight, whose
 * answer never comes back, though Shopee acts on it. Started again on the same database, the batch is asked for again
 * until every order has its tracking number: Shopee received exactly one `ship_order` per order (none arranged twice)
 * and every order is arranged (none left), each with Shopee's tracking number as its consignment number.
 */
const N = 8;
const SHOP = 990_002;
let target: TCrashTarget;
let fake: TFakeShopee;
let seller: { email: string; password: string; product: string; warehouseId: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const startServer = () =>
  startCrashServer(target, {
    JOB_RETRY_DELAY_SCALE: '0.01',
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
  });

beforeAll(async () => {
  target = await crashTarget('shopee-arrange-kill');
  // Every ship_order answers 700 ms later: the batch of 8 takes seconds, the kill lands in its middle.
  fake = await startFakeShopee({ shipDelayMs: 700 });
  await withDatabase(target, async (db) => {
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
  await target?.dispose();
  await fake?.close();
});

type TOutcome = { order_id: string; outcome: string; consignment_number: string | null; code: string | null };

describe(`Shopee ship_order batch killed with SIGKILL halfway (${TEST_ENGINE})`, () => {
  it('after the restart every order is arranged, none twice', async () => {
    let server = await startServer();
    const login = async () =>
      loggedIn(await server.api.authRoutes.login({ body: { email: seller.email, password: seller.password } })).access;
    let token = await login();
    const booked = await server.api.inboundRoutes.quickInbound({
      body: { warehouse_id: seller.warehouseId, code: seller.product, quantity: 100, location_code: 'A-01' },
      token,
    });
    expect(booked.statusCode, booked.body).toBeLessThan(300);
    const connected = await server.api.shopeeRoutes.connectShopeeShop({
      body: { code: fake.issueCode(SHOP), shop_id: SHOP },
      token,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const shop = connected.json();
    const sns = Array.from({ length: N }, (_, i) => `A${String(i).padStart(3, '0')}`);
    fake.addOrders(
      SHOP,
      sns.map((sn) => fakeShopeeOrder(sn, [{ sku: seller.product }], { logistics_channel_id: 30005 })),
    );
    expect((await server.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token })).statusCode).toBe(202);
    let orders: Array<{ order_id: string | null; order_sn: string }> = [];
    for (let i = 0; i < 400 && orders.length < N; i++) {
      await sleep(100);
      orders = (
        await server.api.shopeeRoutes.listShopeeOrders({
          params: { id: shop.id },
          query: { state: 'created', page_size: 50 },
          token,
        })
      ).json().results;
    }
    expect(orders).toHaveLength(N);
    const ids = orders.map((o) => o.order_id!);
    for (const id of ids) {
      const exported = await server.api.outboundRoutes.transitionOrder({
        params: { id },
        body: { action: 'export' },
        token,
      });
      expect(exported.statusCode, exported.body).toBe(200);
    }

    // The batch: one request arranging the eight, one after the other. Killed once three are arranged.
    const batch = server.api.carrierRoutes
      .fetchConsignments({ body: { order_ids: ids }, token })
      .catch((err: Error) => err);
    const arranged = () => sns.filter((sn) => (fake.order(SHOP, sn)?.arranged ?? 0) > 0).length;
    for (let i = 0; i < 600 && arranged() < 3; i++) await sleep(20);
    // The next ship_order is on its way to Shopee (it answers 700 ms later): kill while it is in flight.
    const inFlight = fake.calls(SHOPEE_PATH.shipOrder);
    for (let i = 0; i < 200 && fake.calls(SHOPEE_PATH.shipOrder) === inFlight; i++) await sleep(5);
    expect(await kill9(server)).toBe('SIGKILL');
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
      const answer = await server.api.carrierRoutes.fetchConsignments({ body: { order_ids: ids }, token });
      expect(answer.statusCode, answer.body).toBe(200);
      results = answer.json().results;
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
    expect(await stopServer(server), server.output()).toBe('0');
    await withDatabase(target, async (db) => {
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
