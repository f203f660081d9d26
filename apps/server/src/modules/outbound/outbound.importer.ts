import {
  fieldLabel,
  IMPORT_REQUIRED_FIELDS,
  LANGUAGES,
  type TConsignmentItem,
  type TCreateImportForm,
  type TImportForm,
  type TImportMapping,
  type TImportRequest,
  type TImportResult,
  type TInspectResult,
  type TJob,
  type TLanguage,
  type TUpdateImportForm,
} from '@wms/contracts';
import { allOf, type Db, type Executor, type Tx } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { enqueueJob, type JobRunner, type TJobContext } from '../../platform/jobs';
import { jobPayload, toJob } from '../warehouse/importing';
import {
  codeKey,
  fileKind,
  headerKey,
  headerText,
  parseDay,
  parseWhole,
  RowReader,
  readSheet,
  rejectRows,
  resolveColumns,
  suggestMapping,
  type TColumns,
  type TParsedHeader,
  type TRowIssue,
} from './outbound.import';
import * as repo from './outbound.repository';
import { checkOrder, type TOrderDraft } from './outbound.rules';
import { defaultsContext, exportOrderInTx, fillDefaults, ORDER_PREFIX, setConsignments } from './outbound.service';

/**
 * Order import (/deliver, "Order data is being imported"): a job reads the file twice, streaming. Pass 1 validates
 * every row against the seller's products, platforms, carriers and warehouses and groups rows into orders by the
 * platform order number; any problem rejects the file (IMPORT_REJECTED with rows and messages) and nothing is
 * written. Pass 2 writes all orders and lines in one transaction, in batches; platform order numbers the seller
 * already has are skipped, so re-importing a file never duplicates an order. Memory grows with the number of
 * orders (a few small fields each), never with the file.
 */

export const IMPORT_JOB = 'outbound.import';
/** Largest accepted file (decoded). */
export const IMPORT_MAX_BYTES = 40 * 1024 * 1024;
const ORDER_BATCH = 500;
const LINE_BATCH = 2000;

// ---- queueing ----

function decodeFile(base64: string): Buffer {
  const content = Buffer.from(base64, 'base64');
  if (content.length === 0) throw new AppError('REQUIRED_FIELD', { field: 'file_base64' });
  if (content.length > IMPORT_MAX_BYTES) throw new AppError('BODY_TOO_LARGE', { field: 'file_base64' });
  if (!fileKind(content)) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  return content;
}

/** Queue an import job with its file (one transaction with its audit row) and start it. */
export async function queueOrderImport(
  deps: { db: Db; jobs: JobRunner },
  actor: TActor,
  input: TImportRequest,
  lang: TLanguage,
): Promise<TJob> {
  const customerId = tenantOf(actor);
  const content = decodeFile(input.file_base64);
  const platformId = input.platform_id ?? null;
  if (platformId && !(await repo.platformsOf(deps.db, customerId)).some((p) => p.id === platformId))
    throw new AppError('PLATFORM_ABNORMAL', { field: 'platform_id' });
  const job = await withTx(deps.db, async (tx) => {
    const row = await enqueueJob(tx, {
      customerId,
      kind: IMPORT_JOB,
      payload: { lang, actor, platform_id: platformId, export_after_import: input.export_after_import ?? false },
      createdBy: actor.id,
      file: { name: input.file_name || 'orders.xlsx', content },
    });
    await writeAudit(tx, actor, {
      action: 'import_requested',
      entity: 'job',
      entityId: row.id,
      after: { kind: IMPORT_JOB, file_name: input.file_name ?? null, bytes: content.length, platform_id: platformId },
    });
    return row;
  });
  deps.jobs.kick();
  return toJob(job);
}

// ---- look-ups ----

interface TLookups {
  products: Map<string, repo.TProductInfo>;
  platforms: Map<string, string>;
  providers: Map<string, { id: string; is_active: boolean }>;
  warehouses: Map<string, string>;
}

