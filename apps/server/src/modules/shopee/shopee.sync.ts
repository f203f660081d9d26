import { ORDER_TEXT_LIMITS, SHOPEE_FIRST_SYNC_MAX_DAYS } from '@wms/contracts';
import type { Db, Tx } from '../../db/client';
import type { TShopeeSyncCounts } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import type { TMarketplaceChannel, TMarketplaceOrder } from '../../platform/providers';
import {
  codeKey,
  createOrdersFromRows,
  lockOrder,
  markAbnormal,
  moveOrder,
  orderIdsByPlatformNumber,
  type TOrderIntakeRow,
  type TOrderLookups,
} from '../outbound';
import * as repo from './shopee.repository';
import { shopeeOf, type TShopeeServices, type TShopRow, withShopAccess } from './shopee.shops';

/**
 * Order sync of one Shopee shop. Lists the orders updated since a little before the last complete run (the first run:
 * since the start the seller chose when connecting, up to 90 days), in windows of Shopee's 15 days, in the statuses
 * that matter — READY_TO_SHIP creates orders, IN_CANCEL and CANCELLED or flag one already exported — pages by cursor, reads details 50 at a time, and writes each
 * page in its own transaction: orders through the shared `createOrdersFromRows` (the import's checks and defaults)
 * and one `shopee_orders` row per order_sn. A page that commits stays; a run cut off anywhere is simply run again:
 * order_sn already created are skipped (and the platform order number is unique per seller and platform), so no
 * order is ever made twice. An order that cannot be created (an unmapped SKU: PRODUCT_ABNORMAL) is kept as
 * "abnormal" with its problem, never lost. A later sync sees it again only if Shopee updates it (the list is by
 * update time): it heals when its SKU becomes a product code (`shopee.heal`, queued after that product write through catalog's `catalog.product-codes-changed` event) or when the
 * seller presses "retry now" (a sync of those order_sn).
 */

export const WINDOW_MS = 15 * 86_400_000 - 60_000;
/** How far back a run may list (the first sync's longest choice; a shop idle longer starts here). */
export const MAX_LOOKBACK_MS = SHOPEE_FIRST_SYNC_MAX_DAYS * 86_400_000;
export const OVERLAP_MS = 10 * 60_000;
const DETAIL_BATCH = 50;
const CREATE_STATUSES = new Set(['READY_TO_SHIP']);
export const CANCEL_STATUSES = new Set(['IN_CANCEL', 'CANCELLED']);
export const LIST_STATUSES = ['READY_TO_SHIP', 'IN_CANCEL', 'CANCELLED'] as const;

const shopActor = (shop: TShopRow): TActor => ({ kind: 'system', id: null, customerId: shop.customer_id });

export const emptyCounts = (): TShopeeSyncCounts => ({
  listed: 0,
  created: 0,
  skipped: 0,
  abnormal: 0,
  cancelled: 0,
  flagged: 0,
});

/** A Shopee order as order-intake rows: one row per item, the order's fields on the first. */
export function orderRows(o: TMarketplaceOrder, firstRow: number, platformLogistics = false): TOrderIntakeRow[] {
  const phone = o.recipient.phone.replace(/[\s-]/g, '');
  // A masked phone ("****", a Shopee-arranged channel) is kept as the order's mobile, as Shopee gave it.
  const mobile = /^(\+?886|0)9\d{8}$/.test(phone) || (platformLogistics && /^\*+$/.test(phone));
  const cut = (s: string, field: keyof typeof ORDER_TEXT_LIMITS) => s.slice(0, ORDER_TEXT_LIMITS[field]);
  const fields = {
    platform_logistics: platformLogistics,
    platform_order_number: o.orderNumber,
    third_party_number: null,
    consignment_number: null,
    shipping_date: null,
    category: null,
    channel: 'ecommerce' as const,
    is_cross_border: false,
    recipient_name: o.recipient.name,
    recipient_phone: mobile ? '' : phone,
    recipient_mobile: mobile ? phone : '',
    recipient_postcode: o.recipient.zipcode,
    recipient_address: o.recipient.fullAddress,
    sender_name: '',
    sender_phone: '',
    sender_postcode: '',
    sender_address: '',
    shipping_remark: cut(o.note, 'shipping_remark'),
    warehouse: null,
    arrival_date: null,
    arrival_time_slot: null,
    logistics_provider: null,
    platform: null,
    cod: o.cod,
    cod_amount: null,
    total_amount: o.totalAmount,
    piece_count: 1,
    volume: null,
  };
  const items = o.items.length ? o.items : [{ itemSku: '', modelSku: '', quantity: 0, price: null }];
  return items.map((i, n) => ({
    row: firstRow + n,
    key: o.orderNumber,
    ...(n === 0 ? { order: fields } : {}),
    // Model SKU first (a variant), then the item's SKU.
    line: {
      products: [i.modelSku, i.itemSku].filter((s) => s.trim() !== ''),
      quantity: i.quantity,
      unit_price: i.price,
    },
  }));
}

