import type { TCallContext, TPaymentProvider, TPaymentResult, TProviderServices } from '../../../platform/providers';

/**
 * TapPay (INTEGRATIONS.md): JSON POSTs with `x-api-key: <partner_key>`. `pay-by-prime` charges the one-time prime the
 * card form (TPDirect) produced — the card number never reaches us — and with `remember` answers `card_secret`
 * (card_key, card_token) for `pay-by-token` later; with 3-D Secure it answers `payment_url` and the charge is settled
 * at the bank, so its result is read back with `transaction/query`, never taken from the browser.
 */

export interface TTapPaySetting {
  baseUrl: string;
  partnerKey: string;
  merchantId: string;
  threeDomainSecure: boolean;
}

interface TTapPayAnswer {
  status?: number;
  msg?: string;
  rec_trade_id?: string;
  bank_transaction_id?: string;
  amount?: number;
  order_number?: string;
  payment_url?: string;
  card_secret?: { card_key?: string; card_token?: string };
  card_info?: { last_four?: string };
  trade_records?: Array<{
    rec_trade_id?: string;
    record_status?: number;
    amount?: number;
    order_number?: string;
    bank_result_code?: string;
    bank_result_msg?: string;
    partial_card_number?: string;
  }>;
}

/**
 * TapPay's record_status: -1 error, 0 authorised, 1 captured (OK), 2 partially refunded, 3 refunded, 4 pending
 * (waiting for 3-D Secure), 5 cancelled.
 */
function fromRecordStatus(s: number | undefined): TPaymentResult['status'] {
  if (s === 0 || s === 1 || s === 2 || s === 3) return 'succeeded';
  if (s === 4 || s === undefined) return 'pending';
  return 'failed';
}

