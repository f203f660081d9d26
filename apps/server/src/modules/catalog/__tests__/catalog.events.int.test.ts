import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { outbox_messages } from '../../../db/schema';
import { fakeShopeeOrder, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld } from '../../outbound/__tests__/factories';

/**
 * `catalog.product-codes-changed`: published by catalog in the transaction of the product write (form, batch update,
 * import), delivered after commit through the outbox to its subscriber in src/events.ts, which has Shopee read the
 * seller's abnormal orders waiting for one of those SKUs again. Here: the batch update path (the form and import
 * paths are in shopee.int.test.ts), and that a refused write publishes nothing.
 */
let ctx: TTestContext;
let fake: TFakeShopee;
beforeAll(async () => {
  fake = await startFakeShopee();
  ctx = await createTestContext({
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
    JOB_RETRY_DELAY_SCALE: '0.01',
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const db = () => ctx.deps.database.db;
const TOPIC = 'event.catalog.product-codes-changed';
const events = (customerId: string) =>
  db()
    .select()
    .from(outbox_messages)
    .where(and(eq(outbox_messages.customer_id, customerId), eq(outbox_messages.topic, TOPIC)));

async function abnormalShopeeOrder(token: string, shopId: number, orderSn: string, sku: string) {
  const shop = await ctx.api.shopeeRoutes.connectShopeeShop({
    body: { code: fake.issueCode(shopId), shop_id: shopId },
    token,
  });
  expect(shop.statusCode, shop.body).toBe(200);
  await ctx.deps.jobs.whenIdle();
  fake.addOrders(shopId, [fakeShopeeOrder(orderSn, [{ sku }])]);
  const sync = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.json().id }, token });
  expect(sync.statusCode, sync.body).toBe(202);
  await ctx.deps.jobs.whenIdle();
  const [row] = await queryRows<{ state: string }>(
    db(),
    sql`select state, problem from shopee_orders where order_sn = ${orderSn}`,
  );
  expect(row).toMatchObject({ state: 'abnormal', problem: { code: 'PRODUCT_ABNORMAL', value: sku } });
}

const ordersOf = (customerId: string, orderSn: string) =>
  queryRows<{ status: string }>(
    db(),
    sql`select status from outbound_orders where customer_id = ${customerId} and platform_order_number = ${orderSn}`,
  );

describe(`catalog.product-codes-changed (${TEST_ENGINE})`, () => {
  it('a batch update giving products the SKU an abnormal Shopee order waits for heals it, after commit, once', async () => {
    // A seller ready to ship (carrier, platform): an order is abnormal here only for its unknown SKU.
    const seller = await outboundWorld(ctx);
    await abnormalShopeeOrder(seller.token, 301, 'S301-BATCH', 'BATCH-301-X');
    const made = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'P-301', name: 'Barcoded by a batch change' },
      token: seller.token,
    });
    expect(made.statusCode, made.body).toBe(201);
    const other = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'P-301-B', name: 'Only its price changes' },
      token: seller.token,
    });
    await ctx.deps.jobs.whenIdle();
    expect(await ordersOf(seller.customerId, 'S301-BATCH')).toHaveLength(0);
    const published = (await events(seller.customerId)).length;

    // A batch change of prices only names no new code: nothing is published.
    const prices = await ctx.api.catalogRoutes.applyBatchUpdate({
      body: { product_ids: [other.json().id], set: { selling_price: '12' } },
      token: seller.token,
    });
    expect(prices.json()).toEqual({ updated: 1 });
    expect(await events(seller.customerId)).toHaveLength(published);

    // A refused batch change (a barcode given twice) publishes nothing either.
    const refused = await ctx.api.catalogRoutes.applyBatchUpdate({
      body: { product_ids: [made.json().id, other.json().id], set: { barcode: 'BATCH-301-X' } },
      token: seller.token,
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await events(seller.customerId)).toHaveLength(published);

    const applied = await ctx.api.catalogRoutes.applyBatchUpdate({
      body: { product_ids: [made.json().id], set: { barcode: 'BATCH-301-X' } },
      token: seller.token,
    });
    expect(applied.json()).toEqual({ updated: 1 });
    await ctx.deps.jobs.whenIdle();
    const mine = await events(seller.customerId);
    expect(mine).toHaveLength(published + 1);
    const last = mine.find((m) => (m.payload as { codes: string[] }).codes.includes('BATCH-301-X'))!;
    expect(last).toMatchObject({
      state: 'delivered',
      payload: { customer_id: seller.customerId, codes: ['P-301', 'BATCH-301-X'] },
      result: { 'shopee.heal-abnormal-orders': { healing: true } },
    });
    expect(await ordersOf(seller.customerId, 'S301-BATCH')).toEqual([{ status: 'pending_export' }]);
    const heals = await queryRows<{ state: string }>(
      db(),
      sql`select state from pgboss.job where name = 'shopee.heal' and data->>'customer' = ${seller.customerId}`,
    );
    expect(heals).toEqual([{ state: 'completed' }]);
  });

  it('a refused product write publishes nothing; another seller’s product code heals nothing of this seller', async () => {
    // A seller ready to ship (carrier, platform): an order is abnormal here only for its unknown SKU.
    const seller = await outboundWorld(ctx);
    const stranger = await ctx.newCustomer();
    await abnormalShopeeOrder(seller.token, 302, 'S302-X', 'CODE-302');
    const before = (await events(seller.customerId)).length;
    const first = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'DUP-302', name: 'one' },
      token: seller.token,
    });
    expect(first.statusCode).toBe(201);
    const dup = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'DUP-302', name: 'two', barcode: 'CODE-302' },
      token: seller.token,
    });
    expect(dup.statusCode, dup.body).toBeGreaterThanOrEqual(400);
    await ctx.deps.jobs.whenIdle();
    expect(await events(seller.customerId)).toHaveLength(before + 1);
    expect(await ordersOf(seller.customerId, 'S302-X')).toHaveLength(0);

    const foreign = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'CODE-302', name: 'not theirs' },
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(201);
    await ctx.deps.jobs.whenIdle();
    const [delivered] = await events(stranger.customerId);
    expect(delivered).toMatchObject({
      state: 'delivered',
      result: { 'shopee.heal-abnormal-orders': { healing: false } },
    });
    expect(await ordersOf(seller.customerId, 'S302-X')).toHaveLength(0);
  });
});
