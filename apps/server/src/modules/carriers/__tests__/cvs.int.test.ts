import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { carrierRoutes, fieldLabel, type partnerApiRoutes } from '@wms/contracts';
import { invalidInput, type TRouteInput } from '@wms/contracts/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, carrier_labels } from '../../../db/schema';
import { startFakeEcpay, type TFakeEcpay } from '../../../test/fakes/fake-ecpay';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { importFile, outboundWorld, xlsx } from '../../outbound/__tests__/factories';
import { carrierApi, postForm } from './api';

let ctx: TTestContext;
let fake: TFakeEcpay;
const work = mkdtempSync(path.join(tmpdir(), 'wms-cvs-'));
beforeAll(async () => {
  fake = await startFakeEcpay();
  ctx = await createTestContext({ ECPAY_LOGISTICS_URL: fake.url });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A sender for store-to-store: 7-ELEVEN and Hi-Life C2C need the sender's mobile. */
const CVS_SENDER = {
  sender_name: '好物倉庫',
  sender_phone: '0911222333',
  sender_postcode: '300',
  sender_address: '新竹市東區光復路二段101號',
};

/** The hidden fields of each <form> in an HTML page (the fake map's store choices). */
function formsOf(html: string): Array<{ action: string; fields: Record<string, string> }> {
  return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => ({
    action: m[1]!.replace(/&amp;/g, '&'),
    fields: Object.fromEntries(
      [...m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((i) => [i[1]!, i[2]!]),
    ),
  }));
}

/** Each barcode image of a label page, decoded by zbarimg (one value per image, in page order). */
function barcodeOf(html: string, name: string): string[] {
  return [...html.matchAll(/<img class="barcode"[^>]*src="data:image\/png;base64,([^"]+)"/g)].flatMap((m, i) => {
    const file = path.join(work, `${name}-${i}.png`);
    writeFileSync(file, Buffer.from(m[1]!, 'base64'));
    return execFileSync('zbarimg', ['--quiet', '--raw', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  });
}

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  }).then((r) => r.text());

