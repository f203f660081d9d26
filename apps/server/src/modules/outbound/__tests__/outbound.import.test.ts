import { toTaiwanPhone } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { parseAmount, parseDay, parseWhole, wordKey } from '../../../platform/cells';
import type { TFieldIssue } from '../../../platform/importing';
import { decodeCsv, fileKind, headerText, parseCsv } from '../../../platform/spreadsheet';
import { parseCod, parseVolume, RowReader, resolveColumns, suggestMapping } from '../outbound.import';
import { checkOrder, type TOrderDraft } from '../outbound.rules';

/** Big5 bytes of a string, found through the platform's own Big5 decoder (tests have no encoder). */
function big5(text: string): Buffer {
  const table = new Map<string, number[]>();
  const dec = new TextDecoder('big5');
  for (let hi = 0x81; hi <= 0xfe; hi++)
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      const ch = dec.decode(new Uint8Array([hi, lo]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [hi, lo]);
    }
  const bytes: number[] = [];
  for (const ch of text) bytes.push(...(ch.charCodeAt(0) < 0x80 ? [ch.charCodeAt(0)] : table.get(ch)!));
  return Buffer.from(bytes);
}

describe('order file parsing', () => {
  it('normalises headers: line breaks, full-width letters and spaces, required marks', () => {
    expect(headerText('訂單\n編號')).toBe('訂單 編號');
    expect(headerText('  商品選項\r\n貨號 ')).toBe('商品選項 貨號');
    expect(wordKey('訂單\n編號')).toBe(wordKey('訂單編號'));
    expect(wordKey('Ｑｔｙ ＊')).toBe('qty');
    expect(wordKey('Platform order number *')).toBe(wordKey('platform order number'));
  });

  it('reads dates, amounts, quantities, volume and COD the way sellers type them', () => {
    expect(parseDay(new Date(Date.UTC(2026, 10, 22)))).toBe('2026-11-22');
    expect(parseDay(46348)).toBe('2026-11-22'); // Excel serial
    expect(parseDay('2026/1/5')).toBe('2026-01-05');
    expect(parseDay('2026-11-22 13:45')).toBe('2026-11-22');
    expect(parseDay('20261122')).toBe('2026-11-22');
    expect(parseDay('2026-02-30')).toBeUndefined();
    expect(parseDay(null)).toBeNull();
    expect(parseAmount('NT$1,280.5')).toBe('1280.5');
    expect(parseAmount(199.9)).toBe('199.90');
    expect(parseAmount(200)).toBe('200');
    expect(parseAmount('-5')).toBeUndefined();
    expect(parseAmount(0.125)).toBeUndefined();
    expect(parseWhole('3', 1, 10)).toBe(3);
    expect(parseWhole(2.0, 1, 10)).toBe(2);
    expect(parseWhole('1.5', 1, 10)).toBeUndefined();
    expect(parseWhole(0, 1, 10)).toBeUndefined();
    expect(parseVolume('90cm')).toBe('0002');
    expect(parseVolume(3)).toBe('0003');
    expect(parseVolume('0004')).toBe('0004');
    expect(parseVolume('200')).toBeUndefined();
    expect(parseCod('貨到付款')).toBe(true);
    expect(parseCod('信用卡')).toBe(false);
    expect(parseCod('Y')).toBe(true);
    expect(parseCod(null)).toBe(false);
  });

  it('normalises Taiwan phones: +886, 886 as platforms export it, dashes, extensions', () => {
    expect(toTaiwanPhone('0912-345-678')).toBe('0912345678');
    expect(toTaiwanPhone('+886 912 345 678')).toBe('0912345678');
    expect(toTaiwanPhone('886912345678')).toBe('0912345678');
    expect(toTaiwanPhone('(02) 2345-6789 #12')).toBe('0223456789#12');
    expect(toTaiwanPhone('12345')).toBeNull();
    expect(toTaiwanPhone('091234567')).toBeNull();
  });

  it('parses CSV records with quotes, commas and line breaks inside fields, and skips blank lines', () => {
    const rows = [...parseCsv('a,b,c\r\n"x, y","say ""hi""","two\nlines"\n\n1,2,3')];
    expect(rows).toEqual([
      { row: 1, cells: ['a', 'b', 'c'] },
      { row: 2, cells: ['x, y', 'say "hi"', 'two\nlines'] },
      { row: 5, cells: ['1', '2', '3'] },
    ]);
    expect(decodeCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('訂單編號')]))).toBe('訂單編號');
    expect(decodeCsv(big5('訂單編號,數量'))).toBe('訂單編號,數量');
  });

  it('tells xlsx, CSV and unreadable files apart', () => {
    expect(fileKind(Buffer.from('PK\u0003\u0004rest'))).toBe('xlsx');
    expect(fileKind(Buffer.from('a,b\n1,2'))).toBe('csv');
    expect(fileKind(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]))).toBeNull();
    expect(fileKind(Buffer.from([1, 0, 2]))).toBeNull();
  });

  it("maps Shopee Taiwan's export: line-broken headers, and the main SKU as the fallback of the option SKU", () => {
    const headers = [
      '訂單\n編號',
      '收件者姓名',
      '收件者電話',
      '收件地址',
      '郵遞區號',
      '商品選項貨號',
      '主商品貨號',
      '數量',
    ].map(headerText);
    const mapping = suggestMapping(headers);
    expect(mapping.platform_order_number).toEqual(['訂單 編號']);
    expect(mapping.product).toEqual(['商品選項貨號', '主商品貨號']);
    const { columns, missing } = resolveColumns(headers, mapping);
    expect(missing).toEqual([]);
    const reader = new RowReader(columns);
    const issues: TFieldIssue[] = [];
    expect(reader.line(['A1', 'x', '0912', 'addr', '100', '見選項', 'MAIN-1', 2], issues)).toEqual({
      products: ['MAIN-1'],
      quantity: 2,
      unit_price: null,
    });
    expect(reader.line(['A1', 'x', '0912', 'addr', '100', 'OPT-1', 'MAIN-1', 0], issues).products).toEqual([
      'OPT-1',
      'MAIN-1',
    ]);
    expect(issues).toEqual([{ code: 'ABNORMAL_QUANTITY', field: 'quantity', value: '0' }]);
    expect(resolveColumns(['foo'], mapping).missing).toContain('platform_order_number');
  });

  it('checks an order: phone or mobile required, Taiwan formats unless cross-border, channel vs platform, COD amount', () => {
    const draft = (over: Partial<TOrderDraft> = {}): TOrderDraft => ({
      platform_logistics: false,
      platform_order_number: null,
      third_party_number: null,
      consignment_number: null,
      shipping_date: null,
      category: 'normal',
      channel: 'manual',
      is_cross_border: false,
      recipient_name: 'A',
      recipient_phone: '0912345678',
      recipient_mobile: '',
      recipient_postcode: '100',
      recipient_address: 'Taipei',
      sender_name: '',
      sender_phone: '',
      sender_postcode: '',
      sender_address: '',
      shipping_remark: '',
      warehouse_id: null,
      arrival_date: null,
      arrival_time_slot: null,
      logistics_provider_id: null,
      platform_id: null,
      cod: false,
      cod_amount: null,
      total_amount: null,
      piece_count: 1,
      volume: null,
      ...over,
    });
    const codes = (d: TOrderDraft) => checkOrder(d, []).map((i) => `${i.code}:${i.field}`);
    expect(codes(draft())).toEqual([]);
    expect(codes(draft({ recipient_phone: '' }))).toEqual(['REQUIRED_FIELD:recipient_phone']);
    expect(codes(draft({ recipient_phone: '', recipient_mobile: '0912-000-111' }))).toEqual([]);
    expect(codes(draft({ recipient_phone: '+81 3 1234 5678' }))).toEqual(['INVALID_FIELD:recipient_phone']);
    expect(
      codes(draft({ recipient_phone: '+81 3 1234 5678', recipient_postcode: '100-0001', is_cross_border: true })),
    ).toEqual([]);
    expect(codes(draft({ recipient_postcode: '1000' }))).toEqual(['INVALID_FIELD:recipient_postcode']);
    expect(codes(draft({ recipient_postcode: '100-12' }))).toEqual([]);
    expect(codes(draft({ channel: 'ecommerce' }))).toEqual(['CHANNEL_ABNORMAL:channel']);
    expect(codes(draft({ platform_id: 'p' }))).toEqual(['CHANNEL_ABNORMAL:channel']);
    expect(codes(draft({ cod: true }))).toEqual(['REQUIRED_FIELD:cod_amount']);
    const product = {
      id: 'p',
      number: 'P1',
      type: 'combination',
      status: 'active',
      allow_shipping: true,
      volume_required: true,
      component_count: 0,
    };
    expect(checkOrder(draft(), [product]).map((i) => i.code)).toEqual(['PRODUCT_ABNORMAL', 'REQUIRED_FIELD']);
  });
});
