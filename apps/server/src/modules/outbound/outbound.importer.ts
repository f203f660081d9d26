import {
  fieldLabel,
  LANGUAGES,
  type TConsignmentItem,
  type TImportField,
  type TImportMapping,
  type TImportRequest,
  type TImportResult,
  type TJob,
  type TLanguage,
} from '@wms/contracts';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { parseDay, parseWhole, wordKey } from '../../platform/cells';
import { AppError } from '../../platform/errors';
import {
  decodeUpload,
  importRowBatches,
  jobFile,
  jobPayload,
  progressFromTx,
  queueImport,
  RowIssues,
  rejectRows,
  type TFieldIssue,
  type TImportLayout,
  type TRowIssue,
  UploadReplay,
  uploadRows,
  ZImportPayload,
} from '../../platform/importing';
import { defineJob, type JobQueue, type TJobContext } from '../../platform/jobs';
import { headerText } from '../../platform/spreadsheet';
import { setConsignments } from './outbound.consignments';
import { checkPlatform } from './outbound.forms';
import * as formRepo from './outbound.forms.repository';
import { orderFileLayout, RowReader } from './outbound.import';
import { checkOrderRows, createOrdersFromRows } from './outbound.intake';
import { loadOrderLookups, type TOrderIntakeRow } from './outbound.intake.rows';
import { exportOrders } from './outbound.pipeline';

/**
 * Order import (/deliver, "Order data is being imported"): a job reads the file twice, streaming, through the
 * platform's import kernel (parsed once: pass 2 replays the batches pass 1 parsed, `UploadReplay`). Pass 1 (`checkOrderRows`, outside any transaction) checks every row against the seller's
 * products, platforms, carriers and warehouses; any problem rejects the file (IMPORT_REJECTED with rows and messages)
 * and nothing is written. Pass 2 (`createOrdersFromRows`, one transaction) writes all orders and lines in batches;
 * platform order numbers the seller already has are skipped, so re-importing a file never duplicates an order. Memory
 * grows with the number of orders (a few small fields each), never with the file.
 */

export const IMPORT_JOB = 'outbound.import';

/** Queue an import job with its file (one transaction with its audit row) and start it. */
export async function queueOrderImport(
  deps: { db: Db; jobs: JobQueue },
  actor: TActor,
  input: TImportRequest,
  lang: TLanguage,
): Promise<TJob> {
  const platformId = input.platform_id ?? null;
  await checkPlatform(deps.db, tenantOf(actor), platformId);
  return queueImport(
    deps,
    actor,
    {
      job: orderImport,
      file_base64: input.file_base64,
      fileName: input.file_name || 'orders.xlsx',
      payload: { platform_id: platformId, export_after_import: input.export_after_import ?? false },
    },
    lang,
  );
}

/**
 * The order rows of a file as they stream, a batch at a time (one await per batch, not per row): the order fields
 * parsed on the first row of each order only, the cells' problems handed along with the row (pass 1 reports them;
 * pass 2 reads a file that passed).
 */
async function* fileOrderRows(
  content: Buffer | UploadReplay,
  layout: TImportLayout<TImportField>,
  issues: RowIssues,
): AsyncGenerator<TOrderIntakeRow[]> {
  let reader: RowReader | null = null;
  const seen = new Set<string>();
  const problems: TFieldIssue[] = [];
  for await (const batch of importRowBatches(content, layout, issues)) {
    const out: TOrderIntakeRow[] = new Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      reader ??= new RowReader(r.columns);
      const key = reader.orderKey(r.cells);
      const first = key !== '' && !seen.has(key);
      if (first) seen.add(key);
      const order = first ? reader.header(r.cells, problems) : undefined;
      const cvs = first ? reader.cvs(r.cells, problems) : undefined;
      const line = reader.line(r.cells, problems);
      out[i] = { row: r.row, key, order, cvs, line, problems: problems.length ? problems.splice(0) : undefined };
    }
    yield out;
  }
}

/** The job: check, write, and optionally export every new order (each fully or not at all). */
export async function runOrderImport(ctx: TJobContext): Promise<TImportResult> {
  const { lang, actor, platform_id, export_after_import } = jobPayload<{
    platform_id: string | null;
    export_after_import: boolean;
  }>(ctx.job);
  const customerId = tenantOf(actor);
  const file = await jobFile(ctx);
  const form = await formRepo.findFormForPlatform(ctx.db, customerId, platform_id);
  const layout = orderFileLayout({
    headerRow: form?.header_row ?? 1,
    mapping: (form?.mapping as TImportMapping | undefined) ?? null,
  });
  const lookups = await loadOrderLookups(ctx.db, customerId);
  const issues = new RowIssues(lang);
  // Parsed once: the write pass replays the rows the check pass read.
  const sheet = new UploadReplay(file.content);
  const checked = await checkOrderRows(ctx.db, actor, fileOrderRows(sheet, layout, issues), {
    platformId: platform_id,
    lookups,
    issues,
    onRows: (n) => ctx.progress(n, 0),
  });
  if (checked.rows === 0) throw new AppError('NO_DATA');
  const { rows } = checked;
  const total = rows * 2 + (export_after_import ? checked.orders : 0);
  await ctx.progress(rows, total);

  const progress = progressFromTx(ctx);
  const { created, skipped } = await withTx(ctx.db, async (tx) => {
    const result = await createOrdersFromRows(tx, actor, fileOrderRows(sheet, layout, new RowIssues(lang)), {
      platformId: platform_id,
      lookups,
      lang,
      onRows: (n) => progress.report(rows + n, total),
    });
    await writeAudit(tx, actor, {
      action: 'import',
      entity: 'outbound_order',
      after: { job_id: ctx.job.id, file: file.name, rows, orders: checked.orders, created: result.created.length },
    });
    return result;
  });
  await progress.settled();
  await ctx.progress(rows * 2, total);

  const shortages: TImportResult['shortages'] = [];
  let exported = 0;
  if (export_after_import) {
    const outcomes = await exportOrders(
      ctx.db,
      actor,
      created.map((c) => c.id),
      (done) => ctx.progress(rows * 2 + done, total),
    );
    outcomes.forEach((o, i) => {
      const c = created[i]!;
      if (o.error) {
        if (shortages.length < 1000)
          shortages.push({ row: c.row, order: c.key, code: o.error.code, params: o.error.params });
      } else exported++;
    });
  }
  return {
    rows,
    orders: checked.orders,
    created: created.length,
    skipped_duplicates: skipped,
    exported,
    shortages,
  };
}

