import type { TShopeeShipSettings } from '@wms/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { outbound_orders, shopee_orders } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { fakeShopeeOrder, SHOPEE_PATH, startFakeShopee, type TFakeShopee } from '../../../test/fakes/fake-shopee';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { pdfPageBarcodes } from '../../../test/pdf-barcodes';
import { outboundWorld, type TWorld, transition } from '../../outbound/__tests__/factories';
import { shopeeShipScan } from '../shopee.ship';

/**
 * Shopee-arranged (integrated) channels end to end on the fake host: masked recipients accepted, the channel kept,
 * pickup/dropoff per shop, ship_order once (also when a batch is cut off and run again), the tracking number and the
 * label from Shopee, merged into "print carrier labels", and nothing sent again when the order ships.
 */

let ctx: TTestContext;
let fake: TFakeShopee;
let w: TWorld;
beforeAll(async () => {
  fake = await startFakeShopee();
  ctx = await createTestContext({
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
    JOB_RETRY_DELAY_SCALE: '0.01',
  });
  w = await outboundWorld(ctx);
  await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 200 }]);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const db = () => ctx.deps.database.db;

async function connect(shopId: number) {
  const res = await ctx.api.shopeeRoutes.connectShopeeShop({
    body: { code: fake.issueCode(shopId), shop_id: shopId },
    token: w.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  await ctx.deps.jobs.whenIdle();
  return res.json() as { id: string };
}

async function ordersBySn(sns: string[]) {
  const rows = await db()
    .select({ sn: shopee_orders.order_sn, order: outbound_orders })
    .from(shopee_orders)
    .innerJoin(outbound_orders, eq(outbound_orders.id, shopee_orders.order_id))
    .where(inArray(shopee_orders.order_sn, sns));
  return new Map(rows.map((r) => [r.sn, r.order]));
}

type TOut = {
  order_id: string;
  outcome: string;
  consignment_number: string | null;
  code: string | null;
  message: string | null;
  label: boolean;
};
async function consign(ids: string[]) {
  const res = await ctx.api.carrierRoutes.fetchConsignments({ body: { order_ids: ids }, token: w.token, lang: 'en' });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().results as TOut[]).map((r) => [r.order_id, r]));
}

const order = (sn: string, channel: number) =>
  fakeShopeeOrder(sn, [{ sku: w.plain.number }], { logistics_channel_id: channel });

