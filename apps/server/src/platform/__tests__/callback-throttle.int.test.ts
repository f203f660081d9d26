import type { TRouteContract } from '@wms/contracts';
import * as contracts from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, injectClient, type TTestContext } from '../../test/harness';

/**
 * Outside systems' callbacks (payment gateways' notifies, ECPay's logistics push, Shopee's push) are public routes:
 * one budget per client address for all of them, CALLBACK_IP_LIMIT_PER_MINUTE; over it 429 RATE_LIMITED with
 * Retry-After (the senders retry later). Other routes and other addresses keep going.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({ CALLBACK_IP_LIMIT_PER_MINUTE: '5' });
});
afterAll(() => ctx?.close());

/** The typed client as the sender at `remoteAddress` calls. */
const from = (remoteAddress: string) => injectClient(ctx.app, { remoteAddress });

describe('callback throttle', () => {
  it('every callback route is public and marked, and nothing else is', () => {
    const marked = Object.entries(contracts)
      .filter(([name, table]) => name.endsWith('Routes') && table && typeof table === 'object')
      .flatMap(([, table]) => Object.values(table as Record<string, TRouteContract>))
      .filter((r) => r?.callback)
      .map((r) => `${r.auth} ${r.method} ${r.path}`)
      .sort();
    expect(marked).toEqual([
      'public POST /api/billing/newebpay/notify/',
      'public POST /api/billing/newebpay/return/',
      'public POST /api/billing/tappay/notify/',
      // ECPay's store map posts the chosen store back (through the browser): an outside system's answer too.
      'public POST /api/carriers/ecpay/map-reply/',
      'public POST /api/carriers/ecpay/notify/',
      'public POST /api/shopee/push/',
    ]);
  });

  it('refuses a burst from one address across the callback routes, with Retry-After; others go on', async () => {
    const notify = (address: string) =>
      from(address).billingRoutes.tappayNotify({ body: { rec_trade_id: 'D20261125XYZ', order_number: 'NOPE' } });
    for (let i = 0; i < 5; i++) {
      const res = await notify('203.0.113.7');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe('OK');
    }
    const over = await notify('203.0.113.7');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same budget covers the other callbacks: Shopee's push from that address is refused before it is read.
    const push = await from('203.0.113.7').shopeeRoutes.shopeePush({ body: { code: 3, shop_id: 1, timestamp: 1 } });
    expect(push.statusCode).toBe(429);
    // Another address, and a route that is not a callback, are not affected.
    expect((await notify('198.51.100.20')).statusCode).toBe(200);
    expect((await from('203.0.113.7').authRoutes.healthLive()).statusCode).toBe(200);
  });
});
