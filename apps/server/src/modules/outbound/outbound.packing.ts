import type { TOrderDetail, TOrderStatus, TPackScan, TPackView, TShipOrder } from '@wms/contracts';
import type { Executor, Tx } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs';
import { grantsToRead, settleGrants } from '../../platform/request-grants';
import * as catalog from '../catalog';
import * as engine from '../stock';
import { ordersShipped } from './outbound.events';
import * as orderRepo from './outbound.orders.repository';
import * as packRepo from './outbound.packing.repository';
import { moveOrder, startPackingLocked } from './outbound.status';
import { illegal, orderDetail, packItemsOf, type TOutboundDeps, toOrder, toSerial } from './outbound.views';
import { canApply, canPack } from './outbound.workflow';

/**
 * The packing station (/deliver-opser): open an order, count its units by scanning them (with the IMEI/serial where a
 * product needs one), start the box over, and ship it (packaging taken, reserved stock consumed); and the IMEI list
 * (/deliver-imei) of what was captured.
 */

async function packViewOf(ex: Executor, customerId: string, id: string): Promise<TPackView> {
  const view = await orderRepo.findOrderView(ex, customerId, id);
  if (!view) throw notFound();
  const items = await packItemsOf(ex, customerId, view.order);
  return { order: toOrder(view), items, complete: isComplete(items) };
}

/** Every unit counted, and every serial captured where the product needs one. */
function isComplete(items: TPackView['items']): boolean {
  return (
    items.length > 0 &&
    items.every((i) => i.packed === i.expected && (!i.requires_serial || i.serials.length === i.expected))
  );
}

export async function packView(deps: TOutboundDeps, actor: TActor, id: string): Promise<TPackView> {
  return packViewOf(deps.db, tenantOf(actor), id);
}

/**
 * Lock an order for packing and read it as a view in the same statement (with the caller's grants on a
 * `first-statement` route: the scan's first statement); an order not started yet (exported) is opened (→ online) by
 * its first scan.
 */
async function lockForPacking(tx: Tx, actor: TActor, id: string): Promise<orderRepo.TOrderView> {
  const customerId = tenantOf(actor);
  const grants = grantsToRead();
  const locked = await orderRepo.lockOrderView(tx, customerId, id, grants);
  if (grants) await settleGrants(tx, locked ? locked.extra : undefined);
  if (!locked) throw notFound();
  const { view } = locked;
  const status = view.order.status as TOrderStatus;
  if (!canPack(status)) throw illegal(status, 'pack');
  if (!canApply('start_packing', status)) return view;
  const order = await startPackingLocked(tx, actor, view.order);
  await writeAudit(tx, actor, {
    action: 'start_packing',
    entity: 'outbound_order',
    entityId: id,
    before: { status },
    after: { status: order.status },
  });
  // Nothing else of the view changes while an order is packed: the moved row is the order as it is now.
  return { ...view, order };
}

/**
 * One scanned unit at the packing station: the barcode (or product number) must be an item of the order that is
 * not fully packed yet; an item that needs an IMEI/serial needs it with the scan, and a serial ships once.
 * The station scans all day, so the call keeps its round trips few — begin; the order locked and read with the
 * caller's grants; its items read with the unit counted and audited; commit: the items matched in memory (as the
 * statement matched them) and, with the one counted, are the answer with the order read under the lock.
 */
export async function packScan(deps: TOutboundDeps, actor: TActor, id: string, scan: TPackScan): Promise<TPackView> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const view = await lockForPacking(tx, actor, id);
    const { items, counted } = await packRepo.packItemsCountingScan(tx, actor, customerId, id, scan.barcode);
    const matching = items.filter((i) => i.product_number === scan.barcode || i.barcode === scan.barcode);
    if (matching.length === 0) throw new AppError('PACK_ITEM_NOT_IN_ORDER', { barcode: scan.barcode });
    const item = matching.find((i) => i.packed < i.expected);
    if (!item)
      throw new AppError('PACK_ITEM_COMPLETE', { barcode: scan.barcode, product_number: matching[0]!.product_number });
    if (counted !== null && counted !== item.product_id) throw new Error('packScan: SQL and memory chose differently');
    if (item.requires_serial) {
      if (!scan.serial) throw new AppError('REQUIRED_FIELD', { field: 'serial', product_number: item.product_number });
      const used = await packRepo.findActiveSerial(tx, customerId, scan.serial);
      if (used) throw new AppError('SERIAL_ALREADY_SHIPPED', { serial: scan.serial, order_number: used.order_number });
      try {
        await tx.transaction((sp) =>
          packRepo.insertSerial(sp, {
            customer_id: customerId,
            order_id: id,
            product_id: item.product_id,
            serial: scan.serial!,
            created_by: actor.id,
          }),
        );
      } catch (err) {
        if (sqlState(err) !== '23505') throw err;
        const other = await packRepo.findActiveSerial(tx, customerId, scan.serial);
        throw new AppError('SERIAL_ALREADY_SHIPPED', { serial: scan.serial, order_number: other?.order_number ?? '' });
      }
      if (!(await packRepo.addPackedUnitAudited(tx, actor, customerId, id, item.product_id, scan.serial)))
        throw new AppError('PACK_ITEM_COMPLETE', { barcode: scan.barcode, product_number: item.product_number });
    } else if (counted === null) {
      throw new AppError('PACK_ITEM_COMPLETE', { barcode: scan.barcode, product_number: item.product_number });
    }
    item.packed += 1;
    // Serials exist only for items that need them: without such an item there is nothing to read.
    const serials = items.some((i) => i.requires_serial) ? await packRepo.orderSerials(tx, customerId, id) : [];
    const packed = items.map((i) => ({
      ...i,
      serials: serials.filter((s) => s.product_id === i.product_id).map((s) => s.serial),
    }));
    return { order: toOrder(view), items: packed, complete: isComplete(packed) };
  });
}