describe('Shopee-arranged channels', () => {
  it('masked orders become orders; pickup/dropoff arranged once; tracking number and label from Shopee; labels merged; shipping sends nothing twice', async () => {
    const shop = await connect(701);
    fake.addOrders(701, [
      order('S701-711', 30005),
      order('S701-FAM', 30006),
      order('S701-TCAT', 30001),
      order('S701-OWN', 39001),
    ]);
    const sync = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    expect(sync.statusCode).toBe(202);
    await ctx.deps.jobs.whenIdle();
    const orders = await ordersBySn(['S701-711', 'S701-FAM', 'S701-TCAT', 'S701-OWN']);
    expect(orders.size).toBe(4);
    // Shopee masks the recipient of integrated channels: kept as given, never "fixed".
    expect(orders.get('S701-711')).toMatchObject({
      recipient_name: '****',
      recipient_mobile: '****',
      recipient_address: '****',
      status: 'pending_export',
    });
    expect(orders.get('S701-OWN')).toMatchObject({ recipient_name: '王小明', recipient_mobile: '0912345678' });
    const list = await ctx.api.shopeeRoutes.listShopeeOrders({
      params: { id: shop.id },
      query: { state: 'created' },
      token: w.token,
    });
    const shown = new Map((list.json().results as Array<{ order_sn: string }>).map((o) => [o.order_sn, o]));
    expect(shown.get('S701-711')).toMatchObject({ logistics_channel_name: '7-ELEVEN', platform_logistics: true });
    expect(shown.get('S701-TCAT')).toMatchObject({ logistics_channel_name: '黑貓宅急便', platform_logistics: true });
    expect(shown.get('S701-OWN')).toMatchObject({ logistics_channel_name: '賣家宅配', platform_logistics: false });

    for (const o of orders.values()) {
      const moved = await transition(ctx, w.token, o.id, 'export');
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const ids = [...orders.values()].map((o) => o.id);
    const first = await consign(ids);
    const sev = orders.get('S701-711')!;
    const fam = orders.get('S701-FAM')!;
    const tcat = orders.get('S701-TCAT')!;
    expect(first.get(sev.id)).toMatchObject({ outcome: 'created', label: true });
    expect(first.get(sev.id)!.consignment_number).toBe(fake.order(701, 'S701-711')!.tracking_number);
    expect(first.get(fam.id)).toMatchObject({ outcome: 'created', label: true });
    // 黑貓 via Shopee offers pickup and dropoff: the shop has not chosen, the row says so with the fix.
    expect(first.get(tcat.id)).toMatchObject({ outcome: 'failed', code: 'SHOPEE_CHANNEL_NOT_SET_UP' });
    expect(first.get(tcat.id)!.message).toContain('"黑貓宅急便" is not set up: choose "Pickup" or "Drop-off"');
    expect(fake.order(701, 'S701-TCAT')!.arranged).toBeUndefined();
    // The seller's own delivery is not Shopee's business here: no carrier set, nothing arranged.
    expect(first.get(orders.get('S701-OWN')!.id)).toMatchObject({ outcome: 'no_carrier' });
    expect(fake.order(701, 'S701-711')).toMatchObject({ arranged: 1, arrangement: { dropoff: { branch_id: 5101 } } });

    const mode = await ctx.api.shopeeRoutes.setShopeeShipMode({
      params: { id: shop.id },
      body: { ship_mode: 'pickup' },
      token: w.token,
    });
    expect(mode.statusCode, mode.body).toBe(200);
    expect(mode.json()).toMatchObject({ ship_mode: 'pickup' });
    const second = await consign([tcat.id]);
    expect(second.get(tcat.id)).toMatchObject({ outcome: 'created', label: true });
    // The shop's pickup address, in the slot Shopee recommends.
    expect(fake.order(701, 'S701-TCAT')!.arrangement).toMatchObject({
      pickup: { address_id: 7001, pickup_time_id: expect.stringMatching(/-PM$/) },
    });

    // Again (a double click, a retry): nothing arranged twice.
    const again = await consign([sev.id, fam.id, tcat.id]);
    expect([...again.values()].map((r) => r.outcome)).toEqual(['already', 'already', 'already']);
    for (const sn of ['S701-711', 'S701-FAM', 'S701-TCAT']) expect(fake.order(701, sn)!.arranged).toBe(1);

    // "Print carrier labels": Shopee's label pages, one per parcel, in the order given.
    const labels = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [sev.id, fam.id, tcat.id] },
      token: w.token,
    });
    expect(labels.statusCode, labels.body).toBe(200);
    expect(labels.headers['x-labels-pages']).toBe('3');
    const pdf = await PDFDocument.load(labels.rawPayload);
    expect(pdf.getPageCount()).toBe(3);
    expect(fake.downloads).toBe(3);
    // Each page's Code128 barcode, rendered and scanned, is that parcel's tracking number from Shopee.
    expect(pdfPageBarcodes(labels.rawPayload)).toEqual(
      ['S701-711', 'S701-FAM', 'S701-TCAT'].map((sn) => [fake.order(701, sn)!.tracking_number]),
    );

    // Pack and ship the 7-ELEVEN one: Shopee already has it, nothing more is sent (no non_integrated ship_order).
    const shipCalls = fake.calls(SHOPEE_PATH.shipOrder);
    expect(
      (
        await ctx.api.outboundRoutes.packScan({
          params: { id: sev.id },
          body: { barcode: w.plain.number },
          token: w.token,
        })
      ).statusCode,
    ).toBe(200);
    const shipped = await ctx.api.outboundRoutes.shipOrder({ params: { id: sev.id }, body: {}, token: w.token });
    expect(shipped.statusCode, shipped.body).toBe(200);
    await withTx(db(), (tx) => ctx.deps.jobs.enqueue(tx, shopeeShipScan, {}, { customerId: null }));
    ctx.deps.jobs.kick();
    await ctx.deps.jobs.whenIdle();
    const [row] = await db().select().from(shopee_orders).where(eq(shopee_orders.order_sn, 'S701-711'));
    expect(row!.shipped_at).not.toBeNull();
    expect(fake.calls(SHOPEE_PATH.shipOrder)).toBe(shipCalls);
    expect(fake.order(701, 'S701-711')!.arranged).toBe(1);
  });

  it('a ship_order batch cut off mid-call and run again arranges no order twice and leaves none unarranged; parallel runs arrange once', async () => {
    await connect(702);
    const sns = ['S702-A', 'S702-B', 'S702-C', 'S702-D'];
    fake.addOrders(
      702,
      sns.map((sn) => order(sn, 30005)),
    );
    const sync = await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: (await connect(702)).id }, token: w.token });
    expect(sync.statusCode).toBe(202);
    await ctx.deps.jobs.whenIdle();
    const orders = await ordersBySn(sns);
    for (const o of orders.values()) {
      const moved = await transition(ctx, w.token, o.id, 'export');
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const ids = sns.map((sn) => orders.get(sn)!.id);

    // Shopee arranges A but its answer never comes back (the connection is cut, as when the process dies).
    fake.dropAnswers(SHOPEE_PATH.shipOrder, 1);
    const cut = await consign(ids);
    expect(cut.get(ids[0]!)).toMatchObject({ outcome: 'failed', code: 'SHOPEE_UNAVAILABLE' });
    expect(fake.order(702, 'S702-A')!.arranged).toBe(1);
    for (const id of ids.slice(1)) expect(cut.get(id)).toMatchObject({ outcome: 'created' });

    // Run again: A is not arranged again — Shopee is asked first and already has its tracking number.
    const calls = fake.calls(SHOPEE_PATH.shipOrder);
    const again = await consign(ids);
    expect(again.get(ids[0]!)).toMatchObject({
      outcome: 'created',
      consignment_number: fake.order(702, 'S702-A')!.tracking_number,
    });
    expect(fake.calls(SHOPEE_PATH.shipOrder)).toBe(calls);
    for (const sn of sns) expect(fake.order(702, sn)!.arranged).toBe(1);

    // Two runs at once on fresh orders: each order arranged exactly once.
    fake.addOrders(702, [order('S702-E', 30006), order('S702-F', 30007)]);
    await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: (await connect(702)).id }, token: w.token });
    await ctx.deps.jobs.whenIdle();
    const more = await ordersBySn(['S702-E', 'S702-F']);
    for (const o of more.values()) expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(200);
    const pair = [...more.values()].map((o) => o.id);
    const [r1, r2] = await Promise.all([consign(pair), consign(pair)]);
    for (const id of pair) {
      const outcomes = [r1.get(id)!, r2.get(id)!];
      expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(1);
    }
    expect(fake.order(702, 'S702-E')!.arranged).toBe(1);
    expect(fake.order(702, 'S702-F')!.arranged).toBe(1);
    const numbers = await queryRows<{ consignment_number: string }>(
      db(),
      sql`select consignment_number from outbound_orders where id in (${sql.join(
        pair.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
    expect(numbers.map((n) => n.consignment_number).sort()).toEqual(
      [fake.order(702, 'S702-E')!.tracking_number, fake.order(702, 'S702-F')!.tracking_number].sort(),
    );
  });

  it('the seller chooses pickup address, slot rule and drop-off branch; checked on save; used by ship_order; shown on the order', async () => {
    const shop = await connect(704);
    fake.addOrders(704, [order('S704-T1', 30001), order('S704-T2', 30001), order('S704-711', 30005)]);
    await ctx.api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: w.token });
    await ctx.deps.jobs.whenIdle();
    const orders = await ordersBySn(['S704-T1', 'S704-T2', 'S704-711']);
    for (const o of orders.values()) expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(200);

    const options = await ctx.api.shopeeRoutes.shopeeShipOptions({ params: { id: shop.id }, token: w.token });
    expect(options.statusCode, options.body).toBe(200);
    const opts = options.json();
    // Only addresses Shopee flags for pickup (or default): the return-only address is not offered.
    expect(opts.pickup_addresses.map((a) => a.address_id)).toEqual([7001]);
    expect(opts.pickup_addresses[0]!.address).toContain('瑞光路');
    const byChannel = new Map(opts.channels.map((c) => [c.channel_id, c]));
    expect(byChannel.get(30001)).toMatchObject({ channel_name: '黑貓宅急便', modes: ['pickup', 'dropoff'] });
    expect(byChannel.get(30005)).toMatchObject({ modes: ['dropoff'] });
    expect(byChannel.get(30005)!.branches.map((b) => b.branch_id)).toEqual([5101, 5102]);

    const save = (settings: Partial<TShopeeShipSettings>) =>
      ctx.api.shopeeRoutes.setShopeeShipMode({
        params: { id: shop.id },
        token: w.token,
        lang: 'en',
        body: {
          ship_mode: 'pickup',
          ship_settings: {
            pickup_address_id: null,
            pickup_slot: 'recommended',
            pickup_after: null,
            dropoff_branches: [],
            ...settings,
          },
        },
      });
    const bad: Array<[Partial<TShopeeShipSettings>, string, string]> = [
      [{ pickup_slot: 'after' }, 'REQUIRED_FIELD', 'Pickup from (time of day)'],
      [{ pickup_slot: 'after', pickup_after: '25:00' }, 'INVALID_FIELD', 'pickup_after'],
      [{ pickup_address_id: 7002 }, 'SHOPEE_OPTION_UNKNOWN', 'Pickup address'],
      [{ dropoff_branches: [{ channel_id: 30005, branch_id: 9999 }] }, 'SHOPEE_OPTION_UNKNOWN', 'Drop-off branch'],
    ];
    for (const [settings, code, field] of bad) {
      const res = await save(settings);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.error().code).toBe(code);
      expect(JSON.stringify(res.error())).toContain(field);
    }
    const ok = await save({
      pickup_address_id: 7001,
      pickup_slot: 'after',
      pickup_after: '12:30',
      dropoff_branches: [{ channel_id: 30005, branch_id: 5102 }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().ship_settings).toEqual({
      pickup_address_id: 7001,
      pickup_slot: 'after',
      pickup_after: '12:30',
      dropoff_branches: [{ channel_id: 30005, branch_id: 5102 }],
    });

    const t1 = orders.get('S704-T1')!.id;
    const sev = orders.get('S704-711')!.id;
    expect((await consign([t1, sev])).get(t1)).toMatchObject({ outcome: 'created' });
    // The first slot starting at or after 12:30 (tomorrow 13:00), at the chosen address; the chosen branch.
    const day = Math.floor(Date.now() / 86_400_000) * 86_400 + 86_400;
    expect(fake.order(704, 'S704-T1')!.arrangement).toEqual({
      pickup: { address_id: 7001, pickup_time_id: `${day}-PM` },
    });
    expect(fake.order(704, 'S704-711')!.arrangement).toEqual({ dropoff: { branch_id: 5102 } });

    // The earliest slot rule: tomorrow morning.
    expect((await save({ pickup_address_id: 7001, pickup_slot: 'earliest' })).statusCode).toBe(200);
    const t2 = orders.get('S704-T2')!.id;
    expect((await consign([t2])).get(t2)).toMatchObject({ outcome: 'created' });
    expect(fake.order(704, 'S704-T2')!.arrangement).toEqual({
      pickup: { address_id: 7001, pickup_time_id: `${day}-AM` },
    });

    // Shown on the order: how it was handed to Shopee.
    const list = await ctx.api.shopeeRoutes.listShopeeOrders({
      params: { id: shop.id },
      query: { state: 'created' },
      token: w.token,
    });
    const shown = new Map(
      (list.json().results as Array<{ order_sn: string; arrangement: unknown }>).map((o) => [
        o.order_sn,
        o.arrangement,
      ]),
    );
    expect(shown.get('S704-T1')).toMatchObject({ mode: 'pickup', address_id: 7001, slot_text: '13:00-18:00' });
    expect(shown.get('S704-T2')).toMatchObject({ mode: 'pickup', slot_text: '09:00-12:00' });
    expect(shown.get('S704-711')).toMatchObject({
      mode: 'dropoff',
      branch_id: 5102,
      branch: expect.stringContaining('板橋區'),
    });
  });

  it('Shopee refuses non_integrated for an integrated channel (the fake behaves as the host)', async () => {
    await connect(703);
    fake.addOrders(703, [order('S703-A', 30005)]);
    // Ship the order as a seller-arranged one would be: ship_order with non_integrated, as before this change.
    const { shopeeOf } = await import('../shopee.shops');
    const provider = shopeeOf(ctx.deps);
    const [shop] = await queryRows<{ access_token_enc: string }>(
      db(),
      sql`select * from shopee_shops where shop_id = 703`,
    );
    const { decryptSecret } = await import('../../../platform/crypto');
    const auth = { shopId: 703, accessToken: decryptSecret(ctx.config.encryptionKey, shop!.access_token_enc) };
    await expect(
      provider.shipOrder(auth, { orderNumber: 'S703-A', trackingNumber: '123' }, { customerId: w.customerId }),
    ).rejects.toMatchObject({ remoteCode: 'logistics.ship_order_unsupport_non_integrated' });
    expect(await provider.trackingNumber(auth, 'S703-A', { customerId: w.customerId })).toBe('');
    const param = await provider.shippingParameter(auth, 'S703-A', { customerId: w.customerId });
    expect(param.infoNeeded).toEqual({ dropoff: ['branch_id'] });
    expect(param.dropoff.length).toBeGreaterThan(0);
  });
});
