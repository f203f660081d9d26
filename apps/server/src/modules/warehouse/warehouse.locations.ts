import {
  locationCode,
  type TCreateShelf,
  type TCreateStorageLocation,
  type TGenerateLocations,
  type TLocationKind,
  type TShelf,
  type TStorageLocation,
  type TStorageLocationListQuery,
  type TUpdateShelf,
  type TUpdateStorageLocation,
} from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import * as locationRepo from './warehouse.locations.repository';
import * as repo from './warehouse.repository';
import { requireWarehouse, rewalk, type TPage, type TWarehouseDeps } from './warehouse.service';
import * as shelfRepo from './warehouse.shelves.repository';

/**
 * Shelves and storage locations: list, export, create (a shelf's locations generated from its levels and positions),
 * edit and delete, with the placement checks (area and shelf of the same warehouse); the look-ups other use cases need.
 * Warehouses, areas and pick paths: warehouse.service.ts.
 */

export function toShelf(r: shelfRepo.TShelfView): TShelf {
  return {
    id: r.id,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    area_id: r.area_id,
    area_code: r.area_code,
    code: r.code,
    name: r.name,
    category: r.category,
    layers: r.layers,
    location_count: Number(r.location_count),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toLocation(r: locationRepo.TLocationView): TStorageLocation {
  return {
    id: r.id,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    area_id: r.area_id,
    area_code: r.area_code,
    shelf_id: r.shelf_id,
    shelf_code: r.shelf_code,
    code: r.code,
    name: r.name,
    layer: r.layer,
    cells: r.cells,
    kind: r.kind as TLocationKind,
    pick_sequence: r.pick_sequence,
    pick_sequence_manual: r.pick_sequence_manual,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

// ---- shelves ----
async function requireAreaIn(tx: Executor, customerId: string, warehouseId: string, areaId: string | null | undefined) {
  if (!areaId) return null;
  const area = await repo.findArea(tx, customerId, areaId);
  if (!area || area.warehouse_id !== warehouseId) throw new AppError('INVALID_FIELD', { field: 'area_id' });
  return area;
}

export async function listShelves(
  deps: TWarehouseDeps,
  actor: TActor,
  q: TPage & { warehouse_id?: string; area_id?: string; category?: string },
) {
  const { rows, count } = await shelfRepo.listShelves(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toShelf) };
}

export async function exportShelves(
  deps: TWarehouseDeps,
  actor: TActor,
  q: TPage & { warehouse_id?: string; area_id?: string; category?: string },
) {
  const { rows } = await shelfRepo.listShelves(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS });
  return rows.map(toShelf);
}

export async function getShelf(deps: TWarehouseDeps, actor: TActor, id: string) {
  const row = await shelfRepo.findShelf(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toShelf(row);
}

export async function createShelf(deps: TWarehouseDeps, actor: TActor, input: TCreateShelf) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    await requireWarehouse(tx, customerId, input.warehouse_id);
    await requireAreaIn(tx, customerId, input.warehouse_id, input.area_id);
    const row = await shelfRepo
      .insertShelf(tx, {
        customer_id: customerId,
        warehouse_id: input.warehouse_id,
        area_id: input.area_id ?? null,
        code: input.code,
        name: input.name,
        category: input.category ?? '',
        layers: input.layers,
      })
      .catch((e) => constraintError(e));
    const view = toShelf((await shelfRepo.findShelf(tx, customerId, row.id))!);
    await writeAudit(tx, actor, { action: 'create', entity: 'shelf', entityId: row.id, after: view });
    return view;
  });
}

export async function updateShelf(deps: TWarehouseDeps, actor: TActor, id: string, patch: TUpdateShelf) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await shelfRepo.findShelf(tx, customerId, id);
    if (!before) throw notFound();
    if (patch.area_id !== undefined) await requireAreaIn(tx, customerId, before.warehouse_id, patch.area_id);
    await shelfRepo.updateShelf(tx, customerId, id, patch).catch((e) => constraintError(e));
    if (patch.code !== undefined || patch.area_id !== undefined) await rewalk(tx, customerId, before.warehouse_id);
    const after = toShelf((await shelfRepo.findShelf(tx, customerId, id))!);
    await writeAudit(tx, actor, { action: 'update', entity: 'shelf', entityId: id, before: toShelf(before), after });
    return after;
  });
}

