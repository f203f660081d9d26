import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { AppError } from '../../platform/errors';
import { defineJob, type JobQueue } from '../../platform/jobs';
import { MarketplaceError } from '../../platform/providers';
import { loadOrderLookups } from '../outbound';
import { shopeeShipScan } from './shopee.ship';
import {
  findShop,
  markShopError,
  needsReauthorisation,
  REFRESH_AHEAD_MS,
  shopAccess,
  shopeeOf,
  type TShopRow,
  withShopAccess,
} from './shopee.shops';
import * as shopsRepo from './shopee.shops.repository';
import {
  applyCancellations,
  CANCEL_STATUSES,
  emptyCounts,
  LIST_STATUSES,
  MAX_LOOKBACK_MS,
  OVERLAP_MS,
  syncOrders,
  WINDOW_MS,
} from './shopee.sync';

export const ZShopeeSyncPayload = z.object({
  shop: z.uuid(),
  /** Only these orders (a push); default: the window since the last complete run. */
  order_sn: z.array(z.string().min(1).max(64)).max(500).optional(),
});

/** A sync of one shop: the window, or the orders a push named. */
export const shopeeSync = defineJob(
  'shopee.sync',
  ZShopeeSyncPayload,
  async ({ db, payload, services, progress, queue }) => {
    const shop = await findShop(db, payload.shop);
    if (!shop || shop.state === 'disconnected') return { skipped: 'shop disconnected' };
    if (needsReauthorisation(shop)) return { skipped: 'shop to authorise again' };
    const counts = emptyCounts();
    const lookups = await loadOrderLookups(db, shop.customer_id);
    const ctx = { db, services, shop, lookups };
    const provider = shopeeOf(services);
    const to = new Date();
    try {
      if (payload.order_sn) {
        counts.listed = payload.order_sn.length;
        await syncOrders(ctx, payload.order_sn, counts);
      } else {
        // From a little before the last complete run (or the start the seller chose when connecting), at most
        // MAX_LOOKBACK back, in windows of Shopee's 15 days.
        const floor = to.getTime() - MAX_LOOKBACK_MS;
        const start = Math.max(floor, (shop.synced_until?.getTime() ?? to.getTime() - WINDOW_MS) - OVERLAP_MS);
        for (let winFrom = start; winFrom < to.getTime(); winFrom += WINDOW_MS) {
          const from = new Date(winFrom);
          const until = new Date(Math.min(winFrom + WINDOW_MS, to.getTime()));
          for (const status of LIST_STATUSES) {
            let cursor: string | null = null;
            do {
              const page = await withShopAccess(db, services, shop, (auth) =>
                provider.listOrders(
                  auth,
                  { from, to: until, status, cursor },
                  { customerId: shop.customer_id, reference: shop.id },
                ),
              );
              counts.listed += page.orderNumbers.length;
              if (CANCEL_STATUSES.has(status)) {
                // Nothing to read for a cancellation: only order_sn we already know matter.
                await withTx(db, (tx) =>
                  applyCancellations(
                    tx,
                    shop,
                    page.orderNumbers.map((orderSn) => ({ orderSn, status })),
                    counts,
                  ),
                );
              } else await syncOrders(ctx, page.orderNumbers, counts);
              await progress(counts.listed);
              cursor = page.more ? page.nextCursor : null;
            } while (cursor);
          }
        }
      }
    } catch (err) {
      // A cancelled run is the seller's decision, not a Shopee problem.
      if (err instanceof AppError && err.code === 'JOB_CANCELLED') throw err;
      // A dead refresh token is already on the shop ("authorise again", with Shopee's answer): a refusal, not retried.
      if (err instanceof AppError && err.code === 'SHOPEE_REAUTHORIZE') throw err;
      await markShopError(db, shop, err);
      // A refusal (bad sign, revoked authorisation) is final; 5xx, rate limits and transport errors are retried.
      if (err instanceof MarketplaceError && !err.retryable)
        throw new AppError('SHOPEE_ERROR', { remote: err.remoteCode, message: err.message });
      throw err;
    }
    await shopsRepo.markShopSynced(db, shop.id, counts, payload.order_sn ? null : to);
    // Orders of this shop that shipped meanwhile: their tracking numbers go back now rather than at the next scan.
    await queue
      .enqueue(db, shopeeShipScan, {}, { customerId: null, singletonKey: 'shopee.ship-scan' })
      .catch(() => undefined);
    queue.kick('shopee.ship-scan');
    return counts;
  },
  { retryLimit: 4, retryDelaySeconds: 30, concurrency: 2, expireInSeconds: 3600 },
);

/** Queue a sync of a shop (one waiting sync per shop; a second request while one waits is JOB_ALREADY_QUEUED). */
export function queueShopSync(
  ex: Tx | Db,
  jobs: JobQueue,
  shop: TShopRow,
  opts: { orderSn?: string[]; createdBy?: string | null } = {},
) {
  return jobs.enqueue(
    ex,
    shopeeSync,
    { shop: shop.id, ...(opts.orderSn ? { order_sn: opts.orderSn } : {}) },
    {
      customerId: shop.customer_id,
      createdBy: opts.createdBy ?? null,
      ...(opts.orderSn ? {} : { singletonKey: `shopee.sync:${shop.id}` }),
    },
  );
}

/** Every 15 minutes: a sync of every connected shop. */
export const shopeeSchedule = defineJob(
  'shopee.schedule',
  z.object({}),
  async ({ db, queue }) => {
    const shops = await shopsRepo.syncingShops(db);
    let queued = 0;
    for (const shop of shops) {
      try {
        await queueShopSync(db, queue, shop);
        queued++;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'JOB_ALREADY_QUEUED')) throw err;
      }
    }
    if (queued) queue.kick('shopee.sync');
    return { shops: shops.length, queued };
  },
  { cron: { schedule: '*/15 * * * *', payload: {} }, retryLimit: 1 },
);

/** Every 10 minutes: refresh access tokens that end within 30 minutes (a shop's calls never wait for a refresh). */
export const shopeeTokenRefresh = defineJob(
  'shopee.tokens',
  z.object({}),
  async ({ db, services }) => {
    const due = await shopsRepo.shopsTokenDue(db, new Date(Date.now() + REFRESH_AHEAD_MS));
    let refreshed = 0;
    let failed = 0;
    for (const shop of due) {
      try {
        await shopAccess(db, services, shop);
        refreshed++;
      } catch {
        failed++; // recorded on the shop (state error, Shopee's message)
      }
    }
    return { due: due.length, refreshed, failed };
  },
  { cron: { schedule: '*/10 * * * *', payload: {} }, retryLimit: 1 },
);
