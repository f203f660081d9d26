import http from 'node:http';
import type { AddressInfo } from 'node:net';
import bwipjs from 'bwip-js/node';
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
  consignments: Map<string, { bookingNote: string; fields: Record<string, string>; answer: Record<string, string> }>;
  /** The print pages asked for (the AllPayLogisticsIDs of each). */
  printed: string[][];
  /** The store-to-store print pages asked for: the page's path and the AllPayLogisticsID. */
  printedC2C: Array<{ path: string; id: string }>;
  /** The stores of each chain the map offers (a few real-looking ones). */
  stores: Record<string, Array<{ id: string; name: string; address: string }>>;
  /** A status notice ECPay would post to the consignment's ServerReplyURL, signed with the merchant's key and IV. */
  statusNotice(logisticsId: string, rtnCode: string, rtnMsg: string): Record<string, string>;
  /**
   * Posts status notices to the consignment's ServerReplyURL as ECPay does (form body, signed), one after the other:
   * the given ones, or its sub-type's usual story (`ECPAY_PICKUP_STORY`). Answers what our server replied to each.
   */
  sendStatus(logisticsId: string, notices?: Array<[string, string]>): Promise<string[]>;
  failNext(n: number): void;
  close(): Promise<void>;
}

/** The LogisticsSubType values ECPay takes per LogisticsType (its manual; the SDK's EcpayLogisticsSubType). */
export const ECPAY_SUBTYPES: Record<string, string[]> = {
  HOME: ['TCAT', 'POST'],
  CVS: ['FAMI', 'UNIMART', 'UNIMARTFREEZE', 'HILIFE', 'OKMART', 'FAMIC2C', 'UNIMARTC2C', 'HILIFEC2C', 'OKMARTC2C'],
};

/**
 * A store pickup's usual statuses per LogisticsSubType, with ECPay's own texts (its status workbook,
 * github.com/ECPay/SDK_PHP example/Logistics/logistics_status.xlsx): dropped off at a store (C2C), accepted by the
 * logistics centre, at the buyer's store, picked up.
 */
export const ECPAY_PICKUP_STORY: Record<string, Array<[string, string]>> = {
  UNIMART: [
    ['2030', '物流中心驗收成功'],
    ['2063', '包裹配達取件門市'],
    ['2067', '買家已到店取貨'],
  ],
  UNIMARTC2C: [
    ['2068', '賣家已到門市寄件'],
    ['2030', '物流中心驗收成功'],
    ['2073', '包裹配達取件門市'],
    ['2067', '買家已到店取貨'],
  ],
  FAMI: [
    ['3024', '物流中心驗收成功'],
    ['3018', '包裹配達取件門市'],
    ['3022', '買家已到店取貨'],
  ],
  FAMIC2C: [
    ['3032', '賣家已到門市寄件'],
    ['3024', '物流中心驗收成功'],
    ['3018', '包裹配達取件門市'],
    ['3022', '買家已到店取貨'],
  ],
  HILIFE: [
    ['2030', '物流中心驗收成功'],
    ['2063', '包裹配達取件門市'],
    ['2067', '買家已到店取貨'],
  ],
  HILIFEC2C: [
    ['2068', '賣家已到門市寄件'],
    ['2030', '物流中心驗收成功'],
    ['2063', '包裹配達取件門市'],
    ['2067', '買家已到店取貨'],
  ],
  OKMARTC2C: [
    ['3032', '賣家已到門市寄件'],
    ['2030', '物流中心驗收成功'],
    ['2073', '包裹配達取件門市'],
    ['3022', '買家已到店取貨'],
  ],
};