export function tappayProvider(setting: TTapPaySetting, services: TProviderServices): TPaymentProvider {
  async function post(path: string, body: object, operation: string, ctx: TCallContext, idempotent: boolean) {
    const res = await services.http.send(
      {
        method: 'POST',
        url: `${setting.baseUrl}${path}`,
        headers: { 'content-type': 'application/json', 'x-api-key': setting.partnerKey },
        body: JSON.stringify(body),
        idempotent,
        timeoutMs: 30_000,
        secrets: [setting.partnerKey],
      },
      { customerId: ctx.customerId, provider: 'tappay', operation, reference: ctx.reference ?? null },
    );
    if (res.status >= 500 || res.status === 429) throw new Error(`TapPay answered HTTP ${res.status}`);
    let answer: TTapPayAnswer;
    try {
      answer = JSON.parse(res.body) as TTapPayAnswer;
    } catch {
      throw new Error(`TapPay answered HTTP ${res.status} without JSON`);
    }
    return answer;
  }

  return {
    code: 'tappay',
    async charge(input, ctx) {
      const byPrime = 'prime' in input.source;
      const body = {
        ...(byPrime
          ? { prime: (input.source as { prime: string }).prime }
          : {
              card_key: (input.source as { cardKey: string }).cardKey,
              card_token: (input.source as { cardToken: string }).cardToken,
            }),
        partner_key: setting.partnerKey,
        merchant_id: setting.merchantId,
        amount: input.amount,
        currency: 'TWD',
        details: input.description.slice(0, 100),
        order_number: input.orderNumber,
        ...(byPrime
          ? {
              cardholder: {
                phone_number: input.cardholder?.phone ?? '',
                name: input.cardholder?.name ?? '',
                email: input.cardholder?.email ?? '',
              },
              remember: input.remember ?? false,
            }
          : {}),
        // A remembered card charged by the renewal job has nobody at a browser to confirm 3-D Secure.
        three_domain_secure: byPrime && setting.threeDomainSecure,
        ...(byPrime && setting.threeDomainSecure
          ? { result_url: { frontend_redirect_url: input.returnUrl, backend_notify_url: input.notifyUrl } }
          : {}),
      };
      // Not retried: a charge sent twice could be charged twice (a prime is single use anyway).
      const a = await post(
        byPrime ? '/tpc/payment/pay-by-prime' : '/tpc/payment/pay-by-token',
        body,
        byPrime ? 'pay-by-prime' : 'pay-by-token',
        ctx,
        false,
      );
      const card =
        a.card_secret?.card_key && a.card_secret.card_token
          ? { key: a.card_secret.card_key, token: a.card_secret.card_token }
          : null;
      // 421 / 422: TapPay timed out waiting for the bank. The card may or may not have been charged: the outcome is
      // unknown, never a failure — the record stays pending and is settled from TapPay's record (transaction/query).
      if (a.status === 421 || a.status === 422)
        return {
          status: 'pending',
          transactionId: a.rec_trade_id || null,
          orderNumber: a.order_number ?? input.orderNumber,
          amount: a.amount ?? null,
          failure: `${a.status} ${a.msg ?? ''}`.trim(),
        };
      if (a.status !== 0)
        return {
          status: 'failed',
          transactionId: a.rec_trade_id || null,
          orderNumber: a.order_number ?? input.orderNumber,
          amount: a.amount ?? null,
          failure: `${a.status ?? '?'} ${a.msg ?? ''}`.trim(),
        };
      return {
        status: a.payment_url ? 'pending' : 'succeeded',
        transactionId: a.rec_trade_id ?? null,
        orderNumber: a.order_number ?? input.orderNumber,
        amount: a.amount ?? input.amount,
        redirectUrl: a.payment_url ?? null,
        cardLastFour: a.card_info?.last_four ?? null,
        card,
      };
    },
    async refund(input, ctx) {
      // Not retried by the client: a refund sent twice could be refunded twice.
      const a = (await post(
        '/tpc/transaction/refund',
        { partner_key: setting.partnerKey, rec_trade_id: input.transactionId, amount: input.amount },
        'transaction.refund',
        ctx,
        false,
      )) as TTapPayAnswer & { refund_id?: string; refund_amount?: number };
      const answer = `${a.status ?? '?'} ${a.msg ?? ''}`.trim();
      if (a.status === 0) return { status: 'succeeded', refundId: a.refund_id ?? null, answer };
      if (a.status === 421 || a.status === 422) return { status: 'pending', refundId: null, answer };
      return { status: 'failed', refundId: null, answer };
    },
    async records(input, ctx) {
      const out: Array<{
        transactionId: string;
        orderNumber: string | null;
        amount: number;
        paid: boolean;
        status: string;
      }> = [];
      for (let page = 0; page < 1000; page++) {
        const a = (await post(
          '/tpc/transaction/query',
          {
            partner_key: setting.partnerKey,
            records_per_page: 200,
            page,
            filters: { time: { start_time: input.from.getTime(), end_time: input.to.getTime() } },
            order_by: { attribute: 'time', is_descending: false },
          },
          'transaction.records',
          ctx,
          true,
        )) as TTapPayAnswer & { total_page_count?: number };
        if (a.status !== 0 && a.status !== 2) throw new Error(`TapPay Record API: ${a.status} ${a.msg ?? ''}`);
        for (const r of a.trade_records ?? [])
          if (r.rec_trade_id)
            out.push({
              transactionId: r.rec_trade_id,
              orderNumber: r.order_number ?? null,
              amount: r.amount ?? 0,
              paid: fromRecordStatus(r.record_status) === 'succeeded',
              status: `record_status ${r.record_status ?? '?'}`,
            });
        if (page + 1 >= (a.total_page_count ?? 0)) break;
      }
      return out;
    },
    async query(input, ctx) {
      const a = await post(
        '/tpc/transaction/query',
        {
          partner_key: setting.partnerKey,
          records_per_page: 1,
          page: 0,
          filters: input.transactionId ? { rec_trade_id: input.transactionId } : { order_number: input.orderNumber },
        },
        'transaction.query',
        ctx,
        true,
      );
      if (a.status !== 0 && a.status !== 2)
        return { status: 'pending', transactionId: input.transactionId, failure: `${a.status} ${a.msg ?? ''}` };
      const r = a.trade_records?.[0];
      // No record at TapPay for this id / order number: the charge never reached it (or has not yet).
      if (!r) return { status: 'pending', transactionId: input.transactionId, notFound: true };
      const status = fromRecordStatus(r.record_status);
      return {
        status,
        awaitingBuyer: r.record_status === 4,
        transactionId: r.rec_trade_id ?? input.transactionId,
        orderNumber: r.order_number ?? null,
        amount: r.amount ?? null,
        failure:
          status === 'failed'
            ? `${r.bank_result_code ?? r.record_status ?? ''} ${r.bank_result_msg ?? ''}`.trim() || 'failed'
            : null,
      };
    },
  };
}
