import {
  IMPORT_MAX_ROWS,
  LOCATION_KIND_LABELS,
  LOCATION_KIND_VALUES,
  type TLanguage,
  type TStorageLocation,
  ZCreateStorageLocation,
} from '@wms/contracts';
import type { Executor, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { boolCell, cellText, parseBool, parseEnum, type TCell } from '../../platform/cells';
import {
  type ImportRow,
  jobFile,
  jobPayload,
  RowIssues,
  readImportRows,
  sheetLayout,
  type TRowIssue,
  ZImportPayload,
  zodRowIssues,
} from '../../platform/importing';
import { defineJob, type TJobContext } from '../../platform/jobs';
import type { TSheetColumn } from '../../platform/spreadsheet';
import * as locationRepo from './warehouse.locations.repository';
import { rewalk } from './warehouse.service';

export const LOCATION_IMPORT_JOB = 'warehouse.location_import';

/** Columns of the storage-location export, import template and import (same layout). */
export const LOCATION_COLUMNS: TSheetColumn[] = [
  { key: 'warehouse_code', required: true, text: true, note: 'warehouse code' },
  { key: 'code', required: true, text: true, note: 'A-Z a-z 0-9 _ - . /, unique within the warehouse' },
  { key: 'name', width: 24 },
  { key: 'area_code', text: true, note: 'area code in the same warehouse' },
  { key: 'shelf_code', text: true, note: 'shelf code in the same warehouse' },
  { key: 'layer', note: '1-99, at most the shelf layers' },
  { key: 'cells', note: '1-999' },
  { key: 'kind', note: 'sellable | defective | expired | staging (or their labels in any language)' },
  { key: 'pick_sequence', note: '0-1000000' },
  { key: 'is_active', note: 'Y | N' },
];

/** A storage location as an export row: codes for references, the kind in the user's words, Y/N. */
export function locationSheetRow(l: TStorageLocation, lang: TLanguage): Record<string, TCell> {
  return {
    warehouse_code: l.warehouse_code,
    code: l.code,
    name: l.name,
    area_code: l.area_code,
    shelf_code: l.shelf_code,
    layer: l.layer,
    cells: l.cells,
    kind: LOCATION_KIND_LABELS[l.kind][lang],
    // Only a sequence set by hand is written: a derived one is derived again on import (and stays derived).
    pick_sequence: l.pick_sequence_manual ? l.pick_sequence : null,
    is_active: boolCell(l.is_active),
  };
}

const LOCATION_LAYOUT = sheetLayout(LOCATION_COLUMNS, IMPORT_MAX_ROWS);

interface TParsedLocation {
  row: number;
  warehouseId: string;
  values: {
    code: string;
    name?: string;
    area_id?: string | null;
    shelf_id?: string | null;
    layer?: number | null;
    cells?: number;
    kind?: 'sellable' | 'defective' | 'expired' | 'staging';
    pick_sequence?: number;
    is_active?: boolean;
  };
}

/** Check every row (codes resolved per warehouse, same rules as the API) before anything is written. */
export async function validateLocationRows(
  db: Executor,
  customerId: string,
  rows: ImportRow<string>[],
  onProgress: (done: number) => Promise<void>,
) {
  const maps = await locationRepo.codeMaps(db, customerId);
  const issues: TRowIssue[] = [];
  const parsed: TParsedLocation[] = [];
  const seen = new Set<string>();
  for (const [i, r] of rows.entries()) {
    const v = r.record();
    const rowIssues: TRowIssue[] = [];
    const bad = (field: string, code: TRowIssue['code'] = 'INVALID_FIELD') =>
      rowIssues.push({ row: r.row, field, code });
    const whCode = cellText(v.warehouse_code);
    const warehouseId = whCode ? maps.warehouses.get(whCode) : undefined;
    if (!whCode) bad('warehouse_code', 'REQUIRED_FIELD');
    else if (!warehouseId) bad('warehouse_code');
    const input: Record<string, unknown> = { warehouse_id: warehouseId ?? '00000000-0000-4000-8000-000000000000' };
    const code = cellText(v.code);
    if (code !== null) input.code = code;
    const name = cellText(v.name);
    if (name !== null) input.name = name;
    const kind = parseEnum(v.kind, LOCATION_KIND_VALUES, LOCATION_KIND_LABELS);
    if (kind === undefined) bad('kind');
    else if (kind !== null) input.kind = kind;
    for (const f of ['layer', 'cells', 'pick_sequence'] as const) {
      const c = v[f];
      if (c === null || c === undefined) continue;
      const n = typeof c === 'number' ? c : Number(String(c).trim());
      if (!Number.isInteger(n)) bad(f);
      else input[f] = n;
    }
    const active = parseBool(v.is_active);
    if (active === undefined) bad('is_active');
    else if (active !== null) input.is_active = active;
    if (warehouseId) {
      const areaCode = cellText(v.area_code);
      if (areaCode !== null) {
        const areaId = maps.areas.get(`${warehouseId}\u0000${areaCode}`);
        if (!areaId) bad('area_code');
        else input.area_id = areaId;
      }
      const shelfCode = cellText(v.shelf_code);
      if (shelfCode !== null) {
        const shelf = maps.shelves.get(`${warehouseId}\u0000${shelfCode}`);
        if (!shelf) bad('shelf_code');
        else {
          input.shelf_id = shelf.id;
          if (input.area_id && shelf.area_id && shelf.area_id !== input.area_id) bad('area_code');
          input.area_id ??= shelf.area_id;
          if (typeof input.layer === 'number' && input.layer > shelf.layers) bad('layer');
        }
      }
    }
    const result = ZCreateStorageLocation.safeParse(input);
    if (!result.success) rowIssues.push(...zodRowIssues(r.row, result.error));
    if (warehouseId && code) {
      const key = `${warehouseId}\u0000${code}`;
      if (seen.has(key)) bad('code', 'DUPLICATE_VALUE');
      seen.add(key);
    }
    if (rowIssues.length === 0 && result.success && warehouseId) {
      const { warehouse_id: _w, ...values } = result.data;
      parsed.push({ row: r.row, warehouseId, values });
    }
    issues.push(...rowIssues);
    if (i % 200 === 199) await onProgress(i + 1);
  }
  return { issues, parsed };
}

/** Upsert by (warehouse, code): new codes are created, existing ones take the row's non-blank cells. */
async function writeLocationRows(tx: Tx, customerId: string, parsed: TParsedLocation[]) {
  const byWarehouse = new Map<string, TParsedLocation[]>();
  for (const p of parsed) byWarehouse.set(p.warehouseId, [...(byWarehouse.get(p.warehouseId) ?? []), p]);
  let created = 0;
  let updated = 0;
  for (const [warehouseId, list] of byWarehouse) {
    const existing = new Map(
      (
        await locationRepo.locationIdsByCode(
          tx,
          customerId,
          warehouseId,
          list.map((p) => p.values.code),
        )
      ).map((r) => [r.code, r.id]),
    );
    for (const p of list) {
      const id = existing.get(p.values.code);
      // A sequence in the file is set by hand; without one a new location takes the derived walk.
      const values = p.values.pick_sequence !== undefined ? { ...p.values, pick_sequence_manual: true } : p.values;
      if (id) {
        await locationRepo.updateLocation(tx, customerId, id, values);
        updated++;
      } else {
        await locationRepo.insertLocation(tx, { customer_id: customerId, warehouse_id: warehouseId, ...values });
        created++;
      }
    }
    await rewalk(tx, customerId, warehouseId);
  }
  return { created, updated };
}

/** The job: validate every row (progress reported), then write all of them in one transaction or none. */
export async function runLocationImport(ctx: TJobContext) {
  const { lang, actor } = jobPayload(ctx.job);
  const customerId = ctx.job.customer_id!;
  const issues = new RowIssues(lang);
  const rows = await readImportRows((await jobFile(ctx)).content, LOCATION_LAYOUT, issues);
  await ctx.progress(0, rows.length);
  const checked = await validateLocationRows(ctx.db, customerId, rows, (n) => ctx.progress(n, rows.length));
  issues.add(...checked.issues);
  issues.rejectIfAny();
  return withTx(ctx.db, async (tx) => {
    const result = await writeLocationRows(tx, customerId, checked.parsed);
    await writeAudit(tx, actor, {
      action: 'import',
      entity: 'storage_location',
      entityId: ctx.job.id,
      customerId,
      after: { ...result, codes: checked.parsed.map((p) => p.values.code) },
    });
    return { ...result, rows: rows.length };
  });
}

/** Storage locations from an .xlsx: validated, then all written in one transaction or none. */
export const locationImport = defineJob(LOCATION_IMPORT_JOB, ZImportPayload, runLocationImport, { retryLimit: 1 });
