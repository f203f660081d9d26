import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ecpayCheckMacValue } from '../../modules/carriers/providers/ecpay';

/**
 * A local ECPay logistics host on 127.0.0.1: `/Express/Create` checks MerchantID and CheckMacValue exactly as ECPay
 * does (MD5, .NET URL encoding, keys sorted case-insensitively) and answers `0|CheckMacValue Error`, `0|…` for a
 * repeated MerchantTradeNo, or `1|MerchantID=…&RtnCode=300&AllPayLogisticsID=…&BookingNote=…&CheckMacValue=…`;
 * `/helper/printTradeDocument` (the label page a browser posts to: MerchantID, AllPayLogisticsID comma-joined,
 * CheckMacValue) checks the same way and answers an HTML page with one label block per AllPayLogisticsID (its
 * BookingNote and receiver name). `failNext(n)` answers 503.
 */
export interface TFakeEcpay {
  url: string;
  merchantId: string;
  hashKey: string;
  hashIv: string;
  created: Array<Record<string, string>>;
  /** Each consignment made: the AllPayLogisticsID it got, its BookingNote and the fields sent. */
  consignments: Map<string, { bookingNote: string; fields: Record<string, string> }>;
  /** The print pages asked for (the AllPayLogisticsIDs of each). */
  printed: string[][];
  failNext(n: number): void;
  close(): Promise<void>;
}

/** The LogisticsSubType values ECPay takes per LogisticsType (its manual; the SDK's EcpayLogisticsSubType). */
export const ECPAY_SUBTYPES: Record<string, string[]> = {
  HOME: ['TCAT', 'POST'],
  CVS: ['FAMI', 'UNIMART', 'UNIMARTFREEZE', 'HILIFE', 'OKMART', 'FAMIC2C', 'UNIMARTC2C', 'HILIFEC2C', 'OKMARTC2C'],
};

const NAME = /^([\u4e00-\u9fff\u3400-\u4dbf]{2,5}|[a-zA-Z]{4,10})$/u;
const len = (v: string | undefined) => [...(v ?? '')].length;

/**
 * `/Express/Create`'s field rules as ECPay's manual and its logistics SDK state them (Ecpay.Logistic.Integration.php
 * validates the same before posting): the first broken rule's message, or null. Amount rules of COD are in `codIssue`.
 */
