/**
 * Carrier reads: the cash collected on delivery per day and an order's tracking history. The other use cases are one
 * per file: fetch-consignments.ts, print-labels.ts, carriers.cvs.ts, carriers.notify.ts.
 */
import { ecpayStatusKeys, ecpayStatusKind, type TCodCollected } from '@wms/contracts';
import { type TActor, tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { findOrders } from '../outbound';
import * as repo from './carriers.repository';

/**
 * Cash collected on delivery per day: each COD order of the seller whose parcel the buyer picked up (an ECPay status
 * of kind `picked_up`), once however many notices say so, on the day ECPay gives (UpdateStatusDate, Taipei time), newest
 * first. Amounts are summed in the database (numeric, no float).
 */
export async function codCollected(
  deps: TAppDeps,
  actor: TActor,
  q: { date_from?: string; date_to?: string },
): Promise<TCodCollected> {
  const customerId = tenantOf(actor);
  // What "picked up" is depends on the chain and kind (the order's store): ECPay's codes per LogisticsSubType.
  const picked = ecpayStatusKeys(['picked_up']);
  const rows = await repo.codCollectedByDay(deps.database.db, customerId, picked, q);
  const results = rows.map((r) => ({ date: r.date, orders: Number(r.orders), amount: String(r.amount) }));
  const totalCents = results.reduce((n, r) => n + Math.round(Number(r.amount) * 100), 0);
  return {
    results,
    total_orders: results.reduce((n, r) => n + r.orders, 0),
    total_amount: (totalCents / 100).toFixed(2),
  };
}

/** The tracking history of one of the seller's orders (carrier status callbacks), newest first. */
export async function orderCarrierEvents(deps: TAppDeps, actor: TActor, orderId: string) {
  const customerId = tenantOf(actor);
  const db = deps.database.db;
  const [order] = await findOrders(db, customerId, [orderId]);
  if (!order) throw notFound();
  // ECPay's codes mean something per store chain and kind: the order's pickup store's sub-type (none: home delivery).
  const [store] = await repo.cvsStoresOf(db, customerId, [orderId]);
  const rows = await repo.orderEvents(db, customerId, orderId);
  return {
    results: rows.map((r) => ({
      id: r.id,
      carrier: r.carrier,
      status_code: r.status_code,
      status_text: r.status_text,
      status_at: r.status_at,
      booking_note: r.booking_note,
      kind: r.carrier === 'ecpay' ? ecpayStatusKind(r.status_code, store?.subtype) : null,
      created_at: r.created_at.toISOString(),
    })),
  };
}
