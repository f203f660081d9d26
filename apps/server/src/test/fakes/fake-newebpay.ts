import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  newebpayCheckCode,
  newebpayDecrypt,
  newebpayEncrypt,
  newebpayQueryCheckValue,
  newebpayTradeSha,
  verifyNewebpayTradeSha,
} from '../../modules/billing/providers/newebpay';

interface TTrade {
  merchantOrderNo: string;
  amount: number;
  notifyUrl: string;
  returnUrl: string;
  periodic: boolean;
  state: 'open' | 'paid' | 'failed' | 'terminated';
  charges: number;
  /** NewebPay's TradeNo of the (first) charge, once paid or declined. */
  tradeNo?: string;
  refunded?: number;
}

/** A credit card refund (CreditCard/Close, CloseType=2) as the fake took it. */
export interface TNewebPayRefund {
  merchantOrderNo: string;
  amount: number;
}

/** An AlterStatus call as the fake took it. */
export interface TPeriodAlteration {
  merOrderNo: string;
  periodNo: string;
  alterType: string;
  status: string;
}

export interface TNotifyDelivery {
  url: string;
  attempt: number;
  status: number | null;
  fields: Record<string, string>;
}

/**
 * A local NewebPay on 127.0.0.1. `/MPG/mpg_gateway` takes the browser's form as NewebPay does: MerchantID, TradeSha
 * over TradeInfo (MPG03009), TradeInfo decrypted (MPG03009), TimeStamp (MPG01002), MerchantOrderNo ≤ 30 of
 * `[A-Za-z0-9_]` (MPG01012), Amt a positive integer (MPG01015), a MerchantOrderNo used before (MPG03008) — refusals
 * as an error page — and shows a payment page. Paying (or declining) there posts the Notify form
 * (`Status, MerchantID, Version, TradeInfo, TradeSha`) to the NotifyURL server to server, again up to 3 times while
 * the answer is not 200, and sends the browser to the ReturnURL with the same form. `/MPG/period` takes a periodic
 * authorisation (`MerchantID_`, `PostData_`) and answers with `Period`; `chargePeriod()` plays a later period.
 * `/MPG/period/AlterStatus` (server to server, `MerchantID_` + `PostData_`: `RespondType, Version, MerOrderNo,
 * PeriodNo, AlterType, TimeStamp`) answers JSON `{period: <AES hex of {Status, Message, Result}>}`; a terminated
 * authorisation is charged no more. (The refusal codes of AlterStatus here are the fake's own.)
 * `/API/QueryTradeInfo` (server to server: `MerchantID, Version 1.3, RespondType, CheckValue, TimeStamp,
 * MerchantOrderNo, Amt`) checks CheckValue (SHA-256 of `IV=…&Amt=…&MerchantID=…&MerchantOrderNo=…&Key=…`) and answers
 * JSON `{Status, Message, Result{MerchantID, Amt, TradeNo, MerchantOrderNo, TradeStatus (0 unpaid, 1 paid, 2 failed,
 * 3 cancelled, 6 refunded), PaymentType, CheckCode}}`; an unknown order is `TRA10001`. `payQuietly()` pays a trade
 * whose Notify never reaches the shop (its server was down): only QueryTradeInfo knows. `/API/CreditCard/Close`
 * (`MerchantID_` + `PostData_`: `RespondType, Version, Amt, MerchantOrderNo, IndexType=1, TimeStamp, CloseType=2`)
 * refunds a paid trade in full or in part, never more than is left (the fake's codes: TRA20001 no such trade,
 * TRA20002 not paid, TRA20003 amount), answering JSON `{Status, Message, Result{MerchantID, Amt, TradeNo,
 * MerchantOrderNo}}`; a refunded trade's TradeStatus is then 6.
 */
