import { randomBytes } from 'node:crypto';
import {
  CVS_DROP_OFF_DAYS,
  CVS_STATUS_KINDS,
  CVS_STORE_ID,
  CVS_SUBTYPES,
  cvsChainOf,
  ecpayStatusKeys,
  isC2C,
  type TCvsMapForm,
  type TCvsOverdue,
  type TCvsStore,
  type TCvsSubtype,
  type TSetCvsStore,
} from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { findOrders, refreshShipBy } from '../outbound';
import { providersByIds } from '../partners';
import * as repo from './carriers.repository';

/**
 * Convenience-store pickup (超商取貨) through ECPay: the store an order is picked up at, chosen on ECPay's store map
 * (`/Express/map`, its answer posted back by the browser to `ecpayMapReply`), typed, or given by an order file or the
 * partner API. Kept apart from the order row (`order_cvs_stores`); `fetchConsignments` makes a CVS consignment for an
 * order that has one.
 */

export function toCvsStore(r: repo.TCvsStoreRow): TCvsStore {
  const subtype = r.subtype as TCvsSubtype;
  return {
    order_id: r.order_id,
    subtype,
    chain: cvsChainOf(subtype),
    c2c: isC2C(subtype),
    store_id: r.store_id,
    store_name: r.store_name,
    store_address: r.store_address,
    source: r.source as TCvsStore['source'],
    payment_no: r.payment_no,
    validation_no: r.validation_no,
    updated_at: r.updated_at.toISOString(),
  };
}

async function ownOrder(ex: Executor, customerId: string, orderId: string) {
  const [order] = await findOrders(ex, customerId, [orderId]);
  if (!order) throw notFound();
  return {
    id: order.id,
    number: order.number,
    consignment: order.consignment_number,
    providerId: order.logistics_provider_id,
    cod: order.cod,
  };
}

export async function getOrderCvsStore(deps: TAppDeps, actor: TActor, orderId: string) {
  const customerId = tenantOf(actor);
  const db = deps.database.db;
  await ownOrder(db, customerId, orderId);
  const [row] = await repo.cvsStoresOf(db, customerId, [orderId]);
  return { store: row ? toCvsStore(row) : null };
}

/**
 * Store the order's pickup store (one transaction, with its audit row). Refused once the order has a consignment
 * number: the parcel is then addressed to the store it was made for.
 */
export async function putCvsStore(
  tx: Executor,
  actor: TActor,
  customerId: string,
  orderId: string,
  input: TSetCvsStore,
  source: TCvsStore['source'],
): Promise<TCvsStore> {
  const order = await ownOrder(tx, customerId, orderId);
  if (order.consignment) throw new AppError('CVS_STORE_LOCKED');
  if (!CVS_STORE_ID.test(input.store_id)) throw new AppError('INVALID_FIELD', { field: 'store_id' });
  const values = {
    subtype: input.subtype,
    store_id: input.store_id,
    store_name: input.store_name ?? '',
    store_address: input.store_address ?? '',
    source,
    payment_no: null,
    validation_no: null,
  };
  const before = await repo.findCvsStore(tx, orderId);
  const row = await repo.upsertCvsStore(tx, customerId, orderId, values);
  // Another chain may have its own cut-off: the order's ship-by time again.
  if (before?.subtype !== row.subtype) await refreshShipBy(tx, customerId, orderId);
  await writeAudit(tx, actor, {
    action: 'cvs_store.set',
    entity: 'outbound_order',
    entityId: orderId,
    customerId,
    before: before ? toCvsStore(before) : null,
    after: toCvsStore(row),
  });
  return toCvsStore(row);
}

export async function setOrderCvsStore(deps: TAppDeps, actor: TActor, orderId: string, input: TSetCvsStore) {
  const customerId = tenantOf(actor);
  return {
    store: await withTx(deps.database.db, (tx) => putCvsStore(tx, actor, customerId, orderId, input, 'manual')),
  };
}

export async function deleteOrderCvsStore(deps: TAppDeps, actor: TActor, orderId: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.database.db, async (tx) => {
    const order = await ownOrder(tx, customerId, orderId);
    if (order.consignment) throw new AppError('CVS_STORE_LOCKED');
    const gone = await repo.deleteCvsStore(tx, customerId, orderId);
    if (gone[0]) await refreshShipBy(tx, customerId, orderId);
    if (gone[0])
      await writeAudit(tx, actor, {
        action: 'cvs_store.delete',
        entity: 'outbound_order',
        entityId: orderId,
        customerId,
        before: toCvsStore(gone[0]),
      });
  });
  return { ok: true as const };
}

/** A map request is answered within this time or not at all. */
const MAP_TTL_MS = 60 * 60_000;

/**
 * The form that opens ECPay's store map for an order (`POST {base}/Express/map`: MerchantID, MerchantTradeNo,
 * LogisticsType CVS, LogisticsSubType, IsCollection, ServerReplyURL, ExtraData). The order's logistics provider must be
 * an ECPay one (its MerchantID). MerchantTradeNo is a fresh random token recorded for this order: ECPay's answer is
 * not signed, so the token is what ties it to this order and this seller.
 */