type TProblem = { code: string; message: string; field: string | null; value: string | null };

function problemOf(err: unknown, order?: TMarketplaceOrder, lookups?: TOrderLookups): TProblem {
  if (err instanceof AppError && err.code === 'IMPORT_REJECTED') {
    const first = (err.params.errors as Array<Record<string, unknown>> | undefined)?.[0];
    if (first) {
      const code = String(first.code ?? 'IMPORT_REJECTED');
      const field = first.field == null ? null : String(first.field);
      // The SKU nobody knows (model SKU first, as the mapping reads them): what the seller has to add or fix.
      const unknown =
        code === 'PRODUCT_ABNORMAL' && order && lookups
          ? order.items
              .map((i) => [i.modelSku, i.itemSku].filter((c) => c.trim() !== ''))
              .find((c) => !c.some((sku) => lookups.products.has(codeKey(sku))))?.[0]
          : undefined;
      return { code, message: String(first.message ?? ''), field, value: unknown ?? null };
    }
  }
  if (err instanceof AppError) return { code: err.code, message: err.code, field: null, value: null };
  throw err;
}

/**
 * Write one page of orders in the caller's transaction: the new ones created (all at once; when that is refused, one
 * by one so a single bad order does not hold back the rest), every order_sn recorded with what became of it.
 */
async function writeOrders(
  tx: Tx,
  shop: TShopRow,
  orders: TMarketplaceOrder[],
  lookups: TOrderLookups,
  counts: TShopeeSyncCounts,
  channels: Map<number, TMarketplaceChannel> = new Map(),
): Promise<void> {
  const actor = shopActor(shop);
  const channelOf = (o: TMarketplaceOrder) => (o.logisticsChannelId ? channels.get(o.logisticsChannelId) : undefined);
  const integrated = (o: TMarketplaceOrder) => channelOf(o)?.integrated === true;
  const known = new Map(
    (
      await repo.orderStates(
        tx,
        shop.id,
        orders.map((o) => o.orderNumber),
      )
    ).map((r) => [r.order_sn, r.state]),
  );
  const todo = orders.filter((o) => {
    const state = known.get(o.orderNumber);
    if (state && state !== 'abnormal') {
      counts.skipped++;
      return false;
    }
    return true;
  });
  if (todo.length === 0) return;
  const opts = { platformId: shop.platform_id, lookups };
  const problems = new Map<string, TProblem>();
  const rowsOf = (list: TMarketplaceOrder[]) => {
    let row = 1;
    return list.flatMap((o) => {
      const rows = orderRows(o, row, integrated(o));
      row += rows.length;
      return rows;
    });
  };
  try {
    await tx.transaction((sp) => createOrdersFromRows(sp, actor, rowsOf(todo), opts));
  } catch (err) {
    problemOf(err);
    for (const o of todo) {
      try {
        await tx.transaction((sp) => createOrdersFromRows(sp, actor, rowsOf([o]), opts));
      } catch (one) {
        problems.set(o.orderNumber, problemOf(one, o, lookups));
      }
    }
  }
  // Our order of each order_sn (created now, or earlier by an import of the same platform number).
  const ids = await orderIdsByPlatformNumber(
    tx,
    shop.customer_id,
    shop.platform_id,
    todo.map((o) => o.orderNumber),
  );
  const values = todo.map((o) => {
    const orderId = ids.get(o.orderNumber) ?? null;
    const problem = orderId ? null : (problems.get(o.orderNumber) ?? null);
    if (orderId) counts.created++;
    else counts.abnormal++;
    return {
      customer_id: shop.customer_id,
      shop_ref: shop.id,
      order_sn: o.orderNumber,
      shopee_status: o.status,
      state: orderId ? 'created' : 'abnormal',
      order_id: orderId,
      problem,
      logistics_channel_id: o.logisticsChannelId ?? null,
      logistics_channel_name: channelOf(o)?.name ?? (o.shippingCarrier || null),
      platform_logistics: integrated(o),
    };
  });
  await repo.upsertShopeeOrders(tx, values);
}

