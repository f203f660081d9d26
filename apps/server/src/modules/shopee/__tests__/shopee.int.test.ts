import { createHmac } from 'node:crypto';
import { shopeeRoutes } from '@wms/contracts';
import type { TRouteInput } from '@wms/contracts/client';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { integration_attempts, outbound_orders, shopee_orders, shopee_shops } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { fakeShopeeOrder, SHOPEE_PATH, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld, transition } from '../../outbound/__tests__/factories';
import { shopeePushSignature, shopeeSign } from '../providers/shopee';
import { shopeeShipScan } from '../shopee.ship';
import { shopeeSchedule, shopeeTokenRefresh } from '../shopee.sync-jobs';

let ctx: TTestContext;
let fake: TFakeShopee;
let w: TWorld;
beforeAll(async () => {
  fake = await startFakeShopee();
  ctx = await createTestContext({
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
    // Retries of a failed sync after a fraction of a second instead of 30 s doubling.
    JOB_RETRY_DELAY_SCALE: '0.01',
  });
  w = await outboundWorld(ctx);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const db = () => ctx.deps.database.db;

async function waitJob(id: string, token = w.token, timeoutMs = 120_000) {
  const t0 = Date.now();
  for (;;) {
    const res = await ctx.api.jobRoutes.getJob({ params: { id }, token });
    const job = res.json() as { state: string; error: unknown; result: unknown };
    if (['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
    if (Date.now() - t0 > timeoutMs) throw new Error(`job ${id} still ${job.state}`);
    await db().execute(sql`update pgboss.job set start_after = now() where name = 'shopee.sync' and state = 'retry'`);
    ctx.deps.jobs.kick('shopee.sync');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function connect(shopId: number, token = w.token) {
  const res = await ctx.api.shopeeRoutes.connectShopeeShop({
    body: { code: fake.issueCode(shopId), shop_id: shopId },
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; state: string; platform_code: string };
}

async function shopRow(id: string) {
  return (await db().select().from(shopee_shops).where(eq(shopee_shops.id, id)))[0]!;
}

async function syncNow(id: string, token = w.token) {
  const res = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id }, token });
  expect(res.statusCode, res.body).toBe(202);
  return waitJob(res.json().job_id, token);
}

const ordersOf = async (platformCode: string) => ({
  rows: await queryRows<{ id: string; platform_order_number: string; status: string; abnormal_code: string | null }>(
    db(),
    sql`select o.* from outbound_orders o join ecommerce_platforms p on p.id = o.platform_id where p.code = ${platformCode}`,
  ),
});

describe('Shopee Open Platform v2 signing', () => {
  it('signs partner and shop calls as published: HMAC-SHA256(partner_key, partner_id + path + timestamp [+ token + shop_id])', () => {
    // The worked example of Shopee's authorisation guide: base string "2011285/api/v2/shop/auth_partner1659992253".
    const key = 'shpk_example_partner_key';
    expect(shopeeSign(key, { partnerId: 2011285, path: SHOPEE_PATH.authPartner, timestamp: 1659992253 })).toBe(
      createHmac('sha256', key).update('2011285/api/v2/shop/auth_partner1659992253').digest('hex'),
    );
    expect(
      shopeeSign(key, {
        partnerId: 2011285,
        path: SHOPEE_PATH.orderList,
        timestamp: 1659992253,
        accessToken: 'tok',
        shopId: 42,
      }),
    ).toBe(createHmac('sha256', key).update('2011285/api/v2/order/get_order_list1659992253tok42').digest('hex'));
  });
});

describe('connect a shop', () => {
  it('answers a signed authorisation URL that returns to /module-shopee-create', async () => {
    const res = await ctx.api.shopeeRoutes.shopeeAuthUrl({ token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}${SHOPEE_PATH.authPartner}`);
    expect(url.searchParams.get('redirect')).toBe('http://wms.test/module-shopee-create');
    const ts = Number(url.searchParams.get('timestamp'));
    expect(url.searchParams.get('sign')).toBe(
      shopeeSign(fake.partnerKey, { partnerId: fake.partnerId, path: SHOPEE_PATH.authPartner, timestamp: ts }),
    );
  });

  it('exchanges the code, keeps the tokens encrypted, syncs at once; a spent code is a visible Shopee error', async () => {
    fake.addOrders(101, [fakeShopeeOrder('2411240001AAA', [{ sku: w.plain.number, quantity: 2, price: 150 }])]);
    const code = fake.issueCode(101);
    const res = await ctx.api.shopeeRoutes.connectShopeeShop({ body: { code, shop_id: 101 }, token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    const shop = res.json();
    expect(shop).toMatchObject({ shop_id: 101, state: 'connected', platform_code: 'SHOPEE-101' });
    const row = await shopRow(shop.id);
    expect(row.access_token_enc).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toMatch(/"[0-9a-f]{32}"/);
    // The connect queued the first sync.
    await ctx.deps.jobs.whenIdle();
    const orders = (await ordersOf('SHOPEE-101')).rows;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      platform_order_number: '2411240001AAA',
      channel: 'ecommerce',
      status: 'pending_export',
    });

    const again = await ctx.api.shopeeRoutes.connectShopeeShop({
      body: { code, shop_id: 101 },
      token: w.token,
      lang: 'en',
    });
    expect(again.statusCode).toBe(502);
    expect(again.error()).toMatchObject({ code: 'SHOPEE_ERROR', params: { remote: 'error_auth' } });
    expect(again.error().message).toContain('Invalid code.');
  });

  it('another seller never sees or drives the shop', async () => {
    const shop = await connect(102);
    const other = await ctx.newCustomer();
    const list = await ctx.api.shopeeRoutes.listShopeeShops({ token: other.token });
    expect(list.json().results).toEqual([]);
    for (const drive of [ctx.api.shopeeRoutes.syncShopeeShop, ctx.api.shopeeRoutes.disconnectShopeeShop])
      expect((await drive({ params: { id: shop.id }, token: other.token })).statusCode).toBe(404);
    expect(
      (await ctx.api.shopeeRoutes.listShopeeOrders({ params: { id: shop.id }, token: other.token })).statusCode,
    ).toBe(404);
  });
});

describe('order sync', () => {
  it('maps model SKU then item SKU, keeps an unmapped SKU as abnormal (not lost), never duplicates, retries it once mapped', async () => {
    const shop = await connect(201);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(201, [
      fakeShopeeOrder('S201-MODEL', [{ sku: 'no-such-item', model: w.plain.number, quantity: 1 }]),
      fakeShopeeOrder('S201-ITEM', [{ sku: w.fresh.number, model: '', quantity: 3 }]),
      fakeShopeeOrder('S201-UNMAPPED', [{ sku: 'GHOST-1', model: 'GHOST-1-RED', quantity: 1 }]),
      fakeShopeeOrder('S201-UNPAID', [{ sku: w.plain.number }], { order_status: 'UNPAID' }),
    ]);
    const job = await syncNow(shop.id);
    expect(job.state).toBe('succeeded');
    expect(job.result).toMatchObject({ created: 2, abnormal: 1 });
    const orders = (await ordersOf('SHOPEE-201')).rows as Array<{ platform_order_number: string; id: string }>;
    expect(orders.map((o) => o.platform_order_number).sort()).toEqual(['S201-ITEM', 'S201-MODEL']);

    const list = await ctx.api.shopeeRoutes.listShopeeOrders({
      params: { id: shop.id },
      query: { state: 'abnormal' },
      token: w.token,
      lang: 'en',
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({
        order_sn: 'S201-UNMAPPED',
        state: 'abnormal',
        order_id: null,
        problem: expect.objectContaining({ code: 'PRODUCT_ABNORMAL', field: 'product', value: 'GHOST-1-RED' }),
      }),
    ]);
    const shown = await ctx.api.shopeeRoutes.listShopeeShops({ token: w.token });
    const mine = shown.json().results.find((s: { id: string }) => s.id === shop.id);
    expect(mine).toMatchObject({
      state: 'connected',
      abnormal_orders: 1,
      last_sync_counts: { created: 2, abnormal: 1 },
    });

    // The same window again (a re-run, an overlapping schedule): nothing new.
    const again = await syncNow(shop.id);
    expect(again.result).toMatchObject({ created: 0, skipped: 2, abnormal: 1 });
    expect((await ordersOf('SHOPEE-201')).rows).toHaveLength(2);

    // The seller adds the product: the next sync creates the order that was waiting.
    await w.f.product({ number: 'GHOST-1' });
    const mapped = await syncNow(shop.id);
    expect(mapped.result).toMatchObject({ created: 1, skipped: 2, abnormal: 0 });
    expect((await ordersOf('SHOPEE-201')).rows).toHaveLength(3);
  });

  it('an order abnormal for an unknown SKU heals within one job run once the product is created (no push, no sync); "retry now" on the rest', async () => {
    const shop = await connect(203);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(203, [
      fakeShopeeOrder('S203-HEAL', [{ sku: 'HEAL-203', model: 'HEAL-203-RED', quantity: 2 }]),
      fakeShopeeOrder('S203-OTHER', [{ sku: 'STILL-UNKNOWN-203' }]),
    ]);
    expect((await syncNow(shop.id)).result).toMatchObject({ created: 0, abnormal: 2 });
    const lists = fake.calls(SHOPEE_PATH.orderList);
    const details = fake.calls(SHOPEE_PATH.orderDetail);
    const syncs = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from pgboss.job where name = 'shopee.sync'`,
    );

    // Another seller creating the same product number heals nothing of this seller.
    const other = await ctx.newCustomer();
    const foreign = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'HEAL-203-RED', name: 'not mine' },
      token: other.token,
    });
    expect(foreign.statusCode, foreign.body).toBe(201);
    await ctx.deps.jobs.whenIdle();
    expect(fake.calls(SHOPEE_PATH.orderDetail)).toBe(details);

    // The seller creates the product under the model SKU Shopee named: the order becomes a normal order.
    const made = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'HEAL-203-RED', name: 'Red one' },
      token: w.token,
    });
    expect(made.statusCode, made.body).toBe(201);
    await ctx.deps.jobs.whenIdle();
    const heals = await queryRows<{ state: string; output: { created: number } }>(
      db(),
      sql`select j.state, j.output from pgboss.job j where j.name = 'shopee.heal' and j.data->>'customer' = ${w.customerId}`,
    );
    expect(heals).toHaveLength(1);
    expect(heals[0]).toMatchObject({ state: 'completed' });
    const orders = (await ordersOf('SHOPEE-203')).rows as Array<{ platform_order_number: string; status: string }>;
    expect(orders.map((o) => o.platform_order_number)).toEqual(['S203-HEAL']);
    expect(orders[0]!.status).toBe('pending_export');
    const [healed] = await db().select().from(shopee_orders).where(eq(shopee_orders.order_sn, 'S203-HEAL'));
    expect(healed).toMatchObject({ state: 'created', problem: null });
    // Only the healed order was read again: no listing, no sync, and the other abnormal one not fetched.
    expect(fake.calls(SHOPEE_PATH.orderList)).toBe(lists);
    expect(fake.calls(SHOPEE_PATH.orderDetail)).toBe(details + 1);
    expect(
      (
        await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from pgboss.job where name = 'shopee.sync'`)
      )[0]!.n,
    ).toBe(syncs[0]!.n);
    // A product whose code no abnormal order waits for queues nothing.
    await ctx.api.catalogRoutes.createProduct({ body: { number: 'UNRELATED-203', name: 'x' }, token: w.token });
    await ctx.deps.jobs.whenIdle();
    expect(
      await queryRows(
        db(),
        sql`select 1 from pgboss.job where name = 'shopee.heal' and data->>'customer' = ${w.customerId}`,
      ),
    ).toHaveLength(1);

    // "Retry now": the other order, still unknown, is read again and stays abnormal (not lost, not doubled).
    const retry = await ctx.api.shopeeRoutes.retryShopeeOrders({ params: { id: shop.id }, body: {}, token: w.token });
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json()).toMatchObject({ orders: 1 });
    const job = await waitJob(retry.json().job_id!);
    expect(job.result).toMatchObject({ abnormal: 1, created: 0 });
    // Once its product exists by barcode (created by the seller's import or form), retry now creates it.
    await w.f.product({ number: 'P-203-X', barcode: 'STILL-UNKNOWN-203' });
    const again = await ctx.api.shopeeRoutes.retryShopeeOrders({ params: { id: shop.id }, body: {}, token: w.token });
    expect((await waitJob(again.json().job_id!)).result).toMatchObject({ created: 1 });
    expect((await ordersOf('SHOPEE-203')).rows).toHaveLength(2);
    const none = await ctx.api.shopeeRoutes.retryShopeeOrders({ params: { id: shop.id }, body: {}, token: w.token });
    expect(none.json()).toEqual({ job_id: null, orders: 0 });
    // Another seller cannot retry this shop's orders.
    const theirs = await ctx.api.shopeeRoutes.retryShopeeOrders({
      params: { id: shop.id },
      body: {},
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('giving an existing product the SKU as its barcode heals the order too (the edit is the event)', async () => {
    const shop = await connect(207);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(207, [fakeShopeeOrder('S207-BAR', [{ sku: 'BAR-207-X' }])]);
    expect((await syncNow(shop.id)).result).toMatchObject({ abnormal: 1 });
    const made = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'P-207', name: 'Barcoded later' },
      token: w.token,
    });
    expect(made.statusCode, made.body).toBe(201);
    await ctx.deps.jobs.whenIdle();
    expect((await ordersOf('SHOPEE-207')).rows).toHaveLength(0);
    const edited = await ctx.api.catalogRoutes.updateProduct({
      params: { id: made.json().id },
      body: { barcode: 'BAR-207-X' },
      token: w.token,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await ctx.deps.jobs.whenIdle();
    expect((await ordersOf('SHOPEE-207')).rows.map((r) => r.platform_order_number)).toEqual(['S207-BAR']);
  });

  it('the first sync goes as far back as the seller chose when connecting (up to 90 days), in 15-day windows', async () => {
    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    fake.addOrders(204, [
      fakeShopeeOrder('S204-35D', [{ sku: w.plain.number }], { update_time: now - 35 * day }),
      fakeShopeeOrder('S204-50D', [{ sku: w.plain.number }], { update_time: now - 50 * day }),
    ]);
    fake.addOrders(205, [fakeShopeeOrder('S205-20D', [{ sku: w.plain.number }], { update_time: now - 20 * day })]);
    const lists = fake.calls(SHOPEE_PATH.orderList);
    const chosen = await ctx.api.shopeeRoutes.connectShopeeShop({
      body: { code: fake.issueCode(204), shop_id: 204, first_sync_days: 40 },
      token: w.token,
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await ctx.deps.jobs.whenIdle();
    expect((await ordersOf('SHOPEE-204')).rows.map((r) => r.platform_order_number)).toEqual(['S204-35D']);
    // 40 days in windows of (just under) 15: 3 windows × 3 statuses, each call within Shopee's range (else refused).
    expect(fake.calls(SHOPEE_PATH.orderList) - lists).toBe(9);
    // The default is 15 days.
    await connect(205);
    await ctx.deps.jobs.whenIdle();
    expect((await ordersOf('SHOPEE-205')).rows).toHaveLength(0);
    // More than Shopee's reach we allow is refused, naming the field.
    const tooFar = await ctx.api.shopeeRoutes.connectShopeeShop({
      body: { code: fake.issueCode(206), shop_id: 206, first_sync_days: 91 },
      token: w.token,
    });
    expect(tooFar.statusCode).toBe(400);
    expect(JSON.stringify(tooFar.json())).toContain('first_sync_days');
  });

  it('a cancellation in Shopee cancels a pending order and flags an exported one', async () => {
    await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 50 }]);
    const shop = await connect(202);
    fake.addOrders(202, [
      fakeShopeeOrder('S202-PENDING', [{ sku: w.plain.number }]),
      fakeShopeeOrder('S202-EXPORTED', [{ sku: w.plain.number }]),
    ]);
    await ctx.deps.jobs.whenIdle();
    const rows = (await ordersOf('SHOPEE-202')).rows as Array<{ id: string; platform_order_number: string }>;
    expect(rows).toHaveLength(2);
    const exported = rows.find((r) => r.platform_order_number === 'S202-EXPORTED')!;
    const moved = await transition(ctx, w.token, exported.id, 'export');
    expect(moved.statusCode, moved.body).toBe(200);

    fake.setStatus(202, 'S202-PENDING', 'CANCELLED');
    fake.setStatus(202, 'S202-EXPORTED', 'IN_CANCEL');
    const job = await syncNow(shop.id);
    expect(job.result).toMatchObject({ cancelled: 1, flagged: 1 });
    const after = (await ordersOf('SHOPEE-202')).rows as Array<{
      platform_order_number: string;
      status: string;
      abnormal_code: string | null;
    }>;
    expect(after.find((r) => r.platform_order_number === 'S202-PENDING')).toMatchObject({ status: 'cancelled' });
    expect(after.find((r) => r.platform_order_number === 'S202-EXPORTED')).toMatchObject({
      status: 'exported',
      abnormal_code: 'PLATFORM_ORDER_CANCELLED',
    });
  });
});

describe('tracking number back to Shopee', () => {
  it('when the order ships, its event hands the consignment number on: ship_order (5xx retried), once, no scan', async () => {
    await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 10 }]);
    const shop = await connect(601);
    fake.addOrders(601, [fakeShopeeOrder('S601-SHIP', [{ sku: w.plain.number, quantity: 1 }])]);
    await ctx.deps.jobs.whenIdle();
    const [order] = (await ordersOf('SHOPEE-601')).rows;
    const id = order!.id;
    expect((await transition(ctx, w.token, id, 'export')).statusCode).toBe(200);
    const cn = await ctx.api.outboundRoutes.setConsignment({
      params: { id },
      body: { consignment_number: '901234567890' },
      token: w.token,
    });
    expect(cn.statusCode, cn.body).toBe(200);
    const scan = await ctx.api.outboundRoutes.packScan({
      params: { id },
      body: { barcode: w.plain.number },
      token: w.token,
    });
    expect(scan.statusCode, scan.body).toBe(200);
    // Not shipped yet: nothing goes to Shopee.
    await syncNow(shop.id);
    expect(fake.order(601, 'S601-SHIP')!.tracking_number).toBeUndefined();

    // Shopee's next call (the outbox's ship_order, delivered right after the ship commits) answers 5xx once. Set
    // before the ship: the delivery may run before this test's next line does.
    await ctx.deps.jobs.whenIdle();
    fake.failNext(1, 'server');
    const ship = await ctx.api.outboundRoutes.shipOrder({ params: { id }, body: {}, token: w.token });
    expect(ship.statusCode, ship.body).toBe(200);
    // The ship published `outbound.orders-shipped` in its transaction (with the tracking number); Shopee's subscriber
    // hands the number on as a `shopee.ship` message, no scan needed.
    const [event] = await queryRows<{ payload: { orders: { consignment_number: string }[] } }>(
      db(),
      sql`select payload from outbox_messages where topic = 'event.outbound.orders-shipped'
          and customer_id = ${w.customerId} and payload->'orders'->0->>'order_id' = ${id}`,
    );
    expect(event!.payload.orders[0]!.consignment_number).toBe('901234567890');
    const shopeeShipMessage = () =>
      queryRows<{ topic: string }>(
        db(),
        sql`select topic from outbox_messages where topic = 'shopee.ship' and customer_id = ${w.customerId}
            and payload->>'tracking_number' = '901234567890'`,
      );
    for (let i = 0; i < 200 && (await shopeeShipMessage()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await shopeeShipMessage()).toHaveLength(1);
    const [stamped] = await db().select().from(shopee_orders).where(eq(shopee_orders.order_sn, 'S601-SHIP'));
    expect(stamped!.ship_queued_at).not.toBeNull();
    for (let i = 0; i < 200 && !fake.order(601, 'S601-SHIP')!.tracking_number; i++) {
      await db().execute(
        sql`update pgboss.job set start_after = now() where name like 'outbox.deliver%' and state = 'retry'`,
      );
      ctx.deps.jobs.kick();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(fake.order(601, 'S601-SHIP')).toMatchObject({ tracking_number: '901234567890', order_status: 'PROCESSED' });
    await ctx.deps.jobs.whenIdle();
    const [row] = await db().select().from(shopee_orders).where(eq(shopee_orders.order_sn, 'S601-SHIP'));
    expect(row!.shipped_at).not.toBeNull();
    const calls = await db()
      .select()
      .from(integration_attempts)
      .where(
        and(eq(integration_attempts.operation, 'logistics.ship_order'), eq(integration_attempts.reference, row!.id)),
      )
      .orderBy(asc(integration_attempts.created_at));
    expect(calls.map((c) => c.status)).toEqual([503, 200]);
    // A later scan finds nothing more to send.
    await withTx(db(), (tx) => ctx.deps.jobs.enqueue(tx, shopeeShipScan, {}, { customerId: null }));
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    expect(fake.calls(SHOPEE_PATH.shipOrder)).toBe(2);
  });
});

describe('errors end in a visible state', () => {
  it('an expired access token is refreshed and the call repeated; a revoked authorisation shows "error" with Shopee\'s message', async () => {
    const shop = await connect(301);
    await ctx.deps.jobs.whenIdle();
    const before = (await shopRow(shop.id)).access_token_enc;
    fake.expireToken(301);
    fake.addOrders(301, [fakeShopeeOrder('S301-A', [{ sku: w.plain.number }])]);
    expect((await syncNow(shop.id)).state).toBe('succeeded');
    expect((await shopRow(shop.id)).access_token_enc).not.toBe(before);
    expect((await ordersOf('SHOPEE-301')).rows).toHaveLength(1);

    fake.revoke(301);
    const refreshes = fake.calls(SHOPEE_PATH.accessTokenGet);
    const failed = await syncNow(shop.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'SHOPEE_REAUTHORIZE' });
    const list = await ctx.api.shopeeRoutes.listShopeeShops({ token: w.token });
    expect(list.json().results.find((s: { id: string }) => s.id === shop.id)).toMatchObject({
      state: 'reauthorize',
      last_error_code: 'error_auth',
      last_error_message: 'Invalid refresh_token.',
    });
    // A dead refresh token is tried once: not by the job's retries, the token schedule, the sync schedule or a sync.
    expect(fake.calls(SHOPEE_PATH.accessTokenGet)).toBe(refreshes + 1);
    await withTx(db(), async (tx) => {
      await ctx.deps.jobs.enqueue(tx, shopeeTokenRefresh, {}, { customerId: null });
      await ctx.deps.jobs.enqueue(tx, shopeeSchedule, {}, { customerId: null });
    });
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const refused = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.error().code).toBe('SHOPEE_REAUTHORIZE');
    expect(fake.calls(SHOPEE_PATH.accessTokenGet)).toBe(refreshes + 1);
    expect((await shopRow(shop.id)).state).toBe('reauthorize');
    // Authorising again brings it back.
    await connect(301);
    expect((await syncNow(shop.id)).state).toBe('succeeded');
    expect((await shopRow(shop.id)).state).toBe('connected');
  });

  it('a token ending mid-run is refreshed once and every later call of the run uses the fresh one (no call with the dead token)', async () => {
    const shop = await connect(304);
    await ctx.deps.jobs.whenIdle();
    const now = Math.floor(Date.now() / 1000);
    fake.addOrders(
      304,
      Array.from({ length: 230 }, (_, i) =>
        fakeShopeeOrder(`S304-${String(i).padStart(4, '0')}`, [{ sku: w.plain.number }], { update_time: now - 30 }),
      ),
    );
    const refreshes = fake.calls(SHOPEE_PATH.accessTokenGet);
    const before = fake.calls();
    // The token dies after the first list page and first detail call of the run.
    fake.expireTokenAfter(304, 2);
    const job = await syncNow(shop.id);
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ created: 230 });
    expect(fake.calls(SHOPEE_PATH.accessTokenGet)).toBe(refreshes + 1);
    expect(fake.deadTokenCalls(304)).toBe(0);
    // 3 list pages of READY_TO_SHIP + 5 detail calls + the channel list (once a run) + 2 empty cancel lists + the
    // refused call + the refresh.
    expect(fake.calls() - before).toBe(3 + 5 + 1 + 2 + 1 + 1);

    // A refresh token past its 30 days: "authorise again", with Shopee's own answer.
    fake.expireRefresh(304);
    const failed = await syncNow(shop.id);
    expect(failed.state).toBe('failed');
    const list = await ctx.api.shopeeRoutes.listShopeeShops({ token: w.token });
    expect(list.json().results.find((s: { id: string }) => s.id === shop.id)).toMatchObject({
      state: 'reauthorize',
      last_error_code: 'refresh_token_expired',
      last_error_message: 'Your refresh_token expired.',
    });
  });

  it('Shopee 5xx: the error shows on the shop while the job retries, and clears when a retry succeeds', async () => {
    const shop = await connect(302);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(302, [fakeShopeeOrder('S302-A', [{ sku: w.plain.number }])]);
    // Three attempts per call (the client's retries) fail, so the run fails and the job backs off.
    fake.failNext(3, 'server');
    const res = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    const id = res.json().job_id;
    for (let i = 0; i < 200 && (await shopRow(shop.id)).state !== 'error'; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await shopRow(shop.id)).toMatchObject({ state: 'error', last_error_code: 'error_server' });
    const job = await waitJob(id);
    expect(job.state).toBe('succeeded');
    expect(await shopRow(shop.id)).toMatchObject({ state: 'connected', last_error_code: null });
    expect((await ordersOf('SHOPEE-302')).rows).toHaveLength(1);
    const attempts = await db()
      .select()
      .from(integration_attempts)
      .where(and(eq(integration_attempts.provider, 'shopee'), eq(integration_attempts.status, 503)));
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    // The attempt log never holds the partner key, a token or a signature.
    const all = await db().select().from(integration_attempts).where(eq(integration_attempts.provider, 'shopee'));
    for (const a of all) {
      expect(a.url).not.toContain(fake.partnerKey);
      expect(a.url).not.toMatch(/sign=[0-9a-f]{64}/);
      expect(a.url).not.toMatch(/access_token=[0-9a-f]{32}/);
    }
  });

  it('a wrong partner key: Shopee answers "Wrong sign." and the shop shows it; the job does not retry a refusal', async () => {
    const shop = await connect(303);
    await ctx.deps.jobs.whenIdle();
    const good = ctx.config.shopee.partnerKey;
    ctx.config.shopee.partnerKey = 'shpk-the-wrong-partner-key';
    try {
      const badSigns = fake.badSigns;
      const job = await syncNow(shop.id);
      expect(job.state).toBe('failed');
      expect(fake.badSigns).toBeGreaterThan(badSigns);
    } finally {
      ctx.config.shopee.partnerKey = good;
    }
    expect(await shopRow(shop.id)).toMatchObject({
      state: 'error',
      last_error_code: 'error_sign',
      last_error_message: 'Wrong sign.',
    });
  });
});

describe('push', () => {
  const pushUrl = `http://wms.test${shopeeRoutes.shopeePush.path}`;
  // The push is signed over its raw body: the JSON text of `body`, which is what the request carries.
  const push = (
    body: TRouteInput<typeof shopeeRoutes.shopeePush>['body'],
    authorization = shopeePushSignature(fake.partnerKey, pushUrl, JSON.stringify(body)),
  ) => ctx.api.shopeeRoutes.shopeePush({ body, headers: { 'content-type': 'application/json', authorization } });
  const syncJobs = async () =>
    (
      await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from pgboss.job where name = 'shopee.sync' and data->>'order_sn' is not null`,
      )
    )[0]!.n;

  it('verifies the Authorization HMAC over the push URL and raw body; a signed order push syncs that order; answered 200 with an empty body', async () => {
    const shop = await connect(401);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(401, [fakeShopeeOrder('S401-PUSHED', [{ sku: w.plain.number }], { update_time: 1 })]);
    const body = {
      shop_id: 401,
      code: 3,
      timestamp: Math.floor(Date.now() / 1000),
      data: { ordersn: 'S401-PUSHED', status: 'READY_TO_SHIP' },
    };
    const bad = await push(body, 'deadbeef'.repeat(8));
    expect(bad.statusCode).toBe(401);
    expect(bad.error().code).toBe('SHOPEE_SIGNATURE_INVALID');
    const good = await push(body);
    expect(good.statusCode, good.body).toBe(200);
    // Shopee counts a push as delivered only on 2xx with an empty body.
    expect(good.body).toBe('');
    expect(good.rawPayload.length).toBe(0);
    await ctx.deps.jobs.whenIdle();
    // Outside the sync window (update_time 1970): only the push brought it in.
    expect((await ordersOf('SHOPEE-401')).rows).toHaveLength(1);
    expect((await shopRow(shop.id)).state).toBe('connected');
  });

  it('a push older than 5 minutes is refused as a replay (nothing queued); a re-delivered push is answered the same and does nothing twice', async () => {
    await connect(403);
    await ctx.deps.jobs.whenIdle();
    fake.addOrders(403, [fakeShopeeOrder('S403-PUSHED', [{ sku: w.plain.number }], { update_time: 1 })]);
    const jobsBefore = await syncJobs();
    const old = {
      shop_id: 403,
      code: 3,
      timestamp: Math.floor(Date.now() / 1000) - 301,
      data: { ordersn: 'S403-PUSHED', status: 'READY_TO_SHIP' },
    };
    const refused = await push(old);
    expect(refused.statusCode).toBe(401);
    expect(refused.error()).toMatchObject({ code: 'SHOPEE_PUSH_EXPIRED', params: { field: 'timestamp' } });
    const noStamp = { shop_id: 403, code: 3, data: { ordersn: 'S403-PUSHED' } };
    expect((await push(noStamp)).statusCode).toBe(401);
    await ctx.deps.jobs.whenIdle();
    expect(await syncJobs()).toBe(jobsBefore);
    expect((await ordersOf('SHOPEE-403')).rows).toHaveLength(0);

    const body = {
      shop_id: 403,
      code: 3,
      timestamp: Math.floor(Date.now() / 1000) - 10,
      data: { ordersn: 'S403-PUSHED', status: 'READY_TO_SHIP' },
    };
    const details = fake.calls(SHOPEE_PATH.orderDetail);
    // Shopee re-sends (e.g. our answer was lost), also while the first is still being handled.
    const answers = await Promise.all([push(body), push(body), push(body)]);
    for (const a of answers) {
      expect(a.statusCode, a.body).toBe(200);
      expect(a.body).toBe('');
    }
    await ctx.deps.jobs.whenIdle();
    expect(await push(body)).toMatchObject({ statusCode: 200, body: '' });
    await ctx.deps.jobs.whenIdle();
    expect(await syncJobs()).toBe(jobsBefore + 1);
    expect(fake.calls(SHOPEE_PATH.orderDetail)).toBe(details + 1);
    expect((await ordersOf('SHOPEE-403')).rows).toHaveLength(1);
  });

  it('disconnect forgets the tokens and stops syncing', async () => {
    const shop = await connect(402);
    await ctx.deps.jobs.whenIdle();
    const res = await ctx.api.shopeeRoutes.disconnectShopeeShop({ params: { id: shop.id }, token: w.token });
    expect(res.json()).toMatchObject({ state: 'disconnected' });
    expect(await shopRow(shop.id)).toMatchObject({ access_token_enc: null, refresh_token_enc: null });
    const sync = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    expect(sync.error().code).toBe('SHOPEE_SHOP_DISCONNECTED');
  });
});

describe('2,000 orders, cut off halfway and run again', () => {
  it('creates exactly 2,000 orders once, whether the job is cancelled mid-run or Shopee goes down mid-run', async () => {
    const N = 2000;
    const shop = await connect(501);
    await ctx.deps.jobs.whenIdle();
    const now = Math.floor(Date.now() / 1000);
    fake.addOrders(
      501,
      Array.from({ length: N }, (_, i) =>
        fakeShopeeOrder(`S501-${String(i).padStart(5, '0')}`, [{ sku: w.plain.number, quantity: 1 + (i % 3) }], {
          // Paid after the first sync of the shop (inside the next run's window).
          update_time: now - 120 + (i % 100),
        }),
      ),
    );
    const count = async () =>
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(shopee_orders)
          .where(eq(shopee_orders.shop_ref, shop.id))
      )[0]!.n;

    // 1. Cancel the running job once about a quarter has been written.
    const started = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    const id = started.json().job_id;
    while ((await count()) < N / 4) await new Promise((r) => setTimeout(r, 20));
    await ctx.api.jobRoutes.cancelJob({ params: { id }, token: w.token });
    const cut = await waitJob(id);
    const afterCancel = await count();
    expect(cut.state).toBe('cancelled');
    expect(afterCancel).toBeLessThan(N);

    // 2. Run again; Shopee stops answering halfway through (500 on every call) until it heals.
    fake.failAfter(25);
    const second = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    const id2 = second.json().job_id;
    // Up to 60 s: on a loaded machine the 25 good calls before the outage can take many seconds.
    for (let i = 0; i < 2400 && (await shopRow(shop.id)).state !== 'error'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const midway = await count();
    expect(midway).toBeLessThan(N);
    expect(midway).toBeGreaterThan(afterCancel);
    fake.heal();
    const t0 = Date.now();
    const done = await waitJob(id2);
    expect(done.state).toBe('succeeded');
    const secs = (Date.now() - t0) / 1000;

    // 3. And once more for good measure: nothing new.
    const third = await syncNow(shop.id);
    expect(third.result).toMatchObject({ created: 0, skipped: N });

    const orders = await db()
      .select({ n: sql<number>`count(*)::int`, distinct: sql<number>`count(distinct platform_order_number)::int` })
      .from(outbound_orders)
      .where(eq(outbound_orders.platform_id, (await shopRow(shop.id)).platform_id));
    expect(orders[0]).toEqual({ n: N, distinct: N });
    expect(await count()).toBe(N);
    const lines = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from outbound_order_lines l join outbound_orders o on o.id = l.order_id
          where o.platform_id = ${(await shopRow(shop.id)).platform_id}`,
    );
    expect(lines[0]!.n).toBe(N);
    console.log(`[shopee] ${N - midway} orders written after the outage in ${secs.toFixed(1)} s`);
  }, 240_000);
});