async function loadLookups(ex: Executor, customerId: string): Promise<TLookups> {
  const [products, platforms, providers, warehouses] = await allOf(ex, [
    () => repo.allProducts(ex, customerId),
    () => repo.platformsOf(ex, customerId),
    () => repo.providersOf(ex, customerId),
    () => repo.warehousesOf(ex, customerId),
  ]);
  const l: TLookups = { products: new Map(), platforms: new Map(), providers: new Map(), warehouses: new Map() };
  // Product numbers win over barcodes when one product's barcode is another's number.
  for (const p of products) if (p.barcode) l.products.set(codeKey(p.barcode), p);
  for (const p of products) l.products.set(codeKey(p.number), p);
  for (const p of platforms) {
    l.platforms.set(codeKey(p.name), p.id);
    l.platforms.set(codeKey(p.code), p.id);
  }
  for (const p of providers) {
    l.providers.set(codeKey(p.name), p);
    l.providers.set(codeKey(p.code), p);
  }
  for (const w of warehouses) l.warehouses.set(codeKey(w.code), w.id);
  return l;
}

/** Resolve a row's order-level codes into ids; problems go into `issues`. */
function draftFromRow(h: TParsedHeader, l: TLookups, defaultPlatform: string | null, issues: TRowIssue[]): TOrderDraft {
  let platformId = defaultPlatform;
  if (h.platform) {
    platformId = l.platforms.get(codeKey(h.platform)) ?? null;
    if (!platformId) issues.push({ code: 'PLATFORM_ABNORMAL', field: 'platform', value: h.platform });
  }
  let providerId: string | null = null;
  if (h.logistics_provider) {
    const p = l.providers.get(codeKey(h.logistics_provider));
    if (!p?.is_active)
      issues.push({ code: 'PATHWAY_ABNORMAL', field: 'logistics_provider', value: h.logistics_provider });
    else providerId = p.id;
  }
  let warehouseId: string | null = null;
  if (h.warehouse) {
    warehouseId = l.warehouses.get(codeKey(h.warehouse)) ?? null;
    if (!warehouseId) issues.push({ code: 'INVALID_FIELD', field: 'warehouse', value: h.warehouse });
  } else if (l.warehouses.size === 1) warehouseId = [...l.warehouses.values()][0]!;
  else issues.push({ code: 'REQUIRED_FIELD', field: 'warehouse', value: null });
  return {
    platform_order_number: h.platform_order_number,
    third_party_number: h.third_party_number,
    consignment_number: h.consignment_number,
    shipping_date: h.shipping_date,
    category: h.category ?? 'normal',
    channel: h.channel ?? (platformId ? 'ecommerce' : 'manual'),
    is_cross_border: h.is_cross_border,
    recipient_name: h.recipient_name,
    recipient_phone: h.recipient_phone,
    recipient_mobile: h.recipient_mobile,
    recipient_postcode: h.recipient_postcode,
    recipient_address: h.recipient_address,
    sender_name: h.sender_name,
    sender_phone: h.sender_phone,
    sender_postcode: h.sender_postcode,
    sender_address: h.sender_address,
    shipping_remark: h.shipping_remark,
    warehouse_id: warehouseId,
    arrival_date: h.arrival_date,
    arrival_time_slot: h.arrival_time_slot,
    logistics_provider_id: providerId,
    platform_id: platformId,
    cod: h.cod,
    cod_amount: h.cod_amount,
    total_amount: h.total_amount,
    piece_count: h.piece_count,
    volume: h.volume,
  };
}

/** The product of a line: the first candidate column value that is a known product number or barcode. */
function productOfLine(candidates: string[], l: TLookups): repo.TProductInfo | undefined {
  for (const c of candidates) {
    const p = l.products.get(codeKey(c));
    if (p) return p;
  }
  return undefined;
}

// ---- reading the file ----

interface TLayout {
  headerRow: number;
  mapping: TImportMapping | null;
}

/** Stream the data rows of the file with the columns resolved from the header row. */
async function* dataRows(
  content: Buffer,
  layout: TLayout,
  onHeader: (headers: string[], columns: TColumns, missing: string[]) => void,
): AsyncGenerator<{ row: number; cells: Array<string | number | boolean | Date | null>; reader: RowReader }> {
  let reader: RowReader | null = null;
  for await (const r of readSheet(content)) {
    if (r.row < layout.headerRow) continue;
    if (!reader) {
      const headers = r.cells.map(headerText);
      const { columns, missing } = resolveColumns(headers, layout.mapping ?? suggestMapping(headers));
      onHeader(headers, columns, missing);
      reader = new RowReader(columns);
      continue;
    }
    yield { row: r.row, cells: r.cells, reader };
  }
}

