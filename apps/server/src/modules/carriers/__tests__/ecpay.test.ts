import { describe, expect, it } from 'vitest';
import { ecpayCheckMacValue, ecpayLabelForm, parseEcpayAnswer, verifyEcpayCheckMacValue } from '../providers/ecpay';

describe('ECPay logistics CheckMacValue', () => {
  it('matches the published test vector (C2C keys, MD5)', () => {
    const params = {
      MerchantID: '2000933',
      MerchantTradeNo: 'A20130312153023',
      MerchantTradeDate: '2013/03/12 15:30:23',
      LogisticsType: 'CVS',
      LogisticsSubType: 'FAMIC2C',
      GoodsAmount: '1000',
      IsCollection: 'N',
      ServerReplyURL: 'https://www.ecpay.com.tw/ServerReplyURL',
      SenderName: '寄件者姓名',
      ReceiverName: '收件者姓名',
      ReceiverStoreID: '001779',
    };
    expect(ecpayCheckMacValue(params, 'XBERn1YOvpM9nfZc', 'h1ONHk4P4yqbl5LK')).toBe('692FD6E2CDB539CCDB7206C76DC239AD');
    const signed = { ...params, CheckMacValue: '692FD6E2CDB539CCDB7206C76DC239AD' };
    expect(verifyEcpayCheckMacValue(signed, 'XBERn1YOvpM9nfZc', 'h1ONHk4P4yqbl5LK')).toBe(true);
    expect(verifyEcpayCheckMacValue({ ...signed, GoodsAmount: '1001' }, 'XBERn1YOvpM9nfZc', 'h1ONHk4P4yqbl5LK')).toBe(
      false,
    );
  });

  it('reads `1|fields` and `0|message` answers', () => {
    expect(parseEcpayAnswer('1|MerchantID=2000132&RtnCode=300&BookingNote=9012345678')).toEqual({
      ok: true,
      fields: { MerchantID: '2000132', RtnCode: '300', BookingNote: '9012345678' },
    });
    expect(parseEcpayAnswer('0|CheckMacValue Error')).toEqual({ ok: false, message: 'CheckMacValue Error' });
  });
});

describe('ECPay label print form', () => {
  it('posts MerchantID and the comma-joined AllPayLogisticsIDs to /helper/printTradeDocument, signed (MD5)', () => {
    const setting = {
      baseUrl: 'https://logistics-stage.ecpay.com.tw/',
      merchantId: '2000132',
      hashKey: '5294y06JbISpM5x9',
      hashIv: 'v77hoKGq4kWxNNIS',
    };
    const form = ecpayLabelForm(setting, 'HOME_B2C', ['10011', '10012']);
    expect(form.action).toBe('https://logistics-stage.ecpay.com.tw/helper/printTradeDocument');
    expect(form.fields).toEqual({
      MerchantID: '2000132',
      AllPayLogisticsID: '10011,10012',
      CheckMacValue: ecpayCheckMacValue(
        { AllPayLogisticsID: '10011,10012', MerchantID: '2000132' },
        setting.hashKey,
        setting.hashIv,
      ),
    });
    expect(form.fields.CheckMacValue).toMatch(/^[0-9A-F]{32}$/);
    expect(verifyEcpayCheckMacValue(form.fields, setting.hashKey, setting.hashIv)).toBe(true);
  });
});
