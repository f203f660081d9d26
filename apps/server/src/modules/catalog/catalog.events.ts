import { z } from 'zod';
import type { Executor } from '../../db/client';
import { defineEvent, publishEvent } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs';

/**
 * Product numbers or barcodes became known to a seller: a product created, its number or barcode changed (the form,
 * a batch update), products imported. Codes as the seller wrote them, each once. Subscribers: see src/events.ts
 * (abnormal Shopee orders waiting for one of these SKUs are read again).
 */
export const productCodesChanged = defineEvent(
  'catalog.product-codes-changed',
  z.object({ customer_id: z.uuid(), codes: z.array(z.string().min(1)).min(1) }),
);

/**
 * Publish `catalog.product-codes-changed` for these codes in the caller's transaction (nothing when none is given).
 * Answers whether it was published: then call `jobs.kick('outbox.deliver')` after the commit.
 */
export async function publishProductCodes(
  tx: Executor,
  jobs: JobQueue,
  customerId: string,
  codes: Array<string | null | undefined>,
): Promise<boolean> {
  const unique = [...new Set(codes.filter((c): c is string => !!c && c.trim() !== ''))];
  if (unique.length === 0) return false;
  await publishEvent(tx, jobs, productCodesChanged, { customer_id: customerId, codes: unique }, { customerId });
  return true;
}