interface TOrderMeta {
  firstRow: number;
  needsVolume: boolean;
  hasVolume: boolean;
}

/** Pass 1: every row checked; the file is refused with all its problems, or the per-order facts are returned. */
async function validateFile(
  ctx: TJobContext,
  content: Buffer,
  layout: TLayout,
  lookups: TLookups,
  defaultPlatform: string | null,
  lang: TLanguage,
): Promise<{ rows: number; orders: Map<string, TOrderMeta> }> {
  const customerId = ctx.job.customer_id!;
  const issues: Array<TRowIssue & { row: number }> = [];
  const orders = new Map<string, TOrderMeta>();
  // Consignment numbers of the file: unique within it, and not on another order the seller already has.
  const consignments = new Map<string, { row: number; key: string; platformId: string | null }>();
  let rows = 0;
  let headerSeen = false;
  let columnsMissing = false;
  for await (const { row, cells, reader } of dataRows(content, layout, (_h, _c, missing) => {
    headerSeen = true;
    columnsMissing = missing.length > 0;
    for (const f of missing) issues.push({ row: layout.headerRow, code: 'REQUIRED_FIELD', field: f, value: null });
  })) {
    if (columnsMissing) break;
    rows++;
    const rowIssues: TRowIssue[] = [];
    const key = reader.orderKey(cells);
    if (!key) rowIssues.push({ code: 'REQUIRED_FIELD', field: 'platform_order_number', value: null });
    let meta = key ? orders.get(key) : undefined;
    if (key && !meta) {
      const draft = draftFromRow(reader.header(cells, rowIssues), lookups, defaultPlatform, rowIssues);
      for (const i of checkOrder(draft, [])) rowIssues.push({ code: i.code, field: i.field, value: i.value ?? null });
      meta = { firstRow: row, needsVolume: false, hasVolume: !!draft.volume };
      orders.set(key, meta);
      if (draft.consignment_number) {
        if (consignments.has(draft.consignment_number))
          rowIssues.push({ code: 'DUPLICATE_VALUE', field: 'consignment_number', value: draft.consignment_number });
        else consignments.set(draft.consignment_number, { row, key, platformId: draft.platform_id });
      }
    }
    const line = reader.line(cells, rowIssues);
    if (line.products.length) {
      const product = productOfLine(line.products, lookups);
      if (!product) rowIssues.push({ code: 'PRODUCT_ABNORMAL', field: 'product', value: line.products[0]! });
      else {
        if (!isShippable(product))
          rowIssues.push({ code: 'PRODUCT_ABNORMAL', field: 'product', value: product.number });
        if (product.volume_required && meta) meta.needsVolume = true;
      }
    }
    for (const i of rowIssues) issues.push({ ...i, row });
    if (rows % 1000 === 0) await ctx.progress(rows, 0);
  }
  if (!headerSeen) throw new AppError('NO_DATA');
  for (const meta of orders.values())
    if (meta.needsVolume && !meta.hasVolume)
      issues.push({ row: meta.firstRow, code: 'REQUIRED_FIELD', field: 'volume', value: null });
  const numbers = [...consignments.keys()];
  for (let i = 0; i < numbers.length; i += 1000) {
    for (const taken of await repo.ordersByConsignment(ctx.db, customerId, numbers.slice(i, i + 1000))) {
      const mine = consignments.get(taken.consignment_number)!;
      // The same platform order again (a re-import) is skipped, not a conflict.
      if (taken.platform_order_number !== mine.key || taken.platform_id !== mine.platformId)
        issues.push({
          row: mine.row,
          code: 'DUPLICATE_VALUE',
          field: 'consignment_number',
          value: taken.consignment_number,
        });
    }
  }
  if (rows === 0 && issues.length === 0) throw new AppError('NO_DATA');
  if (issues.length) rejectRows(issues, lang);
  return { rows, orders };
}