export interface TFakeNewebPay {
  url: string;
  merchantId: string;
  hashKey: string;
  hashIv: string;
  trades: TTrade[];
  refunds: TNewebPayRefund[];
  deliveries: TNotifyDelivery[];
  alterations: TPeriodAlteration[];
  /** Answer AlterStatus with this HTTP status (e.g. 503) instead of processing it, while set. */
  alterFailure: number | null;
  /** The signed Notify fields of a result (what NewebPay posts); `wrongSha` breaks the TradeSha. */
  resultFields(
    merchantOrderNo: string,
    opts?: { ok?: boolean; amount?: number; tradeNo?: string; wrongSha?: boolean },
  ): Record<string, string>;
  /** Post a form to a URL as NewebPay does (retried while not 200). */
  notify(url: string, fields: Record<string, string>): Promise<TNotifyDelivery[]>;
  /** Pay an open trade as the payment page would, without a browser: Notify only. */
  pay(merchantOrderNo: string, ok?: boolean): Promise<TNotifyDelivery[]>;
  /** Pay an open trade, but the Notify never arrives (the shop's server was down). */
  payQuietly(merchantOrderNo: string): void;
  /** A later charge of a periodic authorisation (none once it is terminated). */
  chargePeriod(merchantOrderNo: string, ok?: boolean): Promise<TNotifyDelivery[]>;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const hiddenForm = (action: string, fields: Record<string, string>, id: string, button: string) =>
  `<form id="${id}" method="post" action="${esc(action)}">${Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('')}<button type="submit">${button}</button></form>`;

export async function startFakeNewebPay(
  opts: { merchantId?: string; hashKey?: string; hashIv?: string; port?: number; retryDelayMs?: number } = {},
): Promise<TFakeNewebPay> {
  const merchantId = opts.merchantId ?? 'MS100000001';
  const hashKey = opts.hashKey ?? '12345678901234567890123456789012';
  const hashIv = opts.hashIv ?? '1234567890123456';
  const trades: TTrade[] = [];
  const refunds: TNewebPayRefund[] = [];
  const deliveries: TNotifyDelivery[] = [];
  const alterations: TPeriodAlteration[] = [];
  const state = { alterFailure: null as number | null };
  const retryDelay = opts.retryDelayMs ?? 100;

  const tradeNo = () =>
    `${new Date().toISOString().slice(2, 10).replace(/-/g, '')}${randomInt(10_000_000, 99_999_999)}`;

  function resultFields(
    merchantOrderNo: string,
    o: { ok?: boolean; amount?: number; tradeNo?: string; wrongSha?: boolean } = {},
  ): Record<string, string> {
    const trade = trades.find((t) => t.merchantOrderNo === merchantOrderNo);
    const ok = o.ok ?? true;
    const amount = o.amount ?? trade?.amount ?? 0;
    if (trade && !trade.periodic && !trade.tradeNo) trade.tradeNo = o.tradeNo ?? tradeNo();
    const json = JSON.stringify({
      Status: ok ? 'SUCCESS' : 'MPG03012',
      Message: ok ? '授權成功' : '授權失敗：拒絕交易（05）',
      Result: {
        MerchantID: merchantId,
        Amt: amount,
        TradeNo: o.tradeNo ?? trade?.tradeNo ?? tradeNo(),
        MerchantOrderNo: merchantOrderNo,
        PaymentType: 'CREDIT',
        RespondType: 'JSON',
        PayTime: new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' '),
        IP: '127.0.0.1',
        EscrowBank: 'HNCB',
        RespondCode: ok ? '00' : '05',
        Auth: ok ? '123456' : '',
        Card6No: '400022',
        Card4No: '1111',
      },
    });
    const tradeInfo = newebpayEncrypt(json, hashKey, hashIv);
    const sha = newebpayTradeSha(tradeInfo, hashKey, hashIv);
    return {
      Status: ok ? 'SUCCESS' : 'MPG03012',
      MerchantID: merchantId,
      Version: '2.0',
      TradeInfo: tradeInfo,
      TradeSha: o.wrongSha ? `${sha.slice(0, -1)}${sha.endsWith('0') ? '1' : '0'}` : sha,
    };
  }

  function periodFields(merchantOrderNo: string, ok: boolean, n: number): Record<string, string> {
    const trade = trades.find((t) => t.merchantOrderNo === merchantOrderNo)!;
    const json = JSON.stringify({
      Status: ok ? 'SUCCESS' : 'PER10061',
      Message: ok ? '委託單成立，且首次授權成功' : '授權失敗',
      Result: {
        MerchantID: merchantId,
        MerchantOrderNo: merchantOrderNo,
        OrderNo: `${merchantOrderNo}_${n}`,
        TradeNo: tradeNo(),
        AuthAmt: trade.amount,
        PeriodAmt: trade.amount,
        AlreadyTimes: n,
        TotalTimes: 99,
        PeriodNo: `P${merchantOrderNo.slice(-8)}`,
        Card4No: '1111',
      },
    });
    return { Period: newebpayEncrypt(json, hashKey, hashIv) };
  }

