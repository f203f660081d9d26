import type {
  TCreateStocktake,
  TStocktake,
  TStocktakeDetail,
  TStocktakeLine,
  TStocktakeLocation,
  TStocktakeReport,
  TStocktakeScannedLocation,
  TStocktakeScannedProduct,
  TStocktakeScope,
  TStocktakeStatus,
  TStocktakeType,
  TSubmitStocktakeCount,
  TUpdateStocktake,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { iso, pageWindow } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import { lotRuleViolation, postAdjustment, stockActorOf, stockKeyString } from '../stock';
import * as repo from './stocktake.repository';
import {
  actionsFor,
  aggregateItems,
  canDo,
  countMoment,
  drawSample,
  goesToNextRound,
  maxRoundOf,
  roundOf,
  scopeOf,
  statusesAllowing,
  type TLineCounts,
  type TRound,
  targetStatus,
  varianceOf,
} from './stocktake.workflow';

export interface TStocktakeDeps {
  db: Db;
}

type TPage = { page: number; page_size: number; search?: string; ordering?: string };

const badStatus = (status: string) => new AppError('INVALID_STATUS_TRANSITION', { status });

function toStocktake(
  row: repo.TSheetRow,
  summary: repo.TSheetSummary | undefined,
  warehouse: { code: string; name: string } | undefined,
): TStocktakeDetail {
  const status = row.status as TStocktakeStatus;
  const type = row.type as TStocktakeType;
  return {
    id: row.id,
    number: row.number,
    warehouse_id: row.warehouse_id,
    warehouse_code: warehouse?.code ?? '',
    warehouse_name: warehouse?.name ?? '',
    actions: actionsFor(status, type),
    name: row.name,
    year: row.year,
    attribute: row.attribute,
    type,
    status,
    scope: row.scope as TStocktakeScope,
    sample_size: row.sample_size,
    remark: row.remark,
    round: roundOf(status),
    max_round: maxRoundOf(type),
    location_count: summary?.location_count ?? 0,
    line_count: summary?.line_count ?? 0,
    pending_locations: summary?.pending_locations ?? 0,
    variance_lines: summary?.variance_lines ?? 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    closed_at: iso(row.closed_at),
    cancelled_at: iso(row.cancelled_at),
  };
}

async function present(ex: Executor, customerId: string, row: repo.TSheetRow) {
  const summaries = await repo.sheetSummaries(ex, customerId, [row.id]);
  const warehouses = await repo.warehouseCodes(ex, [row.warehouse_id]);
  return toStocktake(row, summaries.get(row.id), warehouses.get(row.warehouse_id));
}

function toLine(r: repo.TLineView): TStocktakeLine {
  const n = (v: number | null) => (v === null || v === undefined ? null : Number(v));
  return {
    id: r.id,
    location_id: r.location_id,
    location_code: r.location_code,
    product_id: r.product_id,
    product_number: r.product_number,
    product_name: r.product_name,
    product_barcode: r.product_barcode,
    expiry_date: r.expiry_date,
    book_initial: Number(r.book_initial),
    last_round: Number(r.last_round),
    count_1: n(r.count_1),
    book_1: n(r.book_1),
    count_2: n(r.count_2),
    book_2: n(r.book_2),
    count_3: n(r.count_3),
    book_3: n(r.book_3),
    difference: n(r.difference),
    variance: n(r.variance),
    on_hand_after: n(r.on_hand_after),
  };
}

function countsOf(r: repo.TLineCountsRow): TLineCounts {
  const n = (v: number | null) => (v === null || v === undefined ? null : Number(v));
  return {
    lastRound: Number(r.last_round) as TRound,
    counts: [n(r.count_1), n(r.count_2), n(r.count_3)],
    books: [n(r.book_1), n(r.book_2), n(r.book_3)],
  };
}

async function sheetOr404(ex: Executor, customerId: string, id: string) {
  const row = await repo.findSheet(ex, customerId, id);
  if (!row) throw notFound();
  return row;
}

// ---- reads ----

/** Sheets of the seller, newest first by default. */
export async function listStocktakes(
  deps: TStocktakeDeps,
  actor: TActor,
  q: TPage & { status?: TStocktakeStatus; type?: TStocktakeType; year?: number; warehouse_id?: string },
): Promise<{ count: number; results: TStocktake[] }> {
  const customerId = tenantOf(actor);
  const order = repo.orderClause(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const { limit, offset } = pageWindow(q);
  const { rows, count } = await repo.listSheets(deps.db, customerId, q, order, limit, offset);
  const summaries = await repo.sheetSummaries(
    deps.db,
    customerId,
    rows.map((r) => r.id),
  );
  const warehouses = await repo.warehouseCodes(
    deps.db,
    rows.map((r) => r.warehouse_id),
  );
  return {
    count,
    results: rows.map((r) => {
      const {
        warehouse_name: _,
        actions: __,
        ...sheet
      } = toStocktake(r, summaries.get(r.id), warehouses.get(r.warehouse_id));
      return sheet;
    }),
  };
}

export async function getStocktake(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return present(deps.db, customerId, await sheetOr404(deps.db, customerId, id));
}

export async function listStocktakeLocations(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  q: TPage & { pending?: 'true' | 'false' },
): Promise<{ count: number; results: TStocktakeLocation[] }> {
  const customerId = tenantOf(actor);
  const sheet = await sheetOr404(deps.db, customerId, id);
  const round = roundOf(sheet.status as TStocktakeStatus);
  const { rows, count } = await repo.listSheetLocations(deps.db, sheet.id, round, {
    pending: q.pending === undefined ? undefined : q.pending === 'true',
    search: q.search,
    ...pageWindow(q),
  });
  return {
    count,
    results: rows.map((r) => {
      const counted: Array<Date | null> = [r.counted_1_at, r.counted_2_at, r.counted_3_at];
      const inRound = Number(r.lines_in_round);
      return {
        location_id: r.location_id,
        location_code: r.location_code,
        location_name: r.location_name,
        location_kind: r.location_kind,
        counted_1_at: iso(r.counted_1_at),
        counted_2_at: iso(r.counted_2_at),
        counted_3_at: iso(r.counted_3_at),
        lines_in_round: round === null ? 0 : inRound,
        pending: round !== null && !counted[round - 1] && (round === 1 || inRound > 0),
      };
    }),
  };
}

export async function listStocktakeLines(
  deps: TStocktakeDeps,
  actor: TActor,
  id: string,
  q: TPage & { round?: number; location_id?: string; differing?: 'true' | 'false' },
): Promise<{ count: number; results: TStocktakeLine[] }> {
  const customerId = tenantOf(actor);
  const sheet = await sheetOr404(deps.db, customerId, id);
  const { rows, count } = await repo.listLines(deps.db, sheet.id, {
    round: q.round,
    locationId: q.location_id,
    differing: q.differing === undefined ? undefined : q.differing === 'true',
    closed: sheet.status === 'closed',
    search: q.search,
    ...pageWindow(q),
  });
  return { count, results: rows.map(toLine) };
}

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
    await repo.lockWarehouseSheets(tx, warehouse.id);

    let locationIds: string[] = [];
    let productIds: string[] = [];
    if (pick === 'all_locations') {
      locationIds = await repo.fullScopeLocations(tx, customerId, warehouse.id);
    } else if (scope === 'location') {
      if (pick === 'random') {
        locationIds = drawSample(await repo.fullScopeLocations(tx, customerId, warehouse.id), sampleSize!);
      } else {
        const wanted = [...new Set(input.location_ids ?? [])];
        locationIds = await repo.locationsOf(tx, customerId, warehouse.id, wanted);
        if (locationIds.length !== wanted.length) throw new AppError('NOT_FOUND', { field: 'location_ids' });
      }
    } else {
      if (pick === 'random') {
        productIds = drawSample(await repo.productsWithStock(tx, customerId, warehouse.id), sampleSize!);
      } else {
        const wanted = [...new Set(input.product_ids ?? [])];
        productIds = await repo.singleProductsOf(tx, customerId, wanted);
        if (productIds.length !== wanted.length) throw new AppError('NOT_FOUND', { field: 'product_ids' });
      }
      locationIds = await repo.locationsHolding(tx, customerId, warehouse.id, productIds);
    }
    if (locationIds.length === 0) throw new AppError('STOCKTAKE_EMPTY');
    const [overlap] = await repo.openSheetsHolding(tx, customerId, locationIds);
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
    await repo.insertSheetLocations(tx, customerId, sheet.id, locationIds);
    if (scope === 'product') await repo.insertSheetProducts(tx, customerId, sheet.id, productIds);
    await repo.insertBookLines(tx, customerId, sheet.id, scope);
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
  const location = await repo.findSheetLocation(deps.db, sheet.id, { code });
  if (!location) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'location_code', code });
  const expected = await repo.expectedAt(deps.db, sheet.id, location.location_id, round);
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
  const product = await repo.findProductByCode(deps.db, customerId, code);
  if (!product) throw new AppError('NOT_FOUND', { field: 'product_id', code });
  if (product.type !== 'single') throw new AppError('PRODUCT_ABNORMAL', { product_id: product.id });
  if (sheet.scope === 'product' && !(await repo.sheetHasProducts(deps.db, sheet.id, [product.id])).has(product.id))
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
    const location = await repo.findSheetLocation(tx, sheet.id, { id: input.location_id }, true);
    if (!location) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'location_id' });
    const now = await repo.dbNow(tx);
    if (!countMoment(input.started_at ? new Date(input.started_at) : null, now, sheet.round_started_at))
      throw new AppError('INVALID_FIELD', { field: 'started_at' });
    // Compared as text with its microseconds, not as a Date (which would drop them).
    const moment = input.started_at ?? (await repo.txMoment(tx));

    const known = await repo.productsByIds(
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
      const onSheet = await repo.sheetHasProducts(
        tx,
        sheet.id,
        items.map((i) => i.productId),
      );
      const outside = items.find((i) => !onSheet.has(i.productId));
      if (outside) throw new AppError('STOCKTAKE_NOT_ON_SHEET', { field: 'product_id', id: outside.productId });
    }

    const found = items.filter((i) => i.quantity > 0);
    if (round === 1)
      await repo.addRoundOneLines(
        tx,
        customerId,
        sheet.id,
        sheet.scope as TStocktakeScope,
        location.location_id,
        moment,
        found,
      );
    const lines = await repo.linesWithBookAt(tx, customerId, sheet.id, location.location_id, round, moment);
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

    const countedAt = await repo.recordCounts(tx, location.id, round, actor.id, writes);
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

