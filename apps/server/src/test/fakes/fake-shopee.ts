import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { code128Png } from '../../modules/labels/labels.barcode';
import { shopeeSign } from '../../modules/shopee/providers/shopee';

/**
 * A local Shopee Open Platform v2 on 127.0.0.1 for tests, e2e and the bench: it checks `partner_id`, the 5-minute
 * `timestamp` and the `sign` exactly as the real host does (HMAC-SHA256 of partner_id + path + timestamp [+ token +
 * shop_id] with the partner key), issues codes and tokens, expires access tokens, pages `get_order_list` with a
 * cursor inside the 15-day window, and answers errors in Shopee's shape (`error`, `message`, `request_id`): wrong
 * sign, invalid/expired access token, rate limit (429), server errors (5xx), bad parameters.
 */

/**
 * The Open Platform v2 paths of Shopee's host that tests count or cut (`calls`, `dropAnswers`) — Shopee's API, not
 * ours: written once here, as Shopee's reference names them.
 */
export const SHOPEE_PATH = {
  authPartner: '/api/v2/shop/auth_partner',
  accessTokenGet: '/api/v2/auth/access_token/get',
  orderList: '/api/v2/order/get_order_list',
  orderDetail: '/api/v2/order/get_order_detail',
  shipOrder: '/api/v2/logistics/ship_order',
} as const;
export type TShopeePath = (typeof SHOPEE_PATH)[keyof typeof SHOPEE_PATH];

export interface TFakeShopeeOrder {
  order_sn: string;
  order_status: string;
  update_time: number;
  total_amount: number;
  cod: boolean;
  note?: string;
  recipient_address: {
    name: string;
    phone: string;
    zipcode: string;
    city: string;
    district: string;
    full_address: string;
  };
  item_list: Array<{
    item_sku: string;
    model_sku: string;
    model_quantity_purchased: number;
    model_discounted_price: number;
  }>;
  tracking_number?: string;
  /** The order's channel (default: the seller's own delivery, 39001). */
  logistics_channel_id?: number;
  /** How many times Shopee accepted `ship_order` for it (a real shop must see 1). */
  arranged?: number;
  /** Every `ship_order` request Shopee received for it, accepted or refused (a client that never asks twice: 1). */
  ship_calls?: number;
  /** How it was arranged: pickup (address, time slot), dropoff (branch) or non_integrated. */
  arrangement?: Record<string, unknown>;
}

/**
 * Logistics channels of a Taiwan shop. Integrated channels are arranged by Shopee: the buyer's name, phone and address
 * come masked ("****"), `ship_order` takes pickup or dropoff (never non_integrated), and Shopee gives the tracking
 * number and the label. The seller's own delivery (`seller_logistics`) takes the seller's carrier's number.
 */
export const FAKE_SHOPEE_CHANNELS: Array<{
  id: number;
  name: string;
  integrated: boolean;
  modes: Array<'pickup' | 'dropoff'>;
  prefix: string;
}> = [
  { id: 30005, name: '7-ELEVEN', integrated: true, modes: ['dropoff'], prefix: 'F' },
  { id: 30006, name: '全家', integrated: true, modes: ['dropoff'], prefix: 'M' },
  { id: 30007, name: '萊爾富', integrated: true, modes: ['dropoff'], prefix: 'H' },
  { id: 30029, name: '蝦皮店到店', integrated: true, modes: ['dropoff'], prefix: 'TW' },
  { id: 30001, name: '黑貓宅急便', integrated: true, modes: ['pickup', 'dropoff'], prefix: '9' },
  { id: 39001, name: '賣家宅配', integrated: false, modes: [], prefix: '' },
];
export const SELLER_CHANNEL = 39001;

