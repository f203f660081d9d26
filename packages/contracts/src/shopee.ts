import { z } from 'zod';
import { PAGE_SIZES, ZIdParams, ZPage } from './common';
import { defineRoutes } from './routes';

/**
 * How a connected shop stands: connected, its token about to expire, an error (with Shopee's message), waiting to be
 * authorised again (Shopee declared its refresh token dead: nothing is called until the seller does), disconnected.
 */
export const SHOPEE_SHOP_STATES = ['connected', 'token_expiring', 'error', 'reauthorize', 'disconnected'] as const;
export type TShopeeShopState = (typeof SHOPEE_SHOP_STATES)[number];

/** What became of a Shopee order a sync saw. */
export const SHOPEE_ORDER_STATES = ['created', 'abnormal', 'cancelled', 'flagged'] as const;

export const ZShopeeSyncCounts = z.object({
  listed: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  abnormal: z.number().int(),
  cancelled: z.number().int(),
  flagged: z.number().int(),
});

/**
 * How the shop's Shopee-arranged parcels are handed over, beyond pickup/dropoff: the pickup address (one of the shop's
 * addresses at Shopee; null: the one Shopee flags as pickup address, else the default one), the time-slot rule
 * (Shopee's recommended slot, the earliest one, or the first one starting at or after `pickup_after`, "HH:MM" Taipei
 * time) and, per channel that asks for a branch, the drop-off branch (none: the first Shopee lists).
 */
export const SHOPEE_PICKUP_SLOT_RULES = ['recommended', 'earliest', 'after'] as const;
export const ZShopeeShipSettings = z.object({
  pickup_address_id: z.number().int().positive().nullable(),
  pickup_slot: z.enum(SHOPEE_PICKUP_SLOT_RULES),
  pickup_after: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .nullable(),
  dropoff_branches: z.array(
    z.object({ channel_id: z.number().int().positive(), branch_id: z.number().int().positive() }),
  ),
});
export type TShopeeShipSettings = z.infer<typeof ZShopeeShipSettings>;

/** What the shop can choose from, as Shopee lists it (addresses: get_address_list; branches: get_shipping_parameter). */
export const ZShopeeShipOptions = z.object({
  pickup_addresses: z.array(
    z.object({ address_id: z.number().int(), address: z.string(), flags: z.array(z.string()) }),
  ),
  /** The shop's Shopee-arranged channels with an order waiting to be arranged (branches are listed per order). */
  channels: z.array(
    z.object({
      channel_id: z.number().int(),
      channel_name: z.string(),
      modes: z.array(z.enum(['pickup', 'dropoff'])),
      branches: z.array(z.object({ branch_id: z.number().int(), address: z.string() })),
    }),
  ),
});
export type TShopeeShipOptions = z.infer<typeof ZShopeeShipOptions>;

/** How an order was handed to Shopee (kept on the order when it was arranged). */
export const ZShopeeArrangement = z.object({
  mode: z.enum(['pickup', 'dropoff']),
  address_id: z.number().int().optional(),
  address: z.string().optional(),
  slot_date: z.string().optional(),
  slot_text: z.string().optional(),
  branch_id: z.number().int().optional(),
  branch: z.string().optional(),
});
export type TShopeeArrangement = z.infer<typeof ZShopeeArrangement>;

export const ZShopeeShop = z.object({
  id: z.uuid(),
  shop_id: z.number().int(),
  name: z.string(),
  platform_code: z.string(),
  state: z.enum(SHOPEE_SHOP_STATES),
  token_expires_at: z.string().nullable(),
  refresh_expires_at: z.string().nullable(),
  last_error_code: z.string().nullable(),
  last_error_message: z.string().nullable(),
  last_error_at: z.string().nullable(),
  last_sync_at: z.string().nullable(),
  last_sync_counts: ZShopeeSyncCounts.nullable(),
  abnormal_orders: z.number().int(),
  /** How parcels of Shopee-arranged channels leave: pickup, dropoff, or not set up (null). */
  ship_mode: z.enum(['pickup', 'dropoff']).nullable(),
  ship_settings: ZShopeeShipSettings,
  connected_at: z.string(),
});
export type TShopeeShop = z.infer<typeof ZShopeeShop>;

export const ZShopeeOrder = z.object({
  id: z.uuid(),
  order_sn: z.string(),
  shopee_status: z.string(),
  state: z.enum(SHOPEE_ORDER_STATES),
  order_id: z.uuid().nullable(),
  order_number: z.string().nullable(),
  problem: z
    .object({ code: z.string(), message: z.string(), field: z.string().nullable(), value: z.string().nullable() })
    .nullable(),
  shipped_at: z.string().nullable(),
  /** The order's Shopee channel; `platform_logistics`: Shopee arranges it (masked recipient, Shopee's label). */
  logistics_channel_name: z.string().nullable(),
  platform_logistics: z.boolean(),
  tracking_number: z.string().nullable(),
  /** How it was handed to Shopee (pickup address and slot, or drop-off branch); null: not arranged by us. */
  arrangement: ZShopeeArrangement.nullable(),
  updated_at: z.string(),
});
export type TShopeeOrder = z.infer<typeof ZShopeeOrder>;