// ---- rounds and close ----

async function lockForRoundChange(
  tx: Executor,
  customerId: string,
  id: string,
  action: 'next_round' | 'close' | 'cancel',
) {
  const sheet = await repo.findSheet(tx, customerId, id, 'update');
  if (!sheet) throw notFound();
  const status = sheet.status as TStocktakeStatus;
  if (!canDo(status, sheet.type as TStocktakeType, action)) throw badStatus(status);
  return { sheet, status, round: roundOf(status)! };
}

/** Close the open round and open the next one with the lines whose count differs from the book. */
export async function nextRound(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { sheet, status, round } = await lockForRoundChange(tx, customerId, id, 'next_round');
    const remaining = await repo.pendingLocations(tx, sheet.id, round);
    if (remaining > 0) throw new AppError('STOCKTAKE_INCOMPLETE', { remaining });
    const lines = await repo.lineCounts(tx, sheet.id, round);
    const recount = lines.filter((l) => goesToNextRound(countsOf(l), round)).map((l) => l.id);
    if (recount.length === 0) throw new AppError('STOCKTAKE_NOTHING_TO_RECOUNT');
    const next = (round + 1) as TRound;
    await repo.advanceLines(tx, recount, next);
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: targetStatus(status, 'next_round'),
      round_started_at: await repo.dbNow(tx),
    });
    if (!row) throw badStatus(status);
    await writeAudit(tx, actor, {
      action: 'stocktake.next_round',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: row.status, lines: recount.length },
    });
    return present(tx, customerId, row);
  });
}