export async function deleteShelf(deps: TWarehouseDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await shelfRepo.findShelf(tx, customerId, id);
    if (!before) throw notFound();
    await shelfRepo.deleteShelf(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, { action: 'delete', entity: 'shelf', entityId: id, before: toShelf(before) });
  });
  return { ok: true as const };
}

/**
 * Create a shelf's storage locations in one step: layers × positions, coded `<shelf>-<layer>-<position>`
 * (see `locationCode`). Existing codes are skipped, so the call is safe to repeat after adding layers.
 */
export async function generateShelfLocations(
  deps: TWarehouseDeps,
  actor: TActor,
  id: string,
  input: TGenerateLocations,
) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const shelf = await shelfRepo.findShelf(tx, customerId, id);
    if (!shelf) throw notFound();
    const values = [];
    for (let layer = 1; layer <= shelf.layers; layer++) {
      for (let position = 1; position <= input.positions_per_layer; position++) {
        values.push({
          customer_id: customerId,
          warehouse_id: shelf.warehouse_id,
          area_id: shelf.area_id,
          shelf_id: shelf.id,
          code: locationCode(shelf.code, layer, position),
          name: `${shelf.name} ${layer}-${position}`,
          layer,
          cells: input.cells,
          kind: input.kind,
        });
      }
    }
    const created = await locationRepo.insertLocationsSkippingExisting(tx, values);
    await rewalk(tx, customerId, shelf.warehouse_id);
    await writeAudit(tx, actor, {
      action: 'generate_locations',
      entity: 'shelf',
      entityId: id,
      after: { created: created.length, positions_per_layer: input.positions_per_layer, layers: shelf.layers },
    });
    return { created: created.length, skipped: values.length - created.length, codes: created };
  });
}

// ---- storage locations ----
type TLocationQuery = Omit<TStorageLocationListQuery, 'page' | 'page_size'> & TPage;

export async function listLocations(deps: TWarehouseDeps, actor: TActor, q: TLocationQuery) {
  const { rows, count } = await locationRepo.listLocations(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toLocation) };
}

export async function exportLocations(deps: TWarehouseDeps, actor: TActor, q: TLocationQuery) {
  const { rows } = await locationRepo.listLocations(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS });
  return rows.map(toLocation);
}

export async function getLocation(deps: TWarehouseDeps, actor: TActor, id: string) {
  const row = await locationRepo.findLocation(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toLocation(row);
}

/** Check a location's area and shelf against its warehouse (and the layer against the shelf); fills the area from the shelf. */
async function resolvePlacement(
  tx: Executor,
  customerId: string,
  warehouseId: string,
  input: { area_id?: string | null; shelf_id?: string | null; layer?: number | null },
) {
  let areaId = input.area_id ?? null;
  if (areaId) await requireAreaIn(tx, customerId, warehouseId, areaId);
  if (input.shelf_id) {
    const shelf = await shelfRepo.findShelf(tx, customerId, input.shelf_id);
    if (!shelf || shelf.warehouse_id !== warehouseId) throw new AppError('INVALID_FIELD', { field: 'shelf_id' });
    if (areaId && shelf.area_id && shelf.area_id !== areaId) throw new AppError('INVALID_FIELD', { field: 'area_id' });
    areaId = areaId ?? shelf.area_id;
    if (input.layer && input.layer > shelf.layers) throw new AppError('INVALID_FIELD', { field: 'layer' });
  }
  return { areaId };
}

export async function createLocation(deps: TWarehouseDeps, actor: TActor, input: TCreateStorageLocation) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    await requireWarehouse(tx, customerId, input.warehouse_id);
    const { areaId } = await resolvePlacement(tx, customerId, input.warehouse_id, input);
    const row = await locationRepo
      .insertLocation(tx, {
        customer_id: customerId,
        warehouse_id: input.warehouse_id,
        area_id: areaId,
        shelf_id: input.shelf_id ?? null,
        code: input.code,
        name: input.name ?? '',
        layer: input.layer ?? null,
        cells: input.cells ?? 1,
        kind: input.kind ?? 'sellable',
        pick_sequence: input.pick_sequence ?? 0,
        pick_sequence_manual: input.pick_sequence !== undefined,
        is_active: input.is_active ?? true,
      })
      .catch((e) => constraintError(e));
    await rewalk(tx, customerId, input.warehouse_id);
    const view = toLocation((await locationRepo.findLocation(tx, customerId, row.id))!);
    await writeAudit(tx, actor, { action: 'create', entity: 'storage_location', entityId: row.id, after: view });
    return view;
  });
}

