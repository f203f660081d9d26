import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** TapPay's published sandbox test prime (what the stub TPDirect returns). */
export const TAPPAY_TEST_PRIME = 'test_3a2fb2b7e892b914a03c95dd4dd5dc7970c908df67a49527c0a648b2bc9';
/** A prime the fake bank declines (as a real card can be). */
export const TAPPAY_DECLINED_PRIME = 'test_declined_card_prime';

interface TTrade {
  rec_trade_id: string;
  order_number: string;
  amount: number;
  record_status: number;
  bank_result_code: string;
  bank_result_msg: string;
  frontend_redirect_url?: string;
  backend_notify_url?: string;
  three_ds_fails?: boolean;
  refunded_amount?: number;
  /** When TapPay recorded it (ms). */
  time: number;
}

/** A refund as the fake took it. */
export interface TTapPayRefund {
  refund_id: string;
  rec_trade_id: string;
  amount: number;
}

/**
 * A local TapPay on 127.0.0.1 speaking its JSON protocol: `x-api-key` and `partner_key` must be the partner key
 * (status 80 / 81), `merchant_id` ours (61), amount a positive integer (510), a prime is single use (121) but the
 * sandbox test prime (reusable, as in TapPay's sandbox) succeeds, `TAPPAY_DECLINED_PRIME` is declined by the bank (10003 with the bank's message). With
 * `three_domain_secure` it answers a `payment_url` on this host; opening it plays the bank's confirmation (the
 * record goes from 4 pending to 0 authorised), redirects to `frontend_redirect_url` and posts the backend notify.
 * `remember` answers `card_secret`; `pay-by-token` charges it (`declineTokens(n)` makes the next n decline);
 * `transaction/query` (the Record API) answers the trade records by rec_trade_id, order_number, or `time`
 * {start_time, end_time} (ms), `records_per_page` (≤ 200) a page, `page` from 0, `total_page_count`. `failNext(n)` answers 503.
 * `timeoutNext({ charged, answer })` plays the next charge timing out, as TapPay documents it can: `answer: '421'`
 * answers status 421 (TapPay timed out waiting for the bank, no rec_trade_id), `'drop'` closes the connection with no
 * answer at all; with `charged` the bank did take the money (the record says captured, record_status 1), without it
 * the bank refused it (421: record_status -1) or the charge never reached TapPay (drop: no record).
 * `transaction/refund` (`partner_key`, `rec_trade_id`, optional `amount`: the rest when left out) refunds a paid
 * record in full or in part — the record then says 2 (partially refunded) or 3 (refunded), `refunded_amount` —
 * answering `refund_id`, `refund_amount`, `is_captured`; more than what is left, or an unpaid record, is refused (the
 * fake's codes: 10004 amount, 10005 not refundable, 10006 no such record).
 */
export interface TFakeTapPay {
  url: string;
  partnerKey: string;
  merchantId: string;
  trades: TTrade[];
  refunds: TTapPayRefund[];
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  failNext(n: number): void;
  declineTokens(n: number): void;
  timeoutNext(opts: { charged: boolean; answer: '421' | 'drop' }): void;
  /** The 3-D Secure page of a trade fails (the card holder cancels) instead of confirming. */
  failThreeDs(recTradeId: string): void;
  close(): Promise<void>;
}

