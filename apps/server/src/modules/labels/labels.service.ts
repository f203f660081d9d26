import {
  LABEL_MAX_CELLS,
  labelCellBoxes,
  labelDocumentZpl,
  type TCreateLabelSheet,
  type TLabelCell,
  type TLabelDocument,
  type TLabelSheet,
  type TUpdateLabelSheet,
  type ZLabelRequest,
} from '@wms/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { constraintError } from '../../platform/listing';
import { printerAddress, type TPrinterHostPolicy } from '../../platform/printer-hosts';
import * as catalogRepo from '../catalog';
import * as warehouseRepo from '../warehouse';
import { barcodeSvg, pickSymbology } from './labels.barcode';
import { PRINTER_TIMEOUT_MS, sendRaw } from './labels.printer';
import * as repo from './labels.repository';

export interface TLabelsDeps {
  db: Db;
  /** How long a label printer may take (tests shorten it). */
  printerTimeoutMs?: number;
  /** Where a label printer may be (the operator's policy); without it, the private ranges only. */
  printerHosts?: TPrinterHostPolicy;
}

export function toSheet(r: repo.TSheetRow): TLabelSheet {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    builtin: r.customer_id === null,
    cells: r.cells,
    columns: r.columns,
    rows: r.rows,
    page_width_mm: r.page_width_mm,
    page_height_mm: r.page_height_mm,
    label_width_mm: r.label_width_mm,
    label_height_mm: r.label_height_mm,
    margin_left_mm: r.margin_left_mm,
    margin_top_mm: r.margin_top_mm,
    pitch_x_mm: r.pitch_x_mm,
    pitch_y_mm: r.pitch_y_mm,
    offset_x_mm: r.offset_x_mm,
    offset_y_mm: r.offset_y_mm,
  };
}

/** The label sheets a seller can print on (built-in ones and their own), optionally of one cell count. */
export async function listSheets(deps: TLabelsDeps, actor: TActor, cells?: number) {
  const rows = await repo.listSheets(deps.db, tenantOf(actor), cells);
  return { count: rows.length, results: rows.map(toSheet) };
}

/** The grid must fit on the page (a sheet that prints off the paper is a typo, not a layout). */
function checkFits(s: Omit<TLabelSheet, 'id' | 'code' | 'name' | 'builtin'>) {
  const boxes = labelCellBoxes(s);
  const last = boxes[boxes.length - 1]!;
  if (last.x_mm + last.width_mm > s.page_width_mm + 0.01) throw new AppError('INVALID_FIELD', { field: 'pitch_x_mm' });
  if (last.y_mm + last.height_mm > s.page_height_mm + 0.01)
    throw new AppError('INVALID_FIELD', { field: 'pitch_y_mm' });
}

export async function createSheet(deps: TLabelsDeps, actor: TActor, input: TCreateLabelSheet) {
  const customerId = tenantOf(actor);
  const values = {
    ...input,
    cells: input.columns * input.rows,
    page_width_mm: input.page_width_mm ?? 210,
    page_height_mm: input.page_height_mm ?? 297,
    offset_x_mm: input.offset_x_mm ?? 0,
    offset_y_mm: input.offset_y_mm ?? 0,
  };
  checkFits(values);
  return withTx(deps.db, async (tx) => {
    const row = await repo.insertSheet(tx, { ...values, customer_id: customerId }).catch((e) => constraintError(e));
    await writeAudit(tx, actor, { action: 'create', entity: 'label_sheet', entityId: row.id, after: toSheet(row) });
    return toSheet(row);
  });
}

export async function updateSheet(deps: TLabelsDeps, actor: TActor, id: string, patch: TUpdateLabelSheet) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findOwnSheet(tx, customerId, id);
    if (!before) throw new AppError('NOT_FOUND');
    checkFits({ ...toSheet(before), ...patch });
    const row = await repo.updateSheet(tx, customerId, id, patch);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'label_sheet',
      entityId: id,
      before: toSheet(before),
      after: toSheet(row!),
    });
    return toSheet(row!);
  });
}

export async function deleteSheet(deps: TLabelsDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findOwnSheet(tx, customerId, id);
    if (!before) throw new AppError('NOT_FOUND');
    await repo.deleteSheet(tx, customerId, id);
    await writeAudit(tx, actor, { action: 'delete', entity: 'label_sheet', entityId: id, before: toSheet(before) });
  });
  return { ok: true as const };
}

export interface TLabelSource {
  id: string;
  value: string;
  caption: string;
  name: string;
  /** Product barcode when it is a valid EAN-13 (auto symbology prints it as EAN-13). */
}

/** What each kind of label encodes: products their barcode (else number), locations and packaging their code. */
async function labelSources(deps: TLabelsDeps, customerId: string, kind: string, ids: string[]) {
  const out = new Map<string, TLabelSource>();
  if (kind === 'product') {
    for (const { product: p } of await catalogRepo.findProductsByIds(deps.db, customerId, ids))
      out.set(p.id, { id: p.id, value: p.barcode || p.number, caption: p.barcode ? p.number : p.number, name: p.name });
  } else if (kind === 'location') {
    for (const l of await warehouseRepo.findLocationsByIds(deps.db, customerId, ids))
      out.set(l.id, { id: l.id, value: l.code, caption: l.code, name: l.name || l.warehouse_code });
  } else {
    for (const m of await catalogRepo.findPackagingByIds(deps.db, customerId, ids))
      out.set(m.id, { id: m.id, value: m.code, caption: m.code, name: m.name || m.category });
  }
  return out;
}