/** Orders cancelled in Shopee: a pending order of ours is cancelled; one already exported is flagged for a person. */
export async function applyCancellations(
  tx: Tx,
  shop: TShopRow,
  cancelled: Array<{ orderSn: string; status: string }>,
  counts: TShopeeSyncCounts,
): Promise<void> {
  if (cancelled.length === 0) return;
  const status = new Map(cancelled.map((c) => [c.orderSn, c.status]));
  const rows = await repo.cancellableOrders(tx, shop.id, [...status.keys()]);
  const actor = shopActor(shop);
  for (const r of rows) {
    const shopeeStatus = status.get(r.order_sn)!;
    let state: 'cancelled' | 'flagged' = 'cancelled';
    if (r.order_id) {
      const order = await lockOrder(tx, shop.customer_id, r.order_id);
      if (order?.status === 'pending_export') await moveOrder(tx, actor, order, 'cancel');
      else if (order && order.status !== 'cancelled') {
        state = 'flagged';
        await markAbnormal(tx, shop.customer_id, [
          { id: order.id, code: 'PLATFORM_ORDER_CANCELLED', params: { platform_status: shopeeStatus } },
        ]);
      }
    }
    if (state === 'cancelled') counts.cancelled++;
    else counts.flagged++;
    await repo.setOrderState(tx, r.id, state, shopeeStatus);
  }
}

/** Details of these order_sn (50 per call), then one transaction: create, record, cancel. */
export async function syncOrders(
  ctx: {
    db: Db;
    services: TShopeeServices;
    shop: TShopRow;
    lookups: TOrderLookups;
    /** The shop's logistics channels, read once per run when an order names one not seen yet. */
    channels?: Map<number, TMarketplaceChannel>;
  },
  orderSns: string[],
  counts: TShopeeSyncCounts,
): Promise<void> {
  const { db, services, shop, lookups } = ctx;
  const provider = shopeeOf(services);
  // Orders already settled (created, cancelled, flagged) need no detail call: a re-run costs one list call per 100.
  const settled = new Set<string>();
  for (let i = 0; i < orderSns.length; i += 1000) {
    for (const sn of await repo.settledOrderSns(db, shop.id, orderSns.slice(i, i + 1000))) settled.add(sn);
  }
  counts.skipped += settled.size;
  const open = orderSns.filter((sn) => !settled.has(sn));
  for (let i = 0; i < open.length; i += DETAIL_BATCH) {
    const batch = open.slice(i, i + DETAIL_BATCH);
    const details = await withShopAccess(db, services, shop, (auth) =>
      provider.orderDetails(auth, batch, { customerId: shop.customer_id, reference: shop.id }),
    );
    const toCreate = details.filter((d) => CREATE_STATUSES.has(d.status));
    ctx.channels ??= new Map();
    if (toCreate.some((d) => d.logisticsChannelId && !ctx.channels!.has(d.logisticsChannelId))) {
      const list = await withShopAccess(db, services, shop, (auth) =>
        provider.channels(auth, { customerId: shop.customer_id, reference: shop.id }),
      );
      for (const c of list) ctx.channels.set(c.id, c);
    }
    const channels = ctx.channels;
    const toCancel = details
      .filter((d) => CANCEL_STATUSES.has(d.status))
      .map((d) => ({ orderSn: d.orderNumber, status: d.status }));
    await withTx(db, async (tx) => {
      const before = { ...counts };
      if (toCreate.length) await writeOrders(tx, shop, toCreate, lookups, counts, channels);
      await applyCancellations(tx, shop, toCancel, counts);
      await writeAudit(tx, shopActor(shop), {
        action: 'shopee.sync',
        entity: 'shopee_shop',
        entityId: shop.id,
        customerId: shop.customer_id,
        after: {
          order_sn: batch.length,
          created: counts.created - before.created,
          abnormal: counts.abnormal - before.abnormal,
          cancelled: counts.cancelled - before.cancelled,
          flagged: counts.flagged - before.flagged,
        },
      });
    });
  }
}
