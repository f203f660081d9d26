import type {
  TOrderStatus,
  TPickLine,
  TPickScan,
  TPickShort,
  TPickTote,
  TPickToteAssign,
  TPickView,
} from '@wms/contracts';
import { allOf, type Executor, type Tx } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import * as engine from '../stock';
import { startPickingLocked, toBatch } from './outbound.batches';
import * as batchRepo from './outbound.batches.repository';
import * as orderRepo from './outbound.orders.repository';
import * as pipelineRepo from './outbound.pipeline.repository';
import type { TOutboundDeps } from './outbound.views';
import { holdsReservation } from './outbound.workflow';

/**
 * The handheld pick walk of a collection batch (/deliver-pick; issue #37 "pick", #36 "cluster pick"). The piles to
 * pick are the batch's orders' reservations (the same ones its printed pick list shows), in walking order (the
 * locations' pick sequence); each accepted scan is a row of `pick_scans` (what was taken, or reported short). Picking
 * moves no stock: the reserved units are consumed when the order ships at the packing station, as before.
 *
 * Every scan is one transaction that locks the batch, so scans of one batch are counted one after the other; a scan
 * carries the handheld's `scan_id`, and a scan id already counted is answered with the walk as it is (not counted
 * again) — a resent request of a flaky handheld.
 *
 * Cluster pick: before the walk, each order is put into a tote (its code scanned; slots 1, 2, … in that order); the
 * screen then names the tote every unit goes into, and the packing station opens an order by scanning its tote.
 */