export async function updateLocation(deps: TWarehouseDeps, actor: TActor, id: string, patch: TUpdateStorageLocation) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await locationRepo.findLocation(tx, customerId, id);
    if (!before) throw notFound();
    const placement = {
      area_id: patch.area_id !== undefined ? patch.area_id : before.area_id,
      shelf_id: patch.shelf_id !== undefined ? patch.shelf_id : before.shelf_id,
      layer: patch.layer !== undefined ? patch.layer : before.layer,
    };
    const { areaId } = await resolvePlacement(tx, customerId, before.warehouse_id, placement);
    const { pick_sequence: sequence, ...rest } = patch;
    await locationRepo
      .updateLocation(tx, customerId, id, {
        ...rest,
        ...(patch.area_id !== undefined || patch.shelf_id ? { area_id: areaId } : {}),
        // A number is set by hand; null hands the location back to the derived walk.
        ...(sequence !== undefined
          ? { pick_sequence: sequence ?? before.pick_sequence, pick_sequence_manual: sequence !== null }
          : {}),
      })
      .catch((e) => constraintError(e));
    // The derived walk depends on code, zone, shelf and layer only (a hand-set number moves no other location): the
    // whole warehouse is renumbered when one of those changed, or when the location is handed back to the walk (it
    // needs its derived number) — not for a hand-set number, a name or an active flag (the common /subzone edits).
    const walkChanged =
      (patch.code !== undefined && patch.code !== before.code) ||
      patch.area_id !== undefined ||
      patch.shelf_id !== undefined ||
      (patch.layer !== undefined && patch.layer !== before.layer) ||
      sequence === null;
    if (walkChanged) await rewalk(tx, customerId, before.warehouse_id);
    const after = toLocation((await locationRepo.findLocation(tx, customerId, id))!);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'storage_location',
      entityId: id,
      before: toLocation(before),
      after,
    });
    return after;
  });
}

/** Delete storage locations, all or nothing: one in use (stock, documents) refuses the whole batch. */
export async function deleteLocations(deps: TWarehouseDeps, actor: TActor, ids: string[]) {
  const customerId = tenantOf(actor);
  const unique = [...new Set(ids)];
  return withTx(deps.db, async (tx) => {
    const found = await locationRepo.findLocationsByIds(tx, customerId, unique);
    if (found.length !== unique.length) throw notFound();
    await locationRepo.deleteLocations(tx, customerId, unique).catch((e) => constraintError(e));
    for (const before of found)
      await writeAudit(tx, actor, {
        action: 'delete',
        entity: 'storage_location',
        entityId: before.id,
        before: toLocation(before),
      });
    return { deleted: found.length };
  });
}

// ---- lookups other modules use (inbound, stock, outbound) ----
/** A storage location of this customer by id (404 otherwise). */
export async function requireLocation(tx: Executor, customerId: string, id: string) {
  const row = await locationRepo.findLocation(tx, customerId, id);
  if (!row) throw notFound();
  return toLocation(row);
}

/** A storage location by the code a scanner read, within one warehouse; undefined when there is none. */
export async function findLocationByCode(tx: Executor, customerId: string, warehouseId: string, code: string) {
  const row = await locationRepo.findLocationByCode(tx, customerId, warehouseId, code);
  return row ? toLocation(row) : undefined;
}
