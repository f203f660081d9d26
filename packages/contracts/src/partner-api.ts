import { z } from 'zod';
import { ZSetCvsStore } from './carriers';
import { ZProduct, ZProductListQuery } from './catalog';
import { ZId, ZIdParams, ZIsoDate, ZOk, ZPage } from './common';
import { INBOUND_CATEGORIES, INBOUND_MAX_LINES, ZInboundReceiptDetail } from './inbound';
import {
  MAX_LINE_QUANTITY,
  MAX_ORDER_LINES,
  ORDER_CATEGORIES,
  ORDER_TEXT_LIMITS,
  PACKAGE_SIZES,
  TIME_SLOTS,
  ZAmount,
  ZConsignmentNumber,
  ZOrderDetail,
  ZPieceCount,
  ZText,
} from './outbound';
import { API_SCOPES, defineRoutes } from './routes';
import { ZProductStockQuery, ZProductStockRow } from './stock';
import { ZPartnerUsageEvent, ZSellerStatementListQuery, ZStatement, ZStatementEventsQuery } from './usage';

/**
 * API settings (spec §3 "API setting") and the public partner API (`/api/v1/…`, authenticated by an API key).
 * A `partner` setting holds a key (shown once, stored as a hash) and the order-callback settings; a `connection`
 * setting is an outgoing connection to the seller's own system (user name, password, access/refresh token).
 */
export const API_SETTING_KINDS = ['partner', 'connection'] as const;
export type TApiSettingKind = (typeof API_SETTING_KINDS)[number];

/** Events a partner setting can be called back with. */
export const CALLBACK_EVENTS = ['order.created', 'order.status_changed', 'order.consignment_number'] as const;
export type TCallbackEvent = (typeof CALLBACK_EVENTS)[number];

/** Header the partner API key travels in (`Authorization: Bearer <key>` works too). */
export const API_KEY_HEADER = 'x-api-key';
/** Header of our callbacks' signature: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const CALLBACK_SIGNATURE_HEADER = 'x-wms-signature';

const ZHeaderName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/);
/** The partner's own HTTP headers sent with every callback (values are secrets: stored encrypted, shown masked). */
export const ZHttpHeaders = z
  .record(
    ZHeaderName,
    z
      .string()
      .max(2000)
      .regex(/^[^\r\n]*$/),
  )
  .refine((h) => Object.keys(h).length <= 20);

const ZUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((u) => !/[\s]/.test(u));

const settingFields = {
  name: z.string().trim().min(1).max(100),
  callback_url: ZUrl.nullable(),
  /** Replaces all headers when given. */
  http_headers: ZHttpHeaders,
  order_callback_enabled: z.boolean(),
  callback_events: z.array(z.enum(CALLBACK_EVENTS)).max(CALLBACK_EVENTS.length),
  /** A connection setting whose bearer token callbacks send (instead of a static Authorization header). */
  connection_id: ZId.nullable(),
  rate_limit_per_minute: z.number().int().min(1).max(6000),
  /** What the key may do (partner keys): read, orders, full. */
  scope: z.enum(API_SCOPES),
  base_url: ZUrl.nullable(),
  token_url: ZUrl.nullable(),
  user_name: z.string().trim().max(200).nullable(),
  /** Secrets: omit to keep, null or '' to clear. */
  password: z.string().max(2000).nullable(),
  access_token: z.string().max(8000).nullable(),
  refresh_token: z.string().max(8000).nullable(),
};

export const ZCreateApiSetting = z
  .strictObject({ ...settingFields, kind: z.enum(API_SETTING_KINDS) })
  .partial()
  .required({ name: true, kind: true });
export type TCreateApiSetting = z.infer<typeof ZCreateApiSetting>;
export const ZUpdateApiSetting = z.strictObject(settingFields).partial();
export type TUpdateApiSetting = z.infer<typeof ZUpdateApiSetting>;