function key(orderId: string, locationId: string, productId: string, expiry: string | null): string {
  return `${orderId}|${locationId}|${productId}|${expiry ?? ''}`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type TWalk = { view: TPickView; numbers: Map<string, string> };

async function walkOf(ex: Executor, customerId: string, batchId: string): Promise<TWalk> {
  const batch = await batchRepo.findBatchView(ex, customerId, batchId);
  if (!batch) throw notFound();
  const ids = await batchRepo.batchOrderIds(ex, customerId, batchId);
  const [views, allocations, tallies, toteRows] = await allOf(ex, [
    () => orderRepo.findOrderViews(ex, customerId, ids),
    () => engine.orderAllocations(ex, customerId, orderRepo.ORDER_DOCUMENT, ids),
    () => batchRepo.pickTallies(ex, customerId, batchId),
    () => batchRepo.batchTotes(ex, customerId, batchId),
  ]);
  const numbers = new Map(views.map((v) => [v.order.id, v.order.number]));
  const toteOf = new Map(toteRows.map((r) => [r.order_id, r]));
  const cluster = toteRows.length > 0;
  // Orders with a tote in their slot order; the others after them, by number.
  const ordered = [...views].sort((a, b) => {
    const sa = toteOf.get(a.order.id)?.slot ?? Number.MAX_SAFE_INTEGER;
    const sb = toteOf.get(b.order.id)?.slot ?? Number.MAX_SAFE_INTEGER;
    return sa - sb || cmp(a.order.number, b.order.number);
  });
  const totes: TPickTote[] = ordered.map((v, i) => ({
    order_id: v.order.id,
    order_number: v.order.number,
    slot: toteOf.get(v.order.id)?.slot ?? i + 1,
    tote_code: toteOf.get(v.order.id)?.tote_code ?? null,
  }));
  const slotOf = new Map(totes.map((t) => [t.order_id, t.slot]));
  const tally = new Map(tallies.map((t) => [key(t.order_id, t.location_id, t.product_id, t.expiry_date), t]));
  const lines = new Map<string, TPickLine>();
  for (const a of allocations) {
    const k = key(a.order_id, a.location_id, a.product_id, a.expiry_date);
    const line = lines.get(k) ?? {
      order_id: a.order_id,
      order_number: numbers.get(a.order_id) ?? '',
      tote_slot: cluster ? (toteOf.get(a.order_id)?.slot ?? null) : null,
      tote_code: toteOf.get(a.order_id)?.tote_code ?? null,
      location_id: a.location_id,
      location_code: a.location_code,
      pick_sequence: a.pick_sequence,
      product_id: a.product_id,
      product_number: a.product_number,
      product_name: a.product_name,
      barcode: a.barcode,
      expiry_date: a.expiry_date,
      quantity: 0,
      picked: tally.get(k)?.picked ?? 0,
      short: tally.get(k)?.short ?? 0,
    };
    line.quantity += a.quantity;
    lines.set(k, line);
  }
  // Walking order: the location's pick sequence, then its code; at one location product by product, tote by tote.
  const walk = [...lines.values()].sort(
    (a, b) =>
      a.pick_sequence - b.pick_sequence ||
      cmp(a.location_code, b.location_code) ||
      cmp(a.product_number, b.product_number) ||
      cmp(a.expiry_date ?? '', b.expiry_date ?? '') ||
      (slotOf.get(a.order_id) ?? 0) - (slotOf.get(b.order_id) ?? 0),
  );
  const total = walk.reduce((s, l) => s + l.quantity, 0);
  const picked = walk.reduce((s, l) => s + Math.min(l.picked, l.quantity), 0);
  const short = walk.reduce((s, l) => s + l.short, 0);
  return {
    view: {
      batch: toBatch(batch),
      cluster,
      totes,
      lines: walk,
      total_units: total,
      picked_units: picked,
      short_units: short,
      complete: walk.every((l) => l.picked + l.short >= l.quantity),
    },
    numbers,
  };
}

const remaining = (l: TPickLine) => Math.max(0, l.quantity - l.picked - l.short);
const sameCode = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

export async function pickView(deps: TOutboundDeps, actor: TActor, batchId: string): Promise<TPickView> {
  return (await walkOf(deps.db, tenantOf(actor), batchId)).view;
}

/**
 * Lock the batch and read its walk; `undefined` when this scan id was counted already. The first scan of a batch that
 * was not started starts it (its exported orders go online, as "start picking" on the batch list does).
 */
async function lockWalk(tx: Tx, actor: TActor, batchId: string, scanId: string): Promise<TWalk | undefined> {
  const customerId = tenantOf(actor);
  const batch = await batchRepo.lockBatch(tx, customerId, batchId);
  if (!batch) throw notFound();
  if (await batchRepo.pickScanSeen(tx, customerId, scanId)) return undefined;
  if (!batch.picking_started_at) await startPickingLocked(tx, actor, batchId);
  return walkOf(tx, customerId, batchId);
}

/**
 * One scan of the walk: `quantity` units of a product taken at a location. Refused (nothing recorded) when nothing is
 * left to pick at that location (PICK_WRONG_LOCATION, naming the next one), when the product is not picked there
 * (PICK_WRONG_PRODUCT), or when more units are scanned than are left (PICK_OVER_QUANTITY). In a batch pick the units
 * go to the orders that need them in turn; in a cluster pick to one order (its tote), the one named or the first.
 */
export async function pickScan(
  deps: TOutboundDeps,
  actor: TActor,
  batchId: string,
  input: TPickScan,
): Promise<TPickView> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const walk = await lockWalk(tx, actor, batchId, input.scan_id);
    if (!walk) return;
    const open = walk.view.lines.filter((l) => remaining(l) > 0);
    const here = open.filter((l) => sameCode(l.location_code, input.location_code));
    if (here.length === 0)
      throw new AppError('PICK_WRONG_LOCATION', {
        field: 'location_code',
        location: input.location_code,
        expected: open[0]?.location_code ?? '-',
      });
    const code = input.barcode.trim();
    let matching = here.filter((l) => l.product_number === code || l.barcode === code);
    if (matching.length === 0)
      throw new AppError('PICK_WRONG_PRODUCT', {
        field: 'barcode',
        barcode: code,
        location: here[0]!.location_code,
      });
    if (walk.view.cluster) {
      const target = input.order_id ? matching.find((l) => l.order_id === input.order_id) : matching[0];
      if (!target)
        throw new AppError('PICK_WRONG_PRODUCT', { field: 'barcode', barcode: code, location: here[0]!.location_code });
      if (target.tote_code === null) throw new AppError('PICK_NO_TOTE', { order_number: target.order_number });
      matching = [target];
    }
    const left = matching.reduce((s, l) => s + remaining(l), 0);
    if (input.quantity > left)
      throw new AppError('PICK_OVER_QUANTITY', {
        field: 'quantity',
        remaining: left,
        product_number: matching[0]!.product_number,
        location: matching[0]!.location_code,
      });
    let rest = input.quantity;
    const rows: batchRepo.TPickScanInsert[] = [];
    for (const l of matching) {
      const n = Math.min(rest, remaining(l));
      if (n <= 0) continue;
      rows.push({
        customer_id: customerId,
        batch_id: batchId,
        scan_id: input.scan_id,
        order_id: l.order_id,
        location_id: l.location_id,
        product_id: l.product_id,
        expiry_date: l.expiry_date,
        kind: 'pick',
        quantity: n,
        created_by: actor.id,
      });
      rest -= n;
    }
    await batchRepo.insertPickScans(tx, rows);
  });
  return pickView(deps, actor, batchId);
}