/**
 * Close the case: every line's variance (count − book of its last round) is posted as one stocktake adjustment
 * through the stock engine, in this transaction. A shortage (the stock to remove is reserved by now) refuses the
 * whole close, nothing is posted.
 */
export async function closeStocktake(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { sheet, status, round } = await lockForRoundChange(tx, customerId, id, 'close');
    const remaining = await repo.pendingLocations(tx, sheet.id, round);
    if (remaining > 0) throw new AppError('STOCKTAKE_INCOMPLETE', { remaining });
    const lines = await repo.lineCounts(tx, sheet.id);
    const variances = lines
      .map((l) => ({ line: l, variance: varianceOf(countsOf(l)) ?? 0 }))
      .filter((v) => v.variance !== 0);
    const movements = variances.length
      ? await postAdjustment(tx, stockActorOf(actor), {
          document: { type: 'stocktake', id: sheet.id, number: sheet.number },
          reason: 'stocktake',
          note: sheet.name,
          lines: variances.map((v) => ({
            productId: v.line.product_id,
            locationId: v.line.location_id,
            expiryDate: v.line.expiry_date,
            delta: v.variance,
          })),
        })
      : [];
    const after = new Map(movements.map((m) => [stockKeyString(m), m.onHandAfter]));
    await repo.recordVariances(
      tx,
      sheet.id,
      variances.map((v) => ({
        id: v.line.id,
        variance: v.variance,
        onHandAfter: after.get(
          stockKeyString({
            productId: v.line.product_id,
            locationId: v.line.location_id,
            expiryDate: v.line.expiry_date,
          }),
        )!,
      })),
    );
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: 'closed',
      closed_at: new Date(),
      closed_by: actor.id,
    });
    if (!row) throw badStatus(status);
    const over = variances.filter((v) => v.variance > 0).reduce((s, v) => s + v.variance, 0);
    const short = variances.filter((v) => v.variance < 0).reduce((s, v) => s - v.variance, 0);
    await writeAudit(tx, actor, {
      action: 'stocktake.close',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: 'closed', variance_lines: variances.length, units_over: over, units_short: short },
    });
    return present(tx, customerId, row);
  });
}

