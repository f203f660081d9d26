import { withTx } from './db/tx';
import { statementPaid } from './modules/billing';
import { productCodesChanged } from './modules/catalog';
import { receiptConfirmed } from './modules/inbound';
import { ordersShipped } from './modules/outbound';
import { returnConfirmed } from './modules/returns';
import { productCodesKnown, trackingNumbersToShopee } from './modules/shopee';
import { markPaidByPayment, recordOrdersShipped, recordReceiptConfirmed, recordReturnConfirmed } from './modules/usage';
import { subscribe, type TAnyEvent, type TAnySubscriber } from './platform/events';

/**
 * Every domain event and every subscriber, in one place (as jobs.ts lists jobs and app.ts routes). A module declares
 * its events with `defineEvent` and publishes them in the transaction of its change; the reactions of other modules
 * are listed here, each calling the reacting module's index.ts. Delivery: after commit, through the outbox's
 * `outbox.deliver` job (platform/events.ts), at least once, so each reaction is idempotent.
 */

export const EVENTS: readonly TAnyEvent[] = [
  productCodesChanged,
  receiptConfirmed,
  ordersShipped,
  returnConfirmed,
  statementPaid,
];

export const SUBSCRIBERS: readonly TAnySubscriber[] = [
  // Product codes became known → the seller's abnormal Shopee orders waiting for one of them are read again (one
  // `shopee.heal` job per seller at a time; nothing is queued when no abnormal order waits for these codes).
  subscribe(productCodesChanged, 'shopee.heal-abnormal-orders', async ({ db, payload, queue }) => {
    const healing = await withTx(db, (tx) => productCodesKnown(tx, queue, payload.customer_id, payload.codes));
    if (healing) queue.kick('shopee.heal');
    return { healing };
  }),
  // The work itself bills (issue #35): a confirmed receipt → receiving charges, shipped orders → pick & pack charges,
  // each priced by the seller's rate card of the work's day; recorded once per document and kind (a redelivery adds
  // nothing).
  subscribe(receiptConfirmed, 'usage.receiving-charges', ({ db, payload }) => recordReceiptConfirmed(db, payload)),
  subscribe(ordersShipped, 'usage.pick-pack-charges', ({ db, payload }) => recordOrdersShipped(db, payload)),
  // Shipped orders that came from Shopee → their tracking numbers go back to Shopee (a `shopee.ship` outbox message
  // each, once per Shopee order; the hourly `shopee.ship-scan` is only a safety net).
  subscribe(ordersShipped, 'shopee.tracking-numbers', ({ db, payload, queue }) =>
    trackingNumbersToShopee(db, queue, payload),
  ),
  subscribe(returnConfirmed, 'usage.returns-charges', ({ db, payload }) => recordReturnConfirmed(db, payload)),
  // A usage statement's card / NewebPay payment succeeded (however it was learnt: the pay request, the confirmation
  // job, TapPay's notify, NewebPay's Notify) → the statement is paid, once.
  subscribe(statementPaid, 'usage.statement-paid', ({ db, payload }) => markPaidByPayment(db, payload)),
];