// ---- consignment-number files (/deliver-operation) ----

/** Headers a consignment file may use: ours in any language, the carriers' upload formats, Shopee's export. */
const CONSIGNMENT_HEADERS = {
  order: ['order', 'order_number', 'platform_order_number', 'OrderId', 'epino', 'MerchantTradeNo', '訂單編號'],
  consignment_number: ['consignment_number', 'OBTNumber', 'edelno', 'AllPayLogisticsID', '包裹查詢號碼'],
  shipping_date: ['shipping_date', 'ShipmentDate'],
  piece_count: ['piece_count', 'ejamt'],
} as const;

/**
 * Consignment numbers from a file (the carrier's answer, or our export with the numbers filled in): all or nothing,
 * every problem reported with its row.
 */
export async function uploadConsignments(
  deps: { db: Db },
  actor: TActor,
  input: { file_base64: string },
  lang: TLanguage,
): Promise<{ updated: number }> {
  const content = decodeUpload(input.file_base64);
  const issues: TRowIssue[] = [];
  const items: Array<TConsignmentItem & { row: number }> = [];
  let cols: Record<keyof typeof CONSIGNMENT_HEADERS, number> | null = null;
  for await (const r of uploadRows(content)) {
    if (!cols) {
      const keys = r.cells.map((c) => wordKey(headerText(c)));
      const find = (names: readonly string[]) => {
        for (const n of names)
          for (const k of [n, ...LANGUAGES.map((l) => fieldLabel(n, l))]) {
            const i = keys.indexOf(wordKey(k));
            if (i >= 0) return i;
          }
        return -1;
      };
      cols = {
        order: find(CONSIGNMENT_HEADERS.order),
        consignment_number: find(CONSIGNMENT_HEADERS.consignment_number),
        shipping_date: find(CONSIGNMENT_HEADERS.shipping_date),
        piece_count: find(CONSIGNMENT_HEADERS.piece_count),
      };
      if (cols.order < 0) issues.push({ row: r.row, code: 'REQUIRED_FIELD', field: 'order', value: null });
      if (cols.consignment_number < 0)
        issues.push({ row: r.row, code: 'REQUIRED_FIELD', field: 'consignment_number', value: null });
      if (issues.length) break;
      continue;
    }
    const at = (i: number) => (i >= 0 ? (r.cells[i] ?? null) : null);
    const order = headerText(at(cols.order));
    const consignment = headerText(at(cols.consignment_number));
    if (!order && !consignment) continue;
    const rowIssues: TFieldIssue[] = [];
    if (!order) rowIssues.push({ code: 'REQUIRED_FIELD', field: 'order', value: null });
    if (!consignment) rowIssues.push({ code: 'REQUIRED_FIELD', field: 'consignment_number', value: null });
    else if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(consignment))
      rowIssues.push({ code: 'INVALID_FIELD', field: 'consignment_number', value: consignment });
    const day = parseDay(at(cols.shipping_date));
    if (day === undefined)
      rowIssues.push({ code: 'INVALID_FIELD', field: 'shipping_date', value: headerText(at(cols.shipping_date)) });
    const pieces = parseWhole(at(cols.piece_count), 1, 99);
    if (pieces === undefined)
      rowIssues.push({ code: 'INVALID_FIELD', field: 'piece_count', value: headerText(at(cols.piece_count)) });
    for (const i of rowIssues) issues.push({ ...i, row: r.row });
    if (rowIssues.length === 0)
      items.push({
        row: r.row,
        order,
        consignment_number: consignment,
        ...(day ? { shipping_date: day } : {}),
        ...(pieces ? { piece_count: pieces } : {}),
      });
    if (items.length + issues.length > 20_000)
      throw new AppError('ABNORMAL_QUANTITY', { field: 'file_base64', max: 20_000 });
  }
  if (issues.length) rejectRows(issues, lang);
  if (items.length === 0) throw new AppError('NO_DATA');
  return setConsignments(deps, actor, items, lang);
}

/** What an order import carries besides the uploader: the channel's platform and whether to export right after. */
const ZOrderImportPayload = ZImportPayload.extend({
  platform_id: z.string().nullable(),
  export_after_import: z.boolean(),
});

/** Orders from an .xlsx or CSV: validated, written in one transaction, optionally exported order by order. */
export const orderImport = defineJob(IMPORT_JOB, ZOrderImportPayload, runOrderImport, { retryLimit: 1 });
