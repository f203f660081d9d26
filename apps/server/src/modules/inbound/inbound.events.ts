import { z } from 'zod';
import type { Executor } from '../../db/client';
import { defineEvent, publishEvent } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs';
import * as receiving from '../receiving';

/**
 * A seller's inbound receipt was confirmed into stock (the confirm screen, a quick inbound): its number, when, and how
 * many units were accepted (good and defective). Published in the confirmation's transaction. Subscribers: see
 * src/events.ts (usage billing records the receiving charges).
 */
export const receiptConfirmed = defineEvent(
  'inbound.receipt-confirmed',
  z.object({
    customer_id: z.uuid(),
    receipt_id: z.uuid(),
    receipt_number: z.string().min(1),
    warehouse_id: z.uuid(),
    confirmed_at: z.iso.datetime({ offset: true }),
    lines: z.number().int().nonnegative(),
    units: z.number().int().nonnegative(),
  }),
);

/** Publish `inbound.receipt-confirmed` for a receipt just confirmed in this transaction. */
export async function publishReceiptConfirmed(
  tx: Executor,
  jobs: JobQueue,
  receipt: receiving.TReceiptRow<'inbound'>,
): Promise<void> {
  const lines = await receiving.findLines(tx, 'inbound', receipt.customer_id, receipt.id);
  await publishEvent(
    tx,
    jobs,
    receiptConfirmed,
    {
      customer_id: receipt.customer_id,
      receipt_id: receipt.id,
      receipt_number: receipt.number,
      warehouse_id: receipt.warehouse_id,
      confirmed_at: (receipt.confirmed_at ?? new Date()).toISOString(),
      lines: lines.length,
      units: lines.reduce((s, l) => s + (l.accepted_quantity ?? 0), 0),
    },
    { customerId: receipt.customer_id },
  );
}