export async function startFakeTapPay(
  opts: { partnerKey?: string; merchantId?: string; port?: number } = {},
): Promise<TFakeTapPay> {
  const partnerKey = opts.partnerKey ?? 'partner_fake_key_0123456789abcdef0123456789abcdef0123456789abcdef';
  const merchantId = opts.merchantId ?? 'wms_fake_merchant';
  const trades: TTrade[] = [];
  const refunds: TTapPayRefund[] = [];
  const requests: TFakeTapPay['requests'] = [];
  const usedPrimes = new Set<string>();
  const cards = new Map<string, { token: string; last_four: string }>();
  let failures = 0;
  let tokenDeclines = 0;
  let timeout: { charged: boolean; answer: '421' | 'drop' } | null = null;
  let url = '';
  const newTradeId = () =>
    `D${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(5).toString('hex').toUpperCase()}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (body: object, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'GET' && path.startsWith('/3ds/')) {
        // The bank's 3-D Secure page: confirmed at once (or failed), then back to the shop and a backend notify.
        const trade = trades.find((t) => t.rec_trade_id === path.slice(5));
        if (!trade) return json({ status: 404 }, 404);
        const ok = !trade.three_ds_fails;
        trade.record_status = ok ? 0 : -1;
        trade.bank_result_code = ok ? '' : '3DS_FAIL';
        trade.bank_result_msg = ok ? '' : '3D Secure authentication failed';
        const status = ok ? 0 : 10100;
        if (trade.backend_notify_url)
          void fetch(trade.backend_notify_url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              rec_trade_id: trade.rec_trade_id,
              order_number: trade.order_number,
              status,
              msg: ok ? 'Success' : 'Failed',
              amount: trade.amount,
            }),
          }).catch(() => undefined);
        const back = new URL(trade.frontend_redirect_url ?? 'http://127.0.0.1/');
        back.searchParams.set('rec_trade_id', trade.rec_trade_id);
        back.searchParams.set('order_number', trade.order_number);
        back.searchParams.set('status', String(status));
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (failures > 0) {
        failures--;
        return json({ status: 503 }, 503);
      }
      if (req.method !== 'POST') return json({ status: 404 }, 404);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return json({ status: 5, msg: 'Invalid JSON format' });
      }
      requests.push({ path, body });
      if (req.headers['x-api-key'] !== partnerKey) return json({ status: 80, msg: 'Invalid x-api-key' });
      if (body.partner_key !== partnerKey) return json({ status: 81, msg: 'Partner not found' });

      if (path === '/tpc/transaction/query') {
        const f = (body.filters ?? {}) as {
          rec_trade_id?: string;
          order_number?: string;
          time?: { start_time?: number; end_time?: number };
        };
        const found = trades.filter((t) =>
          f.time
            ? t.time >= (f.time.start_time ?? 0) && t.time < (f.time.end_time ?? Number.MAX_SAFE_INTEGER)
            : (f.rec_trade_id && t.rec_trade_id === f.rec_trade_id) ||
              (f.order_number && t.order_number === f.order_number),
        );
        const per = Math.min(200, Number(body.records_per_page ?? 50) || 50);
        const page = Number(body.page ?? 0) || 0;
        const slice = found.slice(page * per, page * per + per);
        return json({
          status: found.length ? 0 : 2,
          msg: found.length ? 'Success' : 'No records',
          records_per_page: per,
          page,
          total_page_count: Math.ceil(found.length / per),
          number_of_transactions: found.length,
          trade_records: slice.map((t) => ({
            rec_trade_id: t.rec_trade_id,
            order_number: t.order_number,
            amount: t.amount,
            currency: 'TWD',
            record_status: t.record_status,
            refunded_amount: t.refunded_amount ?? 0,
            time: t.time,
            merchant_id: merchantId,
            bank_result_code: t.bank_result_code,
            bank_result_msg: t.bank_result_msg,
          })),
        });
      }
      if (path === '/tpc/transaction/refund') {
        const trade = trades.find((t) => t.rec_trade_id === body.rec_trade_id);
        if (!trade) return json({ status: 10006, msg: 'Record not found' });
        if (![0, 1, 2].includes(trade.record_status)) return json({ status: 10005, msg: 'Record cannot be refunded' });
        const left = trade.amount - (trade.refunded_amount ?? 0);
        const amount = body.amount === undefined ? left : (body.amount as number);
        if (!Number.isInteger(amount) || amount <= 0 || amount > left)
          return json({ status: 10004, msg: 'Refund amount exceeds the remaining amount' });
        trade.refunded_amount = (trade.refunded_amount ?? 0) + amount;
        trade.record_status = trade.refunded_amount === trade.amount ? 3 : 2;
        const refund = {
          refund_id: `R${randomBytes(6).toString('hex').toUpperCase()}`,
          rec_trade_id: trade.rec_trade_id,
          amount,
        };
        refunds.push(refund);
        return json({
          status: 0,
          msg: 'Success',
          refund_id: refund.refund_id,
          refund_amount: amount,
          is_captured: true,
          currency: 'TWD',
        });
      }
      const byPrime = path === '/tpc/payment/pay-by-prime';
      if (!byPrime && path !== '/tpc/payment/pay-by-token') return json({ status: 404 }, 404);
      if (body.merchant_id !== merchantId) return json({ status: 61, msg: 'Merchant not found' });
      if (!Number.isInteger(body.amount) || (body.amount as number) <= 0)
        return json({ status: 510, msg: 'Invalid amount' });
      const orderNumber = String(body.order_number ?? '');
      const trade: TTrade = {
        rec_trade_id: newTradeId(),
        order_number: orderNumber,
        amount: body.amount as number,
        record_status: 1,
        bank_result_code: '',
        bank_result_msg: '',
        time: Date.now(),
      };
      let card: { key: string; token: string; last_four: string } | null = null;
      if (byPrime) {
        const prime = String(body.prime ?? '');
        if (!prime) return json({ status: 501, msg: 'Missing prime' });
        // A prime is single use — except the published sandbox test prime, which the sandbox takes again and again.
        if (prime !== TAPPAY_TEST_PRIME && usedPrimes.has(prime)) return json({ status: 121, msg: 'Invalid prime' });
        if (prime !== TAPPAY_TEST_PRIME && prime !== TAPPAY_DECLINED_PRIME)
          return json({ status: 121, msg: 'Invalid prime' });
        usedPrimes.add(prime);
        const ch = body.cardholder as { name?: string; email?: string; phone_number?: string } | undefined;
        if (!ch?.name || !ch.email || !ch.phone_number) return json({ status: 502, msg: 'Missing cardholder' });
        if (prime === TAPPAY_DECLINED_PRIME) {
          trade.record_status = -1;
          trade.bank_result_code = '05';
          trade.bank_result_msg = 'Do not honor';
          trades.push(trade);
          return json({
            status: 10003,
            msg: 'Card Error: Do not honor',
            rec_trade_id: trade.rec_trade_id,
            order_number: orderNumber,
            amount: trade.amount,
          });
        }
        if (body.remember) {
          card = { key: randomBytes(16).toString('hex'), token: randomBytes(24).toString('hex'), last_four: '4242' };
          cards.set(card.key, { token: card.token, last_four: card.last_four });
        }
      } else {
        const c = cards.get(String(body.card_key ?? ''));
        if (!c || c.token !== body.card_token) return json({ status: 41, msg: 'Card key or token invalid' });
        if (tokenDeclines > 0) {
          tokenDeclines--;
          trade.record_status = -1;
          trade.bank_result_code = '51';
          trade.bank_result_msg = 'Insufficient funds';
          trades.push(trade);
          return json({
            status: 10003,
            msg: 'Card Error: Insufficient funds',
            rec_trade_id: trade.rec_trade_id,
            order_number: orderNumber,
            amount: trade.amount,
          });
        }
      }
      if (timeout) {
        const t = timeout;
        timeout = null;
        if (t.answer === 'drop') {
          if (t.charged) trades.push(trade);
          // The bank's answer never comes back to us: the connection closes without a response.
          return req.socket.destroy();
        }
        trade.record_status = t.charged ? 1 : -1;
        trade.bank_result_code = t.charged ? '00' : 'TIMEOUT';
        trade.bank_result_msg = t.charged ? '' : 'Bank timeout';
        trades.push(trade);
        return json({ status: 421, msg: 'Gateway Timeout', order_number: orderNumber });
      }
      const threeDs = byPrime && body.three_domain_secure === true;
      if (threeDs) {
        const r = body.result_url as { frontend_redirect_url?: string; backend_notify_url?: string } | undefined;
        if (!r?.frontend_redirect_url || !r.backend_notify_url) return json({ status: 509, msg: 'Missing result_url' });
        trade.record_status = 4;
        trade.frontend_redirect_url = r.frontend_redirect_url;
        trade.backend_notify_url = r.backend_notify_url;
      }
      trades.push(trade);
      return json({
        status: 0,
        msg: 'Success',
        rec_trade_id: trade.rec_trade_id,
        bank_transaction_id: `TP${trade.rec_trade_id}`,
        amount: trade.amount,
        currency: 'TWD',
        order_number: orderNumber,
        acquirer: 'TW_CTBC',
        card_info: { bin_code: '424242', last_four: '4242', issuer: 'FAKE BANK', type: 1, funding: 0 },
        ...(card ? { card_secret: { card_key: card.key, card_token: card.token } } : {}),
        ...(threeDs ? { payment_url: `${url}/3ds/${trade.rec_trade_id}` } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    partnerKey,
    merchantId,
    trades,
    refunds,
    requests,
    failNext(n) {
      failures = n;
    },
    declineTokens(n) {
      tokenDeclines = n;
    },
    timeoutNext(opts) {
      timeout = opts;
    },
    failThreeDs(id) {
      const t = trades.find((x) => x.rec_trade_id === id);
      if (t) t.three_ds_fails = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
