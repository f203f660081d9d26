import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import * as stock from '../stock';
import type { TReturnsDeps } from './returns.service';
import * as workflow from './returns.workflow';
import * as supplierRepo from './supplier-returns.repository';
import { document, loadDetail, refuseTransition } from './supplier-returns.service';

/**
 * Dispatch: the held stock leaves the warehouse (negative ledger rows, reason return_to_supplier): reserved piles
 * through consumeReserved, claimed piles through a negative adjustment of free stock (INVENTORY_SHORTAGE if it has
 * gone meanwhile). All piles are locked first in key order, so the two engine calls take no new locks.
 */
export async function dispatchSupplierReturn(
  deps: TReturnsDeps,
  actor: TActor,
  id: string,
  input: { consignment_number?: string },
) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const row = await supplierRepo.updateSupplierInStatus(
      tx,
      customerId,
      id,
      workflow.supplierStatusesAllowing('dispatch'),
      {
        status: workflow.supplierTargetStatus('dispatch'),
        dispatched_at: new Date(),
        dispatched_by: actor.id,
        ...(input.consignment_number !== undefined ? { consignment_number: input.consignment_number } : {}),
      },
    );
    if (!row) return refuseTransition(tx, customerId, id);
    const lines = await supplierRepo.findSupplierLines(tx, customerId, id);
    await stock.lockBalances(
      tx,
      customerId,
      lines.map((l) => l.balance_id),
    );
    const who = stock.stockActorOf(actor);
    const reserved = lines.filter((l) => workflow.holdOf(l.location_kind) === 'reservation');
    const claimed = lines.filter((l) => workflow.holdOf(l.location_kind) === 'claim');
    if (reserved.length)
      await stock.consumeReserved(tx, who, {
        document: document(row),
        reason: 'return_to_supplier',
        note: row.supplier_name,
        lines: reserved.map((l) => ({ balanceId: l.balance_id, quantity: Number(l.quantity) })),
      });
    if (claimed.length)
      await stock.postAdjustment(tx, who, {
        document: document(row),
        reason: 'return_to_supplier',
        note: row.supplier_name,
        lines: claimed.map((l) => ({
          productId: l.product_id,
          locationId: l.location_id,
          expiryDate: l.expiry_date,
          delta: -Number(l.quantity),
        })),
      });
    await writeAudit(tx, actor, {
      action: 'dispatch',
      entity: 'supplier_return',
      entityId: id,
      before: { status: 'reserved' },
      after: { status: row.status, units: lines.reduce((s, l) => s + Number(l.quantity), 0) },
    });
  });
  return loadDetail(deps.db, customerId, id);
}

/** Cancel a reserved order: the engine's reservation is released, the claims end with the status. */
export async function cancelSupplierReturn(deps: TReturnsDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const row = await supplierRepo.updateSupplierInStatus(
      tx,
      customerId,
      id,
      workflow.supplierStatusesAllowing('cancel'),
      {
        status: workflow.supplierTargetStatus('cancel'),
        cancelled_at: new Date(),
        cancelled_by: actor.id,
      },
    );
    if (!row) return refuseTransition(tx, customerId, id);
    const released = await stock.release(tx, stock.stockActorOf(actor), { document: document(row) });
    await writeAudit(tx, actor, {
      action: 'cancel',
      entity: 'supplier_return',
      entityId: id,
      before: { status: 'reserved' },
      after: { status: row.status, released_units: released.reduce((s, r) => s + r.quantity, 0) },
    });
  });
  return loadDetail(deps.db, customerId, id);
}
