import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TOutgoingRequest } from '../../../platform/outgoing-http';
import {
  MarketplaceError,
  type TCallContext,
  type TMarketplaceAuth,
  type TMarketplaceOrder,
  type TMarketplaceProvider,
  type TMarketplaceTokens,
  type TProviderServices,
} from '../../../platform/providers';

/**
 * Shopee Open Platform v2 (INTEGRATIONS.md). Every call carries `partner_id`, `timestamp` (unix s, valid 5 min) and
 * `sign` = lowercase hex HMAC-SHA256(partner_key, partner_id + path + timestamp [+ access_token + shop_id]); shop
 * calls add `access_token` and `shop_id`. Errors are a non-empty `error` field with `message` and `request_id`.
 */

export interface TShopeeSetting {
  partnerId: number;
  partnerKey: string;
  baseUrl: string;
  /** The push URL registered with Shopee: the push signature covers it. */
  pushUrl: string;
  /** The first wait between polls of a label Shopee is still making (then longer each time). */
  documentPollMs?: number;
}

/** The signature of a call: the partner's, or a shop's (with its access token and shop id). */
export function shopeeSign(
  partnerKey: string,
  input: { partnerId: number; path: string; timestamp: number; accessToken?: string; shopId?: number },
): string {
  const base = `${input.partnerId}${input.path}${input.timestamp}${input.accessToken ?? ''}${input.shopId ?? ''}`;
  return createHmac('sha256', partnerKey).update(base, 'utf8').digest('hex');
}

/** A push's `Authorization`: hex HMAC-SHA256(partner_key, callback_url + "|" + raw_body). */
export function shopeePushSignature(partnerKey: string, callbackUrl: string, rawBody: string): string {
  return createHmac('sha256', partnerKey).update(`${callbackUrl}|${rawBody}`, 'utf8').digest('hex');
}

const REFRESH_PATH = '/api/v2/auth/access_token/get';
const TOKEN_PATH = '/api/v2/auth/token/get';

/** What an `error` answer means for us. */
export function classifyShopeeError(status: number, error: string): MarketplaceError['kind'] {
  if (status === 429 || /too_many|rate_limit|error_busy/i.test(error)) return 'rate_limit';
  if (status >= 500 || /error_server|error_inner|system_busy/i.test(error)) return 'server';
  if (/sign/i.test(error)) return 'sign';
  if (/access_?token|acceess_token|error_auth|invalid_token|refresh_token/i.test(error)) return 'auth';
  return 'refused';
}

const toMoney = (v: unknown): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v.toFixed(2).replace(/\.00$/, '');
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) return v;
  return null;
};

