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
