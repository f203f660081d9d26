import { carrierRoutes } from '@wms/contracts';
import type { TRouteInput } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEcpay, type TFakeEcpay } from '../../../test/fakes/fake-ecpay';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld } from '../../outbound/__tests__/factories';
import { carrierApi, postForm, SENDER } from './api';

let ctx: TTestContext;
let fake: TFakeEcpay;
beforeAll(async () => {
  fake = await startFakeEcpay();
  ctx = await createTestContext({ ECPAY_LOGISTICS_URL: fake.url });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe(`cash on delivery (${TEST_ENGINE})`, () => {
  it('a store pickup collects the COD amount; refusals name why; the collected amount per day counts each order once', async () => {
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { provider, order, consignments } = carrierApi(ctx, w);
    const ecpay = await provider({
      code: 'ECPAY',
      name: '綠界',
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay',
      ...SENDER,
    });
    const store = async (id: string) => {
      const r = await ctx.api.carrierRoutes.setOrderCvsStore({
        params: { id },
        body: { subtype: 'FAMIC2C', store_id: '006598', store_name: '全家台北站前店' },
        token: w.token,
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    const collect = await order(ecpay.id, { cod: true, cod_amount: '450.00', total_amount: '450.00' });
    const tooMuch = await order(ecpay.id, { cod: true, cod_amount: '25000.00' });
    const cents = await order(ecpay.id, { cod: true, cod_amount: '450.50' });
    const home = await order(ecpay.id, { cod: true, cod_amount: '300.00' });
    const dear = await order(ecpay.id, { total_amount: '30000.00' });
    for (const o of [collect, tooMuch, cents]) await store(o.id);

    const before = fake.created.length;
    const res = await consignments([collect.id, tooMuch.id, cents.id, home.id, dear.id], 'zh-TW');
    expect(res.statusCode, res.body).toBe(200);
    type TOut = { order_id: string; outcome: string; code: string | null; message: string | null };
    const out = new Map((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    expect(out.get(collect.id)).toMatchObject({ outcome: 'created' });
    expect(out.get(tooMuch.id)).toMatchObject({
      code: 'CARRIER_AMOUNT_LIMIT',
      message: '代收金額 25000.00 元不符合物流商規則：須為 1～20,000 元的整數',
    });
    expect(out.get(cents.id)).toMatchObject({ code: 'CARRIER_AMOUNT_LIMIT' });
    expect(out.get(home.id)).toMatchObject({ code: 'CARRIER_COD_NOT_SUPPORTED' });
    expect(out.get(home.id)!.message).toContain('綠界宅配不提供貨到付款');
    expect(out.get(dear.id)).toMatchObject({ code: 'CARRIER_AMOUNT_LIMIT' });
    expect(fake.created.length - before).toBe(1);
    const sent = fake.created.at(-1)!;
    expect(sent).toMatchObject({
      LogisticsType: 'CVS',
      LogisticsSubType: 'FAMIC2C',
      IsCollection: 'Y',
      CollectionAmount: '450',
      GoodsAmount: '450',
    });

    // The label says what the store collects.
    const forms = await ctx.api.carrierRoutes.ecpayLabelForms({ body: { order_ids: [collect.id] }, token: w.token });
    const form = forms.json().forms[0] as { action: string; fields: Record<string, string> };
    const html = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    }).then((r) => r.text());
    expect(html).toContain('<b class="collection">450</b>');

    // ECPay's notices: at the store, then picked up — resent, and twice at the same time: collected once.
    const logisticsId = [...fake.consignments.entries()].find(
      ([, c]) => c.fields.MerchantTradeNo === collect.number,
    )![0];
    const notify = (fields: Record<string, string>) => postForm(ctx, carrierRoutes.ecpayLogisticsNotify, fields);
    await notify(fake.statusNotice(logisticsId, '3018', '包裹配達取件門市'));
    const report = async (token = w.token, query: TRouteInput<typeof carrierRoutes.codCollected>['query'] = {}) =>
      (await ctx.api.carrierRoutes.codCollected({ query, token })).json();
    expect((await report()).results).toEqual([]);
    const picked = fake.statusNotice(logisticsId, '3022', '買家已到店取貨');
    const answers = await Promise.all([notify(picked), notify(picked), notify(picked)]);
    for (const a of answers) expect(a.body).toBe('1|OK');
    await notify(picked);
    const r = await report();
    expect(r).toEqual({
      results: [{ date: '2026-11-28', orders: 1, amount: '450.00' }],
      total_orders: 1,
      total_amount: '450.00',
    });
    expect((await report(w.token, { date_from: '2026-11-29' })).results).toEqual([]);
    expect((await report(w.token, { date_from: '2026-11-28', date_to: '2026-11-28' })).total_amount).toBe('450.00');
    expect((await report(other.token)).results).toEqual([]);
  });
});
