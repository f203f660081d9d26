/**
 * Use cases of counting (scanner-first): scan a location of the sheet, scan a product that may be counted there,
 * submit the counts of a location in the open round.
 */
import type {
  TStocktakeScannedLocation,
  TStocktakeScannedProduct,
  TStocktakeScope,
  TStocktakeStatus,
  TSubmitStocktakeCount,
} from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { iso } from '../../platform/listing';
import { lotRuleViolation, stockKeyString } from '../stock';
import * as linesRepo from './stocktake.lines.repository';
import * as repo from './stocktake.repository';
import { badStatus, type TStocktakeDeps } from './stocktake.service';
import { aggregateItems, countMoment, roundOf } from './stocktake.workflow';

// ---- counting (scanner-first) ----

async function openSheet(ex: Executor, customerId: string, id: string, lock?: 'share') {
  const sheet = await repo.findSheet(ex, customerId, id, lock);
  if (!sheet) throw notFound();
  const round = roundOf(sheet.status as TStocktakeStatus);
  if (round === null) throw badStatus(sheet.status);
  return { sheet, round };
}

/** A scanned location code: the sheet's location, what is expected there this round, and the scan time. */
export async function scanLocation(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  code: string,
): Promise<TStocktakeScannedLocation> {
  const customerId = tenantOf(actor);
  const { sheet, round } = await openSheet(deps.db, customerId, id);
  const location = await linesRepo.findSheetLocation(deps.db, sheet.id, { code });
  if (!location) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'location_code', code });
  const expected = await linesRepo.expectedAt(deps.db, sheet.id, location.location_id, round);
  return {
    location_id: location.location_id,
    location_code: location.code,
    location_name: location.name,
    round,
    scanned_at: await repo.scanMoment(deps.db),
    in_round: round === 1 || expected.length > 0,
    counted_at: iso(location.counted_at[round - 1] ?? null),
    expected: expected.map((e) => ({ ...e, counted: e.counted === null ? null : Number(e.counted) })),
  };
}

/** A scanned product code (barcode or product number) that may be counted on this sheet. */
export async function scanProduct(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  code: string,
): Promise<TStocktakeScannedProduct> {
  const customerId = tenantOf(actor);
  const { sheet } = await openSheet(deps.db, customerId, id);
  const product = await linesRepo.findProductByCode(deps.db, customerId, code);
  if (!product) throw new AppError('NOT_FOUND', { field: 'product_id', code });
  if (product.type !== 'single') throw new AppError('PRODUCT_ABNORMAL', { product_id: product.id });
  if (sheet.scope === 'product' && !(await linesRepo.sheetHasProducts(deps.db, sheet.id, [product.id])).has(product.id))
    throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'product_id', code });
  return {
    product_id: product.id,
    product_number: product.number,
    product_name: product.name,
    product_barcode: product.barcode,
    has_shelf_life: !!product.shelf_life_months,
  };
}

/**
 * Record one location's count in the open round. Every line of the location in this round gets its count (0 when
 * not scanned) and its book: the ledger's on_hand of that pile at the moment the location was scanned. Movements
 * after that moment are not blocked; closing posts count − book as a delta, so they stay accounted for.
 */
export async function submitCount(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  input: TSubmitStocktakeCount,
): Promise<{ location_id: string; round: number; lines_counted: number; units_counted: number; counted_at: string }> {
  const customerId = tenantOf(actor);
  const items = aggregateItems(input.items);
  return withTx(deps.db, async (tx) => {
    // Share lock: counts of different locations run side by side; a round change or close waits for them.
    const { sheet, round } = await openSheet(tx, customerId, id, 'share');
    const location = await linesRepo.findSheetLocation(tx, sheet.id, { id: input.location_id }, true);
    if (!location) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'location_id' });
    const now = await repo.dbNow(tx);
    if (!countMoment(input.started_at ? new Date(input.started_at) : null, now, sheet.round_started_at))
      throw new AppError('INVALID_FIELD', { field: 'started_at' });
    // Compared as text with its microseconds, not as a Date (which would drop them).
    const moment = input.started_at ?? (await repo.txMoment(tx));

    const known = await linesRepo.productsByIds(
      tx,
      customerId,
      items.map((i) => i.productId),
    );
    const byId = new Map(known.map((p) => [p.id, p]));
    for (const item of items) {
      const product = byId.get(item.productId);
      if (!product) throw new AppError('NOT_FOUND', { field: 'product_id', id: item.productId });
      const violation = lotRuleViolation(
        { type: product.type, shelfLifeMonths: product.shelf_life_months },
        item.expiryDate,
      );
      if (violation === 'PRODUCT_ABNORMAL') throw new AppError(violation, { product_id: product.id });
      if (violation) throw new AppError(violation, { field: 'expiry_date', product_id: product.id });
    }
    if (sheet.scope === 'product') {
      const onSheet = await linesRepo.sheetHasProducts(
        tx,
        sheet.id,
        items.map((i) => i.productId),
      );
      const outside = items.find((i) => !onSheet.has(i.productId));
      if (outside) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'product_id', id: outside.productId });
    }

    const found = items.filter((i) => i.quantity > 0);
    if (round === 1)
      await linesRepo.addRoundOneLines(
        tx,
        customerId,
        sheet.id,
        sheet.scope as TStocktakeScope,
        location.location_id,
        moment,
        found,
      );
    const lines = await linesRepo.linesWithBookAt(tx, customerId, sheet.id, location.location_id, round, moment);
    const counted = new Map(items.map((i) => [stockKeyString({ ...i, locationId: location.location_id }), i.quantity]));
    const lineKeys = new Set<string>();
    const writes = lines.map((l) => {
      const key = stockKeyString({
        productId: l.product_id,
        locationId: location.location_id,
        expiryDate: l.expiry_date,
      });
      lineKeys.add(key);
      return { id: l.id, count: counted.get(key) ?? 0, book: l.book };
    });
    // Review and third rounds recount their lines only: anything else scanned there is not part of this round.
    const stray = found.find((i) => !lineKeys.has(stockKeyString({ ...i, locationId: location.location_id })));
    if (stray) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'product_id', id: stray.productId });
    if (round > 1 && lines.length === 0) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'location_id' });

    const countedAt = await linesRepo.recordCounts(tx, location.id, round, actor.id, writes);
    const units = writes.reduce((s, w) => s + w.count, 0);
    await writeAudit(tx, actor, {
      action: 'stocktake.count',
      entity: 'stocktake',
      entityId: sheet.id,
      after: {
        round,
        location: location.code,
        moment,
        lines: writes.map((w) => ({ line_id: w.id, count: w.count, book: w.book })),
      },
    });
    return {
      location_id: location.location_id,
      round,
      lines_counted: writes.length,
      units_counted: units,
      counted_at: countedAt.toISOString(),
    };
  });
}