export async function openCvsMap(
  deps: TAppDeps,
  actor: TActor,
  orderId: string,
  subtype: TCvsSubtype,
): Promise<TCvsMapForm> {
  const customerId = tenantOf(actor);
  return withTx(deps.database.db, async (tx) => {
    const order = await ownOrder(tx, customerId, orderId);
    if (order.consignment) throw new AppError('CVS_STORE_LOCKED');
    const [provider] = order.providerId ? await providersByIds(tx, customerId, [order.providerId]) : [];
    if (provider?.carrier_type !== 'ecpay') throw new AppError('CVS_NOT_ECPAY');
    if (!provider.merchant_id) throw new AppError('CARRIER_NOT_CONFIGURED', { provider: provider.name });
    // 20 letters and digits (MerchantTradeNo's limit), 100+ bits: not guessable.
    const token = `M${randomBytes(12).toString('hex').toUpperCase().slice(0, 19)}`;
    await repo.insertMapRequest(tx, {
      customer_id: customerId,
      order_id: orderId,
      logistics_provider_id: provider.id,
      token,
      subtype,
    });
    return {
      action: `${deps.config.ecpayLogisticsUrl}/Express/map`,
      fields: {
        MerchantID: provider.merchant_id,
        MerchantTradeNo: token,
        LogisticsType: 'CVS',
        LogisticsSubType: subtype,
        IsCollection: order.cod ? 'Y' : 'N',
        ServerReplyURL: `${deps.config.publicUrl.replace(/\/+$/, '')}/api/carriers/ecpay/map-reply/`,
        ExtraData: '',
        Device: '0',
      },
    };
  });
}

/**
 * ECPay's store map answer: MerchantID, MerchantTradeNo, LogisticsSubType, CVSStoreID, CVSStoreName, CVSAddress,
 * CVSTelephone, CVSOutSide, ExtraData. Taken only for an open request of that MerchantTradeNo (unused, not older than
 * an hour) whose provider has that MerchantID and whose sub-type it is; marked used in the same transaction that stores
 * the store (a second post of the same answer, even at the same time, finds it used). Answers the order's id.
 */
export async function ecpayMapReply(deps: TAppDeps, fields: Record<string, string>): Promise<string> {
  const token = fields.MerchantTradeNo ?? '';
  const subtype = fields.LogisticsSubType ?? '';
  const storeId = fields.CVSStoreID ?? '';
  if (!token || !CVS_STORE_ID.test(storeId) || !(CVS_SUBTYPES as readonly string[]).includes(subtype))
    throw new AppError('CVS_MAP_INVALID');
  return withTx(deps.database.db, async (tx) => {
    const request = await repo.useMapRequest(tx, token, new Date(Date.now() - MAP_TTL_MS));
    if (!request || request.subtype !== subtype) throw new AppError('CVS_MAP_INVALID');
    // The request was made with one of its seller's providers (`openCvsMap`).
    const [provider] = await providersByIds(tx, request.customer_id, [request.logistics_provider_id]);
    if (!provider || provider.merchant_id !== fields.MerchantID) throw new AppError('CVS_MAP_INVALID');
    const actor: TActor = { kind: 'system', id: null, customerId: request.customer_id };
    await putCvsStore(
      tx,
      actor,
      request.customer_id,
      request.order_id,
      {
        subtype: subtype as TCvsSubtype,
        store_id: storeId,
        store_name: fields.CVSStoreName ?? '',
        store_address: fields.CVSAddress ?? '',
      },
      'map',
    );
    return request.order_id;
  });
}

/** yyyy-mm-dd in Taipei time, `days` after `d`. */
const taipeiDay = (d: Date, days = 0) =>
  new Date(d.getTime() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The seller's store-pickup parcels past their drop-off window: ECPay made the consignment (its label row, for the
 * order's current number) more than the chain's `CVS_DROP_OFF_DAYS` ago and has sent no status since that shows the
 * parcel moving (accepted by the logistics centre, dropped off at a store, at the buyer's store, picked up, returned —
 * ECPay's codes of the order's sub-type; "order received" 300, "sent to the chain" 2001 and the like are not): no
 * drop-off seen. Open orders only, oldest deadline first.
 */
export async function cvsOverdue(deps: TAppDeps, actor: TActor, now = new Date()): Promise<{ results: TCvsOverdue[] }> {
  const customerId = tenantOf(actor);
  const moved = ecpayStatusKeys(CVS_STATUS_KINDS);
  const rows = await repo.cvsAwaitingDropOff(deps.database.db, customerId, moved);
  const today = taipeiDay(now);
  const results: TCvsOverdue[] = [];
  for (const r of rows) {
    const deadline = taipeiDay(new Date(r.made_at), CVS_DROP_OFF_DAYS[r.subtype] ?? 6);
    if (today > deadline)
      results.push({
        order_id: r.order_id,
        number: r.number,
        subtype: r.subtype,
        consignment_number: r.consignment_number,
        store_id: r.store_id,
        deadline,
      });
  }
  return { results };
}
