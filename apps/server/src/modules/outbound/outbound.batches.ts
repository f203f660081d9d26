import type {
  TBatch,
  TBatchDetail,
  TOrderStatus,
  TPickRow,
  TPrintData,
  TPrintOrder,
  TPrintOrderBy,
} from '@wms/contracts';
import { allOf, type Executor, type Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import { companyContact } from '../account';
import { barcodeSvg } from '../labels';
import * as engine from '../stock';
import * as batchRepo from './outbound.batches.repository';
import * as listRepo from './outbound.list.repository';
import * as orderRepo from './outbound.orders.repository';
import { startPackingLocked } from './outbound.status';
import { type TOutboundDeps, toAllocation, toLine, toOrder } from './outbound.views';
import { BATCHABLE_STATUSES, canApply, canJoinBatch, RESERVED_STATUSES } from './outbound.workflow';

/** Collection batches (/deliver-opser): exported orders grouped for one pick walk, and the print data of pick lists. */

export const BATCH_PREFIX = 'CB';

export function toBatch(v: batchRepo.TBatchView): TBatch {
  return {
    id: v.batch.id,
    number: v.batch.number,
    warehouse_id: v.batch.warehouse_id,
    warehouse_code: v.warehouse_code,
    remark: v.batch.remark,
    order_count: Number(v.order_count),
    exported_count: Number(v.exported_count),
    online_count: Number(v.online_count),
    closed_count: Number(v.closed_count),
    unit_count: Number(v.unit_count),
    picking_started_at: v.batch.picking_started_at?.toISOString() ?? null,
    created_at: v.batch.created_at.toISOString(),
  };
}

async function batchDetail(ex: Executor, customerId: string, id: string): Promise<TBatchDetail> {
  const view = await batchRepo.findBatchView(ex, customerId, id);
  if (!view) throw notFound();
  const ids = await batchRepo.batchOrderIds(ex, customerId, id);
  const orders = (await orderRepo.findOrderViews(ex, customerId, ids)).map(toOrder);
  orders.sort((a, b) => (a.number < b.number ? -1 : 1));
  return { ...toBatch(view), orders };
}

export async function listBatches(
  deps: TOutboundDeps,
  actor: TActor,
  q: { page: number; page_size: number; search?: string; ordering?: string },
) {
  const { rows, count } = await batchRepo.listBatchViews(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toBatch) };
}

export async function getBatch(deps: TOutboundDeps, actor: TActor, id: string): Promise<TBatchDetail> {
  return batchDetail(deps.db, tenantOf(actor), id);
}

/**
 * Group exported orders of one warehouse into a new collection batch. Every order must be exported and in no batch
 * yet; otherwise nothing is created (409 naming the orders).
 */
export async function createBatch(
  deps: TOutboundDeps,
  actor: TActor,
  input: { order_ids: string[]; remark?: string },
): Promise<TBatchDetail> {
  const customerId = tenantOf(actor);
  const ids = [...new Set(input.order_ids)];
  const id = await withTx(deps.db, async (tx) => {
    const views = await orderRepo.findOrderViews(tx, customerId, ids);
    if (views.length !== ids.length) throw notFound();
    const refused = views.filter((v) => !canJoinBatch(v.order.status as TOrderStatus) || v.order.batch_id);
    if (refused.length)
      throw new AppError('INVALID_STATUS_TRANSITION', { action: 'batch', orders: refused.map((v) => v.order.number) });
    const warehouses = new Set(views.map((v) => v.order.warehouse_id));
    if (warehouses.size > 1) throw new AppError('INVALID_FIELD', { field: 'warehouse' });
    const number = await nextDocumentNumber(tx, customerId, BATCH_PREFIX);
    const batch = await batchRepo.insertBatch(tx, {
      customer_id: customerId,
      number,
      warehouse_id: views[0]?.order.warehouse_id ?? null,
      remark: input.remark ?? '',
      created_by: actor.id,
    });
    // Conditional: an order exported-and-unbatched a moment ago may have moved since; then nothing is created.
    const moved = await batchRepo.assignBatch(tx, customerId, batch.id, ids, BATCHABLE_STATUSES);
    if (moved.length !== ids.length) throw new AppError('INVALID_STATUS_TRANSITION', { action: 'batch' });
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'collection_batch',
      entityId: batch.id,
      after: { number, orders: views.map((v) => v.order.number) },
    });
    return batch.id;
  });
  return batchDetail(deps.db, customerId, id);
}

/** The pick walk begins: the batch's exported orders go online (packing opens with what they reserved). */
export async function startBatchPicking(deps: TOutboundDeps, actor: TActor, id: string): Promise<TBatchDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const batch = await batchRepo.lockBatch(tx, customerId, id);
    if (!batch) throw notFound();
    await startPickingLocked(tx, actor, id);
  });
  return batchDetail(deps.db, customerId, id);
}