const PICKUP_ADDRESSES = [
  {
    address_id: 7001,
    zipcode: '114',
    city: '台北市',
    district: '內湖區',
    address: '瑞光路 100 號',
    address_flag: ['pickup_address', 'default_address'],
  },
  {
    address_id: 7002,
    zipcode: '330',
    city: '桃園市',
    district: '桃園區',
    address: '中正路 1 號',
    address_flag: ['return_address'],
  },
];
const BRANCHES = [
  {
    branch_id: 5101,
    region: 'TW',
    state: '',
    city: '台北市',
    district: '中山區',
    town: '',
    address: '南京東路二段 1 號',
    zipcode: '104',
  },
  {
    branch_id: 5102,
    region: 'TW',
    state: '',
    city: '新北市',
    district: '板橋區',
    town: '',
    address: '文化路一段 2 號',
    zipcode: '220',
  },
];
const timeSlots = () => {
  const day = Math.floor(Date.now() / 86_400_000) * 86_400 + 86_400;
  const next = day + 86_400;
  return [
    { date: day, time_text: '09:00-12:00', pickup_time_id: `${day}-AM`, flags: [] as string[] },
    { date: day, time_text: '13:00-18:00', pickup_time_id: `${day}-PM`, flags: ['recommended'] },
    { date: next, time_text: '09:00-12:00', pickup_time_id: `${next}-AM`, flags: [] as string[] },
  ];
};
const channelOf = (o: TFakeShopeeOrder) =>
  FAKE_SHOPEE_CHANNELS.find((c) => c.id === (o.logistics_channel_id ?? SELLER_CHANNEL)) ?? FAKE_SHOPEE_CHANNELS.at(-1)!;

/**
 * Shopee's label PDF for the orders of one `download_shipping_document` call: a page per order (100 × 150 mm, the TW
 * thermal size; A6 for the normal air waybill), the tracking number as a Code128 barcode with its text under it, the
 * order number and channel (the real label carries the same; the buyer's data is left out here).
 */