/** The store-to-store print page of each chain (its path → the LogisticsSubType it prints). */
const C2C_PRINT: Record<string, string> = {
  '/Express/PrintUniMartC2COrderInfo': 'UNIMARTC2C',
  '/Express/PrintFAMIC2COrderInfo': 'FAMIC2C',
  '/Express/PrintHILIFEC2COrderInfo': 'HILIFEC2C',
  '/Express/PrintOKMARTC2COrderInfo': 'OKMARTC2C',
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
  if (f.IsCollection === 'Y') {
    // The SDK: "IsCollection could not be Y, when LogisticsType is Home."; amounts whole NT$ 1–20,000, and store
    // pickup with payment collects the goods' amount.
    if (home) return 'IsCollection could not be Y, when LogisticsType is Home.';
    const amount = f.CollectionAmount ?? '';
    if (!/^\d+$/.test(amount) || Number(amount) < 1 || Number(amount) > 20000) return '代收金額錯誤(1~20000)';
    if (amount !== goods) return '代收金額需與商品金額相同';
  }
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

/** A Code 128 barcode as ECPay's label pages show one (PNG). */
const barcode = (code: string) =>
  bwipjs.toBuffer({
    bcid: 'code128',
    text: code || '-',
    scale: 3,
    height: 12,
    paddingwidth: 12,
    paddingheight: 6,
    backgroundcolor: 'FFFFFF',
  });

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
  const consignments: TFakeEcpay['consignments'] = new Map();
  const printed: string[][] = [];
  const printedC2C: Array<{ path: string; id: string }> = [];
  const stores: TFakeEcpay['stores'] = {
    UNIMART: [
      { id: '131386', name: '建盛門市', address: '台北市中正區重慶南路一段122號' },
      { id: '991182', name: '新竹園區門市', address: '新竹市東區光復路二段101號' },
    ],
    FAMI: [{ id: '006598', name: '全家台北站前店', address: '台北市中正區忠孝西路一段49號' }],
    HILIFE: [{ id: '2001', name: '萊爾富台北重慶店', address: '台北市大同區重慶北路一段30號' }],
    OKMART: [{ id: '1328', name: 'OK 台北南陽店', address: '台北市中正區南陽街7號' }],
  };
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
      if (req.url === '/Express/map' && req.method === 'POST') {
        // ECPay's store map: the buyer picks a store; the map posts the choice (through the browser) to
        // ServerReplyURL: MerchantID, MerchantTradeNo, LogisticsSubType, CVSStoreID, CVSStoreName, CVSAddress,
        // CVSTelephone, CVSOutSide, ExtraData. Not signed (ECPay does not sign it).
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const sub = form.LogisticsSubType ?? '';
        if (form.MerchantID !== merchantId) return text('MerchantID Error', 400);
        if (form.LogisticsType !== 'CVS' || !ECPAY_SUBTYPES.CVS!.includes(sub))
          return text('LogisticsSubType Error', 400);
        if (!/^[A-Za-z0-9]{1,20}$/.test(form.MerchantTradeNo ?? '')) return text('MerchantTradeNo Error', 400);
        if (!/^https?:\/\//.test(form.ServerReplyURL ?? '')) return text('ServerReplyURL Error', 400);
        const list = stores[sub.replace(/C2C$/, '')] ?? [];
        const choices = list.map((st) => {
          const answer: Record<string, string> = {
            MerchantID: merchantId,
            MerchantTradeNo: form.MerchantTradeNo!,
            LogisticsSubType: sub,
            CVSStoreID: st.id,
            CVSStoreName: st.name,
            CVSAddress: st.address,
            CVSTelephone: '',
            CVSOutSide: '0',
            ExtraData: form.ExtraData ?? '',
          };
          const inputs = Object.entries(answer)
            .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
            .join('');
          return (
            `<form method="post" action="${esc(form.ServerReplyURL!)}" class="store">${inputs}` +
            `<p><b>${esc(st.name)}</b>（${esc(st.id)}）${esc(st.address)}</p>` +
            `<button type="submit" data-store-id="${esc(st.id)}">選擇此門市</button></form>`
          );
        });
        return text(
          '<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8"><title>電子地圖 選擇門市</title></head>' +
            `<body><h1>選擇取貨門市（${esc(sub)}）</h1>${choices.join('')}</body></html>`,
        );
      }
      const c2cPrint = Object.entries(C2C_PRINT).find(([path]) => req.url === path);
      if (c2cPrint && req.method === 'POST') {
        const [path, sub] = c2cPrint;
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const refuse = (why: string) =>
          text(`<!doctype html><html><body><p class="error">${esc(why)}</p></body></html>`);
        if (form.MerchantID !== merchantId) return refuse('MerchantID Error');
        if (form.CheckMacValue !== ecpayCheckMacValue(form, hashKey, hashIv)) return refuse('CheckMacValue Error');
        const id = form.AllPayLogisticsID ?? '';
        const c = consignments.get(id);
        if (!c || c.fields.LogisticsSubType !== sub) return refuse(`AllPayLogisticsID ${id} not found`);
        if (form.CVSPaymentNo !== c.answer.CVSPaymentNo) return refuse('CVSPaymentNo Error');
        if (sub === 'UNIMARTC2C' && form.CVSValidationNo !== c.answer.CVSValidationNo)
          return refuse('CVSValidationNo Error');
        printedC2C.push({ path, id });
        const code = `${c.answer.CVSPaymentNo ?? ''}${c.answer.CVSValidationNo ?? ''}`;
        void barcode(code).then((png) =>
          text(
            '<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8"><title>交貨便服務單</title></head><body>' +
              `<section class="label" data-logistics-id="${esc(id)}"><h2>${esc(sub)} 寄件單</h2>` +
              `<img class="barcode" alt="${esc(code)}" src="data:image/png;base64,${png.toString('base64')}">` +
              `<p>寄件代碼 <b class="payment-no">${esc(code)}</b></p>` +
              `<p>取件門市 <span class="store">${esc(c.fields.ReceiverStoreID ?? '')}</span></p>` +
              `<p>收件人 <span class="receiver">${esc(c.fields.ReceiverName ?? '')}</span></p>` +
              (c.fields.IsCollection === 'Y'
                ? `<p>代收金額 <b class="collection">${esc(c.fields.CollectionAmount ?? '')}</b></p>`
                : '') +
              '</section></body></html>',
          ),
        );
        return;
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
        // Each label carries its number as a barcode: the BookingNote of home delivery, the CVSPaymentNo (寄貨編號)
        // of a B2C store pickup.
        const codeOf = (c: { bookingNote: string; answer: Record<string, string> }) =>
          c.bookingNote || c.answer.CVSPaymentNo || '';
        void Promise.all(ids.map((id) => barcode(codeOf(consignments.get(id)!)))).then((pngs) => {
          const blocks = ids.map((id, i) => {
            const c = consignments.get(id)!;
            const cvs = c.fields.LogisticsType === 'CVS';
            return (
              `<section class="label" data-logistics-id="${esc(id)}"><h2>${cvs ? '超商取貨一段標' : '宅配託運單'}</h2>` +
              `<img class="barcode" alt="${esc(codeOf(c))}" src="data:image/png;base64,${pngs[i]!.toString('base64')}">` +
              `<p>${cvs ? '寄貨編號' : '託運單號'} <b class="booking-note">${esc(codeOf(c))}</b></p>` +
              (cvs ? `<p>取件門市 <span class="store">${esc(c.fields.ReceiverStoreID ?? '')}</span></p>` : '') +
              (c.fields.IsCollection === 'Y'
                ? `<p>代收金額 <b class="collection">${esc(c.fields.CollectionAmount ?? '')}</b></p>`
                : '') +
              `<p>收件人 <span class="receiver">${esc(c.fields.ReceiverName ?? '')}</span></p>` +
              `<p>${esc(c.fields.ReceiverAddress ?? '')}</p><p>訂單 ${esc(c.fields.MerchantTradeNo ?? '')}</p></section>`
            );
          });
          text(
            '<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8"><title>綠界物流 託運單列印</title>' +
              '<style>body{font-family:sans-serif}.label{border:2px dashed #333;margin:12px;padding:12px;width:360px}' +
              '.booking-note{font-size:24px}</style></head><body>' +
              blocks.join('') +
              '</body></html>',
          );
        });
        return;
      }
      if (req.url === '/_fake/send-status' && req.method === 'POST') {
        // Test control (not ECPay's): makes the fake post a consignment's status notices to its ServerReplyURL, as
        // ECPay does when the parcel moves — for a browser test whose fake runs in another process.
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const id = form.AllPayLogisticsID ?? '';
        if (!consignments.has(id)) return text('unknown AllPayLogisticsID', 404);
        void sendStatus(id).then(
          (answers) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ answers }));
          },
          (e: unknown) => text(String(e), 502),
        );
        return;
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
      const sub = fields.LogisticsSubType!;
      const c2c = sub.endsWith('C2C');
      const answer: Record<string, string> = {
        MerchantID: merchantId,
        MerchantTradeNo: fields.MerchantTradeNo!,
        RtnCode: '300',
        RtnMsg: '訂單處理中(已收到訂單資料)',
        AllPayLogisticsID: id,
        LogisticsType: `${fields.LogisticsType}_${sub}`,
        // Home delivery: a BookingNote (托運單號; ECPay: "When logistics type is HOME"); store pickup: CVSPaymentNo
        // (寄貨編號), and at 7-ELEVEN store-to-store a CVSValidationNo the sender keys in or prints at the store.
        BookingNote: fields.LogisticsType === 'HOME' ? `90${id}23` : '',
        ...(fields.LogisticsType === 'CVS'
          ? { CVSPaymentNo: c2c ? `C${id}` : `B${id}`, CVSValidationNo: sub === 'UNIMARTC2C' ? '4321' : '' }
          : {}),
        UpdateStatusDate: fields.MerchantTradeDate!,
      };
      consignments.set(id, { bookingNote: answer.BookingNote!, fields, answer });
      answer.CheckMacValue = ecpayCheckMacValue(answer, hashKey, hashIv);
      return text(`1|${new URLSearchParams(answer).toString()}`);
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const statusNotice: TFakeEcpay['statusNotice'] = (logisticsId, rtnCode, rtnMsg) => {
    const c = consignments.get(logisticsId);
    if (!c) throw new Error(`no consignment ${logisticsId}`);
    const notice: Record<string, string> = {
      MerchantID: merchantId,
      MerchantTradeNo: c.fields.MerchantTradeNo!,
      RtnCode: rtnCode,
      RtnMsg: rtnMsg,
      AllPayLogisticsID: logisticsId,
      GoodsAmount: c.fields.GoodsAmount!,
      UpdateStatusDate: '2026/11/28 10:00:00',
      ReceiverName: c.fields.ReceiverName!,
      ReceiverCellPhone: c.fields.ReceiverCellPhone ?? '',
      LogisticsType: `${c.fields.LogisticsType}_${c.fields.LogisticsSubType}`,
      BookingNote: c.bookingNote,
      CVSPaymentNo: c.answer.CVSPaymentNo ?? '',
      CVSValidationNo: c.answer.CVSValidationNo ?? '',
    };
    notice.CheckMacValue = ecpayCheckMacValue(notice, hashKey, hashIv);
    return notice;
  };
  const sendStatus: TFakeEcpay['sendStatus'] = async (logisticsId, notices) => {
    const c = consignments.get(logisticsId);
    if (!c) throw new Error(`no consignment ${logisticsId}`);
    const answers: string[] = [];
    for (const [code, msg] of notices ?? ECPAY_PICKUP_STORY[c.fields.LogisticsSubType!] ?? []) {
      // A later status is a later time: UpdateStatusDate moves on an hour a step.
      const notice = statusNotice(logisticsId, code, msg);
      notice.UpdateStatusDate = `2026/11/28 ${String(10 + answers.length).padStart(2, '0')}:00:00`;
      delete notice.CheckMacValue;
      notice.CheckMacValue = ecpayCheckMacValue(notice, hashKey, hashIv);
      const r = await fetch(c.fields.ServerReplyURL!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(notice).toString(),
      });
      answers.push(await r.text());
    }
    return answers;
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    merchantId,
    hashKey,
    hashIv,
    created,
    consignments,
    printed,
    printedC2C,
    stores,
    statusNotice,
    sendStatus,
    failNext(n) {
      // A negative n takes back what was not used (never below none).
      failures = Math.max(0, failures + n);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