export function shopeeProvider(setting: TShopeeSetting, services: TProviderServices): TMarketplaceProvider {
  const { partnerId, partnerKey, baseUrl } = setting;
  const documentPollMs = setting.documentPollMs ?? 500;

  /** One call; answers `response` (or the whole body for the auth calls), throws MarketplaceError otherwise. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    opts: {
      auth?: TMarketplaceAuth;
      query?: Record<string, string>;
      body?: Record<string, unknown>;
      operation: string;
      ctx: TCallContext;
      secrets?: string[];
      /** A file answer (a label PDF): its bytes come back in `raw`. */
      file?: boolean;
    },
  ): Promise<Record<string, unknown> & { raw?: Buffer }> {
    const timestamp = Math.floor(Date.now() / 1000);
    const sign = shopeeSign(partnerKey, {
      partnerId,
      path,
      timestamp,
      ...(opts.auth ? { accessToken: opts.auth.accessToken, shopId: opts.auth.shopId } : {}),
    });
    const q = new URLSearchParams({ partner_id: String(partnerId), timestamp: String(timestamp), sign });
    if (opts.auth) {
      q.set('access_token', opts.auth.accessToken);
      q.set('shop_id', String(opts.auth.shopId));
    }
    for (const [k, v] of Object.entries(opts.query ?? {})) q.set(k, v);
    const req: TOutgoingRequest = {
      method,
      url: `${baseUrl}${path}?${q.toString()}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      timeoutMs: 20_000,
      secrets: [partnerKey, sign, ...(opts.auth ? [opts.auth.accessToken] : []), ...(opts.secrets ?? [])],
      ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
    };
    let res: Awaited<ReturnType<typeof services.http.send>>;
    try {
      res = await services.http.send(req, {
        customerId: opts.ctx.customerId,
        provider: 'shopee',
        operation: opts.operation,
        reference: opts.ctx.reference ?? null,
      });
    } catch (err) {
      throw new MarketplaceError('server', 'transport', err instanceof Error ? err.message : String(err));
    }
    const type = String(res.headers['content-type'] ?? '');
    if (opts.file && res.status >= 200 && res.status < 300 && !type.includes('json')) return { raw: res.raw };
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      if (res.status >= 200 && res.status < 300)
        throw new MarketplaceError('server', 'bad_answer', 'Shopee answered something that is not JSON', res.status);
    }
    const error = typeof body.error === 'string' ? body.error : '';
    if (error || res.status < 200 || res.status >= 300) {
      const code = error || `http_${res.status}`;
      const message = typeof body.message === 'string' && body.message ? body.message : `HTTP ${res.status}`;
      throw new MarketplaceError(classifyShopeeError(res.status, code), code, message, res.status);
    }
    return body;
  }

  const tokensOf = (body: Record<string, unknown>): TMarketplaceTokens => {
    if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string')
      throw new MarketplaceError('refused', 'no_token', 'Shopee answered without a token');
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresIn: typeof body.expire_in === 'number' ? body.expire_in : 14_400,
    };
  };

  return {
    code: 'shopee',
    authUrl(redirect) {
      const path = '/api/v2/shop/auth_partner';
      const timestamp = Math.floor(Date.now() / 1000);
      const q = new URLSearchParams({
        partner_id: String(partnerId),
        timestamp: String(timestamp),
        sign: shopeeSign(partnerKey, { partnerId, path, timestamp }),
        redirect,
      });
      return `${baseUrl}${path}?${q.toString()}`;
    },
    async getToken(input, ctx) {
      const body = await call('POST', TOKEN_PATH, {
        body: { code: input.code, partner_id: partnerId, shop_id: input.shopId },
        operation: 'token.get',
        ctx,
        secrets: [input.code],
      });
      return tokensOf(body);
    },
    async refreshToken(input, ctx) {
      const body = await call('POST', REFRESH_PATH, {
        body: { refresh_token: input.refreshToken, partner_id: partnerId, shop_id: input.shopId },
        operation: 'token.refresh',
        ctx,
        secrets: [input.refreshToken],
      });
      return tokensOf(body);
    },
    async listOrders(auth, input, ctx) {
      const query: Record<string, string> = {
        time_range_field: 'update_time',
        time_from: String(Math.floor(input.from.getTime() / 1000)),
        time_to: String(Math.floor(input.to.getTime() / 1000)),
        page_size: '100',
        order_status: input.status,
      };
      if (input.cursor) query.cursor = input.cursor;
      const body = await call('GET', '/api/v2/order/get_order_list', {
        auth,
        query,
        operation: 'order.list',
        ctx,
      });
      const r = (body.response ?? {}) as {
        more?: boolean;
        next_cursor?: string;
        order_list?: Array<{ order_sn: string }>;
      };
      return {
        orderNumbers: (r.order_list ?? []).map((o) => o.order_sn),
        more: !!r.more,
        nextCursor: r.more && r.next_cursor ? r.next_cursor : null,
      };
    },
    async orderDetails(auth, orderNumbers, ctx) {
      if (orderNumbers.length === 0) return [];
      const body = await call('GET', '/api/v2/order/get_order_detail', {
        auth,
        query: {
          order_sn_list: orderNumbers.join(','),
          response_optional_fields: 'recipient_address,item_list,total_amount,cod,note,package_list,shipping_carrier',
        },
        operation: 'order.detail',
        ctx,
      });
      const list = ((body.response ?? {}) as { order_list?: Array<Record<string, unknown>> }).order_list ?? [];
      return list.map((o): TMarketplaceOrder => {
        const a = (o.recipient_address ?? {}) as Record<string, unknown>;
        const s = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
        return {
          orderNumber: s(o.order_sn),
          status: s(o.order_status),
          totalAmount: toMoney(o.total_amount),
          cod: o.cod === true,
          note: s(o.note),
          recipient: {
            name: s(a.name),
            phone: s(a.phone),
            zipcode: s(a.zipcode),
            city: s(a.city),
            district: s(a.district),
            fullAddress: s(a.full_address),
          },
          logisticsChannelId: (() => {
            const pkg = ((o.package_list ?? []) as Array<Record<string, unknown>>)[0];
            const id = Number(pkg?.logistics_channel_id);
            return Number.isFinite(id) && id > 0 ? id : null;
          })(),
          shippingCarrier: s(o.shipping_carrier),
          items: ((o.item_list ?? []) as Array<Record<string, unknown>>).map((i) => ({
            itemSku: s(i.item_sku),
            modelSku: s(i.model_sku),
            quantity: Number(i.model_quantity_purchased ?? 0),
            price: toMoney(i.model_discounted_price ?? i.model_original_price),
          })),
        };
      });
    },
    async shipOrder(auth, input, ctx) {
      await call('POST', '/api/v2/logistics/ship_order', {
        auth,
        body: { order_sn: input.orderNumber, non_integrated: { tracking_number: input.trackingNumber } },
        operation: 'logistics.ship_order',
        ctx,
      });
    },
    async channels(auth, ctx) {
      const body = await call('GET', '/api/v2/logistics/get_channel_list', {
        auth,
        operation: 'logistics.channels',
        ctx,
      });
      const list =
        ((body.response ?? {}) as { logistics_channel_list?: Array<Record<string, unknown>> }).logistics_channel_list ??
        [];
      return list.map((c) => ({
        id: Number(c.logistics_channel_id),
        name: String(c.logistics_channel_name ?? ''),
        // A seller's own logistics channel is the only kind Shopee does not arrange.
        integrated: !((c.logistics_capability ?? {}) as { seller_logistics?: boolean }).seller_logistics,
      }));
    },
    async shippingParameter(auth, orderNumber, ctx) {
      const body = await call('GET', '/api/v2/logistics/get_shipping_parameter', {
        auth,
        query: { order_sn: orderNumber },
        operation: 'logistics.shipping_parameter',
        ctx,
      });
      const r = (body.response ?? {}) as {
        info_needed?: { pickup?: string[]; dropoff?: string[]; non_integrated?: string[] };
        pickup?: { address_list?: Array<Record<string, unknown>> };
        dropoff?: { branch_list?: Array<Record<string, unknown>> };
      };
      return {
        infoNeeded: r.info_needed ?? {},
        pickup: (r.pickup?.address_list ?? []).map((a) => ({
          addressId: Number(a.address_id),
          address: [a.zipcode, a.city, a.district, a.address].filter(Boolean).join(' '),
          flags: (a.address_flag as string[] | undefined) ?? [],
          slots: ((a.time_slot_list ?? []) as Array<Record<string, unknown>>).map((t) => ({
            id: String(t.pickup_time_id),
            date: Number(t.date),
            text: String(t.time_text ?? ''),
            recommended: ((t.flags as string[] | undefined) ?? []).includes('recommended'),
          })),
        })),
        dropoff: (r.dropoff?.branch_list ?? []).map((b) => ({
          branchId: Number(b.branch_id),
          address: [b.zipcode, b.city, b.district, b.address].filter(Boolean).join(' '),
        })),
      };
    },
    async addressList(auth, ctx) {
      const body = await call('GET', '/api/v2/logistics/get_address_list', {
        auth,
        operation: 'logistics.address_list',
        ctx,
      });
      const r = (body.response ?? {}) as { address_list?: Array<Record<string, unknown>> };
      return (r.address_list ?? []).map((a) => ({
        addressId: Number(a.address_id),
        address: [a.zipcode, a.city, a.district, a.address].filter(Boolean).join(' '),
        flags: (a.address_flag as string[] | undefined) ?? [],
      }));
    },
    async arrangeShipment(auth, input, ctx) {
      const body: Record<string, unknown> = { order_sn: input.orderNumber };
      if (input.pickup) body.pickup = { address_id: input.pickup.addressId, pickup_time_id: input.pickup.pickupTimeId };
      else body.dropoff = input.dropoff?.branchId ? { branch_id: input.dropoff.branchId } : {};
      await call('POST', '/api/v2/logistics/ship_order', { auth, body, operation: 'logistics.ship_order', ctx });
    },
    async trackingNumber(auth, orderNumber, ctx) {
      const body = await call('GET', '/api/v2/logistics/get_tracking_number', {
        auth,
        query: { order_sn: orderNumber },
        operation: 'logistics.tracking_number',
        ctx,
      });
      return String(((body.response ?? {}) as { tracking_number?: string }).tracking_number ?? '');
    },
    async shippingLabel(auth, input, ctx) {
      const order = { order_sn: input.orderNumber };
      const created = await call('POST', '/api/v2/logistics/create_shipping_document', {
        auth,
        body: {
          order_list: [{ ...order, tracking_number: input.trackingNumber, shipping_document_type: input.documentType }],
        },
        operation: 'logistics.create_document',
        ctx,
      });
      const made = ((created.response ?? {}) as { result_list?: Array<Record<string, unknown>> }).result_list?.[0];
      if (made?.fail_error)
        throw new MarketplaceError('refused', String(made.fail_error), String(made.fail_message ?? made.fail_error));
      // Shopee makes the document in the background: PROCESSING, then READY (or FAILED).
      for (let attempt = 0; attempt < 6; attempt++) {
        const result = await call('POST', '/api/v2/logistics/get_shipping_document_result', {
          auth,
          body: { order_list: [{ ...order, shipping_document_type: input.documentType }] },
          operation: 'logistics.document_result',
          ctx,
        });
        const row = ((result.response ?? {}) as { result_list?: Array<Record<string, unknown>> }).result_list?.[0];
        if (row?.fail_error)
          throw new MarketplaceError('refused', String(row.fail_error), String(row.fail_message ?? row.fail_error));
        if (row?.status === 'FAILED') throw new MarketplaceError('refused', 'document_failed', 'FAILED');
        if (row?.status === 'READY') {
          const file = await call('POST', '/api/v2/logistics/download_shipping_document', {
            auth,
            body: { shipping_document_type: input.documentType, order_list: [order] },
            operation: 'logistics.download_document',
            ctx,
            file: true,
          });
          return file.raw ?? null;
        }
        await new Promise((r) => setTimeout(r, documentPollMs * (attempt + 1)));
      }
      return null;
    },
    verifyPush(rawBody, authorization) {
      const expected = Buffer.from(shopeePushSignature(partnerKey, setting.pushUrl, rawBody));
      const given = Buffer.from(authorization.trim().toLowerCase());
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