describe(`convenience-store pickup through ECPay (${TEST_ENGINE})`, () => {
  it('a store chosen on the map (once, for that order only); each chain gets its number, label and status history', async () => {
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { provider, order, consignments } = carrierApi(ctx, w);
    const ecpay = await provider({
      code: 'ECPAY-CVS',
      name: '綠界超商',
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay',
      ...CVS_SENDER,
    });

    // 7-ELEVEN store-to-store through ECPay's map: the form goes to ECPay, the buyer's choice comes back to us.
    const seven = await order(ecpay.id);
    const opened = await ctx.api.carrierRoutes.openCvsMap({
      params: { id: seven.id },
      body: { subtype: 'UNIMARTC2C' },
      token: w.token,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const map = opened.json() as { action: string; fields: Record<string, string> };
    expect(map.action).toBe(`${fake.url}/Express/map`);
    expect(map.fields).toMatchObject({
      MerchantID: fake.merchantId,
      LogisticsType: 'CVS',
      LogisticsSubType: 'UNIMARTC2C',
    });
    expect(map.fields.MerchantTradeNo).toMatch(/^[A-Za-z0-9]{20}$/);
    const choices = formsOf(await post(map.action, map.fields));
    expect(choices).toHaveLength(fake.stores.UNIMART!.length);
    const chosen = choices[1]!;
    expect(new URL(chosen.action).pathname).toBe(carrierRoutes.ecpayMapReply.path);
    const reply = (fields: Record<string, string>) => postForm(ctx, carrierRoutes.ecpayMapReply, fields);
    // Another merchant's answer with this token, or a guessed token: refused, nothing stored.
    expect((await reply({ ...chosen.fields, MerchantID: '3002607' })).statusCode).toBe(400);
    const guessed = await reply({ ...chosen.fields, MerchantTradeNo: 'M0000000000000000000' });
    expect(guessed.json().error.code).toBe('CVS_MAP_INVALID');
    const back = await reply(chosen.fields);
    expect(back.statusCode, back.body).toBe(303);
    expect(back.headers.location).toBe(`/deliver?order=${seven.id}&cvs=chosen`);
    // The same answer again (a reload, a replay): the request is used.
    expect((await reply({ ...chosen.fields, CVSStoreID: '131386' })).statusCode).toBe(400);
    const shown = await ctx.api.carrierRoutes.getOrderCvsStore({ params: { id: seven.id }, token: w.token });
    expect(shown.json().store).toMatchObject({
      subtype: 'UNIMARTC2C',
      chain: 'UNIMART',
      c2c: true,
      store_id: '991182',
      store_name: '新竹園區門市',
      store_address: '新竹市東區光復路二段101號',
      source: 'map',
    });
    const foreign = await ctx.api.carrierRoutes.getOrderCvsStore({ params: { id: seven.id }, token: other.token });
    expect(foreign.statusCode).toBe(404);

    // The other chains (and B2C kinds) typed as an order file or the partner API gives them.
    const kinds = [
      ['FAMIC2C', '006598'],
      ['HILIFEC2C', '2001'],
      ['OKMARTC2C', '1328'],
      ['UNIMART', '131386'],
      ['FAMI', '006598'],
    ] as const;
    const orders = [{ order: seven, subtype: 'UNIMARTC2C' as string }];
    for (const [subtype, storeId] of kinds) {
      const o = await order(ecpay.id);
      const put = await ctx.api.carrierRoutes.setOrderCvsStore({
        params: { id: o.id },
        body: { subtype, store_id: storeId, store_name: `門市 ${storeId}` },
        token: w.token,
      });
      expect(put.statusCode, put.body).toBe(200);
      orders.push({ order: o, subtype });
    }
    const bad = await ctx.api.carrierRoutes.setOrderCvsStore({
      params: { id: orders[1]!.order.id },
      body: { subtype: 'UNIMARTC2C', store_id: '1234567' },
      token: w.token,
    });
    expect(bad.statusCode).toBe(400);

    const res = await consignments(orders.map((o) => o.order.id));
    expect(res.statusCode, res.body).toBe(200);
    type TOut = { order_id: string; outcome: string; consignment_number: string; message: string | null };
    const out = new Map((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    for (const { order: o, subtype } of orders) {
      const r = out.get(o.id)!;
      expect(r, `${subtype} ${r.message}`).toMatchObject({ outcome: 'created' });
      const sent = fake.created.find((c) => c.MerchantTradeNo === o.number)!;
      expect(sent).toMatchObject({ LogisticsType: 'CVS', LogisticsSubType: subtype, ReceiverCellPhone: '0912345678' });
      expect(sent.SenderZipCode).toBeUndefined();
    }
    // 7-ELEVEN C2C: CVSPaymentNo + CVSValidationNo; the other C2C chains: CVSPaymentNo.
    expect(out.get(seven.id)!.consignment_number).toMatch(/^C\d+4321$/);
    expect(out.get(orders[1]!.order.id)!.consignment_number).toMatch(/^C\d+$/);
    // B2C store pickup: the CVSPaymentNo (寄貨編號); ECPay gives a BookingNote for home delivery only.
    expect(out.get(orders[4]!.order.id)!.consignment_number).toMatch(/^B\d+$/);
    // Numbered: the store cannot change any more.
    const locked = await ctx.api.carrierRoutes.deleteOrderCvsStore({ params: { id: seven.id }, token: w.token });
    expect(locked.error().code).toBe('CVS_STORE_LOCKED');

    // "Print carrier labels": each C2C chain's own page, one order per form; B2C pickups on printTradeDocument.
    const forms = await ctx.api.carrierRoutes.ecpayLabelForms({
      body: { order_ids: orders.map((o) => o.order.id) },
      token: w.token,
    });
    expect(forms.statusCode, forms.body).toBe(200);
    type TForm = { kind: string; action: string; fields: Record<string, string>; orders: Array<{ id: string }> };
    const list = forms.json().forms as TForm[];
    expect(list.map((f) => f.kind).sort()).toEqual(['FAMIC2C', 'HILIFEC2C', 'HOME_B2C', 'OKMARTC2C', 'UNIMARTC2C']);
    const paths: Record<string, string> = {
      UNIMARTC2C: '/Express/PrintUniMartC2COrderInfo',
      FAMIC2C: '/Express/PrintFAMIC2COrderInfo',
      HILIFEC2C: '/Express/PrintHILIFEC2COrderInfo',
      OKMARTC2C: '/Express/PrintOKMARTC2COrderInfo',
      HOME_B2C: '/helper/printTradeDocument',
    };
    for (const f of list) {
      expect(f.action).toBe(`${fake.url}${paths[f.kind]}`);
      const html = await post(f.action, f.fields);
      expect(html, f.kind).not.toContain('class="error"');
      if (f.kind === 'HOME_B2C') {
        // 7-ELEVEN and FamilyMart B2C on one page: each label's barcode is its order's number.
        expect(f.orders).toHaveLength(2);
        expect(barcodeOf(html, f.kind)).toEqual(f.orders.map((o) => out.get(o.id)!.consignment_number));
        continue;
      }
      expect(f.orders).toHaveLength(1);
      const number = out.get(f.orders[0]!.id)!.consignment_number;
      // The label's barcode, read from its image, is the drop-off code.
      expect(barcodeOf(html, f.kind)).toEqual([number]);
    }
    expect(fake.printedC2C.map((p) => p.path).sort()).toEqual(
      ['FAMIC2C', 'HILIFEC2C', 'OKMARTC2C', 'UNIMARTC2C'].map((k) => paths[k]).sort(),
    );

    // ECPay's status notices per chain: arrived at the store, picked up (or returned) on the tracking history.
    const notify = async (fields: Record<string, string>) => {
      const r = await postForm(ctx, carrierRoutes.ecpayLogisticsNotify, fields);
      expect(r.body).toBe('1|OK');
    };
    // Codes and texts from ECPay's status workbook (github.com/ECPay/SDK_PHP example/Logistics/logistics_status.xlsx);
    // a code another chain uses (2063 at OK mart, 2067 at FamilyMart) means nothing there and has no kind.
    const story: Record<string, Array<[string, string, string | null]>> = {
      UNIMARTC2C: [
        ['2068', '賣家已到門市寄件', 'dropped_off'],
        ['2030', '物流中心驗收成功', 'accepted'],
        ['2073', '包裹配達取件門市', 'at_store'],
        ['2067', '買家已到店取貨', 'picked_up'],
      ],
      FAMIC2C: [
        ['3032', '賣家已到門市寄件', 'dropped_off'],
        ['3018', '包裹配達取件門市', 'at_store'],
        ['2067', '買家已到店取貨', null],
        ['3022', '買家已到店取貨', 'picked_up'],
      ],
      HILIFEC2C: [
        ['2068', '賣家已到門市寄件', 'dropped_off'],
        ['2063', '包裹配達取件門市', 'at_store'],
        ['2067', '買家已到店取貨', 'picked_up'],
      ],
      OKMARTC2C: [
        ['3032', '賣家已到門市寄件', 'dropped_off'],
        ['2063', '包裹配達取件門市', null],
        ['2073', '包裹配達取件門市', 'at_store'],
        ['2074', '買家未取包裹，將退回物流中心', 'returned'],
      ],
    };
    story.UNIMART = [
      ['2030', '物流中心驗收成功', 'accepted'],
      ['2063', '包裹配達取件門市', 'at_store'],
      ['2067', '買家已到店取貨', 'picked_up'],
    ];
    story.FAMI = [
      ['3024', '物流中心驗收成功', 'accepted'],
      ['3018', '包裹配達取件門市', 'at_store'],
      ['3020', '買家未取包裹，將退回物流中心', 'returned'],
    ];
    for (const { order: o, subtype } of orders) {
      const logisticsId = [...fake.consignments.entries()].find(([, c]) => c.fields.MerchantTradeNo === o.number)![0];
      for (const [code, text] of story[subtype]!) {
        const notice = fake.statusNotice(logisticsId, code, text);
        await notify(notice);
        await notify(notice); // ECPay resends until it reads 1|OK: stored once
      }
      const events = await ctx.api.carrierRoutes.orderCarrierEvents({ params: { id: o.id }, token: w.token });
      const got = (events.json().results as Array<{ kind: string | null; status_code: string }>).map((e) => [
        e.status_code,
        e.kind,
      ]);
      expect(got, subtype).toEqual(story[subtype]!.map(([code, , kind]) => [code, kind]).reverse());
    }
    const audits = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity_id, seven.id));
    expect(audits.map((a) => a.action)).toContain('cvs_store.set');
  });

  it('refuses per order before ECPay is asked: a store order on T-cat, C2C without the sender mobile', async () => {
    const w = await outboundWorld(ctx);
    const { provider, order, consignments } = carrierApi(ctx, w);
    const landline = await provider({
      code: 'ECPAY-CVS',
      name: '綠界超商',
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay',
      ...CVS_SENDER,
      sender_phone: '0223456789',
    });
    const tcat = await provider({
      code: 'TCAT-API',
      name: '黑貓',
      merchant_id: 'X',
      hash_key: 'Y',
      carrier_type: 'tcat',
    });
    const a = await order(landline.id);
    const b = await order(tcat.id);
    for (const o of [a, b])
      await ctx.api.carrierRoutes.setOrderCvsStore({
        params: { id: o.id },
        body: { subtype: 'UNIMARTC2C', store_id: '131386' },
        token: w.token,
      });
    const map = await ctx.api.carrierRoutes.openCvsMap({
      params: { id: b.id },
      body: { subtype: 'FAMIC2C' },
      token: w.token,
    });
    expect(map.error().code).toBe('CVS_NOT_ECPAY');
    const before = fake.created.length;
    const res = await consignments([a.id, b.id]);
    const [ra, rb] = res.json().results as Array<{ code: string; message: string }>;
    expect(ra).toMatchObject({ code: 'CARRIER_SENDER_INVALID' });
    expect(ra!.message).toContain('Sender phone must be a mobile number');
    expect(rb).toMatchObject({ code: 'CVS_NOT_ECPAY' });
    expect(fake.created.length).toBe(before);
  });

  it("the partner API takes the buyer's store with the order, in the order's transaction", async () => {
    const w = await outboundWorld(ctx);
    const created = await ctx.api.apiSettingRoutes.createApiSetting({
      body: { name: 'ERP', kind: 'partner' },
      token: w.token,
    });
    const enabled = await ctx.api.apiSettingRoutes.enableApiSetting({
      params: { id: created.json().id },
      token: w.token,
    });
    const key = enabled.json().api_key as string;
    const body = (
      n: string,
      store: NonNullable<TRouteInput<typeof partnerApiRoutes.apiCreateOrder>['body']['cvs_store']>,
    ) => ({
      order_number: n,
      recipient_name: '王小明',
      recipient_mobile: '0912345678',
      recipient_postcode: '100',
      recipient_address: '台北市中正區重慶南路一段122號',
      cvs_store: store,
      lines: [{ sku: w.plain.number, quantity: 1 }],
    });
    const r = await ctx.api.partnerApiRoutes.apiCreateOrder({
      body: body('ERP-CVS-1', { subtype: 'FAMIC2C', store_id: '006598', store_name: '全家台北站前店' }),
      apiKey: key,
    });
    expect(r.statusCode, r.body).toBe(201);
    const got = await ctx.api.carrierRoutes.getOrderCvsStore({ params: { id: r.json().id }, token: w.token });
    expect(got.json().store).toMatchObject({ subtype: 'FAMIC2C', store_id: '006598', source: 'api' });
    const bad = await ctx.api.partnerApiRoutes.apiCreateOrder({
      body: body('ERP-CVS-2', { subtype: invalidInput('SEVEN'), store_id: '006598' }),
      apiKey: key,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("an order file's store columns give each order its pickup store; a bad store stops the file", async () => {
    const w = await outboundWorld(ctx);
    const zh = (f: string) => fieldLabel(f, 'zh-TW');
    const header = [
      zh('platform_order_number'),
      zh('recipient_name'),
      zh('recipient_phone'),
      zh('recipient_postcode'),
      zh('recipient_address'),
      zh('cvs_subtype'),
      zh('cvs_store_id'),
      zh('cvs_store_name'),
      zh('product'),
      zh('quantity'),
    ];
    const row = (n: string, sub: string | null, id: string | null, name: string | null) => [
      n,
      '王小明',
      '0912-345-678',
      '100',
      '台北市中正區重慶南路一段122號',
      sub,
      id,
      name,
      w.plain.number,
      1,
    ];
    const job = await importFile(
      ctx,
      w.token,
      await xlsx([
        header,
        row('CVS-1', 'unimartc2c', '131386', '建盛門市'),
        row('CVS-2', null, null, null),
        row('CVS-1', null, null, null),
      ]),
    );
    expect(job.error).toBeNull();
    expect(job.result).toMatchObject({ orders: 2, created: 2 });
    const list = (await ctx.api.outboundRoutes.listOrders({ query: { search: 'CVS-' }, token: w.token })).json()
      .results as Array<{ id: string; platform_order_number: string }>;
    const byNumber = new Map(list.map((o) => [o.platform_order_number, o.id]));
    const store = async (id: string) =>
      (await ctx.api.carrierRoutes.getOrderCvsStore({ params: { id }, token: w.token })).json().store;
    expect(await store(byNumber.get('CVS-1')!)).toMatchObject({
      subtype: 'UNIMARTC2C',
      store_id: '131386',
      store_name: '建盛門市',
      source: 'import',
    });
    expect(await store(byNumber.get('CVS-2')!)).toBeNull();
    const bad = await importFile(
      ctx,
      w.token,
      await xlsx([header, row('CVS-3', 'SEVEN', '131386', null), row('CVS-4', 'FAMIC2C', '1234567', null)]),
    );
    expect(bad.state).toBe('failed');
    expect(JSON.stringify(bad.error)).toContain('cvs_subtype');
    expect(JSON.stringify(bad.error)).toContain('cvs_store_id');
  });

  it('flags a parcel not dropped off within its chain’s window until ECPay reports it; per seller', async () => {
    // Order numbers repeat across sellers and all share the fake's merchant: its book of trade numbers starts afresh.
    fake.created.length = 0;
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { provider, order, consignments } = carrierApi(ctx, w);
    const ecpay = await provider({
      code: 'ECPAY-CVS',
      name: '綠界超商',
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay',
      ...CVS_SENDER,
    });
    const late = await order(ecpay.id);
    const fresh = await order(ecpay.id);
    for (const o of [late, fresh])
      await ctx.api.carrierRoutes.setOrderCvsStore({
        params: { id: o.id },
        body: { subtype: 'HILIFEC2C', store_id: '2001' },
        token: w.token,
      });
    const made = await consignments([late.id, fresh.id]);
    expect((made.json().results as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual(['created', 'created']);
    // ECPay made the late one 8 days ago: Hi-Life store-to-store allows D+7.
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await ctx.deps.database.db
      .update(carrier_labels)
      .set({ created_at: eightDaysAgo })
      .where(eq(carrier_labels.order_id, late.id));
    const overdue = async (token = w.token) =>
      (await ctx.api.carrierRoutes.cvsOverdue({ token })).json().results as Array<{
        order_id: string;
        deadline: string;
      }>;
    const list = await overdue();
    expect(list.map((r) => r.order_id)).toEqual([late.id]);
    expect(list[0]).toMatchObject({ subtype: 'HILIFEC2C', store_id: '2001' });
    expect(list[0]!.deadline).toBe(
      new Date(eightDaysAgo.getTime() + 8 * 3600_000 + 7 * 86_400_000).toISOString().slice(0, 10),
    );
    expect(await overdue(other.token)).toEqual([]);
    // The last consignment of that trade number (earlier sellers' orders had the same numbers).
    const logisticsId = [...fake.consignments.entries()]
      .filter(([, c]) => c.fields.MerchantTradeNo === late.number)
      .at(-1)![0];
    const notify = async (code: string, text: string) => {
      const ack = await postForm(ctx, carrierRoutes.ecpayLogisticsNotify, fake.statusNotice(logisticsId, code, text));
      expect(ack.body).toBe('1|OK');
    };
    // "Order sent to the chain" (ECPay's 2001) is paperwork, not a drop-off: still late.
    await notify('2001', '訂單傳送超商成功');
    expect((await overdue()).map((r) => r.order_id)).toEqual([late.id]);
    // Dropped off after all (Hi-Life's 3032 賣家已到門市寄件): ECPay's notice takes it off the list.
    await notify('3032', '賣家已到門市寄件');
    expect(await overdue()).toEqual([]);
  });
});