  async function notify(url: string, fields: Record<string, string>): Promise<TNotifyDelivery[]> {
    const out: TNotifyDelivery[] = [];
    // The first post and up to 3 retries while the answer is not 200.
    for (let attempt = 1; attempt <= 4; attempt++) {
      let status: number | null = null;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
          redirect: 'manual',
        });
        status = res.status;
        await res.text();
      } catch {
        status = null;
      }
      const d = { url, attempt, status, fields };
      out.push(d);
      deliveries.push(d);
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, retryDelay));
    }
    return out;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const html = (s: string, status = 200) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(s);
      };
      const fail = (code: string, message: string) =>
        html(page('NewebPay', `<h1 id="error">${code}</h1><p>${esc(message)}</p>`));
      const path = (req.url ?? '').split('?')[0]!;
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      if (req.method !== 'POST') return html('Not Found', 404);
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));

      if (path === '/MPG/mpg_gateway') {
        if (form.MerchantID !== merchantId) return fail('MPG03009', 'MerchantID');
        const ti = form.TradeInfo ?? '';
        if (!verifyNewebpayTradeSha(ti, form.TradeSha ?? '', hashKey, hashIv)) return fail('MPG03009', 'TradeSha');
        const plain = newebpayDecrypt(ti, hashKey, hashIv);
        if (plain === null) return fail('MPG03009', 'TradeInfo');
        const t = Object.fromEntries(new URLSearchParams(plain));
        if (!t.TimeStamp) return fail('MPG01002', 'TimeStamp');
        if (!t.MerchantOrderNo || !/^[A-Za-z0-9_]{1,30}$/.test(t.MerchantOrderNo))
          return fail('MPG01012', 'MerchantOrderNo');
        if (!/^[1-9]\d*$/.test(t.Amt ?? '')) return fail('MPG01015', 'Amt');
        if (trades.some((x) => x.merchantOrderNo === t.MerchantOrderNo)) return fail('MPG03008', 'MerchantOrderNo');
        trades.push({
          merchantOrderNo: t.MerchantOrderNo,
          amount: Number(t.Amt),
          notifyUrl: t.NotifyURL ?? '',
          returnUrl: t.ReturnURL ?? '',
          periodic: false,
          state: 'open',
          charges: 0,
        });
        return html(
          page(
            'NewebPay 付款',
            `<h1>NewebPay (fake)</h1><p id="order">${esc(t.MerchantOrderNo)}</p><p id="amount">NT$${esc(t.Amt!)}</p>` +
              `<p>${esc(t.ItemDesc ?? '')}</p>` +
              hiddenForm(`/MPG/pay?order=${encodeURIComponent(t.MerchantOrderNo)}&ok=1`, {}, 'pay', '付款 Pay') +
              hiddenForm(`/MPG/pay?order=${encodeURIComponent(t.MerchantOrderNo)}&ok=0`, {}, 'decline', '拒絕 Decline'),
          ),
        );
      }
      if (path === '/MPG/period') {
        if (form.MerchantID_ !== merchantId) return fail('PER10001', 'MerchantID_');
        const plain = newebpayDecrypt(form.PostData_ ?? '', hashKey, hashIv);
        if (plain === null) return fail('PER10003', 'PostData_');
        const t = Object.fromEntries(new URLSearchParams(plain));
        if (!t.MerOrderNo || trades.some((x) => x.merchantOrderNo === t.MerOrderNo))
          return fail('PER10005', 'MerOrderNo');
        if (!/^[1-9]\d*$/.test(t.PeriodAmt ?? '')) return fail('PER10008', 'PeriodAmt');
        // PeriodPoint by PeriodType: D 2–999 days, W 1–7, M 01–31, Y MMDD.
        const point = t.PeriodPoint ?? '';
        const pointOk =
          (t.PeriodType === 'D' && /^\d{1,3}$/.test(point) && Number(point) >= 2) ||
          (t.PeriodType === 'W' && /^[1-7]$/.test(point)) ||
          (t.PeriodType === 'M' && /^(0[1-9]|[12]\d|3[01])$/.test(point)) ||
          (t.PeriodType === 'Y' && /^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(point));
        if (!pointOk) return fail('PER10010', 'PeriodType / PeriodPoint');
        if (!t.PayerEmail) return fail('PER10011', 'PayerEmail');
        trades.push({
          merchantOrderNo: t.MerOrderNo,
          amount: Number(t.PeriodAmt),
          notifyUrl: t.NotifyURL ?? '',
          returnUrl: t.ReturnURL ?? '',
          periodic: true,
          state: 'open',
          charges: 0,
        });
        return html(
          page(
            'NewebPay 定期定額',
            `<h1>NewebPay periodic (fake)</h1><p id="order">${esc(t.MerOrderNo)}</p><p id="amount">NT$${esc(t.PeriodAmt!)}</p>` +
              hiddenForm(`/MPG/pay?order=${encodeURIComponent(t.MerOrderNo)}&ok=1`, {}, 'pay', '授權 Authorise') +
              hiddenForm(`/MPG/pay?order=${encodeURIComponent(t.MerOrderNo)}&ok=0`, {}, 'decline', '拒絕 Decline'),
          ),
        );
      }
      if (path === '/MPG/period/AlterStatus') {
        if (state.alterFailure) {
          res.writeHead(state.alterFailure, { 'content-type': 'text/plain' });
          return res.end('busy');
        }
        const answer = (status: string, message: string, result: Record<string, unknown> = {}) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              period: newebpayEncrypt(
                JSON.stringify({ Status: status, Message: message, Result: result }),
                hashKey,
                hashIv,
              ),
            }),
          );
        };
        if (form.MerchantID_ !== merchantId) return answer('PER10001', 'MerchantID_');
        const plain = newebpayDecrypt(form.PostData_ ?? '', hashKey, hashIv);
        if (plain === null) return answer('PER10003', 'PostData_');
        const t = Object.fromEntries(new URLSearchParams(plain));
        const record = (status: string) =>
          alterations.push({
            merOrderNo: t.MerOrderNo ?? '',
            periodNo: t.PeriodNo ?? '',
            alterType: t.AlterType ?? '',
            status,
          });
        if (!t.TimeStamp || Math.abs(Date.now() / 1000 - Number(t.TimeStamp)) > 120) {
          record('PER10002');
          return answer('PER10002', 'TimeStamp');
        }
        const trade = trades.find((x) => x.periodic && x.merchantOrderNo === t.MerOrderNo);
        if (!trade || t.PeriodNo !== `P${trade.merchantOrderNo.slice(-8)}`) {
          record('PER10070');
          return answer('PER10070', '查無此委託單');
        }
        if (!['suspend', 'terminate', 'restart'].includes(t.AlterType ?? '')) {
          record('PER10071');
          return answer('PER10071', 'AlterType');
        }
        if (trade.state === 'terminated') {
          record('PER10072');
          return answer('PER10072', '委託單已終止');
        }
        if (t.AlterType === 'terminate') trade.state = 'terminated';
        record('SUCCESS');
        return answer('SUCCESS', '委託單狀態修改成功', {
          MerOrderNo: trade.merchantOrderNo,
          PeriodNo: t.PeriodNo,
          AlterType: t.AlterType,
        });
      }
      if (path === '/API/CreditCard/Close') {
        const answer = (status: string, message: string, result: Record<string, unknown> | [] = []) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ Status: status, Message: message, Result: result }));
        };
        if (form.MerchantID_ !== merchantId) return answer('TRA10002', 'MerchantID_');
        const plain = newebpayDecrypt(form.PostData_ ?? '', hashKey, hashIv);
        if (plain === null) return answer('TRA10002', 'PostData_');
        const t = Object.fromEntries(new URLSearchParams(plain));
        if (t.CloseType !== '2' || t.IndexType !== '1') return answer('TRA10004', 'CloseType / IndexType');
        const trade = trades.find((x) => x.merchantOrderNo === t.MerchantOrderNo);
        if (!trade) return answer('TRA20001', '查無此筆交易');
        if (trade.state !== 'paid') return answer('TRA20002', '交易未付款，不可退款');
        const amount = Number(t.Amt);
        if (!Number.isInteger(amount) || amount <= 0 || amount > trade.amount - (trade.refunded ?? 0))
          return answer('TRA20003', '退款金額超過可退金額');
        trade.refunded = (trade.refunded ?? 0) + amount;
        refunds.push({ merchantOrderNo: trade.merchantOrderNo, amount });
        return answer('SUCCESS', '退款成功', {
          MerchantID: merchantId,
          Amt: amount,
          TradeNo: trade.tradeNo ?? '',
          MerchantOrderNo: trade.merchantOrderNo,
        });
      }
      if (path === '/API/QueryTradeInfo') {
        const answer = (status: string, message: string, result: Record<string, unknown> | [] = []) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ Status: status, Message: message, Result: result }));
        };
        if (form.MerchantID !== merchantId) return answer('TRA10002', 'MerchantID');
        if (
          form.CheckValue !==
          newebpayQueryCheckValue(
            { amount: Number(form.Amt), merchantId, orderNumber: form.MerchantOrderNo ?? '' },
            hashKey,
            hashIv,
          )
        )
          return answer('TRA10002', 'CheckValue 檢查錯誤');
        if (!form.TimeStamp) return answer('TRA10003', 'TimeStamp');
        const trade = trades.find((x) => x.merchantOrderNo === form.MerchantOrderNo);
        if (!trade) return answer('TRA10001', '查無此筆交易');
        if (String(trade.amount) !== form.Amt) return answer('TRA10021', '金額不符');
        const no = trade.tradeNo ?? '';
        return answer('SUCCESS', '查詢成功', {
          MerchantID: merchantId,
          Amt: trade.amount,
          TradeNo: no,
          MerchantOrderNo: trade.merchantOrderNo,
          TradeStatus: trade.state === 'paid' ? (trade.refunded ? '6' : '1') : trade.state === 'failed' ? '2' : '0',
          PaymentType: 'CREDIT',
          RespondCode: trade.state === 'failed' ? '05' : trade.state === 'paid' ? '00' : '',
          CheckCode: newebpayCheckCode(
            { amount: trade.amount, merchantId, orderNumber: trade.merchantOrderNo, tradeNo: no },
            hashKey,
            hashIv,
          ),
        });
      }
      if (path === '/MPG/pay') {
        const trade = trades.find((x) => x.merchantOrderNo === query.get('order'));
        if (trade?.state !== 'open') return fail('MPG03008', 'trade');
        const ok = query.get('ok') === '1';
        trade.state = ok ? 'paid' : 'failed';
        trade.charges = 1;
        const fields = trade.periodic
          ? periodFields(trade.merchantOrderNo, ok, 1)
          : resultFields(trade.merchantOrderNo, { ok });
        // Notify first (server to server), then the browser goes back to the shop with the same form.
        void notify(trade.notifyUrl, fields).then(() => undefined);
        return html(
          page(
            'NewebPay',
            `${hiddenForm(trade.returnUrl, fields, 'back', '返回商店 Back to the shop')}<script>document.getElementById('back').submit()</script>`,
          ),
        );
      }
      return html('Not Found', 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    merchantId,
    hashKey,
    hashIv,
    trades,
    refunds,
    deliveries,
    alterations,
    get alterFailure() {
      return state.alterFailure;
    },
    set alterFailure(v: number | null) {
      state.alterFailure = v;
    },
    resultFields,
    notify,
    async pay(merchantOrderNo, ok = true) {
      const trade = trades.find((x) => x.merchantOrderNo === merchantOrderNo);
      if (!trade) throw new Error(`no trade ${merchantOrderNo}`);
      trade.state = ok ? 'paid' : 'failed';
      trade.charges = 1;
      const fields = trade.periodic ? periodFields(merchantOrderNo, ok, 1) : resultFields(merchantOrderNo, { ok });
      return notify(trade.notifyUrl, fields);
    },
    payQuietly(merchantOrderNo) {
      const trade = trades.find((x) => x.merchantOrderNo === merchantOrderNo);
      if (!trade) throw new Error(`no trade ${merchantOrderNo}`);
      trade.state = 'paid';
      trade.charges = 1;
      trade.tradeNo ??= tradeNo();
    },
    async chargePeriod(merchantOrderNo, ok = true) {
      const trade = trades.find((x) => x.merchantOrderNo === merchantOrderNo && x.periodic);
      if (!trade) throw new Error(`no periodic trade ${merchantOrderNo}`);
      if (trade.state === 'terminated') return [];
      trade.charges++;
      return notify(trade.notifyUrl, periodFields(merchantOrderNo, ok, trade.charges));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