/** Active, shippable, and (a combination) made of components: the product rule of checkOrder for one product. */
function isShippable(p: repo.TProductInfo): boolean {
  return p.status === 'active' && p.allow_shipping && (p.type !== 'combination' || p.component_count > 0);
}

/** Pass 2, in the caller's transaction: insert the orders and lines in batches; returns the created orders. */
async function writeOrders(
  tx: Tx,
  actor: TActor,
  content: Buffer,
  layout: TLayout,
  lookups: TLookups,
  defaultPlatform: string | null,
  report: (done: number) => void,
): Promise<{ created: Array<{ id: string; key: string }>; skipped: number }> {
  const customerId = tenantOf(actor);
  const defaults = await defaultsContext(tx, customerId);
  const ids = new Map<string, string | null>(); // order key → id (null: a duplicate that was skipped)
  const lineNo = new Map<string, number>();
  const created: Array<{ id: string; key: string }> = [];
  let skipped = 0;
  let pendingOrders = new Map<string, TOrderDraft>();
  let pendingLines: Array<{ key: string; productId: string; quantity: number; unitPrice: string | null; row: number }> =
    [];

  const flush = async () => {
    if (pendingOrders.size) {
      const byPlatform = new Map<string | null, string[]>();
      for (const [key, d] of pendingOrders)
        byPlatform.set(d.platform_id, [...(byPlatform.get(d.platform_id) ?? []), key]);
      const fresh: Array<[string, TOrderDraft]> = [];
      for (const [platformId, keys] of byPlatform) {
        const existing = await repo.existingPlatformNumbers(tx, customerId, platformId, keys);
        for (const key of keys) {
          if (existing.has(key)) {
            ids.set(key, null);
            skipped++;
          } else fresh.push([key, pendingOrders.get(key)!]);
        }
      }
      const numbers = await repo.nextDocumentNumbers(tx, customerId, ORDER_PREFIX, fresh.length);
      const inserted = await repo.insertOrdersSkippingDuplicates(
        tx,
        fresh.map(([, draft], i) => ({ ...draft, customer_id: customerId, number: numbers[i]!, created_by: actor.id })),
      );
      const byKey = new Map(inserted.map((r) => [`${r.platform_id}|${r.platform_order_number}`, r.id]));
      for (const [key, draft] of fresh) {
        const id = byKey.get(`${draft.platform_id}|${key}`) ?? null;
        ids.set(key, id);
        if (id) created.push({ id, key });
        else skipped++; // written by a concurrent import a moment ago
      }
      pendingOrders = new Map();
    }
    const lines = pendingLines.flatMap((l) => {
      const orderId = ids.get(l.key);
      if (!orderId) return [];
      const n = (lineNo.get(l.key) ?? 0) + 1;
      lineNo.set(l.key, n);
      return [
        {
          customer_id: customerId,
          order_id: orderId,
          line_no: n,
          product_id: l.productId,
          quantity: l.quantity,
          unit_price: l.unitPrice,
          source_row: l.row,
        },
      ];
    });
    await repo.insertLines(tx, lines);
    pendingLines = [];
  };

  let rows = 0;
  for await (const { row, cells, reader } of dataRows(content, layout, () => {})) {
    rows++;
    const key = reader.orderKey(cells);
    const ignored: TRowIssue[] = []; // pass 1 found none
    const line = reader.line(cells, ignored);
    const product = productOfLine(line.products, lookups)!;
    if (!ids.has(key) && !pendingOrders.has(key)) {
      const draft = draftFromRow(reader.header(cells, ignored), lookups, defaultPlatform, ignored);
      fillDefaults(draft, [product], defaults);
      checkOrder(draft, []); // normalises phones and postcodes in place (pass 1 found them valid)
      pendingOrders.set(key, draft);
    }
    pendingLines.push({ key, productId: product.id, quantity: line.quantity!, unitPrice: line.unit_price, row });
    if (pendingOrders.size >= ORDER_BATCH || pendingLines.length >= LINE_BATCH) {
      await flush();
      report(rows);
    }
  }
  await flush();
  return { created, skipped };
}