/** Start the scanning of an order over (a box packed wrong): counts and captured serials go back to zero. */
export async function packReset(deps: TOutboundDeps, actor: TActor, id: string): Promise<TPackView> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    await lockForPacking(tx, actor, id);
    await packRepo.resetPack(tx, customerId, id);
    await writeAudit(tx, actor, { action: 'pack_reset', entity: 'outbound_order', entityId: id });
  });
  return packViewOf(deps.db, customerId, id);
}

/**
 * Confirm a packed order: every unit scanned (and its serial captured), a consignment number present, the packaging
 * taken out of stock, the reserved stock consumed through the engine (the ledger's outbound rows), status closed.
 */
export async function shipOrder(
  deps: TOutboundDeps & { jobs: JobQueue },
  actor: TActor,
  id: string,
  input: TShipOrder,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const order = await orderRepo.lockOrder(tx, customerId, id);
    if (!order) throw notFound();
    if (!canApply('ship', order.status as TOrderStatus)) throw illegal(order.status, 'ship');
    if (!order.consignment_number) throw new AppError('REQUIRED_FIELD', { field: 'consignment_number' });
    const view = await packViewOf(tx, customerId, id);
    if (!view.complete) throw new AppError('PACK_INCOMPLETE');
    const packaging = input.packaging ?? [];
    const known = await catalog.packagingExists(
      tx,
      customerId,
      packaging.map((p) => p.packaging_material_id),
    );
    for (const p of packaging) {
      if (!known.has(p.packaging_material_id))
        throw new AppError('NOT_FOUND', { field: 'packaging_material_id', id: p.packaging_material_id });
      if (!(await catalog.takePackaging(tx, customerId, p.packaging_material_id, p.quantity)))
        throw new AppError('PACKAGING_SHORTAGE', { packaging_material_id: p.packaging_material_id });
    }
    await packRepo.insertPackagingUses(
      tx,
      packaging.map((p) => ({ customer_id: customerId, order_id: id, ...p })),
    );
    const movements = await engine.consumeReserved(tx, engine.stockActorOf(actor), {
      document: { type: orderRepo.ORDER_DOCUMENT, id, number: order.number },
    });
    const shipped = -movements.reduce((s, m) => s + m.quantity, 0);
    const packed = view.items.reduce((s, i) => s + i.packed, 0);
    // The box holds exactly what was reserved: the pack items were made from the reservations.
    if (shipped !== packed) throw new AppError('PACK_INCOMPLETE', { shipped, packed });
    const moved = await moveOrder(tx, actor, order, 'ship');
    await writeAudit(tx, actor, {
      action: 'ship',
      entity: 'outbound_order',
      entityId: id,
      before: { status: order.status },
      after: { status: moved.status, units: shipped, packaging },
    });
    // Usage billing, Shopee (the tracking number back to it) and whoever else listens hear of the shipment: an outbox
    // message in this same transaction.
    await publishEvent(
      tx,
      deps.jobs,
      ordersShipped,
      {
        customer_id: customerId,
        orders: [
          {
            order_id: id,
            number: order.number,
            shipped_at: (moved.closed_at ?? new Date()).toISOString(),
            units: shipped,
            consignment_number: order.consignment_number,
          },
        ],
      },
      { customerId },
    );
  });
  deps.jobs.kick('outbox.deliver');
  return orderDetail(deps.db, customerId, id);
}

// ---- IMEI (/deliver-imei) ----

export async function listSerials(deps: TOutboundDeps, actor: TActor, q: packRepo.TSerialListQuery) {
  const { rows, count } = await packRepo.listSerials(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toSerial) };
}
