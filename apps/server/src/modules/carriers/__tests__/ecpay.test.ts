import { describe, expect, it } from 'vitest';
import { ecpayCheckMacValue, parseEcpayAnswer, verifyEcpayCheckMacValue } from '../providers/ecpay';

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