/** The job: validate, write, and optionally export every new order (each fully or not at all). */
export async function runOrderImport(ctx: TJobContext): Promise<TImportResult> {
  const { lang, actor } = jobPayload(ctx.job);
  const payload = ctx.job.payload as { platform_id: string | null; export_after_import: boolean };
  const customerId = tenantOf(actor);
  const file = await ctx.file();
  if (!file) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  const form = await repo.findFormForPlatform(ctx.db, customerId, payload.platform_id);
  const layout: TLayout = {
    headerRow: form?.header_row ?? 1,
    mapping: (form?.mapping as TImportMapping | undefined) ?? null,
  };
  const lookups = await loadLookups(ctx.db, customerId);
  const { rows, orders } = await validateFile(ctx, file.content, layout, lookups, payload.platform_id, lang);
  const total = rows * 2 + (payload.export_after_import ? orders.size : 0);
  await ctx.progress(rows, total);

  // Progress rows are written outside the transaction, never awaited inside it: on PGlite (one connection) a
  // write outside waits for the transaction to end, so awaiting it inside would never return. Chained in order.
  let progressed = Promise.resolve();
  const report = (done: number) => {
    progressed = progressed.then(() => ctx.progress(rows + done, total)).catch(() => undefined);
  };
  const { created, skipped } = await withTx(ctx.db, async (tx) => {
    const result = await writeOrders(tx, actor, file.content, layout, lookups, payload.platform_id, report);
    await writeAudit(tx, actor, {
      action: 'import',
      entity: 'outbound_order',
      after: { job_id: ctx.job.id, file: file.name, rows, orders: orders.size, created: result.created.length },
    });
    return result;
  });
  await progressed;
  await ctx.progress(rows * 2, total);

  const shortages: TImportResult['shortages'] = [];
  let exported = 0;
  if (payload.export_after_import) {
    for (const [i, c] of created.entries()) {
      const failure = await exportOrderInTx(ctx.db, actor, c.id);
      if (failure) {
        if (shortages.length < 1000)
          shortages.push({
            row: orders.get(c.key)?.firstRow ?? 0,
            order: c.key,
            code: failure.code,
            params: failure.params,
          });
      } else exported++;
      if (i % 200 === 199) await ctx.progress(rows * 2 + i + 1, total);
    }
  }
  return {
    rows,
    orders: orders.size,
    created: created.length,
    skipped_duplicates: skipped,
    exported,
    shortages,
  };
}

// ---- custom upload forms (/deliver-customize-form) ----

function toForm(r: NonNullable<Awaited<ReturnType<typeof repo.findForm>>>): TImportForm {
  return {
    id: r.form.id,
    name: r.form.name,
    platform_id: r.form.platform_id,
    platform_code: r.platform_code,
    platform_name: r.platform_name,
    header_row: r.form.header_row,
    mapping: r.form.mapping as TImportMapping,
    created_at: r.form.created_at.toISOString(),
    updated_at: r.form.updated_at.toISOString(),
  };
}

/** Headers are saved whitespace-normalised (a header with a line break matches however the file wraps it). */
function cleanMapping(mapping: TImportMapping): TImportMapping {
  const out: TImportMapping = {};
  for (const [field, headers] of Object.entries(mapping) as Array<[keyof TImportMapping, string[]]>) {
    const clean = [...new Set(headers.map((h) => headerText(h)).filter(Boolean))];
    if (clean.length) out[field] = clean;
  }
  const missing = IMPORT_REQUIRED_FIELDS.filter((f) => !out[f]);
  if (missing.length) throw new AppError('REQUIRED_FIELD', { field: `mapping.${missing[0]}` });
  return out;
}

function formConstraintError(err: unknown): never {
  if (sqlState(err) === '23505') throw new AppError('DUPLICATE_VALUE', { field: 'platform_id' });
  if (sqlState(err) === '23503') throw new AppError('PLATFORM_ABNORMAL', { field: 'platform_id' });
  throw err;
}