async function labelPdf(orders: TFakeShopeeOrder[], type: (o: TFakeShopeeOrder) => string): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const mm = 72 / 25.4;
  for (const o of orders) {
    const thermal = type(o) === 'THERMAL_AIR_WAYBILL';
    const [w, h] = thermal ? [100 * mm, 150 * mm] : [105 * mm, 148 * mm];
    const page = doc.addPage([w, h]);
    const tracking = o.tracking_number ?? '';
    page.drawText('Shopee Xpress', { x: 16, y: h - 30, size: 14, font });
    page.drawText(`${type(o)}  channel ${channelOf(o).id}`, { x: 16, y: h - 48, size: 8, font });
    const png = await doc.embedPng(await code128Png(tracking));
    const bw = w - 32;
    const bh = Math.min(70, (png.height * bw) / png.width);
    page.drawImage(png, { x: 16, y: h - 70 - bh, width: bw, height: bh });
    page.drawText(tracking, { x: 16, y: h - 88 - bh, size: 12, font });
    page.drawText(`Order ${o.order_sn}`, { x: 16, y: h - 106 - bh, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

interface TShop {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number;
  /** Refresh tokens live 30 days (then `refresh_token_expired`). */
  refreshExpiresAt: number;
  /** Access tokens replaced by a refresh: a call still carrying one is counted (a client that did not switch). */
  retired: Set<string>;
  /** The access token expires after this many more calls of the shop (a token ending mid-run). */
  expireAfterCalls: number | null;
  orders: Map<string, TFakeShopeeOrder>;
}

export interface TFakeShopee {
  url: string;
  partnerId: number;
  partnerKey: string;
  /** A one-time authorisation code for a shop (what the seller brings back from Shopee's page). */
  issueCode(shopId: number): string;
  addOrders(shopId: number, orders: TFakeShopeeOrder[]): void;
  order(shopId: number, orderSn: string): TFakeShopeeOrder | undefined;
  setStatus(shopId: number, orderSn: string, status: string): void;
  /** Make the shop's current access token expired (Shopee answers invalid_acceess_token). */
  expireToken(shopId: number): void;
  /** Make the shop's access token expire after `calls` more shop calls (it ends in the middle of a run). */
  expireTokenAfter(shopId: number, calls: number): void;
  /** Revoke the refresh token too (the seller cancelled the authorisation). */
  revoke(shopId: number): void;
  /** The refresh token has passed its 30 days (Shopee answers `refresh_token_expired`). */
  expireRefresh(shopId: number): void;
  /** Shop calls made with an access token a refresh had already replaced (wasted calls). */
  deadTokenCalls(shopId: number): number;
  /** The next `n` shop calls answer with this failure. */
  failNext(n: number, kind: 'server' | 'rate_limit'): void;
  /** From the next call on, every shop call fails with 500 until `heal()` (a host that went down mid-run). */
  failAfter(calls: number): void;
  heal(): void;
  calls(path?: TShopeePath): number;
  /** The next `n` successful answers on `path` are done but never delivered (the connection is cut). */
  dropAnswers(path: TShopeePath, n: number): void;
  /** Label PDFs downloaded. */
  readonly downloads: number;
  /** Requests refused for a wrong signature. */
  badSigns: number;
  close(): Promise<void>;
}

const TOKEN_LIFE = 4 * 3600;
const WINDOW = 15 * 86400;

export async function startFakeShopee(
  opts: {
    partnerId?: number;
    partnerKey?: string;
    tokenLifeSeconds?: number;
    port?: number;
    /** Answer every order call this much later (a slow host: a test cuts a run off in the middle). */
    delayMs?: number;
    /** Answer `ship_order` this much later (a slow arrangement: a test kills the server in the middle of a batch). */
    shipDelayMs?: number;
    authorisingShopId?: number;
  } = {},
): Promise<TFakeShopee> {
  const partnerId = opts.partnerId ?? 1_000_001;
  const partnerKey = opts.partnerKey ?? `shpk${randomBytes(30).toString('hex')}`;
  const shops = new Map<number, TShop>();
  const codes = new Map<string, number>();
  const counts = new Map<string, number>();
  let failures: Array<'server' | 'rate_limit'> = [];
  let failFrom: number | null = null;
  let shopCalls = 0;
  const state = { badSigns: 0 };
  const documents = new Map<string, { polls: number; type: string }>();
  const dropped = new Map<string, number>();
  let downloads = 0;
  let nextAuthorising: number | null = null;

  const shopOf = (id: number) => {
    let s = shops.get(id);
    if (!s) {
      s = {
        accessToken: null,
        refreshToken: null,
        expiresAt: 0,
        refreshExpiresAt: 0,
        retired: new Set(),
        expireAfterCalls: null,
        orders: new Map(),
      };
      shops.set(id, s);
    }
    return s;
  };
  const deadCalls = new Map<TShop, number>();
  const issueTokens = (s: TShop) => {
    if (s.accessToken) s.retired.add(s.accessToken);
    s.expireAfterCalls = null;
    s.refreshExpiresAt = Math.floor(Date.now() / 1000) + 30 * 86400;
    s.accessToken = randomBytes(16).toString('hex');
    s.refreshToken = randomBytes(16).toString('hex');
    s.expiresAt = Math.floor(Date.now() / 1000) + (opts.tokenLifeSeconds ?? TOKEN_LIFE);
    return {
      access_token: s.accessToken,
      refresh_token: s.refreshToken,
      expire_in: opts.tokenLifeSeconds ?? TOKEN_LIFE,
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      setTimeout(
        handle,
        req.url?.startsWith('/api/v2/order/')
          ? (opts.delayMs ?? 0)
          : req.url?.startsWith('/api/v2/logistics/ship_order')
            ? (opts.shipDelayMs ?? 0)
            : 0,
      ),
    );
    const handle = () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      const requestId = randomBytes(8).toString('hex');
      const send = (status: number, body: Record<string, unknown>) => {
        // The work is done but the answer never arrives (a connection cut, our process killed mid-call).
        const drop = dropped.get(path) ?? 0;
        if (drop > 0 && status === 200) {
          dropped.set(path, drop - 1);
          req.socket.destroy();
          return;
        }
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ request_id: requestId, error: '', message: '', ...body }));
      };
      const fail = (status: number, error: string, message: string) => send(status, { error, message });
      const q = url.searchParams;
      // Test control (e2e workers reach the fake over HTTP): add orders to a shop.
      if (path === '/__fake/orders' && req.method === 'POST') {
        const given = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          shop_id: number;
          orders: TFakeShopeeOrder[];
        };
        const s = shopOf(given.shop_id);
        for (const o of given.orders) s.orders.set(o.order_sn, o);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ok: true, orders: s.orders.size }));
      }
      // Which shop the next authorisation (only that one) grants: an e2e spec its own shop, the others unchanged.
      if (path === '/__fake/authorising' && req.method === 'POST') {
        nextAuthorising = Number(q.get('shop_id'));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      }
      if (path === '/__fake/revoke' && req.method === 'POST') {
        const s = shopOf(Number(q.get('shop_id')));
        s.expiresAt = 0;
        s.refreshToken = null;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      }
      if (path === '/__fake/orders' && req.method === 'GET') {
        const s = shops.get(Number(q.get('shop_id')));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ orders: s ? [...s.orders.values()] : [] }));
      }
      let body: Record<string, unknown> = {};
      try {
        if (chunks.length) body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return fail(400, 'error_param', 'Invalid JSON body.');
      }
      // Common parameters and the signature, as the real host checks them.
      if (Number(q.get('partner_id')) !== partnerId) return fail(403, 'error_param', 'Invalid partner_id.');
      const timestamp = Number(q.get('timestamp'));
      if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300)
        return fail(403, 'error_param', 'Invalid timestamp.');
      const isShopCall = path.startsWith('/api/v2/order/') || path.startsWith('/api/v2/logistics/');
      const accessToken = q.get('access_token') ?? undefined;
      const shopId = q.get('shop_id') ? Number(q.get('shop_id')) : undefined;
      const expected = shopeeSign(partnerKey, {
        partnerId,
        path,
        timestamp,
        ...(isShopCall ? { accessToken: accessToken ?? '', shopId } : {}),
      });
      if (q.get('sign') !== expected) {
        state.badSigns++;
        return fail(403, 'error_sign', 'Wrong sign.');
      }
      // The seller's authorisation page: the fake authorises at once and sends the browser back with a code.
      if (path === '/api/v2/shop/auth_partner' && req.method === 'GET') {
        const redirect = q.get('redirect');
        if (!redirect) return fail(400, 'error_param', 'redirect is required.');
        const shopId = nextAuthorising ?? opts.authorisingShopId ?? 880_001;
        nextAuthorising = null;
        shopOf(shopId);
        const code = randomBytes(16).toString('hex');
        codes.set(code, shopId);
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set('shop_id', String(shopId));
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (path === '/api/v2/auth/token/get') {
        const shop = codes.get(String(body.code));
        if (shop === undefined || shop !== Number(body.shop_id)) return fail(403, 'error_auth', 'Invalid code.');
        codes.delete(String(body.code));
        return send(200, issueTokens(shopOf(shop)));
      }
      if (path === '/api/v2/auth/access_token/get') {
        const s = shops.get(Number(body.shop_id));
        if (!s?.refreshToken || s.refreshToken !== body.refresh_token)
          return fail(403, 'error_auth', 'Invalid refresh_token.');
        if (Date.now() / 1000 > s.refreshExpiresAt)
          return fail(403, 'refresh_token_expired', 'Your refresh_token expired.');
        return send(200, { ...issueTokens(s), partner_id: partnerId, shop_id: Number(body.shop_id) });
      }
      if (!isShopCall) return fail(404, 'error_not_found', 'Wrong path.');
      shopCalls++;
      if (failFrom !== null && shopCalls > failFrom) return fail(500, 'error_server', 'Internal server error.');
      const injected = failures.shift();
      if (injected === 'server') return fail(503, 'error_server', 'Service unavailable, please try later.');
      if (injected === 'rate_limit') return fail(429, 'error_too_many_request', 'Too many requests.');
      const s = shopId === undefined ? undefined : shops.get(shopId);
      if (s && accessToken && s.retired.has(accessToken)) deadCalls.set(s, (deadCalls.get(s) ?? 0) + 1);
      if (s && s.expireAfterCalls !== null && s.expireAfterCalls-- <= 0) {
        s.expiresAt = 0;
        s.expireAfterCalls = null;
      }
      if (!s?.accessToken || accessToken !== s.accessToken || Date.now() / 1000 > s.expiresAt)
        return fail(403, 'invalid_acceess_token', 'Invalid access_token.');

      if (path === '/api/v2/order/get_order_list') {
        const from = Number(q.get('time_from'));
        const to = Number(q.get('time_to'));
        const size = Number(q.get('page_size') ?? 20);
        if (q.get('time_range_field') !== 'update_time' && q.get('time_range_field') !== 'create_time')
          return fail(400, 'error_param', 'time_range_field is invalid.');
        if (!(to > from) || to - from > WINDOW) return fail(400, 'error_param', 'time_from/time_to exceeds 15 days.');
        if (!(size >= 1 && size <= 100)) return fail(400, 'error_param', 'page_size should be between 1 and 100.');
        const status = q.get('order_status');
        const all = [...s.orders.values()]
          .filter((o) => o.update_time >= from && o.update_time <= to && (!status || o.order_status === status))
          .sort((a, b) => a.update_time - b.update_time || a.order_sn.localeCompare(b.order_sn));
        const offset = Number(q.get('cursor') || 0);
        const page = all.slice(offset, offset + size);
        const more = offset + size < all.length;
        return send(200, {
          response: {
            more,
            next_cursor: more ? String(offset + size) : '',
            order_list: page.map((o) => ({ order_sn: o.order_sn })),
          },
        });
      }
      if (path === '/api/v2/order/get_order_detail') {
        const list = (q.get('order_sn_list') ?? '').split(',').filter(Boolean);
        if (list.length === 0 || list.length > 50)
          return fail(400, 'error_param', 'order_sn_list should contain 1 to 50 orders.');
        return send(200, {
          response: {
            order_list: list
              .map((sn) => s.orders.get(sn))
              .filter((o): o is TFakeShopeeOrder => !!o)
              .map((full) => {
                const {
                  tracking_number: _t,
                  arranged: _a,
                  arrangement: _r,
                  ship_calls: _s,
                  logistics_channel_id: _c,
                  ...o
                } = full;
                const ch = channelOf(full);
                return {
                  ...o,
                  // TW integrated channels: the recipient is all masked.
                  recipient_address: ch.integrated
                    ? Object.fromEntries(Object.keys(o.recipient_address).map((k) => [k, '****']))
                    : o.recipient_address,
                  shipping_carrier: ch.name,
                  package_list: [
                    { package_number: `PK${o.order_sn}`, logistics_channel_id: ch.id, shipping_carrier: ch.name },
                  ],
                };
              }),
          },
        });
      }
      if (path === '/api/v2/logistics/get_channel_list') {
        return send(200, {
          response: {
            logistics_channel_list: FAKE_SHOPEE_CHANNELS.map((c) => ({
              logistics_channel_id: c.id,
              logistics_channel_name: c.name,
              enabled: true,
              cod_enabled: true,
              mask_channel_id: 0,
              logistics_capability: { seller_logistics: !c.integrated },
            })),
          },
        });
      }
      if (path === '/api/v2/logistics/get_address_list') {
        return send(200, {
          response: {
            show_pickup_address: true,
            address_list: PICKUP_ADDRESSES.map((a) => ({
              ...a,
              region: 'TW',
              state: '',
              town: '',
              address_status: 'ACTIVE',
            })),
          },
        });
      }
      if (path === '/api/v2/logistics/get_shipping_parameter') {
        const o = s.orders.get(q.get('order_sn') ?? '');
        if (!o) return fail(400, 'error_not_found', 'Wrong parameters, detail: order not found.');
        if (o.order_status !== 'READY_TO_SHIP')
          return fail(
            400,
            'error_param',
            'Shipping parameters can only be obtained when package is ready to be shipped',
          );
        const ch = channelOf(o);
        if (!ch.integrated) return send(200, { response: { info_needed: { non_integrated: ['tracking_no'] } } });
        const info: Record<string, string[]> = {};
        const response: Record<string, unknown> = { info_needed: info };
        if (ch.modes.includes('pickup')) {
          info.pickup = ['address_id', 'pickup_time_id'];
          response.pickup = {
            address_list: PICKUP_ADDRESSES.map((a) => ({
              ...a,
              region: 'TW',
              state: '',
              town: '',
              time_slot_list: timeSlots(),
            })),
          };
        }
        if (ch.modes.includes('dropoff')) {
          info.dropoff = ['branch_id'];
          response.dropoff = { branch_list: BRANCHES, slug_list: [] };
        }
        return send(200, { response });
      }
      if (path === '/api/v2/logistics/ship_order' && req.method === 'POST') {
        const o = s.orders.get(String(body.order_sn));
        if (!o) return fail(400, 'error_not_found', 'Order not found.');
        o.ship_calls = (o.ship_calls ?? 0) + 1;
        if (o.order_status !== 'READY_TO_SHIP')
          return fail(400, 'logistics.error_status', `The order status is ${o.order_status}.`);
        const ch = channelOf(o);
        const done = (arrangement: Record<string, unknown>, tracking: string) => {
          o.tracking_number = tracking;
          o.arrangement = arrangement;
          o.arranged = (o.arranged ?? 0) + 1;
          o.order_status = 'PROCESSED';
          o.update_time = Math.floor(Date.now() / 1000);
          return send(200, { response: {} });
        };
        if (!ch.integrated) {
          const tn = (body.non_integrated as { tracking_number?: string } | undefined)?.tracking_number;
          if (!tn) return fail(400, 'error_param', 'tracking_number is required.');
          return done({ non_integrated: { tracking_number: tn } }, tn);
        }
        if (body.non_integrated)
          return fail(
            400,
            'logistics.ship_order_unsupport_non_integrated',
            'This logistics channel does not support non-integrated shipping.',
          );
        const tracking = `${ch.prefix}${String(Date.now() % 1e10).padStart(10, '0')}${String(o.order_sn.length % 10)}`;
        const pickup = body.pickup as { address_id?: number; pickup_time_id?: string } | undefined;
        const dropoff = body.dropoff as { branch_id?: number } | undefined;
        if (pickup) {
          if (!ch.modes.includes('pickup'))
            return fail(400, 'logistics.error_param', 'Pickup is not supported by this channel.');
          if (!PICKUP_ADDRESSES.some((a) => a.address_id === Number(pickup.address_id)))
            return fail(400, 'logistics.address_not_found', 'Address is not found.');
          if (!timeSlots().some((t) => t.pickup_time_id === pickup.pickup_time_id))
            return fail(
              400,
              'logistics.error_cutoff_time',
              'Pickup time is not invalid. Please check the pickup time.',
            );
          return done({ pickup }, tracking);
        }
        if (dropoff) {
          if (!ch.modes.includes('dropoff'))
            return fail(400, 'logistics.error_param', 'Dropoff is not supported by this channel.');
          if (!BRANCHES.some((b) => b.branch_id === Number(dropoff.branch_id)))
            return fail(400, 'logistics.error_param', 'branch_id is invalid.');
          return done({ dropoff }, tracking);
        }
        return fail(400, 'error_param', 'Wrong parameters, detail: pickup or dropoff is required.');
      }
      if (path === '/api/v2/logistics/create_shipping_document' && req.method === 'POST') {
        const list = (body.order_list ?? []) as Array<{
          order_sn: string;
          tracking_number?: string;
          shipping_document_type?: string;
        }>;
        if (list.length < 1 || list.length > 50)
          return fail(400, 'error_param', 'order_list should contain 1 to 50 orders.');
        return send(200, {
          response: {
            result_list: list.map((item) => {
              const o = s.orders.get(item.order_sn);
              const row = { order_sn: item.order_sn, package_number: '' };
              if (!o) return { ...row, fail_error: 'logistics.order_not_found', fail_message: 'Order not found.' };
              if (!o.tracking_number || !channelOf(o).integrated)
                return {
                  ...row,
                  fail_error: 'logistics.tracking_number_invalid',
                  fail_message: 'Please arrange shipment first.',
                };
              if (item.tracking_number !== o.tracking_number)
                return {
                  ...row,
                  fail_error: 'logistics.tracking_number_invalid',
                  fail_message: 'Tracking number is invalid.',
                };
              if (!['NORMAL_AIR_WAYBILL', 'THERMAL_AIR_WAYBILL'].includes(item.shipping_document_type ?? ''))
                return {
                  ...row,
                  fail_error: 'logistics.shipping_document_type_invalid',
                  fail_message: 'Invalid document type.',
                };
              documents.set(`${shopId}:${o.order_sn}`, { polls: 0, type: item.shipping_document_type! });
              return { ...row, fail_error: '', fail_message: '' };
            }),
          },
        });
      }
      if (path === '/api/v2/logistics/get_shipping_document_result' && req.method === 'POST') {
        const list = (body.order_list ?? []) as Array<{ order_sn: string }>;
        return send(200, {
          response: {
            result_list: list.map((item) => {
              const d = documents.get(`${shopId}:${item.order_sn}`);
              if (!d)
                return {
                  order_sn: item.order_sn,
                  package_number: '',
                  status: 'FAILED',
                  fail_error: 'logistics.shipping_document_not_exist',
                  fail_message: 'Create the document first.',
                };
              // Shopee makes the document in the background: the first look finds it PROCESSING.
              d.polls++;
              return {
                order_sn: item.order_sn,
                package_number: '',
                status: d.polls > 1 ? 'READY' : 'PROCESSING',
                fail_error: '',
                fail_message: '',
              };
            }),
          },
        });
      }
      if (path === '/api/v2/logistics/download_shipping_document' && req.method === 'POST') {
        const list = (body.order_list ?? []) as Array<{ order_sn: string }>;
        const orders: TFakeShopeeOrder[] = [];
        for (const item of list) {
          const d = documents.get(`${shopId}:${item.order_sn}`);
          const o = s.orders.get(item.order_sn);
          if (!o || !d || d.polls < 2)
            return fail(400, 'logistics.shipping_document_not_ready', 'The document is not ready.');
          orders.push(o);
        }
        void labelPdf(orders, (o) => documents.get(`${shopId}:${o.order_sn}`)!.type).then((pdf) => {
          downloads++;
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
          res.end(pdf);
        });
        return;
      }
      if (path === '/api/v2/logistics/get_tracking_number') {
        const o = s.orders.get(q.get('order_sn') ?? '');
        if (!o) return fail(400, 'error_not_found', 'Order not found.');
        return send(200, { response: { tracking_number: o.tracking_number ?? '' } });
      }
      return fail(404, 'error_not_found', 'Wrong path.');
    };
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    partnerId,
    partnerKey,
    get badSigns() {
      return state.badSigns;
    },
    dropAnswers(path, n) {
      dropped.set(path, n);
    },
    get downloads() {
      return downloads;
    },
    issueCode(shopId) {
      shopOf(shopId);
      const code = randomBytes(16).toString('hex');
      codes.set(code, shopId);
      return code;
    },
    addOrders(shopId, orders) {
      const s = shopOf(shopId);
      for (const o of orders) s.orders.set(o.order_sn, o);
    },
    order: (shopId, sn) => shops.get(shopId)?.orders.get(sn),
    setStatus(shopId, sn, status) {
      const o = shops.get(shopId)?.orders.get(sn);
      if (o) {
        o.order_status = status;
        o.update_time = Math.floor(Date.now() / 1000);
      }
    },
    expireToken(shopId) {
      shopOf(shopId).expiresAt = 0;
    },
    expireTokenAfter(shopId, calls) {
      shopOf(shopId).expireAfterCalls = calls;
    },
    revoke(shopId) {
      const s = shopOf(shopId);
      s.expiresAt = 0;
      s.refreshToken = null;
    },
    expireRefresh(shopId) {
      const s = shopOf(shopId);
      s.expiresAt = 0;
      s.refreshExpiresAt = 0;
    },
    deadTokenCalls: (shopId) => deadCalls.get(shopOf(shopId)) ?? 0,
    failNext(n, kind) {
      failures = [...failures, ...Array.from({ length: n }, () => kind)];
    },
    failAfter(calls) {
      failFrom = shopCalls + calls;
    },
    heal() {
      failFrom = null;
      failures = [];
    },
    calls: (p) => (p ? (counts.get(p) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A READY_TO_SHIP order for the fake, with a valid Taiwan recipient. */
export function fakeShopeeOrder(
  orderSn: string,
  items: Array<{ sku: string; model?: string; quantity?: number; price?: number }>,
  extra: Partial<TFakeShopeeOrder> = {},
): TFakeShopeeOrder {
  return {
    order_sn: orderSn,
    order_status: 'READY_TO_SHIP',
    update_time: Math.floor(Date.now() / 1000) - 60,
    total_amount: items.reduce((a, i) => a + (i.price ?? 100) * (i.quantity ?? 1), 0),
    cod: false,
    recipient_address: {
      name: '王小明',
      phone: '0912345678',
      zipcode: '100',
      city: '台北市',
      district: '中正區',
      full_address: '台北市中正區重慶南路一段122號',
    },
    item_list: items.map((i) => ({
      item_sku: i.sku,
      model_sku: i.model ?? '',
      model_quantity_purchased: i.quantity ?? 1,
      model_discounted_price: i.price ?? 100,
    })),
    ...extra,
  };
}