/** Start the pick walk of a batch locked by the caller (its exported orders go online), audited. */
export async function startPickingLocked(tx: Tx, actor: TActor, id: string): Promise<void> {
  const customerId = tenantOf(actor);
  const started: string[] = [];
  for (const orderId of await batchRepo.batchOrderIds(tx, customerId, id)) {
    const order = await orderRepo.lockOrder(tx, customerId, orderId);
    if (!order || !canApply('start_packing', order.status as TOrderStatus)) continue;
    await startPackingLocked(tx, actor, order);
    started.push(order.number);
  }
  await batchRepo.markBatchPicking(tx, customerId, id);
  await writeAudit(tx, actor, {
    action: 'start_picking',
    entity: 'collection_batch',
    entityId: id,
    after: { started },
  });
}

/** Take orders out of a batch (still holding their reservations: not shipped); they keep their status. */
export async function removeBatchOrders(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  orderIds: string[],
): Promise<TBatchDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const batch = await batchRepo.lockBatch(tx, customerId, id);
    if (!batch) throw notFound();
    const removed = await batchRepo.unassignBatch(tx, customerId, id, [...new Set(orderIds)], RESERVED_STATUSES);
    if (removed.length === 0) throw new AppError('INVALID_STATUS_TRANSITION', { action: 'remove_from_batch' });
    await writeAudit(tx, actor, {
      action: 'remove_orders',
      entity: 'collection_batch',
      entityId: id,
      after: { orders: removed },
    });
  });
  return batchDetail(deps.db, customerId, id);
}

// ---- print data ----