/**
 * Lay labels out on a sheet: items in the order given, each `copies` times, from `start_cell` on the first page;
 * every cell carries its box in mm and the barcode SVG. Unknown or foreign ids answer 404.
 */
export async function renderLabels(
  deps: TLabelsDeps,
  actor: TActor,
  input: z.output<typeof ZLabelRequest>,
): Promise<TLabelDocument> {
  const customerId = tenantOf(actor);
  const sheetRow = await repo.findUsableSheet(deps.db, customerId, input.sheet_id);
  if (!sheetRow) throw new AppError('INVALID_FIELD', { field: 'sheet_id' });
  const sheet = toSheet(sheetRow);
  const ids = [...new Set(input.items.map((i) => i.id))];
  const sources = await labelSources(deps, customerId, input.kind, ids);
  if (sources.size !== ids.length) throw new AppError('NOT_FOUND');
  const total = input.items.reduce((n, i) => n + i.copies, 0);
  if (total + input.start_cell - 1 > LABEL_MAX_CELLS) throw new AppError('ABNORMAL_QUANTITY', { field: 'items' });
  if (input.start_cell > sheet.cells) throw new AppError('INVALID_FIELD', { field: 'start_cell' });

  return layoutLabels(sheet, sources, input);
}

/**
 * Lay labels out on a sheet (the sources already resolved and checked by the caller): items in the order given, each
 * `copies` times, from `start_cell` on. Also used by the CRM's rack labels (locations of every seller).
 */
export function layoutLabels(
  sheet: TLabelSheet,
  sources: Map<string, TLabelSource>,
  input: Pick<z.output<typeof ZLabelRequest>, 'items' | 'start_cell' | 'symbology' | 'show_name'>,
): TLabelDocument {
  const total = input.items.reduce((n, i) => n + i.copies, 0);
  const boxes = labelCellBoxes(sheet);
  const svgCache = new Map<string, { svg: string; symbology: TLabelCell['symbology'] }>();
  const pages: TLabelDocument['pages'] = [];
  let slot = input.start_cell - 1;
  for (const item of input.items) {
    const src = sources.get(item.id)!;
    let code = svgCache.get(src.value);
    if (!code) {
      const symbology = pickSymbology(src.value, input.symbology);
      try {
        code = { svg: barcodeSvg(src.value, symbology), symbology };
      } catch {
        // Not encodable (e.g. non-ASCII in Code128): a QR code carries any text.
        code = { svg: barcodeSvg(src.value, 'qrcode'), symbology: 'qrcode' };
      }
      svgCache.set(src.value, code);
    }
    for (let c = 0; c < item.copies; c++, slot++) {
      const page = Math.floor(slot / sheet.cells);
      while (pages.length <= page) pages.push({ cells: [] });
      const box = boxes[slot % sheet.cells]!;
      pages[page]!.cells.push({
        index: box.index,
        x_mm: box.x_mm,
        y_mm: box.y_mm,
        width_mm: box.width_mm,
        height_mm: box.height_mm,
        value: src.value,
        symbology: code.symbology,
        // EAN-13 prints its digits itself; the caption then names the product number.
        caption: code.symbology === 'ean13' ? src.caption : src.value,
        name: input.show_name ? src.name : null,
        svg: code.svg,
      });
    }
  }
  return { sheet, pages, label_count: total };
}

/**
 * Print labels on the warehouse's label printer: the labels laid out as `renderLabels` does (same checks), as ZPL,
 * sent raw over TCP to the printer set on the warehouse. Nothing is written to the database, so there is nothing to
 * undo when the printer is unreachable; a second request prints a second time, as a second click on "Print" does.
 */
export async function sendLabelsToPrinter(
  deps: TLabelsDeps,
  actor: TActor,
  input: z.output<typeof ZLabelRequest> & { warehouse_id: string },
) {
  const customerId = tenantOf(actor);
  const warehouse = await warehouseRepo.findWarehouse(deps.db, customerId, input.warehouse_id);
  if (!warehouse) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
  const { label_printer_host: host, label_printer_port: port } = warehouse;
  if (!host || !port) throw new AppError('LABEL_PRINTER_NOT_SET', { field: 'warehouse_id', warehouse: warehouse.code });
  const doc = await renderLabels(deps, actor, input);
  const zpl = new TextEncoder().encode(labelDocumentZpl(doc));
  const printer = `${host}:${port}`;
  // Checked again at sending (a row saved before the rule, or a name whose DNS answer changed): the checked address
  // is the one connected to.
  const address = await printerAddress(host, deps.printerHosts ?? { allowLoopback: false, allowed: [] });
  if (address === null) throw new AppError('LABEL_PRINTER_UNREACHABLE', { printer });
  try {
    await sendRaw(address, port, zpl, deps.printerTimeoutMs ?? PRINTER_TIMEOUT_MS);
  } catch {
    throw new AppError('LABEL_PRINTER_UNREACHABLE', { printer });
  }
  return { printer, labels: doc.label_count, bytes: zpl.byteLength };
}
