import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { AppError } from '../../platform/errors';
import { defineJob, type JobQueue } from '../../platform/jobs';
import { defineOutboxTopic, writeOutbox } from '../../platform/outbox';
import { MarketplaceError } from '../../platform/providers';
import { SHIPPED_OUT_STATUSES } from '../outbound';
import * as repo from './shopee.repository';
import { findShop, markShopError, shopeeOf, withShopAccess } from './shopee.shops';

/**
 * Tracking numbers back to Shopee. When an order ships (the packing station's "ship"), outbound publishes
 * `outbound.orders-shipped` with it; this module's subscriber (`trackingNumbersToShopee`, listed in src/events.ts) writes
 * one `shopee.ship` outbox message for each Shopee order among them and stamps `ship_queued_at`, in one transaction
 * per order (`shopeeOrderShipped`, once per Shopee order: its idempotency key); the outbox delivers it right after — `logistics/ship_order` with the tracking number (non_integrated, the
 * seller's own delivery), every attempt in the attempt log — retrying 5xx and rate limits with back-off; a refusal
 * leaves the message failed with Shopee's answer for a person. A Shopee-arranged order was handed to Shopee at
 * consignment time: its message only records that it shipped. The hourly scan (`shopee.ship-scan`) is a safety net
 * only: it hands on any shipped order whose message was never written (e.g. shipped before its Shopee row existed).
 */

const ZShipPayload = z.object({ shopee_order: z.uuid(), tracking_number: z.string().min(1).max(64) });

export const shopeeShipment = defineOutboxTopic('shopee.ship', ZShipPayload, async ({ db, payload, services }) => {
  const row = await repo.findShopeeOrder(db, payload.shopee_order);
  if (!row) return { skipped: 'order gone' };
  if (row.shipped_at) return { skipped: 'already shipped' };
  // A Shopee-arranged order was handed to Shopee at consignment time (ship_order pickup/dropoff): Shopee has its
  // tracking number already, and ship_order again would be refused.
  if (row.platform_logistics && row.arranged_at) {
    await repo.markShipped(db, row.id);
    return { order_sn: row.order_sn, arranged_by: 'shopee', tracking_number: row.tracking_number };
  }
  const shop = await findShop(db, row.shop_ref);
  if (!shop || shop.state === 'disconnected') throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  try {
    await withShopAccess(db, services, shop, (auth) =>
      shopeeOf(services).shipOrder(
        auth,
        { orderNumber: row.order_sn, trackingNumber: payload.tracking_number },
        { customerId: row.customer_id, reference: row.id },
      ),
    );
  } catch (err) {
    if (err instanceof MarketplaceError) {
      if (err.kind === 'auth' || err.kind === 'sign') await markShopError(db, shop, err);
      if (!err.retryable) throw new AppError('SHOPEE_ERROR', { remote: err.remoteCode, message: err.message });
    }
    throw err;
  }
  await repo.markShipped(db, row.id, 'PROCESSED');
  return { order_sn: row.order_sn, tracking_number: payload.tracking_number };
});

/**
 * The order just shipped, in the caller's transaction: when it is a Shopee order not handed on yet, write its
 * `shopee.ship` message and stamp it (once: the idempotency key is the Shopee order's). True when a message was
 * written (call `jobs.kick()` after commit).
 */
export async function shopeeOrderShipped(
  tx: Tx,
  jobs: JobQueue,
  customerId: string,
  orderId: string,
  trackingNumber: string | null,
): Promise<boolean> {
  if (!trackingNumber) return false;
  const row = await repo.lockUnqueuedShipment(tx, customerId, orderId);
  if (!row) return false;
  await writeOutbox(
    tx,
    jobs,
    shopeeShipment,
    { shopee_order: row.id, tracking_number: trackingNumber },
    { customerId, idempotencyKey: `shopee.ship:${row.id}` },
  );
  await repo.markShipQueued(tx, [row.id]);
  return true;
}

/**
 * Subscriber of `outbound.orders-shipped`: each shipped order that came from Shopee and has not been handed on gets its
 * `shopee.ship` message. Idempotent (a redelivered event finds the orders queued already).
 */
export async function trackingNumbersToShopee(
  db: Db,
  jobs: JobQueue,
  payload: { customer_id: string; orders: { order_id: string; consignment_number?: string | null }[] },
): Promise<{ queued: number }> {
  let queued = 0;
  for (const o of payload.orders) {
    if (!o.consignment_number) continue;
    const tracking = o.consignment_number;
    if (await withTx(db, (tx) => shopeeOrderShipped(tx, jobs, payload.customer_id, o.order_id, tracking))) queued++;
  }
  if (queued) jobs.kick();
  return { queued };
}

/** Hourly (and after each sync), a safety net: shipped Shopee orders whose tracking number has not gone back yet. */
export const shopeeShipScan = defineJob(
  'shopee.ship-scan',
  z.object({}),
  async ({ db, queue }) => {
    let queued = 0;
    for (;;) {
      const n = await withTx(db, async (tx) => {
        const due = await repo.lockShippedUnqueued(tx, SHIPPED_OUT_STATUSES, 500);
        for (const d of due)
          await writeOutbox(
            tx,
            queue,
            shopeeShipment,
            { shopee_order: d.id, tracking_number: d.tracking! },
            { customerId: d.customer_id, idempotencyKey: `shopee.ship:${d.id}` },
          );
        await repo.markShipQueued(
          tx,
          due.map((d) => d.id),
        );
        return due.length;
      });
      queued += n;
      if (n < 500) break;
    }
    if (queued) queue.kick();
    return { queued };
  },
  { cron: { schedule: '17 * * * *', payload: {} }, retryLimit: 2, concurrency: 1 },
);
