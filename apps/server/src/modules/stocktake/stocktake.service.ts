/**
 * Stocktake reads (the sheet list, a sheet, its locations and lines, the variance report) and the presenters the
 * use cases share. The writes are one use case per file: create-stocktake.ts, count-stocktake.ts, close-stocktake.ts.
 */
import type {
  TStocktake,
  TStocktakeDetail,
  TStocktakeLine,
  TStocktakeLocation,
  TStocktakeReport,
  TStocktakeScope,
  TStocktakeStatus,
  TStocktakeType,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { iso, pageWindow } from '../../platform/listing';
import * as linesRepo from './stocktake.lines.repository';
import * as repo from './stocktake.repository';
import { actionsFor, maxRoundOf, roundOf, type TLineCounts, type TRound, varianceOf } from './stocktake.workflow';

export interface TStocktakeDeps {
  db: Db;
}

type TPage = { page: number; page_size: number; search?: string; ordering?: string };

export const badStatus = (status: string) => new AppError('INVALID_STATUS_TRANSITION', { status });

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

export async function present(ex: Executor, customerId: string, row: repo.TSheetRow) {
  const summaries = await repo.sheetSummaries(ex, customerId, [row.id]);
  const warehouses = await repo.warehouseCodes(ex, [row.warehouse_id]);
  return toStocktake(row, summaries.get(row.id), warehouses.get(row.warehouse_id));
}

function toLine(r: linesRepo.TLineView): TStocktakeLine {
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

export function countsOf(r: linesRepo.TLineCountsRow): TLineCounts {
  const n = (v: number | null) => (v === null || v === undefined ? null : Number(v));
  return {
    lastRound: Number(r.last_round) as TRound,
    counts: [n(r.count_1), n(r.count_2), n(r.count_3)],
    books: [n(r.book_1), n(r.book_2), n(r.book_3)],
  };
}

export async function sheetOr404(ex: Executor, customerId: string, id: string) {
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
  const { rows, count } = await linesRepo.listSheetLocations(deps.db, sheet.id, round, {
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
  const { rows, count } = await linesRepo.listLines(deps.db, sheet.id, {
    round: q.round,
    locationId: q.location_id,
    differing: q.differing === undefined ? undefined : q.differing === 'true',
    closed: sheet.status === 'closed',
    search: q.search,
    ...pageWindow(q),
  });
  return { count, results: rows.map(toLine) };
}

// ---- variance report ----

const REPORT_MAX_LINES = 50_000;

/** The variance report: lines whose count differs from the book (after close: whose variance was posted). */
export async function stocktakeReport(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeReport> {
  const customerId = tenantOf(actor);
  const sheet = await sheetOr404(deps.db, customerId, id);
  const detail = await present(deps.db, customerId, sheet);
  const closed = sheet.status === 'closed';
  const { rows } = await linesRepo.listLines(deps.db, sheet.id, {
    differing: true,
    closed,
    limit: REPORT_MAX_LINES,
    offset: 0,
  });
  const lines = rows.map(toLine);
  const all = await linesRepo.lineCounts(deps.db, sheet.id);
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
