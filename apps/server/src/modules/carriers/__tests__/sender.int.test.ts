import { carrierRoutes } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEcpay, type TFakeEcpay } from '../../../test/fakes/fake-ecpay';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld } from '../../outbound/__tests__/factories';
import { ecpayProvider } from '../providers/ecpay';
import { carrierApi, SENDER } from './api';

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

const keys = () => ({
  merchant_id: fake.merchantId,
  hash_key: fake.hashKey,
  hash_iv: fake.hashIv,
  carrier_type: 'ecpay' as const,
});

describe(`sender data for the carriers (${TEST_ENGINE})`, () => {
  it("a new seller's first consignment succeeds with the sender the provider form required", async () => {
    // A company name of 12 CJK characters: ECPay takes 2–5; the orders' default sender is that name.
    const w = await outboundWorld(ctx, { name: '好物國際貿易股份有限公司' });
    const { provider, order, consignments } = carrierApi(ctx, w);
    const p = await provider({ code: 'ECPAY', name: '綠界宅配', ...keys(), ...SENDER });
    expect(p).toMatchObject(SENDER);
    const o = await order(p.id);
    const before = fake.created.length;
    const res = await consignments([o.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0]).toMatchObject({ outcome: 'created', code: null });
    expect(fake.created.length - before).toBe(1);
    expect(fake.created.at(-1)).toMatchObject({
      SenderName: '好物倉庫',
      SenderPhone: '0223456789',
      SenderCellPhone: '',
      SenderZipCode: '300',
      SenderAddress: '新竹市東區光復路二段101號',
      ReceiverName: '王小明',
      ReceiverCellPhone: '0912345678',
    });
  });

  it('refuses a bad sender record when saved, naming the rule, in each language; keeps the stored one', async () => {
    const w = await outboundWorld(ctx);
    const base = { code: 'ECPAY', name: '綠界', ...keys() };
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ sender_name: '好物國際貿易股份有限公司' }, 'sender_name', 'CARRIER_NAME_RULE'],
      [{ sender_name: 'Shop 1' }, 'sender_name', 'CARRIER_NAME_RULE'],
      [{ sender_phone: '0912-34' }, 'sender_phone', 'CARRIER_PHONE_RULE'],
      [{ sender_postcode: '300123' }, 'sender_postcode', 'CARRIER_POSTCODE_RULE'],
      [{ sender_address: '新竹市' }, 'sender_address', 'CARRIER_ADDRESS_RULE'],
      [{ sender_postcode: '' }, 'sender_postcode', 'REQUIRED_FIELD'],
    ];
    for (const [bad, field, code] of cases) {
      const r = await ctx.api.partnerRoutes.createLogisticsProvider({
        body: { ...base, ...SENDER, ...bad },
        token: w.token,
        lang: 'en',
      });
      expect(r.statusCode, `${JSON.stringify(bad)} ${r.body}`).toBe(400);
      expect(r.error()).toMatchObject({ code, params: { field } });
    }
    const zh = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: { ...base, ...SENDER, sender_name: '好物國際貿易股份有限公司' },
      token: w.token,
      lang: 'zh-TW',
    });
    expect(zh.error().message).toBe(
      '寄件人姓名不符合綠界規則：須為 2～5 個中文字或 4～10 個英文字母，不可有數字、空白或符號',
    );
    const ja = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: { ...base, ...SENDER, sender_postcode: '300123' },
      token: w.token,
      lang: 'ja',
    });
    expect(ja.error().message).toContain('3～5 桁');
    const en = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: { ...base, ...SENDER, sender_address: '新竹市' },
      token: w.token,
      lang: 'en',
    });
    expect(en.error().message).toBe('Sender address breaks the ECPay rule: 6 to 60 characters');

    // A mobile alone is a phone; a Latin name of 4–10 letters is a name.
    const ok = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: { ...base, ...SENDER, sender_name: 'GoodShop', sender_phone: '0912-345-678' },
      token: w.token,
      lang: 'en',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const patch = await ctx.api.partnerRoutes.updateLogisticsProvider({
      params: { id: ok.json().id },
      body: { sender_name: 'Good Shop Taiwan' },
      token: w.token,
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.error()).toMatchObject({ code: 'CARRIER_NAME_RULE', params: { field: 'sender_name' } });
    const got = await ctx.api.partnerRoutes.getLogisticsProvider({ params: { id: ok.json().id }, token: w.token });
    expect(got.json().sender_name).toBe('GoodShop');
    // Switching the carrier API checks the stored sender against the new carrier's rules.
    const plain = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: { code: 'HCT', name: '新竹物流', sender_name: '新竹物流股份有限公司' },
      token: w.token,
      lang: 'en',
    });
    expect(plain.statusCode, plain.body).toBe(201);
    const toEcpay = await ctx.api.partnerRoutes.updateLogisticsProvider({
      params: { id: plain.json().id },
      body: { carrier_type: 'ecpay' },
      token: w.token,
    });
    expect(toEcpay.statusCode).toBe(400);
    // T-cat: the sender needs a phone and an address (its post number is looked up from the address).
    const tcat = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: {
        code: 'TCAT',
        name: '黑貓',
        carrier_type: 'tcat',
        sender_name: '好物國際貿易股份有限公司',
      },
      token: w.token,
      lang: 'en',
    });
    expect(tcat.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'sender_phone' } });
  });

  it('refuses per order before ECPay is asked: no valid sender (with the fix), a masked or invalid receiver', async () => {
    const w = await outboundWorld(ctx, { name: '好物國際貿易股份有限公司' });
    const { provider, order, consignments } = carrierApi(ctx, w);
    const bare = await provider({ code: 'ECPAY-BARE', name: '綠界（無寄件人）', ...keys() });
    const full = await provider({ code: 'ECPAY', name: '綠界宅配', ...keys(), ...SENDER });
    const noSender = await order(bare.id);
    const masked = await order(full.id, { recipient_name: '王*明' });
    const digits = await order(full.id, { recipient_name: 'Amy2' });
    const own = await order(bare.id, {
      sender_name: '林小華',
      sender_phone: '0911222333',
      sender_postcode: '10001',
      sender_address: '台北市中正區忠孝西路一段49號',
    });
    const before = fake.created.length;
    const res = await consignments([noSender.id, masked.id, digits.id, own.id], 'zh-TW');
    expect(res.statusCode, res.body).toBe(200);
    const out = new Map(
      (res.json().results as Array<{ order_id: string; code: string; message: string; outcome: string }>).map((r) => [
        r.order_id,
        r,
      ]),
    );
    expect(out.get(noSender.id)).toMatchObject({ outcome: 'failed', code: 'CARRIER_SENDER_INVALID' });
    expect(out.get(noSender.id)!.message).toBe(
      '寄件人資料不符合物流商規則（寄件人姓名不符合綠界規則：須為 2～5 個中文字或 4～10 個英文字母，不可有數字、空白或符號）：請到「物流商設定」修正「綠界（無寄件人）」的寄件人，或在訂單上填寫寄件人',
    );
    expect(out.get(masked.id)).toMatchObject({ outcome: 'failed', code: 'CARRIER_RECEIVER_MASKED' });
    expect(out.get(masked.id)!.message).toContain('「王*明」');
    expect(out.get(digits.id)).toMatchObject({ outcome: 'failed', code: 'CARRIER_RECEIVER_INVALID' });
    expect(out.get(digits.id)!.message).toContain('收件人姓名不符合綠界規則');
    // The order's own valid sender ships even on a provider without one.
    expect(out.get(own.id)).toMatchObject({ outcome: 'created' });
    expect(fake.created.length - before).toBe(1);
    expect(fake.created.at(-1)).toMatchObject({ SenderName: '林小華', SenderCellPhone: '0911222333' });
  });

  it("the fake ECPay enforces ECPay's field rules with ECPay's messages", async () => {
    const services = { http: ctx.deps.http, config: ctx.config };
    const setting = {
      baseUrl: fake.url,
      merchantId: fake.merchantId,
      hashKey: fake.hashKey,
      hashIv: fake.hashIv,
      serverReplyUrl: `http://wms.test${carrierRoutes.ecpayLogisticsNotify.path}`,
      logisticsType: 'HOME' as const,
      logisticsSubType: 'TCAT',
    };
    const order = (n: number, sender: Record<string, string>, extra: Record<string, unknown> = {}) => ({
      orderNumber: `RULE${Date.now()}${n}`,
      recipient: { name: '王小明', mobile: '0912345678', postcode: '100', address: '台北市中正區重慶南路一段122號' },
      sender: {
        name: '好物倉庫',
        phone: '0223456789',
        postcode: '300',
        address: '新竹市東區光復路二段101號',
        ...sender,
      },
      codAmount: null,
      ...extra,
    });
    const refused = (o: ReturnType<typeof order>, s = setting) =>
      ecpayProvider(s, services).createConsignment(o, { customerId: null, reference: null });
    await expect(refused(order(1, { name: '好物國際貿易股份有限公司' }))).rejects.toMatchObject({
      code: 'PROVIDER_REFUSED',
      params: { message: expect.stringContaining('寄件人姓名請設定為 4~10 字元') },
    });
    await expect(refused(order(2, { postcode: '' }))).rejects.toMatchObject({
      params: { message: 'SenderZipCode 格式錯誤' },
    });
    await expect(refused(order(3, { address: '新竹' }))).rejects.toMatchObject({
      params: { message: 'SenderAddress 長度需為 6~60 字元' },
    });
    await expect(refused(order(4, { phone: '' }))).rejects.toMatchObject({
      params: { message: '寄件人電話或手機不可為空' },
    });
    await expect(
      refused({ ...order(5, {}), recipient: { ...order(5, {}).recipient, name: '王*明' } }),
    ).rejects.toMatchObject({ params: { message: expect.stringContaining('收件人姓名請設定為') } });
    await expect(refused(order(6, {}), { ...setting, logisticsSubType: 'ECAN' })).rejects.toMatchObject({
      params: { message: 'LogisticsSubType 錯誤' },
    });
    const made = await refused(order(7, { name: 'GoodShop' }));
    expect(made.consignmentNumber).toMatch(/^90\d+23$/);
  });
});
