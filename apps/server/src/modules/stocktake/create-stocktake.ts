/**
 * Use cases: create a stocktake sheet (its scope of locations or products, drawn at random or chosen, never
 * overlapping another open sheet) and edit an open sheet's name, label and note.
 */
import type { TCreateStocktake, TStocktakeDetail, TStocktakeType, TUpdateStocktake } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import * as repo from './stocktake.repository';
import * as scopeRepo from './stocktake.scope.repository';
import { badStatus, present, sheetOr404, type TStocktakeDeps } from './stocktake.service';
import { drawSample, scopeOf, statusesAllowing } from './stocktake.workflow';

// ---- create and edit ----

/**
 * Create a sheet: its locations (full: all; random: N drawn; first/review/third: the chosen ones, or the locations
 * holding the chosen products) and its lines as the book has them now. A location may be on one open sheet only.
 */
export async function createStocktake(
  deps: TStocktakeDeps,
  actor: TActor,
  input: TCreateStocktake,
): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  const choice = scopeOf(input);
  if (!choice.ok) throw new AppError(choice.code, { field: choice.field });
  const { scope, pick, sampleSize } = choice.value;
  return withTx(deps.db, async (tx) => {
    const warehouse = await repo.warehouseOf(tx, customerId, input.warehouse_id);
    if (!warehouse) throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
    await scopeRepo.lockWarehouseSheets(tx, warehouse.id);

    let locationIds: string[] = [];
    let productIds: string[] = [];
    if (pick === 'all_locations') {
      locationIds = await scopeRepo.fullScopeLocations(tx, customerId, warehouse.id);
    } else if (scope === 'location') {
      if (pick === 'random') {
        locationIds = drawSample(await scopeRepo.fullScopeLocations(tx, customerId, warehouse.id), sampleSize!);
      } else {
        const wanted = [...new Set(input.location_ids ?? [])];
        locationIds = await scopeRepo.locationsOf(tx, customerId, warehouse.id, wanted);
        if (locationIds.length !== wanted.length) throw new AppError('NOT_FOUND', { field: 'location_ids' });
      }
    } else {
      if (pick === 'random') {
        productIds = drawSample(await scopeRepo.productsWithStock(tx, customerId, warehouse.id), sampleSize!);
      } else {
        const wanted = [...new Set(input.product_ids ?? [])];
        productIds = await scopeRepo.singleProductsOf(tx, customerId, wanted);
        if (productIds.length !== wanted.length) throw new AppError('NOT_FOUND', { field: 'product_ids' });
      }
      locationIds = await scopeRepo.locationsHolding(tx, customerId, warehouse.id, productIds);
    }
    if (locationIds.length === 0) throw new AppError('STOCKTAKE_EMPTY');
    const [overlap] = await scopeRepo.openSheetsHolding(tx, customerId, locationIds);
    if (overlap) throw new AppError('STOCKTAKE_OVERLAP', overlap);

    const number = await nextDocumentNumber(tx, customerId, 'ST');
    const sheet = await repo.insertSheet(tx, {
      customer_id: customerId,
      number,
      warehouse_id: warehouse.id,
      name: input.name,
      year: input.year ?? Number(taipeiToday().slice(0, 4)),
      attribute: input.attribute ?? '',
      type: input.type,
      status: 'first',
      scope,
      sample_size: sampleSize,
      remark: input.remark ?? '',
      created_by: actor.id,
    });
    await scopeRepo.insertSheetLocations(tx, customerId, sheet.id, locationIds);
    if (scope === 'product') await scopeRepo.insertSheetProducts(tx, customerId, sheet.id, productIds);
    await scopeRepo.insertBookLines(tx, customerId, sheet.id, scope);
    const view = await present(tx, customerId, sheet);
    await writeAudit(tx, actor, {
      action: 'stocktake.create',
      entity: 'stocktake',
      entityId: sheet.id,
      after: {
        number,
        type: input.type,
        scope,
        sample_size: sampleSize,
        locations: view.location_count,
        lines: view.line_count,
      },
    });
    return view;
  });
}

/** Rename, re-label or annotate an open sheet. */
export async function updateStocktake(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  input: TUpdateStocktake,
): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await sheetOr404(tx, customerId, id);
    const row = await repo.updateSheet(tx, customerId, id, statusesAllowing('edit', before.type as TStocktakeType), {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.attribute !== undefined ? { attribute: input.attribute } : {}),
      ...(input.remark !== undefined ? { remark: input.remark } : {}),
    });
    if (!row) throw badStatus(before.status);
    await writeAudit(tx, actor, {
      action: 'stocktake.update',
      entity: 'stocktake',
      entityId: id,
      before: { name: before.name, attribute: before.attribute, remark: before.remark },
      after: { name: row.name, attribute: row.attribute, remark: row.remark },
    });
    return present(tx, customerId, row);
  });
}