export const ZShopeeOrderQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(25),
  state: z.enum(SHOPEE_ORDER_STATES).optional(),
});

/**
 * How far back the first sync of a newly connected shop looks (days). Shopee's `get_order_list` takes a range of at
 * most 15 days per call (its documentation states no limit on how far back); the sync walks 15-day windows, and we
 * allow up to 90 days (a quarter of orders still waiting to ship or being cancelled is more than any real backlog).
 */
export const SHOPEE_FIRST_SYNC_MAX_DAYS = 90;
export const SHOPEE_FIRST_SYNC_DEFAULT_DAYS = 15;

export const ZShopeeConnect = z.object({
  code: z.string().trim().min(1).max(200),
  shop_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  first_sync_days: z.coerce
    .number()
    .int()
    .min(1)
    .max(SHOPEE_FIRST_SYNC_MAX_DAYS)
    .default(SHOPEE_FIRST_SYNC_DEFAULT_DAYS),
});

/** Shopee's push: `{ shop_id, code, timestamp, data }` (code 3: an order's status changed; data.ordersn). */
export const ZShopeePush = z.looseObject({
  shop_id: z.number().int().optional(),
  code: z.number().int(),
  timestamp: z.number().int().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const shopeeRoutes = defineRoutes({
  /** Where to send the seller to authorise a shop (Shopee's page, signed; it returns to /module-shopee-create). */
  shopeeAuthUrl: {
    method: 'GET',
    path: '/api/shopee/auth-url/',
    auth: 'customer',
    perm: 'api:read',
    response: z.object({ url: z.string() }),
  },
  listShopeeShops: {
    method: 'GET',
    path: '/api/shopee/shops/',
    auth: 'customer',
    perm: 'api:read',
    response: z.object({ configured: z.boolean(), results: z.array(ZShopeeShop) }),
  },
  /** The seller came back from Shopee with `code` and `shop_id`: exchange the code for tokens, store the shop. */
  connectShopeeShop: {
    method: 'POST',
    path: '/api/shopee/shops/',
    auth: 'customer',
    perm: 'api:write',
    body: ZShopeeConnect,
    response: ZShopeeShop,
  },
  disconnectShopeeShop: {
    method: 'POST',
    path: '/api/shopee/shops/:id/disconnect/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: ZShopeeShop,
    tenantScoped: true,
  },
  /** Queue a sync of the shop now (the job's id, to follow on /api/jobs/:id/). */
  syncShopeeShop: {
    method: 'POST',
    path: '/api/shopee/shops/:id/sync/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    response: z.object({ job_id: z.string() }),
    tenantScoped: true,
  },
  listShopeeOrders: {
    method: 'GET',
    path: '/api/shopee/shops/:id/orders/',
    auth: 'customer',
    perm: 'api:read',
    params: ZIdParams,
    query: ZShopeeOrderQuery,
    response: ZPage(ZShopeeOrder),
    tenantScoped: true,
  },
  /** How the shop's parcels of Shopee-arranged channels leave: pickup or dropoff (null: not set up). */
  setShopeeShipMode: {
    method: 'PATCH',
    path: '/api/shopee/shops/:id/ship-mode/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    body: z.object({
      ship_mode: z.enum(['pickup', 'dropoff']).nullable(),
      /** Absent: kept as it is. Checked against what Shopee lists for the shop. */
      ship_settings: ZShopeeShipSettings.optional(),
    }),
    response: ZShopeeShop,
    tenantScoped: true,
  },
  /** The pickup addresses and drop-off branches the shop can choose from, read from Shopee. */
  shopeeShipOptions: {
    method: 'GET',
    path: '/api/shopee/shops/:id/ship-options/',
    auth: 'customer',
    perm: 'api:read',
    params: ZIdParams,
    response: ZShopeeShipOptions,
    tenantScoped: true,
  },
  /**
   * "Retry now" on the abnormal list: read these abnormal orders of the shop (default: all of them, up to 500) from
   * Shopee again and create those that now can be (a job; `orders` = how many were queued, 0: nothing abnormal).
   */
  retryShopeeOrders: {
    method: 'POST',
    path: '/api/shopee/shops/:id/orders/retry/',
    auth: 'customer',
    perm: 'api:write',
    params: ZIdParams,
    body: z.object({ order_ids: z.array(z.uuid()).max(500).optional() }),
    response: z.object({ job_id: z.string().nullable(), orders: z.number().int() }),
    tenantScoped: true,
  },
  /**
   * Shopee's push notifications: `Authorization` = HMAC-SHA256(partner key, push URL + "|" + raw body). Answered 200
   * with an EMPTY body (Shopee counts anything else as a failed delivery and re-sends it).
   */
  shopeePush: {
    method: 'POST',
    path: '/api/shopee/push/',
    auth: 'public',
    callback: true,
    body: ZShopeePush,
    response: z.literal(''),
  },
});
