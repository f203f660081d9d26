import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import {
  newebpayDecrypt,
  newebpayEncrypt,
  newebpayProvider,
  newebpayTradeSha,
  verifyNewebpayTradeSha,
} from '../providers/newebpay';

describe('NewebPay TradeInfo / TradeSha (INTEGRATIONS.md test vectors)', () => {
  it('vector A: AES-256-CBC hex and SHA-256', () => {
    const key = '12345678901234567890123456789012';
    const iv = '1234567890123456';
    const plain =
      'MerchantID=3430112&RespondType=JSON&TimeStamp=1485232229&Version=1.4&MerchantOrderNo=S_1485232229&Amt=40&ItemDesc=UnitTest';
    const tradeInfo = newebpayEncrypt(plain, key, iv);
    expect(tradeInfo).toBe(
      'ff91c8aa01379e4de621a44e5f11f72e4d25bdb1a18242db6cef9ef07d80b0165e476fd1d9acaa53170272c82d122961e1a0700a7427cfa1cf90db7f6d6593bbc93102a4d4b9b66d9974c13c31a7ab4bba1d4e0790f0cbbbd7ad64c6d3c8012a601ceaa808bff70f94a8efa5a4f984b9d41304ffd879612177c622f75f4214fa',
    );
    expect(newebpayTradeSha(tradeInfo, key, iv)).toBe(
      'EA0A6CC37F40C1EA5692E7CBB8AE097653DF3E91365E6A9CD7E91312413C7BB8',
    );
    expect(newebpayDecrypt(tradeInfo, key, iv)).toBe(plain);
    expect(
      verifyNewebpayTradeSha(tradeInfo, 'EA0A6CC37F40C1EA5692E7CBB8AE097653DF3E91365E6A9CD7E91312413C7BB8', key, iv),
    ).toBe(true);
    expect(
      verifyNewebpayTradeSha(tradeInfo, 'EA0A6CC37F40C1EA5692E7CBB8AE097653DF3E91365E6A9CD7E91312413C7BB9', key, iv),
    ).toBe(false);
  });

  it('vector B: TradeSha of the encrypted trade', () => {
    const key = 'Fs5cX1TGqYM2PpdbE14a9H83YQSQF5jn';
    const iv = 'C6AcmfqJILwgnhIP';
    const plain =
      'MerchantID=MS127874575&RespondType=String&TimeStamp=1695795410&Version=2.0&MerchantOrderNo=Vanespl_ec_1695795410&Amt=30&ItemDesc=test&NotifyURL=https%3A%2F%2Fwebhook.site%2Fd4db5ad1-2278-466a-9d66-78585c0dbadb';
    expect(newebpayTradeSha(newebpayEncrypt(plain, key, iv), key, iv)).toBe(
      '84E4D9F96537E029F8450BE1E759080F9AF6995921B7F6F9AAFDDD2C36E7B287',
    );
  });

  it('decrypts tolerantly and refuses what does not decrypt', () => {
    const key = '12345678901234567890123456789012';
    const iv = '1234567890123456';
    expect(newebpayDecrypt('zz', key, iv)).toBeNull();
    expect(newebpayDecrypt(newebpayEncrypt('x', key, iv), '12345678901234567890123456789099', iv)).not.toBe('x');
  });

  it('reads a Notify: verified, decrypted, refused with a wrong TradeSha or merchant', () => {
    const setting = {
      baseUrl: 'https://ccore.newebpay.com',
      merchantId: 'MS1',
      hashKey: '12345678901234567890123456789012',
      hashIv: '1234567890123456',
      version: '2.0',
    };
    const p = newebpayProvider(setting);
    const form = p.checkoutForm!({
      orderNumber: 'B1',
      amount: 3150,
      description: 'Q',
      email: 'a@b.c',
      returnUrl: 'http://r',
      notifyUrl: 'http://n',
      clientBackUrl: 'http://c',
    });
    expect(form.action).toBe('https://ccore.newebpay.com/MPG/mpg_gateway');
    const trade = Object.fromEntries(
      new URLSearchParams(newebpayDecrypt(form.fields.TradeInfo!, setting.hashKey, setting.hashIv)!),
    );
    expect(trade).toMatchObject({ MerchantID: 'MS1', Amt: '3150', MerchantOrderNo: 'B1', RespondType: 'JSON' });
    const json = JSON.stringify({
      Status: 'SUCCESS',
      Message: '授權成功',
      Result: { MerchantID: 'MS1', Amt: 3150, TradeNo: '23112412345678', MerchantOrderNo: 'B1', Card4No: '1111' },
    });
    const ti = newebpayEncrypt(json, setting.hashKey, setting.hashIv);
    const notice = {
      Status: 'SUCCESS',
      MerchantID: 'MS1',
      Version: '2.0',
      TradeInfo: ti,
      TradeSha: newebpayTradeSha(ti, setting.hashKey, setting.hashIv),
    };
    expect(p.readNotification!(notice)).toMatchObject({
      status: 'succeeded',
      transactionId: '23112412345678',
      orderNumber: 'B1',
      amount: 3150,
      cardLastFour: '1111',
    });
    expect(p.readNotification!({ ...notice, TradeSha: 'A'.repeat(64) })).toBeNull();
    expect(newebpayProvider({ ...setting, merchantId: 'MS2' }).readNotification!(notice)).toBeNull();
  });

  it('a Period notify is trusted only when its TradeSha (if sent) verifies and it decrypts to our MerchantID', () => {
    const setting = {
      baseUrl: 'https://ccore.newebpay.com',
      merchantId: 'MS1',
      hashKey: '12345678901234567890123456789012',
      hashIv: '1234567890123456',
      version: '2.3',
    };
    const p = newebpayProvider(setting);
    const sealed = (result: Record<string, unknown>, key = setting.hashKey) =>
      newebpayEncrypt(JSON.stringify({ Status: 'SUCCESS', Message: '授權成功', Result: result }), key, setting.hashIv);
    const result = {
      MerchantID: 'MS1',
      MerchantOrderNo: 'B1',
      OrderNo: 'B1_2',
      TradeNo: '23112412345679',
      AuthAmt: 3150,
      PeriodNo: 'P1',
      AlreadyTimes: 2,
    };
    const period = sealed(result);
    expect(p.readNotification!({ Period: period })).toMatchObject({
      status: 'succeeded',
      transactionId: '23112412345679',
      orderNumber: 'B1',
      periodNo: 'P1',
    });
    expect(
      p.readNotification!({ Period: period, TradeSha: newebpayTradeSha(period, setting.hashKey, setting.hashIv) }),
    ).toMatchObject({ status: 'succeeded' });
    // A bad TradeSha: refused before the Period is read.
    expect(p.readNotification!({ Period: period, TradeSha: 'A'.repeat(64) })).toBeNull();
    // Another merchant's, or sealed with another key: refused.
    expect(p.readNotification!({ Period: sealed({ ...result, MerchantID: 'MS2' }) })).toBeNull();
    expect(p.readNotification!({ Period: sealed(result, 'x'.repeat(32)) })).toBeNull();
    expect(p.readNotification!({ Period: sealed({ ...result, MerchantID: undefined }) })).toBeNull();
  });

  it('the MPG form says Version 2.3 (the current manual) outside and inside TradeInfo', () => {
    const setting = {
      baseUrl: 'https://ccore.newebpay.com',
      merchantId: 'MS1',
      hashKey: '12345678901234567890123456789012',
      hashIv: '1234567890123456',
      version: loadConfig({}).newebpay.version,
    };
    const form = newebpayProvider(setting).checkoutForm!({
      orderNumber: 'B1',
      amount: 3150,
      description: 'Q',
      email: 'a@b.c',
      returnUrl: 'http://r',
      notifyUrl: 'http://n',
      clientBackUrl: 'http://c',
    });
    expect(form.fields.Version).toBe('2.3');
    const trade = Object.fromEntries(
      new URLSearchParams(newebpayDecrypt(form.fields.TradeInfo!, setting.hashKey, setting.hashIv)!),
    );
    expect(trade).toMatchObject({ Version: '2.3', TradeLimit: '900' });
  });
});
