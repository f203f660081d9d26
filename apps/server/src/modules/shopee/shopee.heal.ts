import { z } from 'zod';
import type { Executor, Tx } from '../../db/client';
import type { TShopeeSyncCounts } from '../../db/schema';
import { defineJob, type JobQueue } from '../../platform/jobs';
import { codeKey, loadOrderLookups } from '../outbound';
import * as repo from './shopee.repository';
import * as shopsRepo from './shopee.shops.repository';
import { emptyCounts, syncOrders } from './shopee.sync';

/**
 * Abnormal Shopee orders heal when their cause is fixed. A sync only lists orders Shopee updated since the last run, so
 * an order kept abnormal for an unknown SKU would never be seen again: instead, the write that makes a product code
 * known (a product created, its number or barcode changed, a product import or batch update) publishes catalog's
 * `catalog.product-codes-changed` event in its transaction; after commit its subscriber (src/events.ts) calls
 * `productCodesKnown`, which queues one `shopee.heal` job for the seller when an abnormal order waits for one of those
 * codes.
 * The job reads those orders from Shopee again (50 per call) and writes them as a sync does — the same
 * `createOrdersFromRows`, never twice. Anything else abnormal is retried by the seller's "retry now".
 */

export const ZShopeeHealPayload = z.object({ customer: z.uuid() });

/** The abnormal orders of a seller whose missing SKU is now a product code, per shop (never a disconnected shop). */
async function healable(ex: Executor, customerId: string): Promise<Map<string, string[]>> {
  const rows = await repo.abnormalForProduct(ex, customerId);
  if (rows.length === 0) return new Map();
  const lookups = await loadOrderLookups(ex, customerId, rows.map((r) => r.value ?? '').filter(Boolean));
  const byShop = new Map<string, string[]>();
  for (const r of rows)
    if (r.value && lookups.products.has(codeKey(r.value)))
      byShop.set(r.shop, [...(byShop.get(r.shop) ?? []), r.order_sn]);
  return byShop;
}

export const shopeeHeal = defineJob(
  'shopee.heal',
  ZShopeeHealPayload,
  async ({ db, payload, services }) => {
    const counts: TShopeeSyncCounts = emptyCounts();
    const due = await healable(db, payload.customer);
    if (due.size === 0) return counts;
    const lookups = await loadOrderLookups(db, payload.customer);
    const shops = await shopsRepo.shopsByIds(db, [...due.keys()]);
    for (const shop of shops) {
      const orderSns = due.get(shop.id) ?? [];
      counts.listed += orderSns.length;
      await syncOrders({ db, services, shop, lookups }, orderSns, counts);
    }
    return counts;
  },
  { retryLimit: 4, retryDelaySeconds: 30, concurrency: 1, expireInSeconds: 3600 },
);

/**
 * These product codes (numbers, barcodes) just became known to the seller (the event's subscriber, in its own
 * transaction): when an
 * abnormal Shopee order waits for one of them, queue one `shopee.heal` for the seller (one waiting at a time; a heal
 * already waiting will see this product too). Call `jobs.kick('shopee.heal')` after commit.
 */
export async function productCodesKnown(
  tx: Executor,
  jobs: JobQueue,
  customerId: string,
  codes: Array<string | null | undefined>,
): Promise<boolean> {
  const keys = new Set(codes.filter((c): c is string => !!c && c.trim() !== '').map(codeKey));
  if (keys.size === 0) return false;
  const waiting = await repo.awaitedProductCodes(tx, customerId);
  if (!waiting.some((w) => w.value && keys.has(codeKey(w.value)))) return false;
  try {
    // In a savepoint: a heal already waiting leaves nothing behind in the caller's transaction.
    await (tx as Tx).transaction((sp) =>
      jobs.enqueue(sp, shopeeHeal, { customer: customerId }, { customerId, singletonKey: `shopee.heal:${customerId}` }),
    );
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && err.code === 'JOB_ALREADY_QUEUED')) throw err;
  }
  return true;
}