async function checkPlatform(ex: Executor, customerId: string, platformId: string | null | undefined) {
  if (platformId && !(await repo.platformsOf(ex, customerId)).some((p) => p.id === platformId))
    throw new AppError('PLATFORM_ABNORMAL', { field: 'platform_id' });
}

export async function listForms(deps: { db: Db }, actor: TActor) {
  const rows = await repo.listForms(deps.db, tenantOf(actor));
  return { count: rows.length, results: rows.map(toForm) };
}

export async function getForm(deps: { db: Db }, actor: TActor, id: string): Promise<TImportForm> {
  const row = await repo.findForm(deps.db, tenantOf(actor), id);
  if (!row) throw new AppError('NOT_FOUND');
  return toForm(row);
}

export async function createForm(deps: { db: Db }, actor: TActor, input: TCreateImportForm): Promise<TImportForm> {
  const customerId = tenantOf(actor);
  const mapping = cleanMapping(input.mapping);
  const id = await withTx(deps.db, async (tx) => {
    await checkPlatform(tx, customerId, input.platform_id);
    const row = await repo
      .insertForm(tx, {
        customer_id: customerId,
        name: input.name,
        platform_id: input.platform_id ?? null,
        header_row: input.header_row ?? 1,
        mapping,
      })
      .catch(formConstraintError);
    await writeAudit(tx, actor, { action: 'create', entity: 'order_import_form', entityId: row.id, after: input });
    return row.id;
  });
  return getForm(deps, actor, id);
}

export async function updateForm(
  deps: { db: Db },
  actor: TActor,
  id: string,
  patch: TUpdateImportForm,
): Promise<TImportForm> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findForm(tx, customerId, id);
    if (!before) throw new AppError('NOT_FOUND');
    await checkPlatform(tx, customerId, patch.platform_id);
    await repo
      .updateForm(tx, customerId, id, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.platform_id !== undefined ? { platform_id: patch.platform_id } : {}),
        ...(patch.header_row !== undefined ? { header_row: patch.header_row } : {}),
        ...(patch.mapping !== undefined ? { mapping: cleanMapping(patch.mapping) } : {}),
      })
      .catch(formConstraintError);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'order_import_form',
      entityId: id,
      before: before.form,
      after: patch,
    });
  });
  return getForm(deps, actor, id);
}

export async function deleteForm(deps: { db: Db }, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findForm(tx, customerId, id);
    if (!before || !(await repo.deleteForm(tx, customerId, id))) throw new AppError('NOT_FOUND');
    await writeAudit(tx, actor, { action: 'delete', entity: 'order_import_form', entityId: id, before: before.form });
  });
  return { ok: true as const };
}

/** A sample of a seller's file for the mapping form: its headers (normalised), the first rows, a guessed mapping. */
export async function inspectFile(
  _deps: { db: Db },
  actor: TActor,
  input: { file_base64: string; header_row?: number },
): Promise<TInspectResult> {
  tenantOf(actor);
  const content = decodeFile(input.file_base64);
  const headerRow = input.header_row ?? 1;
  let headers: string[] | null = null;
  const samples: string[][] = [];
  for await (const r of readSheet(content)) {
    if (r.row < headerRow) continue;
    if (!headers) {
      headers = r.cells.map(headerText);
      continue;
    }
    samples.push(headers.map((_, i) => headerText(r.cells[i] ?? null).slice(0, 100)));
    if (samples.length >= 5) break;
  }
  if (!headers) throw new AppError('NO_DATA');
  return { headers, samples, suggested: suggestMapping(headers) };
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
  const content = decodeFile(input.file_base64);
  const issues: Array<TRowIssue & { row: number }> = [];
  const items: Array<TConsignmentItem & { row: number }> = [];
  let cols: Record<keyof typeof CONSIGNMENT_HEADERS, number> | null = null;
  for await (const r of readSheet(content)) {
    if (!cols) {
      const keys = r.cells.map((c) => headerKey(headerText(c)));
      const find = (names: readonly string[]) => {
        for (const n of names)
          for (const k of [n, ...LANGUAGES.map((l) => fieldLabel(n, l))]) {
            const i = keys.indexOf(headerKey(k));
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
    const rowIssues: TRowIssue[] = [];
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