/** Abandon an open sheet: nothing is posted. */
export async function cancelStocktake(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { status } = await lockForRoundChange(tx, customerId, id, 'cancel');
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: targetStatus(status, 'cancel'),
      cancelled_at: new Date(),
      cancelled_by: actor.id,
    });
    if (!row) throw badStatus(status);
    await writeAudit(tx, actor, {
      action: 'stocktake.cancel',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: row.status },
    });
    return present(tx, customerId, row);
  });
}

// ---- variance report ----

const REPORT_MAX_LINES = 50_000;

/** The variance report: lines whose count differs from the book (after close: whose variance was posted). */
export async function stocktakeReport(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeReport> {
  const customerId = tenantOf(actor);
  const sheet = await sheetOr404(deps.db, customerId, id);
  const detail = await present(deps.db, customerId, sheet);
  const closed = sheet.status === 'closed';
  const { rows } = await repo.listLines(deps.db, sheet.id, {
    differing: true,
    closed,
    limit: REPORT_MAX_LINES,
    offset: 0,
  });
  const lines = rows.map(toLine);
  const all = await repo.lineCounts(deps.db, sheet.id);
  const amount = (l: TStocktakeLine) => (closed ? (l.variance ?? 0) : (l.difference ?? 0));
  return {
    stocktake: detail,
    company_name: await repo.companyName(deps.db, customerId),
    lines,
    totals: {
      lines: all.length,
      counted_lines: all.filter((l) => varianceOf(countsOf(l)) !== null).length,
      variance_lines: lines.length,
      units_over: lines.reduce((s, l) => s + Math.max(0, amount(l)), 0),
      units_short: lines.reduce((s, l) => s + Math.max(0, -amount(l)), 0),
    },
    printed_at: new Date().toISOString(),
  };
}
