import { createCipheriv, createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../platform/errors';
import type { TPaymentProvider, TPaymentResult, TProviderServices } from '../../../platform/providers';

/**
 * NewebPay MPG (INTEGRATIONS.md): the browser posts `MerchantID, TradeInfo, TradeSha, Version` to
 * `{host}/MPG/mpg_gateway`; TradeInfo is the lowercase hex of AES-256-CBC(HashKey, HashIV, PKCS7) of the URL-encoded
 * trade, TradeSha the uppercase hex SHA-256 of `HashKey=<key>&<TradeInfo>&HashIV=<iv>`. NewebPay answers the NotifyURL
 * (server to server, retried until it reads 200) and the ReturnURL (the browser) with the same four fields; periodic
 * authorisations (`{host}/MPG/period`, `MerchantID_` + `PostData_`) answer with `Period` (AES hex of JSON).
 * The one call out is `endPeriodic`: `{host}/MPG/period/AlterStatus` (server to server, `MerchantID_` + `PostData_`
 * with `AlterType=terminate`), answered with JSON `{period: <AES hex of JSON {Status, Message, Result}>}`.
 */

export interface TNewebpaySetting {
  baseUrl: string;
  merchantId: string;
  hashKey: string;
  hashIv: string;
  version: string;
}

export function newebpayEncrypt(plaintext: string, key: string, iv: string): string {
  const cipher = createCipheriv('aes-256-cbc', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('hex');
}

/** Decrypt tolerantly: no padding check by the cipher, the padding stripped by its last byte (as NewebPay's SDKs do). */
export function newebpayDecrypt(hex: string, key: string, iv: string): string | null {
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 32 !== 0) return null;
  try {
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
    decipher.setAutoPadding(false);
    const raw = Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]);
    const pad = raw[raw.length - 1] ?? 0;
    if (pad < 1 || pad > 32) return null;
    return raw.subarray(0, raw.length - pad).toString('utf8');
  } catch {
    return null;
  }
}

export function newebpayTradeSha(tradeInfo: string, key: string, iv: string): string {
  return createHash('sha256').update(`HashKey=${key}&${tradeInfo}&HashIV=${iv}`).digest('hex').toUpperCase();
}

