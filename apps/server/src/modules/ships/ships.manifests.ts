import type { TManifest, TManifestList, TManifestScan } from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import { barcodeSvg } from '../labels';
import { findOrderIdByNumberOrConsignment, lockOrder, SHIPPED_OUT_STATUSES } from '../outbound';
import * as repo from './ships.repository';
import type { TShipsDeps } from './ships.service';

/**
 * The handover scan (issue #36): parcels are scanned (tracking number or order number) into the open manifest of a
 * warehouse and carrier — opened by the first scan — and closing it hands them over: the board counts them, the
 * printed manifest lists them. An order is on one manifest at most (the parcels' primary key), a manifest closes once
 * (locked, conditional update), one manifest is open per warehouse and carrier (a partial unique index).
 */

export const MANIFEST_PREFIX = 'MF';

async function manifestOf(ex: Executor, customerId: string, id: string): Promise<TManifest> {
  const row = await repo.findManifest(ex, customerId, id);
  if (!row) throw notFound();
  const parcels = await repo.manifestParcels(ex, customerId, id);
  return { ...row, parcels, barcode_svg: barcodeSvg(row.number, 'code128') };
}

export async function listManifests(
  deps: TShipsDeps,
  actor: TActor,
  q: { warehouse_id: string; logistics_provider_id: string },
): Promise<TManifestList> {
  const customerId = tenantOf(actor);
  const [open, closed] = await repo.manifestsOf(deps.db, customerId, q.warehouse_id, q.logistics_provider_id);
  return { open: open[0] ? await manifestOf(deps.db, customerId, open[0].id) : null, closed };
}

export async function getManifest(deps: TShipsDeps, actor: TActor, id: string): Promise<TManifest> {
  return manifestOf(deps.db, tenantOf(actor), id);
}

export async function scanParcel(deps: TShipsDeps, actor: TActor, input: TManifestScan): Promise<TManifest> {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const orderId = await findOrderIdByNumberOrConsignment(tx, customerId, input.code, input.code);
    if (!orderId) throw new AppError('MANIFEST_PARCEL_UNKNOWN', { code: input.code });
    const order = await lockOrder(tx, customerId, orderId);
    if (!order) throw new AppError('MANIFEST_PARCEL_UNKNOWN', { code: input.code });
    if (order.warehouse_id !== input.warehouse_id || order.logistics_provider_id !== input.logistics_provider_id)
      throw new AppError('MANIFEST_PARCEL_OTHER_CARRIER', { number: order.number });
    if (!(SHIPPED_OUT_STATUSES as readonly string[]).includes(order.status))
      throw new AppError('MANIFEST_PARCEL_NOT_SHIPPED', { number: order.number });
    let open = await repo.lockOpenManifest(tx, customerId, input.warehouse_id, input.logistics_provider_id);
    if (!open) {
      const number = await nextDocumentNumber(tx, customerId, MANIFEST_PREFIX);
      await repo.insertOpenManifest(tx, {
        customer_id: customerId,
        warehouse_id: input.warehouse_id,
        logistics_provider_id: input.logistics_provider_id,
        number,
        created_by: actor.id,
      });
      // Ours, or the one a scan at the same moment opened (the partial unique index let only one in).
      open = await repo.lockOpenManifest(tx, customerId, input.warehouse_id, input.logistics_provider_id);
      if (!open) throw new AppError('INVALID_STATUS_TRANSITION', { action: 'scan' });
    }
    const added = await repo.insertParcel(tx, {
      order_id: order.id,
      manifest_id: open.id,
      customer_id: customerId,
      scanned_code: input.code,
      scanned_by: actor.id,
    });
    if (!added) {
      const on = await repo.manifestOfOrder(tx, customerId, order.id);
      throw new AppError('MANIFEST_PARCEL_TAKEN', { number: order.number, manifest: on?.number ?? '' });
    }
    await writeAudit(tx, actor, {
      action: 'scan_parcel',
      entity: 'ship_manifest',
      entityId: open.id,
      after: { manifest: open.number, order: order.number, code: input.code },
    });
    return open.id;
  });
  return manifestOf(deps.db, customerId, id);
}

export async function closeManifest(deps: TShipsDeps, actor: TActor, id: string): Promise<TManifest> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const m = await repo.lockManifest(tx, customerId, id);
    if (!m) throw notFound();
    if (m.status !== 'open') throw new AppError('MANIFEST_CLOSED', { number: m.number });
    const parcels = await repo.countParcels(tx, customerId, id);
    if (parcels === 0) throw new AppError('MANIFEST_EMPTY');
    if (!(await repo.closeManifest(tx, customerId, id, actor.id)))
      throw new AppError('MANIFEST_CLOSED', { number: m.number });
    await writeAudit(tx, actor, {
      action: 'close',
      entity: 'ship_manifest',
      entityId: id,
      after: { number: m.number, parcels },
    });
  });
  return manifestOf(deps.db, customerId, id);
}