/**
 * "Short pick": the units still to pick of a product at a location (for one order, or for every order of the batch
 * that needs them) are not there. They are recorded as short, and each order concerned is marked abnormal
 * (PICK_SHORTAGE, shown on /deliver like a refused export) so staff resolve it; its box cannot ship incomplete
 * (the packing station still expects the reserved units).
 */
export async function pickShort(
  deps: TOutboundDeps,
  actor: TActor,
  batchId: string,
  input: TPickShort,
): Promise<TPickView> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const walk = await lockWalk(tx, actor, batchId, input.scan_id);
    if (!walk) return;
    const lines = walk.view.lines.filter(
      (l) =>
        remaining(l) > 0 &&
        l.location_id === input.location_id &&
        l.product_id === input.product_id &&
        (!input.order_id || l.order_id === input.order_id),
    );
    if (lines.length === 0) throw new AppError('PICK_OVER_QUANTITY', { field: 'quantity', remaining: 0 });
    const rows: batchRepo.TPickScanInsert[] = lines.map((l) => ({
      customer_id: customerId,
      batch_id: batchId,
      scan_id: input.scan_id,
      order_id: l.order_id,
      location_id: l.location_id,
      product_id: l.product_id,
      expiry_date: l.expiry_date,
      kind: 'short',
      quantity: remaining(l),
      created_by: actor.id,
    }));
    await batchRepo.insertPickScans(tx, rows);
    const marks = lines.map((l) => ({
      id: l.order_id,
      code: 'PICK_SHORTAGE',
      params: {
        location: l.location_code,
        product_number: l.product_number,
        quantity: remaining(l),
        batch_number: walk.view.batch.number,
      },
    }));
    await pipelineRepo.markAbnormal(tx, customerId, marks);
    for (const m of marks)
      await writeAudit(tx, actor, {
        action: 'pick_short',
        entity: 'outbound_order',
        entityId: m.id,
        after: { ...m.params },
      });
  });
  return pickView(deps, actor, batchId);
}

/**
 * Cluster pick: put an order of the batch into a tote. A tote holds one order until that order has left (shipped or
 * cancelled): a code still held by another open order is refused (PICK_TOTE_IN_USE); an order moved to another tote
 * keeps its cart slot, a new one takes the next slot.
 */
export async function pickTote(
  deps: TOutboundDeps,
  actor: TActor,
  batchId: string,
  input: TPickToteAssign,
): Promise<TPickView> {
  const customerId = tenantOf(actor);
  const code = input.tote_code.trim();
  await withTx(deps.db, async (tx) => {
    const batch = await batchRepo.lockBatch(tx, customerId, batchId);
    if (!batch) throw notFound();
    const order = await orderRepo.lockOrder(tx, customerId, input.order_id);
    if (!order || order.batch_id !== batchId) throw new AppError('INVALID_FIELD', { field: 'order_id' });
    if (!holdsReservation(order.status as TOrderStatus))
      throw new AppError('INVALID_STATUS_TRANSITION', { action: 'pick', orders: [order.number] });
    const holder = await batchRepo.findTote(tx, customerId, code);
    if (holder && holder.order_id !== order.id) {
      if (holdsReservation(holder.status as TOrderStatus))
        throw new AppError('PICK_TOTE_IN_USE', { field: 'tote_code', tote_code: code, order_number: holder.number });
      // The order that had it has left the warehouse: the tote is free again.
      await batchRepo.deleteTote(tx, customerId, holder.order_id);
    }
    const rows = await batchRepo.batchTotes(tx, customerId, batchId);
    const slot = rows.find((r) => r.order_id === order.id)?.slot ?? rows.reduce((m, r) => Math.max(m, r.slot), 0) + 1;
    try {
      await tx.transaction((sp) =>
        batchRepo.upsertTote(sp, {
          order_id: order.id,
          customer_id: customerId,
          batch_id: batchId,
          slot,
          tote_code: code,
        }),
      );
    } catch (err) {
      if (sqlState(err) !== '23505') throw err;
      const other = await batchRepo.findTote(tx, customerId, code);
      throw new AppError('PICK_TOTE_IN_USE', {
        field: 'tote_code',
        tote_code: code,
        order_number: other?.number ?? '',
      });
    }
    await writeAudit(tx, actor, {
      action: 'pick_tote',
      entity: 'outbound_order',
      entityId: order.id,
      after: { batch: batch.number, tote_code: code, slot },
    });
  });
  return pickView(deps, actor, batchId);
}
