import type { partnerRoutes, TRouteContract } from '@wms/contracts';
import { fillPath, type TRouteInput } from '@wms/contracts/client';
import { expect } from 'vitest';
import type { TTestContext } from '../../../test/harness';
import { createOrder, type TWorld } from '../../outbound/__tests__/factories';

/** A sender as the /express-provider form requires it for a carrier API: meets ECPay's and T-cat's rules. */
export const SENDER = {
  sender_name: '好物倉庫',
  sender_phone: '0223456789',
  sender_postcode: '300',
  sender_address: '新竹市東區光復路二段101號',
};

/**
 * The calls the carrier tests make as seller `w`: a logistics provider created through the API (201), an order of one
 * plain product on a provider, and "get consignment numbers" for some orders.
 */
export function carrierApi(ctx: TTestContext, w: TWorld, orderExtra: Record<string, unknown> = {}) {
  const line = [{ product_id: w.plain.id, quantity: 1 }];
  return {
    provider: async (body: TRouteInput<typeof partnerRoutes.createLogisticsProvider>['body']) => {
      const r = await ctx.api.partnerRoutes.createLogisticsProvider({ body, token: w.token });
      expect(r.statusCode, r.body).toBe(201);
      return r.json();
    },
    order: (providerId: string, extra: Record<string, unknown> = {}) =>
      createOrder(ctx, w.token, line, { logistics_provider_id: providerId, ...orderExtra, ...extra }),
    consignments: (ids: string[], lang = 'en') =>
      ctx.api.carrierRoutes.fetchConsignments({ body: { order_ids: ids }, token: w.token, lang }),
  };
}

/**
 * A provider's form post to the route the contract declares: ECPay posts its notices and store-map answers as
 * `application/x-www-form-urlencoded`, which the route client (JSON) does not send.
 */
export function postForm(ctx: TTestContext, route: TRouteContract, fields: Record<string, string>) {
  return ctx.inject({
    method: route.method,
    url: fillPath(route.path),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}
