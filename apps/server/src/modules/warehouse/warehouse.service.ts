import type {
  TArea,
  TCreateArea,
  TCreateWarehouse,
  TRenumberWalk,
  TUpdateArea,
  TUpdateWarehouse,
  TWarehouse,
} from '@wms/contracts';
import type { Db, Executor, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import { printerAddress, type TPrinterHostPolicy } from '../../platform/printer-hosts';
import * as repo from './warehouse.repository';
import { renumberWalk } from './warehouse.walk';

export interface TWarehouseDeps {
  db: Db;
  /** Where a label printer may be (the operator's policy); without it, the private ranges only. */
  printerHosts?: TPrinterHostPolicy;
}

/** A printer host typed on the warehouse must be on the warehouse's network (platform/printer-hosts.ts). */
async function checkPrinterHost(deps: TWarehouseDeps, host: string | null | undefined): Promise<void> {
  if (host) await printerAddress(host, deps.printerHosts ?? { allowLoopback: false, allowed: [] });
}

export type TPage = { page: number; page_size: number; search?: string; ordering?: string };

export function toWarehouse(r: repo.TWarehouseRow): TWarehouse {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    address: r.address,
    label_printer_host: r.label_printer_host,
    label_printer_port: r.label_printer_port,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toArea(r: repo.TAreaView): TArea {
  return {
    id: r.id,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    code: r.code,
    name: r.name,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

// ---- warehouses ----
export async function listWarehouses(deps: TWarehouseDeps, actor: TActor, q: TPage & { code?: string }) {
  const { rows, count } = await repo.listWarehouses(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toWarehouse) };
}

export async function exportWarehouses(deps: TWarehouseDeps, actor: TActor, q: TPage & { code?: string }) {
  const { rows } = await repo.listWarehouses(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS });
  return rows.map(toWarehouse);
}

export async function getWarehouse(deps: TWarehouseDeps, actor: TActor, id: string) {
  const row = await repo.findWarehouse(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toWarehouse(row);
}

export async function createWarehouse(deps: TWarehouseDeps, actor: TActor, input: TCreateWarehouse) {
  const customerId = tenantOf(actor);
  await checkPrinterHost(deps, input.label_printer_host);
  return withTx(deps.db, async (tx) => {
    const row = await repo
      .insertWarehouse(tx, {
        customer_id: customerId,
        code: input.code,
        name: input.name,
        address: input.address ?? '',
        label_printer_host: input.label_printer_host || null,
        label_printer_port: input.label_printer_port ?? null,
      })
      .catch((e) => constraintError(e));
    await writeAudit(tx, actor, { action: 'create', entity: 'warehouse', entityId: row.id, after: toWarehouse(row) });
    return toWarehouse(row);
  });
}

export async function updateWarehouse(deps: TWarehouseDeps, actor: TActor, id: string, patch: TUpdateWarehouse) {
  const customerId = tenantOf(actor);
  await checkPrinterHost(deps, patch.label_printer_host);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findWarehouse(tx, customerId, id);
    if (!before) throw notFound();
    const row = await repo.updateWarehouse(tx, customerId, id, patch).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'warehouse',
      entityId: id,
      before: toWarehouse(before),
      after: toWarehouse(row!),
    });
    return toWarehouse(row!);
  });
}

export async function deleteWarehouse(deps: TWarehouseDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findWarehouse(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deleteWarehouse(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, { action: 'delete', entity: 'warehouse', entityId: id, before: toWarehouse(before) });
  });
  return { ok: true as const };
}

// ---- areas ----
export async function requireWarehouse(tx: Executor, customerId: string, id: string) {
  const w = await repo.findWarehouse(tx, customerId, id);
  if (!w) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
  return w;
}

export async function listAreas(deps: TWarehouseDeps, actor: TActor, q: TPage & { warehouse_id?: string }) {
  const { rows, count } = await repo.listAreas(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toArea) };
}

export async function exportAreas(deps: TWarehouseDeps, actor: TActor, q: TPage & { warehouse_id?: string }) {
  const { rows } = await repo.listAreas(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS });
  return rows.map(toArea);
}

export async function getArea(deps: TWarehouseDeps, actor: TActor, id: string) {
  const row = await repo.findArea(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toArea(row);
}

export async function createArea(deps: TWarehouseDeps, actor: TActor, input: TCreateArea) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    await requireWarehouse(tx, customerId, input.warehouse_id);
    const row = await repo.insertArea(tx, { customer_id: customerId, ...input }).catch((e) => constraintError(e));
    const view = toArea((await repo.findArea(tx, customerId, row.id))!);
    await writeAudit(tx, actor, { action: 'create', entity: 'area', entityId: row.id, after: view });
    return view;
  });
}

export async function updateArea(deps: TWarehouseDeps, actor: TActor, id: string, patch: TUpdateArea) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findArea(tx, customerId, id);
    if (!before) throw notFound();
    await repo.updateArea(tx, customerId, id, patch).catch((e) => constraintError(e));
    if (patch.code !== undefined) await rewalk(tx, customerId, before.warehouse_id);
    const after = toArea((await repo.findArea(tx, customerId, id))!);
    await writeAudit(tx, actor, { action: 'update', entity: 'area', entityId: id, before: toArea(before), after });
    return after;
  });
}

export async function deleteArea(deps: TWarehouseDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findArea(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deleteArea(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, { action: 'delete', entity: 'area', entityId: id, before: toArea(before) });
  });
  return { ok: true as const };
}

// ---- pick paths ----

/**
 * Renumber the derived walking order of a warehouse's locations (10, 20, … in the order of warehouse.walk.ts); hand-set
 * sequences keep their number. In the caller's transaction, the warehouse locked so two changes renumber one after the
 * other. Answers how many locations got a new number.
 */
export async function rewalk(tx: Tx, customerId: string, warehouseId: string): Promise<number> {
  await repo.lockWarehouse(tx, customerId, warehouseId);
  const changes = renumberWalk(await repo.walkLocations(tx, customerId, warehouseId));
  await repo.setPickSequences(tx, customerId, changes);
  return changes.length;
}

/** The /subzone action: renumber a warehouse's walk (and, asked to, forget the sequences set by hand first). */
export async function renumberWarehouseWalk(
  deps: TWarehouseDeps,
  actor: TActor,
  warehouseId: string,
  input: TRenumberWalk,
): Promise<{ renumbered: number }> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    if (!(await repo.lockWarehouse(tx, customerId, warehouseId))) throw notFound();
    if (input.reset_manual) await repo.clearManualSequences(tx, customerId, warehouseId);
    const renumbered = await rewalk(tx, customerId, warehouseId);
    await writeAudit(tx, actor, {
      action: 'renumber_walk',
      entity: 'warehouse',
      entityId: warehouseId,
      after: { renumbered, reset_manual: !!input.reset_manual },
    });
    return { renumbered };
  });
}
