import type { TShopeeArrangement, TShopeeShipSettings } from '@wms/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';
import { outbound_orders } from './outbound';
import { ecommerce_platforms } from './partners';

/** Counts of one sync run, shown on /module-shopee-create. */
export interface TShopeeSyncCounts {
  listed: number;
  created: number;
  skipped: number;
  abnormal: number;
  cancelled: number;
  flagged: number;
}

/**
 * A Shopee shop a seller connected through Shopee's partner authorisation. Tokens are AES-256-GCM encrypted with the
 * app key. `state`: connected | error (the last call failed: `last_error_*` says why) | reauthorize (Shopee declared the
 * refresh token dead: no call until the seller authorises again) | disconnected. Orders of the
 * shop carry the shop's e-commerce platform (`platform_id`, created at connect: code `SHOPEE-<shop id>`).
 */
export const shopee_shops = pgTable(
  'shopee_shops',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    shop_id: bigint('shop_id', { mode: 'number' }).notNull(),
    name: text('name').notNull().default(''),
    platform_id: uuid('platform_id')
      .notNull()
      .references(() => ecommerce_platforms.id),
    state: text('state').notNull().default('connected'),
    access_token_enc: text('access_token_enc'),
    refresh_token_enc: text('refresh_token_enc'),
    token_expires_at: timestamp('token_expires_at', { withTimezone: true }),
    /** Shopee's refresh tokens live 30 days: past this, the seller must authorise again. */
    refresh_expires_at: timestamp('refresh_expires_at', { withTimezone: true }),
    last_error_code: text('last_error_code'),
    last_error_message: text('last_error_message'),
    last_error_at: timestamp('last_error_at', { withTimezone: true }),
    /** Upper end of the last complete sync window: the next run starts a little before it. */
    synced_until: timestamp('synced_until', { withTimezone: true }),
    /**
     * How parcels of Shopee-arranged (integrated) channels leave: 'pickup' (Shopee's carrier collects at the shop's
     * pickup address, in the recommended — else the earliest — time slot) or 'dropoff' (the seller takes them to a
     * branch / store). Null: not set up; an order whose channel offers both then says so at consignment time.
     */
    ship_mode: text('ship_mode'),
    /** Pickup address, time-slot rule and drop-off branch per channel (`TShopeeShipSettings`; {}: Shopee's defaults). */
    ship_settings: jsonb('ship_settings').$type<Partial<TShopeeShipSettings>>().notNull().default({}),
    last_sync_at: timestamp('last_sync_at', { withTimezone: true }),
    last_sync_counts: jsonb('last_sync_counts').$type<TShopeeSyncCounts>(),
    connected_at: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('shopee_shops_customer_shop_key').on(t.customer_id, t.shop_id),
    index('shopee_shops_shop_idx').on(t.shop_id),
    check('shopee_shops_ship_mode_check', sql`${t.ship_mode} is null or ${t.ship_mode} in ('pickup', 'dropoff')`),
    check('shopee_shops_state_check', sql`${t.state} in ('connected', 'error', 'reauthorize', 'disconnected')`),
  ],
);

/**
 * Every Shopee order a sync saw, once per shop and order_sn: what became of it. `state`: created (an order exists:
 * `order_id`), abnormal (not created: `problem` says why — an unmapped SKU is PRODUCT_ABNORMAL —, retried by every
 * sync while Shopee still lists it), cancelled (cancelled in Shopee before export: our order cancelled too), flagged
 * (cancelled in Shopee after export: a person must stop it). `shipped_at`: the tracking number went back to Shopee.
 */
export const shopee_orders = pgTable(
  'shopee_orders',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    shop_ref: uuid('shop_ref')
      .notNull()
      .references(() => shopee_shops.id),
    order_sn: text('order_sn').notNull(),
    shopee_status: text('shopee_status').notNull(),
    state: text('state').notNull(),
    order_id: uuid('order_id').references(() => outbound_orders.id),
    problem: jsonb('problem').$type<{
      code: string;
      message?: string;
      field?: string | null;
      value?: string | null;
    } | null>(),
    /** The order's Shopee logistics channel (package_list[].logistics_channel_id, shipping_carrier). */
    logistics_channel_id: bigint('logistics_channel_id', { mode: 'number' }),
    logistics_channel_name: text('logistics_channel_name'),
    /**
     * A Shopee-arranged (integrated) channel: Shopee masks the recipient, the shipment is arranged with Shopee
     * (`ship_order` pickup/dropoff) and the tracking number and label come from Shopee.
     */
    platform_logistics: boolean('platform_logistics').notNull().default(false),
    /**
     * A consignment run claimed the order to arrange it with Shopee (set in a short transaction before `ship_order`,
     * so two runs never call it at once; a run killed mid-call leaves it, and the next run after the claim's lapse
     * asks Shopee first — tracking number, then order status — instead of calling `ship_order` again).
     */
    arranging_at: timestamp('arranging_at', { withTimezone: true }),
    /** Shopee confirmed the arrangement (ship_order answered, or Shopee already had it): never arranged again. */
    arranged_at: timestamp('arranged_at', { withTimezone: true }),
    tracking_number: text('tracking_number'),
    /** How the order was handed to Shopee when we arranged it (pickup address and slot, or drop-off branch). */
    arrangement: jsonb('arrangement').$type<TShopeeArrangement>(),
    /** The shipment was handed to the outbox (`shopee.ship`): written once, in the same transaction as the message. */
    ship_queued_at: timestamp('ship_queued_at', { withTimezone: true }),
    shipped_at: timestamp('shipped_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('shopee_orders_shop_sn_key').on(t.shop_ref, t.order_sn),
    index('shopee_orders_customer_idx').on(t.customer_id, t.updated_at),
    index('shopee_orders_order_idx').on(t.order_id),
    // What a product write asks (`productCodesKnown`): the seller's abnormal orders only, never all of them.
    index('shopee_orders_abnormal_idx').on(t.customer_id).where(sql`${t.state} = 'abnormal'`),
    check('shopee_orders_state_check', sql`${t.state} in ('created', 'abnormal', 'cancelled', 'flagged')`),
  ],
);

/**
 * Shopee pushes already taken, by the SHA-256 of their raw body: a re-delivery of the same push is answered 2xx and
 * does nothing more. Rows older than the push tolerance are deleted as pushes come in (an older push is refused by
 * its timestamp anyway, so the window of this table is the whole of what can be replayed).
 */
export const shopee_pushes = pgTable(
  'shopee_pushes',
  {
    digest: text('digest').primaryKey(),
    shop_id: bigint('shop_id', { mode: 'number' }),
    code: integer('code').notNull(),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shopee_pushes_received_idx').on(t.received_at)],
);
