import { createServer } from 'node:net';
import { expect } from 'vitest';
import { startFakeNewebPay, type TFakeNewebPay } from '../../../test/fakes/fake-newebpay';
import { startFakeTapPay, type TFakeTapPay } from '../../../test/fakes/fake-tappay';
import { createTestContext, type TTestContext } from '../../../test/harness';

/** The billing tests' world: the app listening on a real port, the fake TapPay and NewebPay, and a staff user. */
export interface TBillingGateways {
  ctx: TTestContext;
  tappay: TFakeTapPay;
  newebpay: TFakeNewebPay;
  staff: { token: string };
  /** A new seller whose contract the staff set (標準方案, NT$3,000 a period, starting `start`). */
  sellerWithContract(
    start: string,
    period?: 'quarterly' | 'annual',
  ): Promise<Awaited<ReturnType<TTestContext['newCustomer']>>>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * Start both fake gateways and the app configured for them. NewebPay and TapPay call us back on PUBLIC_URL, so the
 * app listens on it. `env` adds to (or overrides) the set-up, e.g. a job back-off scale.
 */
export async function startBillingWithGateways(env: Record<string, string> = {}): Promise<TBillingGateways> {
  const tappay = await startFakeTapPay();
  const newebpay = await startFakeNewebPay();
  const port = await freePort();
  const ctx = await createTestContext({
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TAPPAY_BASE_URL: tappay.url,
    TAPPAY_PARTNER_KEY: tappay.partnerKey,
    TAPPAY_MERCHANT_ID: tappay.merchantId,
    TAPPAY_APP_ID: '11327',
    TAPPAY_APP_KEY: 'app_fake_key_0123456789',
    NEWEBPAY_BASE_URL: newebpay.url,
    NEWEBPAY_MERCHANT_ID: newebpay.merchantId,
    NEWEBPAY_HASH_KEY: newebpay.hashKey,
    NEWEBPAY_HASH_IV: newebpay.hashIv,
    ...env,
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  const staff = await ctx.newEmployee();
  return {
    ctx,
    tappay,
    newebpay,
    staff,
    async sellerWithContract(start, period = 'quarterly') {
      const seller = await ctx.newCustomer();
      const res = await ctx.inject({
        method: 'PUT',
        url: `/api/crm/customers/${seller.customerId}/contract/`,
        token: staff.token,
        payload: { plan: '標準方案', price: '3000', period, start_date: start, payment_terms: '11' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return seller;
    },
    async close() {
      await ctx.close();
      await tappay.close();
      await newebpay.close();
    },
  };
}