export function ecpayCreateIssue(f: Record<string, string>): string | null {
  if (!/^[A-Za-z0-9]{1,20}$/.test(f.MerchantTradeNo ?? '')) return 'MerchantTradeNo 格式錯誤';
  if (!/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/.test(f.MerchantTradeDate ?? '')) return 'MerchantTradeDate 格式錯誤';
  const type = f.LogisticsType ?? '';
  if (!ECPAY_SUBTYPES[type]) return 'LogisticsType 錯誤';
  const sub = f.LogisticsSubType ?? '';
  if (!ECPAY_SUBTYPES[type]!.includes(sub)) return 'LogisticsSubType 錯誤';
  const home = type === 'HOME';
  const goods = f.GoodsAmount ?? '';
  if (!/^\d+$/.test(goods) || Number(goods) < 1 || Number(goods) > 20000) return '商品金額錯誤(1~20000)';
  if (f.IsCollection !== undefined && f.IsCollection !== 'Y' && f.IsCollection !== 'N') return 'IsCollection 錯誤';
  const goodsName = f.GoodsName ?? '';
  if ((sub === 'UNIMARTC2C' || sub === 'HILIFEC2C') && !goodsName) return '商品名稱不可為空';
  if (len(goodsName) > 50 || /[\^'`!@#%&*+\\"<>|_[\]]/.test(goodsName)) return '商品名稱格式錯誤';
  if (!NAME.test(f.SenderName ?? '')) return '寄件人姓名請設定為 4~10 字元(中文 2~5 字元)，不可有數字、空白及特殊符號';
  if (f.SenderPhone && !/^[\d#()-]+$/.test(f.SenderPhone)) return 'SenderPhone 格式錯誤';
  if (f.SenderCellPhone && !/^09\d{8}$/.test(f.SenderCellPhone)) return 'SenderCellPhone 格式錯誤';
  if (home && !f.SenderPhone && !f.SenderCellPhone) return '寄件人電話或手機不可為空';
  if ((sub === 'UNIMARTC2C' || sub === 'HILIFEC2C') && !f.SenderCellPhone) return '寄件人手機不可為空';
  if (!NAME.test(f.ReceiverName ?? ''))
    return '收件人姓名請設定為 4~10 字元(中文 2~5 字元)，不可有數字、空白及特殊符號';
  if (f.ReceiverPhone && !/^[\d#()-]+$/.test(f.ReceiverPhone)) return 'ReceiverPhone 格式錯誤';
  if (f.ReceiverCellPhone && !/^09\d{8}$/.test(f.ReceiverCellPhone)) return 'ReceiverCellPhone 格式錯誤';
  if (home ? !f.ReceiverPhone && !f.ReceiverCellPhone : !f.ReceiverCellPhone) return '收件人手機不可為空';
  if (!/^https?:\/\//.test(f.ServerReplyURL ?? '')) return 'ServerReplyURL 格式錯誤';
  if (home) {
    if (!/^\d{3,5}$/.test(f.SenderZipCode ?? '')) return 'SenderZipCode 格式錯誤';
    if (len(f.SenderAddress) < 6 || len(f.SenderAddress) > 60) return 'SenderAddress 長度需為 6~60 字元';
    if (!/^\d{3,5}$/.test(f.ReceiverZipCode ?? '')) return 'ReceiverZipCode 格式錯誤';
    if (len(f.ReceiverAddress) < 6 || len(f.ReceiverAddress) > 60) return 'ReceiverAddress 長度需為 6~60 字元';
    if (f.Temperature && !['0001', '0002', '0003'].includes(f.Temperature)) return 'Temperature 錯誤';
    if (f.Specification && !['0001', '0002', '0003', '0004'].includes(f.Specification)) return 'Specification 錯誤';
    if (f.Temperature === '0003' && f.Specification === '0004') return '冷凍不可使用 150cm 規格';
  } else if (!/^[0-9a-zA-Z]{1,6}$/.test(f.ReceiverStoreID ?? '')) return 'ReceiverStoreID 格式錯誤';
  return null;
}

const esc = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startFakeEcpay(
  opts: { merchantId?: string; hashKey?: string; hashIv?: string; port?: number } = {},
): Promise<TFakeEcpay> {
  // The published stage credentials (B2C/HOME).
  const merchantId = opts.merchantId ?? '2000132';
  const hashKey = opts.hashKey ?? '5294y06JbISpM5x9';
  const hashIv = opts.hashIv ?? 'v77hoKGq4kWxNNIS';
  const created: Array<Record<string, string>> = [];
  const consignments = new Map<string, { bookingNote: string; fields: Record<string, string> }>();
  const printed: string[][] = [];
  let failures = 0;
  let next = 1_000_000;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = (s: string, status = 200) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(s);
      };
      if (failures > 0) {
        failures--;
        return text('Service Unavailable', 503);
      }
      if (req.url === '/helper/printTradeDocument' && req.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        // ECPay documents the fields and the HTML answer, not its refusals: these error pages are the fake's guess.
        const refuse = (why: string) =>
          text(`<!doctype html><html><body><p class="error">${esc(why)}</p></body></html>`);
        if (form.MerchantID !== merchantId) return refuse('MerchantID Error');
        if (form.CheckMacValue !== ecpayCheckMacValue(form, hashKey, hashIv)) return refuse('CheckMacValue Error');
        const ids = (form.AllPayLogisticsID ?? '').split(',').filter(Boolean);
        if (!ids.length) return refuse('AllPayLogisticsID Error');
        const unknown = ids.find((id) => !consignments.has(id));
        if (unknown) return refuse(`AllPayLogisticsID ${unknown} not found`);
        printed.push(ids);
        const blocks = ids.map((id) => {
          const c = consignments.get(id)!;
          return (
            `<section class="label" data-logistics-id="${esc(id)}"><h2>宅配託運單</h2>` +
            `<p>託運單號 <b class="booking-note">${esc(c.bookingNote)}</b></p>` +
            `<p>收件人 <span class="receiver">${esc(c.fields.ReceiverName ?? '')}</span></p>` +
            `<p>${esc(c.fields.ReceiverAddress ?? '')}</p><p>訂單 ${esc(c.fields.MerchantTradeNo ?? '')}</p></section>`
          );
        });
        return text(
          '<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8"><title>綠界物流 託運單列印</title>' +
            '<style>body{font-family:sans-serif}.label{border:2px dashed #333;margin:12px;padding:12px;width:360px}' +
            '.booking-note{font-size:24px}</style></head><body>' +
            blocks.join('') +
            '</body></html>',
        );
      }
      if (req.url !== '/Express/Create' || req.method !== 'POST') return text('Not Found', 404);
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      if (fields.MerchantID !== merchantId) return text('0|MerchantID Error');
      if (fields.CheckMacValue !== ecpayCheckMacValue(fields, hashKey, hashIv)) return text('0|CheckMacValue Error');
      const issue = ecpayCreateIssue(fields);
      if (issue) return text(`0|${issue}`);
      if (created.some((c) => c.MerchantTradeNo === fields.MerchantTradeNo))
        return text('0|MerchantTradeNo is duplicate');
      created.push(fields);
      const id = String(next++);
      const answer: Record<string, string> = {
        MerchantID: merchantId,
        MerchantTradeNo: fields.MerchantTradeNo!,
        RtnCode: '300',
        RtnMsg: '訂單處理中(已收到訂單資料)',
        AllPayLogisticsID: id,
        LogisticsType: `${fields.LogisticsType}_${fields.LogisticsSubType}`,
        BookingNote: `90${id}23`,
        UpdateStatusDate: fields.MerchantTradeDate!,
      };
      consignments.set(id, { bookingNote: answer.BookingNote!, fields });
      answer.CheckMacValue = ecpayCheckMacValue(answer, hashKey, hashIv);
      return text(`1|${new URLSearchParams(answer).toString()}`);
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    merchantId,
    hashKey,
    hashIv,
    created,
    consignments,
    printed,
    failNext(n) {
      // A negative n takes back what was not used (never below none).
      failures = Math.max(0, failures + n);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