export const ZApiSetting = z.object({
  id: ZId,
  name: z.string(),
  kind: z.enum(API_SETTING_KINDS),
  enabled: z.boolean(),
  /** First characters of the key, to tell keys apart (the key itself is shown once). */
  key_prefix: z.string().nullable(),
  key_issued_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  rate_limit_per_minute: z.number().int(),
  scope: z.enum(API_SCOPES),
  callback_url: z.string().nullable(),
  /** Header names with masked values. */
  http_headers: z.record(z.string(), z.string()),
  order_callback_enabled: z.boolean(),
  callback_events: z.array(z.enum(CALLBACK_EVENTS)),
  connection_id: ZId.nullable(),
  connection_name: z.string().nullable(),
  base_url: z.string().nullable(),
  token_url: z.string().nullable(),
  user_name: z.string().nullable(),
  /** Masked secrets (`••••abcd`), null when not set. */
  password: z.string().nullable(),
  access_token: z.string().nullable(),
  refresh_token: z.string().nullable(),
  signing_secret: z.string().nullable(),
  token_expires_at: z.string().nullable(),
  last_test_at: z.string().nullable(),
  last_test_ok: z.boolean().nullable(),
  last_test_message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TApiSetting = z.infer<typeof ZApiSetting>;

export const ZApiSettingQuery = z.object({ kind: z.enum(API_SETTING_KINDS).optional() });

/** Answer of enabling: the key and the signing secret in clear, this once. */
export const ZApiKeyIssued = z.object({ setting: ZApiSetting, api_key: z.string(), signing_secret: z.string() });
export type TApiKeyIssued = z.infer<typeof ZApiKeyIssued>;

export const CALLBACK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
/** One callback message (an event to one setting's URL) and its last attempt. */
export const ZCallbackDelivery = z.object({
  id: ZId,
  event_id: z.string(),
  event_type: z.string(),
  order_number: z.string().nullable(),
  state: z.enum(CALLBACK_DELIVERY_STATES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  last_status: z.number().int().nullable(),
  last_duration_ms: z.number().int().nullable(),
  last_response: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  /** When the next try is due (pending messages that are waiting for a retry). */
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type TCallbackDelivery = z.infer<typeof ZCallbackDelivery>;
export const ZCallbackDeliveryQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 25, 50, 100].includes(n))
    .default(25),
  state: z.enum(CALLBACK_DELIVERY_STATES).optional(),
});
export const ZDeliveryParams = z.object({ id: ZId, delivery_id: ZId });
export const ZConnectionTest = z.object({ ok: z.boolean(), message: z.string(), setting: ZApiSetting });

export const apiSettingRoutes = defineRoutes({
  listApiSettings: {
    method: 'GET',
    path: '/api/api-settings/',
    auth: 'customer',
    perm: 'api:read',
    query: ZApiSettingQuery,
    response: z.array(ZApiSetting),
  },
  getApiSetting: {
    method: 'GET',
    path: '/api/api-settings/:id/',
    auth: 'customer',
    perm: 'api:read',
    params: ZIdParams,
    response: ZApiSetting,
    tenantScoped: true,
  },
  createApiSetting: {
    method: 'POST',
    path: '/api/api-settings/',
    auth: 'customer',
    perm: 'api:write',
    body: ZCreateApiSetting,
    response: ZApiSetting,
  },
  updateApiSetting: {
    method: 'PATCH',
    path: '/api/api-settings/:id/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    body: ZUpdateApiSetting,
    response: ZApiSetting,
    tenantScoped: true,
  },
  deleteApiSetting: {
    method: 'DELETE',
    path: '/api/api-settings/:id/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  /** Issue a key (and a signing secret), shown once. A lost key: disable, then enable again. */
  enableApiSetting: {
    method: 'POST',
    path: '/api/api-settings/:id/enable/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZApiKeyIssued,
    tenantScoped: true,
  },
  /** Revoke the key at once. */
  disableApiSetting: {
    method: 'POST',
    path: '/api/api-settings/:id/disable/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZApiSetting,
    tenantScoped: true,
  },
  /** A connection: get a token (refresh or password grant) or call the base URL, and record the result. */
  testApiConnection: {
    method: 'POST',
    path: '/api/api-settings/:id/test/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZConnectionTest,
    tenantScoped: true,
  },
  /** Queue a `ping` event to the setting's callback URL. */
  sendTestCallback: {
    method: 'POST',
    path: '/api/api-settings/:id/test-event/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZCallbackDelivery,
    tenantScoped: true,
  },
  listCallbackDeliveries: {
    method: 'GET',
    path: '/api/api-settings/:id/deliveries/',
    auth: 'customer',
    perm: 'api:read',
    params: ZIdParams,
    query: ZCallbackDeliveryQuery,
    response: ZPage(ZCallbackDelivery),
    tenantScoped: true,
  },
  /** Send an event again: a new delivery of the same event (same event id), after the order's earlier ones. */
  resendCallback: {
    method: 'POST',
    path: '/api/api-settings/:id/deliveries/:delivery_id/resend/',
    auth: 'customer',
    perm: 'api:write',
    params: ZDeliveryParams,
    response: ZCallbackDelivery,
    tenantScoped: true,
  },
});

// ---- the public partner API (/api/v1/, API key) ----

const L = ORDER_TEXT_LIMITS;
export const ZApiOrderLine = z.strictObject({
  /** Product number (SKU) or barcode. */
  sku: z.string().trim().min(1).max(48),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  unit_price: ZAmount.nullable().optional(),
});
/** An order from the partner's system: codes instead of ids, as in the order file import. */
export const ZApiCreateOrder = z.strictObject({
  /** The partner's own order number: an order number the seller already has (same platform) is not created twice. */
  order_number: z.string().trim().min(1).max(L.platform_order_number),
  /** E-commerce platform code or name (/ecommerce-channel). */
  platform: z.string().trim().max(100).nullable().optional(),
  /** Warehouse code (default: the seller's only warehouse). */
  warehouse: z.string().trim().max(50).nullable().optional(),
  /** Logistics provider code or name (default: the first product's). */
  logistics_provider: z.string().trim().max(100).nullable().optional(),
  category: z.enum(ORDER_CATEGORIES).nullable().optional(),
  third_party_number: ZText(L.third_party_number).optional(),
  consignment_number: ZConsignmentNumber.nullable().optional(),
  shipping_date: ZIsoDate.nullable().optional(),
  recipient_name: z.string().trim().min(1).max(L.recipient_name),
  recipient_phone: ZText(L.recipient_phone).optional(),
  recipient_mobile: ZText(L.recipient_mobile).optional(),
  recipient_postcode: z.string().trim().min(1).max(L.recipient_postcode),
  recipient_address: z.string().trim().min(1).max(L.recipient_address),
  sender_name: ZText(L.sender_name).optional(),
  sender_phone: ZText(L.sender_phone).optional(),
  sender_postcode: ZText(L.sender_postcode).optional(),
  sender_address: ZText(L.sender_address).optional(),
  /** Convenience-store pickup through ECPay: the chain/kind (LogisticsSubType) and the buyer's store id and name. */
  cvs_store: ZSetCvsStore.optional(),
  shipping_remark: ZText(L.shipping_remark).optional(),
  arrival_date: ZIsoDate.nullable().optional(),
  arrival_time_slot: z.enum(TIME_SLOTS).nullable().optional(),
  cod: z.boolean().optional(),
  cod_amount: ZAmount.nullable().optional(),
  total_amount: ZAmount.nullable().optional(),
  piece_count: ZPieceCount.optional(),
  volume: z.enum(PACKAGE_SIZES).nullable().optional(),
  lines: z.array(ZApiOrderLine).min(1).max(MAX_ORDER_LINES),
});
export type TApiCreateOrder = z.infer<typeof ZApiCreateOrder>;

export const ZApiOrderParams = z.object({
  /** Our order number (OUT…), the partner's order number or the consignment number. */
  code: z.string().trim().min(1).max(64),
});

export const ZApiStockQuery = ZProductStockQuery.extend({
  /** Product number (SKU) or barcode. */
  sku: z.string().trim().max(48).optional(),
  /** Warehouse code. */
  warehouse: z.string().trim().max(50).optional(),
});

export const ZApiInboundLine = z.strictObject({
  sku: z.string().trim().min(1).max(48),
  quantity: z.number().int().min(1).max(1_000_000),
  expiry_date: ZIsoDate.nullable().optional(),
});
export const ZApiCreateInbound = z.strictObject({
  /** Warehouse code (default: the seller's only warehouse). */
  warehouse: z.string().trim().max(50).nullable().optional(),
  category: z.enum(INBOUND_CATEGORIES).default('purchase'),
  planned_date: ZIsoDate,
  remark: z.string().trim().max(500).optional(),
  lines: z.array(ZApiInboundLine).min(1).max(INBOUND_MAX_LINES),
});
export type TApiCreateInbound = z.infer<typeof ZApiCreateInbound>;

/**
 * The version of the partner API (`/api/v1/`) that partners integrate with, recorded in docs/api/partner-api.json.
 * A breaking change to it — a removed path or field, a narrowed type — fails `npm test` unless this major is raised
 * (apps/server/src/test/openapi-record.ts); a compatible addition may raise the minor.
 */
export const PARTNER_API_VERSION = '1.2.0';

export const partnerApiRoutes = defineRoutes({
  /** Create an order (201), or answer the one already created with this order number or Idempotency-Key (200). */
  apiCreateOrder: {
    method: 'POST',
    path: '/api/v1/orders/',
    auth: 'apikey',
    scope: 'orders',
    body: ZApiCreateOrder,
    response: ZOrderDetail,
  },
  apiGetOrder: {
    method: 'GET',
    path: '/api/v1/orders/:code/',
    auth: 'apikey',
    scope: 'read',
    params: ZApiOrderParams,
    response: ZOrderDetail,
  },
  /** Cancel an order that is still pending export. */
  apiCancelOrder: {
    method: 'POST',
    path: '/api/v1/orders/:code/cancel/',
    auth: 'apikey',
    scope: 'orders',
    params: ZApiOrderParams,
    response: ZOrderDetail,
  },
  apiListProducts: {
    method: 'GET',
    path: '/api/v1/products/',
    auth: 'apikey',
    scope: 'read',
    query: ZProductListQuery,
    response: ZPage(ZProduct),
  },
  /** Stock per product and warehouse: on hand, reserved, available. */
  apiStock: {
    method: 'GET',
    path: '/api/v1/stock/',
    auth: 'apikey',
    scope: 'read',
    query: ZApiStockQuery,
    response: ZPage(ZProductStockRow),
  },
  /** Create an inbound receipt (201), or answer the one created with this Idempotency-Key (200). */
  apiCreateInbound: {
    method: 'POST',
    path: '/api/v1/inbound-receipts/',
    auth: 'apikey',
    scope: 'full',
    body: ZApiCreateInbound,
    response: ZInboundReceiptDetail,
  },
  /** The key's seller's usage statements (issued, paid, void), newest month first, each with its lines and totals. */
  apiStatements: {
    method: 'GET',
    path: '/api/v1/statements/',
    auth: 'apikey',
    scope: 'read',
    query: ZSellerStatementListQuery,
    response: ZPage(ZStatement),
  },
  apiStatement: {
    method: 'GET',
    path: '/api/v1/statements/:id/',
    auth: 'apikey',
    scope: 'read',
    params: ZIdParams,
    response: ZStatement,
  },
  /** The billable events of a statement (optionally of one line's kind), each with its document, oldest first. */
  apiStatementEvents: {
    method: 'GET',
    path: '/api/v1/statements/:id/events/',
    auth: 'apikey',
    scope: 'read',
    params: ZIdParams,
    query: ZStatementEventsQuery,
    response: ZPage(ZPartnerUsageEvent),
  },
});