export function verifyNewebpayTradeSha(tradeInfo: string, tradeSha: string, key: string, iv: string): boolean {
  const expected = newebpayTradeSha(tradeInfo, key, iv);
  const given = tradeSha.toUpperCase();
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** QueryTradeInfo's CheckValue: uppercase SHA-256 of `IV=<iv>&Amt=…&MerchantID=…&MerchantOrderNo=…&Key=<key>`. */
export function newebpayQueryCheckValue(
  q: { amount: number; merchantId: string; orderNumber: string },
  key: string,
  iv: string,
): string {
  return createHash('sha256')
    .update(`IV=${iv}&Amt=${q.amount}&MerchantID=${q.merchantId}&MerchantOrderNo=${q.orderNumber}&Key=${key}`)
    .digest('hex')
    .toUpperCase();
}

/** QueryTradeInfo's answer CheckCode: SHA-256 of `HashIV=<iv>&Amt=…&MerchantID=…&MerchantOrderNo=…&TradeNo=…&HashKey=<key>`. */
export function newebpayCheckCode(
  r: { amount: number | string; merchantId: string; orderNumber: string; tradeNo: string },
  key: string,
  iv: string,
): string {
  return createHash('sha256')
    .update(
      `HashIV=${iv}&Amt=${r.amount}&MerchantID=${r.merchantId}&MerchantOrderNo=${r.orderNumber}&TradeNo=${r.tradeNo}&HashKey=${key}`,
    )
    .digest('hex')
    .toUpperCase();
}

/** The trade as NewebPay's URL-encoded query string (the order of the fields is kept). */
export function newebpayQuery(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

interface TNewebpayAnswer {
  Status?: string;
  Message?: string;
  Result?: Record<string, unknown>;
}

/** `Result` may come as an object or as a JSON string (RespondType JSON, older versions). */
function parseAnswer(text: string): TNewebpayAnswer | null {
  try {
    const v = JSON.parse(text) as TNewebpayAnswer;
    if (typeof v.Result === 'string') v.Result = JSON.parse(v.Result) as Record<string, unknown>;
    return v;
  } catch {
    // RespondType=String: a query string.
    const q = Object.fromEntries(new URLSearchParams(text));
    if (!q.Status) return null;
    const { Status, Message, ...rest } = q;
    return { Status, Message, Result: rest };
  }
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

/** NewebPay's periodic calls are slow when busy; AlterStatus is safe to repeat. */
const ALTER_TIMEOUT_MS = 30_000;

export function newebpayProvider(setting: TNewebpaySetting, services?: TProviderServices): TPaymentProvider {
  const { hashKey: key, hashIv: iv } = setting;
  return {
    code: 'newebpay',
    async endPeriodic(input, ctx) {
      if (!services) throw new Error('NewebPay: no outgoing HTTP client');
      const postData = newebpayEncrypt(
        newebpayQuery({
          RespondType: 'JSON',
          Version: '1.0',
          MerOrderNo: input.orderNumber,
          PeriodNo: input.periodNo,
          AlterType: 'terminate',
          TimeStamp: String(Math.floor(Date.now() / 1000)),
        }),
        key,
        iv,
      );
      const res = await services.http.send(
        {
          method: 'POST',
          url: `${setting.baseUrl}/MPG/period/AlterStatus`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ MerchantID_: setting.merchantId, PostData_: postData }).toString(),
          idempotent: true,
          timeoutMs: ALTER_TIMEOUT_MS,
          secrets: [key, iv, postData],
        },
        { customerId: ctx.customerId, provider: 'newebpay', operation: 'period.terminate', reference: ctx.reference },
      );
      if (res.status >= 500 || res.status === 429) throw new Error(`NewebPay AlterStatus answered HTTP ${res.status}`);
      let sealed: string | undefined;
      try {
        sealed = (JSON.parse(res.body) as { period?: string }).period;
      } catch {
        sealed = undefined;
      }
      const text = sealed ? newebpayDecrypt(sealed, key, iv) : null;
      const answer = text ? parseAnswer(text) : null;
      if (!answer?.Status)
        throw new Error(`NewebPay AlterStatus: an answer that does not decrypt (HTTP ${res.status})`);
      if (answer.Status !== 'SUCCESS')
        throw new AppError('PROVIDER_REFUSED', {
          status: res.status,
          message: `${answer.Status} ${answer.Message ?? ''}`.trim(),
        });
    },
    /**
     * QueryTradeInfo (`{host}/API/QueryTradeInfo`, Version 1.3, CheckValue): NewebPay's own record of an order —
     * TradeStatus 1 paid, 2 failed, 3 cancelled, 6 refunded, 0 not paid (yet). The answer's CheckCode is verified.
     */
    async query(input, ctx) {
      if (!services) throw new Error('NewebPay: no outgoing HTTP client');
      const amount = input.amount ?? 0;
      const body = new URLSearchParams({
        MerchantID: setting.merchantId,
        Version: '1.3',
        RespondType: 'JSON',
        CheckValue: newebpayQueryCheckValue(
          { amount, merchantId: setting.merchantId, orderNumber: input.orderNumber },
          key,
          iv,
        ),
        TimeStamp: String(Math.floor(Date.now() / 1000)),
        MerchantOrderNo: input.orderNumber,
        Amt: String(amount),
      }).toString();
      const res = await services.http.send(
        {
          method: 'POST',
          url: `${setting.baseUrl}/API/QueryTradeInfo`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          idempotent: true,
          timeoutMs: ALTER_TIMEOUT_MS,
          secrets: [key, iv],
        },
        { customerId: ctx.customerId, provider: 'newebpay', operation: 'query-trade', reference: ctx.reference },
      );
      if (res.status >= 500 || res.status === 429)
        throw new Error(`NewebPay QueryTradeInfo answered HTTP ${res.status}`);
      const answer = parseAnswer(res.body);
      if (!answer?.Status)
        throw new Error(`NewebPay QueryTradeInfo: an answer that does not parse (HTTP ${res.status})`);
      // TRA10001: no such trade (the browser never reached NewebPay with it).
      if (answer.Status === 'TRA10001')
        return { status: 'pending', transactionId: input.transactionId, notFound: true };
      if (answer.Status !== 'SUCCESS')
        return {
          status: 'pending',
          transactionId: input.transactionId,
          failure: `${answer.Status} ${answer.Message ?? ''}`,
        };
      const r = answer.Result ?? {};
      const tradeNo = str(r.TradeNo);
      if (
        !tradeNo ||
        str(r.CheckCode) !==
          newebpayCheckCode(
            { amount: String(r.Amt), merchantId: setting.merchantId, orderNumber: String(r.MerchantOrderNo), tradeNo },
            key,
            iv,
          )
      )
        throw new Error('NewebPay QueryTradeInfo: CheckCode does not verify');
      const trade = String(r.TradeStatus ?? '');
      const base = {
        transactionId: tradeNo,
        orderNumber: str(r.MerchantOrderNo),
        amount: Number.isFinite(Number(r.Amt)) ? Number(r.Amt) : null,
      };
      if (trade === '1' || trade === '6') return { status: 'succeeded', ...base };
      if (trade === '2' || trade === '3')
        return { status: 'failed', ...base, failure: `TradeStatus ${trade} ${str(r.RespondMsg) ?? ''}`.trim() };
      return { status: 'pending', ...base, transactionId: input.transactionId, notFound: trade === '0' };
    },
    /**
     * Credit card refund: `{host}/API/CreditCard/Close` (server to server, `MerchantID_` + `PostData_`: AES of
     * `RespondType=JSON, Version=1.0, Amt, MerchantOrderNo, IndexType=1, TimeStamp, CloseType=2`), answered JSON
     * `{Status, Message, Result{MerchantID, Amt, TradeNo, MerchantOrderNo}}`. Not retried (a refund sent twice…).
     */
    async refund(input, ctx) {
      if (!services) throw new Error('NewebPay: no outgoing HTTP client');
      const postData = newebpayEncrypt(
        newebpayQuery({
          RespondType: 'JSON',
          Version: '1.0',
          Amt: String(input.amount),
          MerchantOrderNo: input.orderNumber,
          IndexType: '1',
          TimeStamp: String(Math.floor(Date.now() / 1000)),
          CloseType: '2',
        }),
        key,
        iv,
      );
      const res = await services.http.send(
        {
          method: 'POST',
          url: `${setting.baseUrl}/API/CreditCard/Close`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ MerchantID_: setting.merchantId, PostData_: postData }).toString(),
          idempotent: false,
          timeoutMs: ALTER_TIMEOUT_MS,
          secrets: [key, iv, postData],
        },
        { customerId: ctx.customerId, provider: 'newebpay', operation: 'credit-card.refund', reference: ctx.reference },
      );
      if (res.status >= 500 || res.status === 429)
        throw new Error(`NewebPay CreditCard/Close answered HTTP ${res.status}`);
      const answer = parseAnswer(res.body);
      if (!answer?.Status)
        throw new Error(`NewebPay CreditCard/Close: an answer that does not parse (HTTP ${res.status})`);
      const text = `${answer.Status} ${answer.Message ?? ''}`.trim();
      if (answer.Status !== 'SUCCESS') return { status: 'failed', refundId: null, answer: text };
      return { status: 'succeeded', refundId: str(answer.Result?.TradeNo), answer: text };
    },
    checkoutForm(input): { action: string; fields: Record<string, string> } {
      const timeStamp = String(Math.floor(Date.now() / 1000));
      if (input.periodic) {
        const p = input.periodic;
        const postData = newebpayQuery({
          RespondType: 'JSON',
          TimeStamp: timeStamp,
          Version: '1.5',
          MerOrderNo: input.orderNumber,
          ProdDesc: input.description.slice(0, 100),
          PeriodAmt: String(input.amount),
          // NewebPay has no "every 3 months": annual is Y on the start's MMDD; quarterly is D every 91 days (each result
          // is recorded against the next due period). PeriodStartType 2: authorise the period amount now.
          ...(p.months === 12
            ? { PeriodType: 'Y', PeriodPoint: `${p.firstDay.slice(5, 7)}${p.firstDay.slice(8, 10)}` }
            : { PeriodType: 'D', PeriodPoint: '91' }),
          PeriodStartType: '2',
          PeriodTimes: String(p.times),
          PayerEmail: input.email,
          ReturnURL: input.returnUrl,
          NotifyURL: input.notifyUrl,
          BackURL: input.clientBackUrl,
        });
        return {
          action: `${setting.baseUrl}/MPG/period`,
          fields: { MerchantID_: setting.merchantId, PostData_: newebpayEncrypt(postData, key, iv) },
        };
      }
      const tradeInfo = newebpayEncrypt(
        newebpayQuery({
          MerchantID: setting.merchantId,
          RespondType: 'JSON',
          TimeStamp: timeStamp,
          Version: setting.version,
          MerchantOrderNo: input.orderNumber,
          Amt: String(input.amount),
          ItemDesc: input.description.slice(0, 50),
          Email: input.email,
          LoginType: '0',
          ReturnURL: input.returnUrl,
          NotifyURL: input.notifyUrl,
          ClientBackURL: input.clientBackUrl,
          // The payment page lives 15 minutes: an order not paid by then never will be (its record is then settled).
          TradeLimit: '900',
          CREDIT: '1',
        }),
        key,
        iv,
      );
      return {
        action: `${setting.baseUrl}/MPG/mpg_gateway`,
        fields: {
          MerchantID: setting.merchantId,
          TradeInfo: tradeInfo,
          TradeSha: newebpayTradeSha(tradeInfo, key, iv),
          Version: setting.version,
        },
      };
    },
    readNotification(fields) {
      let answer: TNewebpayAnswer | null = null;
      let periodic = false;
      if (fields.Period) {
        // Periodic (NDNP-1.0.4 §4.3.2/4.3.3: `Period` only, AES of JSON). A TradeSha sent with it must verify over
        // `Period` before anything in it is read; without one only our key and IV make it decrypt into JSON naming
        // our MerchantID (checked below, required here).
        if (fields.TradeSha !== undefined && !verifyNewebpayTradeSha(fields.Period, fields.TradeSha, key, iv))
          return null;
        const text = newebpayDecrypt(fields.Period, key, iv);
        answer = text ? parseAnswer(text) : null;
        if (str(answer?.Result?.MerchantID) !== setting.merchantId) return null;
        periodic = true;
      } else {
        const tradeInfo = fields.TradeInfo ?? '';
        if (!tradeInfo || !verifyNewebpayTradeSha(tradeInfo, fields.TradeSha ?? '', key, iv)) return null;
        const text = newebpayDecrypt(tradeInfo, key, iv);
        answer = text ? parseAnswer(text) : null;
      }
      if (!answer?.Status) return null;
      const r = answer.Result ?? {};
      if (str(r.MerchantID) && str(r.MerchantID) !== setting.merchantId) return null;
      const ok = answer.Status === 'SUCCESS';
      const amount = Number(r.Amt ?? r.AuthAmt ?? r.PeriodAmt ?? Number.NaN);
      const result: TPaymentResult = {
        status: ok ? 'succeeded' : 'failed',
        transactionId: str(r.TradeNo) ?? (periodic ? str(r.PeriodNo) : null),
        // Periodic results carry the authorisation's MerchantOrderNo (and OrderNo = MerchantOrderNo_<n>).
        orderNumber: str(r.MerchantOrderNo) ?? str(r.MerOrderNo),
        amount: Number.isFinite(amount) ? amount : null,
        failure: ok ? null : `${answer.Status} ${answer.Message ?? ''}`.trim(),
        cardLastFour: str(r.Card4No) ?? (str(r.CardNo)?.slice(-4) || null),
        periodNo: periodic ? str(r.PeriodNo) : null,
      };
      return result;
    },
  };
}