/** A pick list: reserved stock summed per location, product and lot, in walking order (pick sequence, then code). */
export function pickRows(
  allocations: engine.TAllocationRow[],
  unallocated: Array<{
    order_id: string;
    product_id: string;
    product_number: string;
    product_name: string;
    barcode: string | null;
    quantity: number;
  }>,
): TPickRow[] {
  const rows = new Map<string, TPickRow & { orders: Set<string> }>();
  for (const a of allocations) {
    const key = `${a.location_id}|${a.product_id}|${a.expiry_date ?? ''}`;
    const r = rows.get(key) ?? {
      location_id: a.location_id,
      location_code: a.location_code,
      pick_sequence: a.pick_sequence,
      product_id: a.product_id,
      product_number: a.product_number,
      product_name: a.product_name,
      barcode: a.barcode,
      expiry_date: a.expiry_date,
      quantity: 0,
      order_count: 0,
      orders: new Set<string>(),
    };
    r.quantity += a.quantity;
    r.orders.add(a.order_id);
    rows.set(key, r);
  }
  for (const u of unallocated) {
    const key = `-|${u.product_id}`;
    const r = rows.get(key) ?? {
      location_id: null,
      location_code: null,
      pick_sequence: null,
      product_id: u.product_id,
      product_number: u.product_number,
      product_name: u.product_name,
      barcode: u.barcode,
      expiry_date: null,
      quantity: 0,
      order_count: 0,
      orders: new Set<string>(),
    };
    r.quantity += u.quantity;
    r.orders.add(u.order_id);
    rows.set(key, r);
  }
  const out = [...rows.values()].map(({ orders, ...r }) => ({ ...r, order_count: orders.size }));
  // Walking order; rows without a location (orders not exported) last.
  return out.sort((a, b) => {
    if (a.location_code === null || b.location_code === null)
      return a.location_code === b.location_code
        ? cmp(a.product_number, b.product_number)
        : a.location_code === null
          ? 1
          : -1;
    return (
      (a.pick_sequence ?? 0) - (b.pick_sequence ?? 0) ||
      cmp(a.location_code, b.location_code) ||
      cmp(a.product_number, b.product_number) ||
      cmp(a.expiry_date ?? '', b.expiry_date ?? '')
    );
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders of a print in the chosen order: by order number, by the first pick location, or by the first product. */
export function sortPrintOrders(
  orders: TPrintOrder[],
  orderby: TPrintOrderBy,
  walk: Map<string, number>,
): TPrintOrder[] {
  const firstLocation = (o: TPrintOrder) =>
    o.allocations.reduce(
      (best, a) => Math.min(best, walk.get(a.location_id) ?? Number.MAX_SAFE_INTEGER),
      Number.MAX_SAFE_INTEGER,
    );
  const firstProduct = (o: TPrintOrder) => [...o.lines.map((l) => l.product_number)].sort()[0] ?? '';
  return [...orders].sort((a, b) => {
    if (orderby === 'location') return firstLocation(a) - firstLocation(b) || cmp(a.number, b.number);
    if (orderby === 'product') return cmp(firstProduct(a), firstProduct(b)) || cmp(a.number, b.number);
    return cmp(a.number, b.number);
  });
}

async function printDataOf(
  ex: Executor,
  customerId: string,
  orderIds: string[],
  orderby: TPrintOrderBy,
  batch: TBatch | null,
): Promise<TPrintData> {
  const [views, lines, reserved, company] = await allOf(ex, [
    () => orderRepo.findOrderViews(ex, customerId, orderIds),
    () => orderRepo.orderLines(ex, customerId, orderIds),
    () => engine.orderAllocations(ex, customerId, orderRepo.ORDER_DOCUMENT, orderIds),
    () => companyContact(ex, customerId),
  ]);
  // Orders that shipped hold no reservation any more: their piles come from the ledger (a closed batch's reprint
  // lists what was picked, not "0 units").
  const holding = new Set(reserved.map((a) => a.order_id));
  const shipped = views
    .filter((v) => !holding.has(v.order.id) && !canApply('export', v.order.status as TOrderStatus))
    .map((v) => ({ id: v.order.id, number: v.order.number }));
  const fromLedger = await engine.shippedAllocations(ex, customerId, orderRepo.ORDER_DOCUMENT, shipped);
  const allocations = fromLedger.length
    ? [...reserved, ...fromLedger].sort(
        (a, b) =>
          a.pick_sequence - b.pick_sequence ||
          a.location_code.localeCompare(b.location_code) ||
          a.product_number.localeCompare(b.product_number),
      )
    : reserved;
  const allocated = new Set(allocations.map((a) => a.order_id));
  // Lines of orders not exported yet: shown without a location.
  const exportable = new Set(
    views.filter((v) => canApply('export', v.order.status as TOrderStatus)).map((v) => v.order.id),
  );
  const unallocated = lines.filter((l) => !allocated.has(l.order_id) && exportable.has(l.order_id));
  const rows = pickRows(allocations, unallocated);
  const walk = new Map<string, number>();
  rows.forEach((r, i) => {
    if (r.location_id && !walk.has(r.location_id)) walk.set(r.location_id, i);
  });
  const orders: TPrintOrder[] = views.map((v) => ({
    ...toOrder(v),
    lines: lines.filter((l) => l.order_id === v.order.id).map(toLine),
    allocations: allocations.filter((a) => a.order_id === v.order.id).map(toAllocation),
  }));
  const codes = [batch?.number, ...orders.flatMap((o) => [o.number, o.consignment_number])].filter(
    (v): v is string => !!v,
  );
  return {
    batch,
    pick_rows: rows,
    total_units: rows.reduce((s, r) => s + r.quantity, 0),
    orders: sortPrintOrders(orders, orderby, walk),
    company: { name: company?.name ?? '', phone: company?.phone ?? null, address: company?.address ?? null },
    barcodes: Object.fromEntries([...new Set(codes)].map((v) => [v, barcodeSvg(v, 'code128')])),
    printed_at: new Date().toISOString(),
  };
}

/** Print data of the deliver print screens: `id` is a collection batch or a single order. */
export async function printData(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  orderby: TPrintOrderBy,
): Promise<TPrintData> {
  const customerId = tenantOf(actor);
  const batch = await batchRepo.findBatchView(deps.db, customerId, id);
  if (batch) {
    const ids = await batchRepo.batchOrderIds(deps.db, customerId, id);
    return printDataOf(deps.db, customerId, ids, orderby, toBatch(batch));
  }
  const order = await orderRepo.findOrderView(deps.db, customerId, id);
  if (!order) throw notFound();
  return printDataOf(deps.db, customerId, [id], orderby, null);
}

/** The pick list of a collection batch (404 for anything else). */
export async function batchPickList(deps: TOutboundDeps, actor: TActor, id: string): Promise<TPrintData> {
  const customerId = tenantOf(actor);
  const batch = await batchRepo.findBatchView(deps.db, customerId, id);
  if (!batch) throw notFound();
  const ids = await batchRepo.batchOrderIds(deps.db, customerId, id);
  return printDataOf(deps.db, customerId, ids, 'location', toBatch(batch));
}

/** Print data of a selection of orders (the list's bulk print, `?ids=a,b`). Ids of other sellers are simply not there. */
export async function printSelection(
  deps: TOutboundDeps,
  actor: TActor,
  ids: string | undefined,
  orderby: TPrintOrderBy,
): Promise<TPrintData> {
  const customerId = tenantOf(actor);
  const selected = (listRepo.parseIds(ids) ?? []).slice(0, 1000);
  const found = (await orderRepo.findOrderViews(deps.db, customerId, selected)).map((v) => v.order.id);
  return printDataOf(deps.db, customerId, found, orderby, null);
}
