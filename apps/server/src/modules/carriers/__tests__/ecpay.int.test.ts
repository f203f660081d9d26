import { carrierRoutes } from '@wms/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, integration_attempts, logistics_providers } from '../../../db/schema';
import { encryptSecret } from '../../../platform/crypto';
import { startFakeEcpay, type TFakeEcpay } from '../../../test/fakes/fake-ecpay';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { ecpayCheckMacValue, ecpayProvider } from '../providers/ecpay';
import { postForm } from './api';

let ctx: TTestContext;
let fake: TFakeEcpay;
beforeAll(async () => {
  fake = await startFakeEcpay();
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const order = {
  orderNumber: 'OUT202611240001',
  recipient: { name: '王小明', mobile: '0912345678', postcode: '100', address: '台北市中正區重慶南路一段122號' },
  sender: { name: '倉庫', phone: '0223456789', postcode: '300', address: '新竹市東區光復路二段101號' },
  codAmount: 450,
  // Cash on delivery goes with store pickup (ECPay takes no COD on HOME): a 7-ELEVEN B2C store.
  pickupStore: { storeId: '131386' },
};

describe('ECPay Express/Create against a local ECPay', () => {
  it('gets a consignment number (5xx retried), refuses a wrong key and a repeated trade number, logs every attempt masked', async () => {
    const services = { http: ctx.deps.http, config: ctx.config };
    const setting = {
      baseUrl: fake.url,
      merchantId: fake.merchantId,
      hashKey: fake.hashKey,
      hashIv: fake.hashIv,
      serverReplyUrl: `http://wms.test${carrierRoutes.ecpayLogisticsNotify.path}`,
      logisticsType: 'CVS' as const,
      logisticsSubType: 'UNIMART',
    };
    fake.failNext(1);
    const a = await ecpayProvider(setting, services).createConsignment(order, { customerId: null, reference: 'r-1' });
    // Store pickup: ECPay's CVSPaymentNo (寄貨編號); its BookingNote is given for home delivery only.
    expect(a.consignmentNumber).toMatch(/^B\d+$/);
    expect(fake.created[0]).toMatchObject({
      IsCollection: 'Y',
      CollectionAmount: '450',
      GoodsAmount: '450',
      ReceiverStoreID: '131386',
      ReceiverCellPhone: '0912345678',
    });

    await expect(
      ecpayProvider(setting, services).createConsignment(order, { customerId: null, reference: 'r-2' }),
    ).rejects.toMatchObject({ code: 'PROVIDER_REFUSED', params: { message: 'MerchantTradeNo is duplicate' } });
    await expect(
      ecpayProvider({ ...setting, hashKey: 'wrong-hash-key!!' }, services).createConsignment(
        { ...order, orderNumber: 'OUT202611240002' },
        { customerId: null, reference: 'r-3' },
      ),
    ).rejects.toMatchObject({ code: 'PROVIDER_REFUSED', params: { message: 'CheckMacValue Error' } });

    const attempts = await ctx.deps.database.db
      .select()
      .from(integration_attempts)
      .where(and(eq(integration_attempts.provider, 'ecpay'), eq(integration_attempts.reference, 'r-1')))
      .orderBy(asc(integration_attempts.created_at));
    expect(attempts.map((x) => x.status)).toEqual([503, 200]);
    for (const x of attempts) {
      expect(x.request_body).not.toContain(fake.hashKey);
      expect(x.request_body).toMatch(/CheckMacValue=••••••/);
    }
  });
});

describe('ECPay status callback', () => {
  it("answers 1|OK to a notification signed with the seller's hash key and IV; refuses a tampered one", async () => {
    const seller = await ctx.newCustomer();
    const key = ctx.config.encryptionKey;
    const [provider] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({
        customer_id: seller.customerId,
        code: 'ECPAY-HOME',
        name: '綠界宅配',
        merchant_id: '3002607',
        hash_key_enc: encryptSecret(key, 'pwFHCqoQZGmho4w6'),
        hash_iv_enc: encryptSecret(key, 'EkRm7iFT261dpevs'),
      })
      .returning();
    const fields: Record<string, string> = {
      MerchantID: '3002607',
      MerchantTradeNo: 'OUT202611249999',
      RtnCode: '3024',
      RtnMsg: '貨件已至物流中心',
      AllPayLogisticsID: '1718546',
      BookingNote: '9012345678',
      UpdateStatusDate: '2026/11/24 17:10:00',
    };
    fields.CheckMacValue = ecpayCheckMacValue(fields, 'pwFHCqoQZGmho4w6', 'EkRm7iFT261dpevs');
    const ok = await postForm(ctx, carrierRoutes.ecpayLogisticsNotify, fields);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toBe('1|OK');
    const audits = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.action, 'ecpay.status'), eq(audit_logs.entity_id, provider!.id)));
    expect(audits).toHaveLength(1);

    const tampered = await postForm(ctx, carrierRoutes.ecpayLogisticsNotify, { ...fields, RtnCode: '3022' });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().error.code).toBe('CARRIER_SIGNATURE_INVALID');
  });
});
