import { describe, expect, it } from 'vitest';
import { parseTcatEnvelope, tcatDate, tcatMobile, tcatZipCode } from '../providers/tcat';

describe('T-cat Egs formats', () => {
  it('dates are yyyyMMdd in Taiwan time (the delivery date the day after the shipment)', () => {
    const lateUtc = new Date('2026-11-24T17:30:00Z'); // 01:30 on the 25th in Taipei
    expect(tcatDate(0, lateUtc)).toBe('20261125');
    expect(tcatDate(1, lateUtc)).toBe('20261126');
    expect(tcatDate(0, new Date('2026-12-31T03:00:00Z'))).toBe('20261231');
    expect(tcatDate(1, new Date('2026-12-31T03:00:00Z'))).toBe('20270101');
  });

  it("the sender's post number becomes the 6 characters SenderZipCode takes", () => {
    expect(tcatZipCode('71-802-24-B')).toBe('80224B');
    expect(tcatZipCode('82111A')).toBe('82111A');
    expect(tcatZipCode('')).toBe('');
  });

  it('mobile numbers are 09 + 8 digits (dashes, spaces, +886 accepted); a landline is not a mobile', () => {
    expect(tcatMobile('0912-345-678')).toBe('0912345678');
    expect(tcatMobile('+886 912 345 678')).toBe('0912345678');
    expect(tcatMobile('02-2345-6789')).toBe('');
    expect(tcatMobile(null)).toBe('');
  });

  it('reads the Egs envelope (IsOK Y/N) and nothing else', () => {
    expect(parseTcatEnvelope('{"SrvTranId":"T1","IsOK":"N","Message":"契客代號或授權碼錯誤","Data":null}')).toEqual({
      SrvTranId: 'T1',
      IsOK: 'N',
      Message: '契客代號或授權碼錯誤',
      Data: null,
    });
    expect(parseTcatEnvelope('<html>503</html>')).toBeNull();
    expect(parseTcatEnvelope('{"ok":true}')).toBeNull();
  });
});
