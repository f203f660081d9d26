import { z } from 'zod';
import type { Executor } from '../../db/client';
import { defineEvent, publishEvent } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs';
import * as receiving from '../receiving';

/**
 * A seller's return receipt was confirmed into stock (/return-confirm): its number, when, and how many units were
 * accepted (good and defective). Published in the confirmation's transaction. Subscribers: see src/events.ts (usage
 * billing records the returns-handling charges).
 */
export const returnConfirmed = defineEvent(
  'returns.return-confirmed',
  z.object({
    customer_id: z.uuid(),
    return_id: z.uuid(),
    return_number: z.string().min(1),
    warehouse_id: z.uuid(),
    confirmed_at: z.iso.datetime({ offset: true }),
    units: z.number().int().nonnegative(),
  }),
);

/** Publish `returns.return-confirmed` for a return receipt just confirmed in this transaction. */
export async function publishReturnConfirmed(
  tx: Executor,
  jobs: JobQueue,
  receipt: receiving.TReceiptRow<'return'>,
): Promise<void> {
  const lines = await receiving.findLines(tx, 'return', receipt.customer_id, receipt.id);
  await publishEvent(
    tx,
    jobs,
    returnConfirmed,
    {
      customer_id: receipt.customer_id,
      return_id: receipt.id,
      return_number: receipt.number,
      warehouse_id: receipt.warehouse_id,
      confirmed_at: (receipt.confirmed_at ?? new Date()).toISOString(),
      units: lines.reduce((s, l) => s + (l.accepted_quantity ?? 0), 0),
    },
    { customerId: receipt.customer_id },
  );
}
