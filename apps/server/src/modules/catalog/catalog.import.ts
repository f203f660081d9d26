import {
  IMPORT_MAX_ROWS,
  isValidProductBarcode,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  PRODUCT_VALUE_LABELS,
  type TUpdateProduct,
  ZCreateProduct,
  ZUpdateProduct,
} from '@wms/contracts';
import type { Executor, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { cellText, parseBool, parseEnum, type TCell, wordKey } from '../../platform/cells';
import {
  jobFile,
  jobPayload,
  progressFromTx,
  RowIssues,
  readImportRows,
  sheetLayout,
  type TRowIssue,
  ZImportPayload,
  zodRowIssues,
} from '../../platform/importing';
import { defineJob, type TJobContext } from '../../platform/jobs';
import { PRODUCT_COLUMNS } from './catalog.columns';
import { publishProductCodes } from './catalog.events';
import * as repo from './catalog.repository';
import { productRuleIssues } from './catalog.rules';

export const PRODUCT_IMPORT_JOB = 'catalog.product_import';

/** Short words for the product type that sellers type besides the labels (PRODUCT_VALUE_LABELS). */
const TYPE_SYNONYMS: Record<string, (typeof PRODUCT_TYPES)[number]> = {
  單一: 'single',
  單品: 'single',
  组合: 'combination',
  組合: 'combination',
  セット: 'combination',
};

const INT_FIELDS = ['safety_stock', 'stocking_days', 'shelf_life_months', 'sellable_rule_months'] as const;
const DECIMAL_FIELDS = ['unit_price', 'selling_price', 'cost', 'weight', 'length_cm', 'width_cm', 'height_cm'] as const;
const BOOL_FIELDS = [
  'volume_required',
  'fragile',
  'can_pack_together',
  'allow_shipping',
  'online_listing',
  'requires_serial',
] as const;
const TEXT_FIELDS = ['number', 'name', 'barcode', 'unit', 'weight_unit'] as const;

/** A sheet row of products: field → cell (fields the file has no column for are absent). */
export interface TProductRow {
  row: number;
  values: Partial<Record<string, TCell>>;
}

/** `A001*2, B002*1` → [{number, quantity}] (quantity 1 when omitted); null when a part is malformed. */
export function parseComponents(text: string): Array<{ number: string; quantity: number }> | null {
  const out: Array<{ number: string; quantity: number }> = [];
  for (const part of text.split(/[,;\n，、]/)) {
    const p = part.trim();
    if (!p) continue;
    const m = /^(.+?)\s*(?:[*xX×]\s*(\d+))?$/.exec(p);
    if (!m) return null;
    out.push({ number: m[1]!.trim(), quantity: m[2] ? Number(m[2]) : 1 });
  }
  return out;
}

export interface TParsedRow {
  row: number;
  /** The product fields the row sets (blank cells left out, so an update keeps them). */
  input: TUpdateProduct & { number: string };
  components: Array<{ number: string; quantity: number }> | undefined;
}

/**
 * Turn sheet rows into product changes and check all of them before anything is written: cell types, the contract
 * (same zod schema as the API), the cross-field rules, codes of categories/providers/platforms, duplicate numbers
 * and barcodes, and components (single products, from the database or the same file).
 */
export async function validateProductRows(
  tx: Executor,
  customerId: string,
  rows: TProductRow[],
  onProgress: (done: number) => Promise<void>,
): Promise<{ issues: TRowIssue[]; parsed: TParsedRow[]; existing: Map<string, repo.TProductView> }> {
  const issues: TRowIssue[] = [];
  const parsed: TParsedRow[] = [];
  const refs = await repo.referenceMaps(tx, customerId);
  const defaultCategory = await repo.ensureDefaultCategory(tx, customerId);
  refs.categories.set(defaultCategory.code, defaultCategory.id);
  const numbers = rows.map((r) => cellText(r.values.number)).filter((n): n is string => !!n);
  const existingRows = await repo.findProductsByNumbers(tx, customerId, [...new Set(numbers)]);
  const existing = new Map(existingRows.map((r) => [r.product.number, r]));
  const seenNumbers = new Map<string, number>();
  const seenBarcodes = new Map<string, number>();

  for (const [i, r] of rows.entries()) {
    const v = r.values;
    const rowIssues: TRowIssue[] = [];
    const input: Record<string, unknown> = {};
    const bad = (field: string, code: TRowIssue['code'] = 'INVALID_FIELD') =>
      rowIssues.push({ row: r.row, field, code });
    for (const f of TEXT_FIELDS) {
      const t = cellText(v[f]);
      if (t !== null) input[f] = t;
    }
    for (const f of DECIMAL_FIELDS) {
      const t = cellText(v[f]);
      if (t !== null) input[f] = t;
    }
    for (const f of INT_FIELDS) {
      const c = v[f];
      if (c === null || c === undefined) continue;
      const n = typeof c === 'number' ? c : Number(String(c).trim());
      if (!Number.isInteger(n)) bad(f);
      else input[f] = n;
    }
    for (const f of BOOL_FIELDS) {
      const b = parseBool(v[f]);
      if (b === undefined) bad(f);
      else if (b !== null) input[f] = b;
    }
    let type = parseEnum(v.type, PRODUCT_TYPES, PRODUCT_VALUE_LABELS.type);
    if (type === undefined) type = TYPE_SYNONYMS[wordKey(cellText(v.type) ?? '')];
    if (type === undefined) bad('type');
    else if (type !== null) input.type = type;
    const status = parseEnum(v.status, PRODUCT_STATUSES, PRODUCT_VALUE_LABELS.status);
    if (status === undefined) bad('status');
    else if (status !== null) input.status = status;
    const date = v.allowed_sale_date;
    if (date instanceof Date) input.allowed_sale_date = date.toISOString().slice(0, 10);
    else if (date !== null && date !== undefined) input.allowed_sale_date = cellText(date);
    const codeRef = (cell: string, map: Map<string, string>, field: string) => {
      const code = cellText(v[cell]);
      if (code === null) return;
      const id = map.get(code);
      if (!id) rowIssues.push({ row: r.row, field: cell, code: 'INVALID_FIELD', params: { value: code } });
      else input[field] = id;
    };
    codeRef('category', refs.categories, 'category_id');
    codeRef('default_logistics_provider', refs.providers, 'default_logistics_provider_id');
    codeRef('default_platform', refs.platforms, 'default_platform_id');
    let components: TParsedRow['components'];
    const compText = cellText(v.components);
    if (compText !== null) {
      const list = parseComponents(compText);
      if (!list) bad('components');
      else components = list;
    }

    const number = typeof input.number === 'string' ? input.number : null;
    const before = number ? existing.get(number) : undefined;
    const schema = before ? ZUpdateProduct : ZCreateProduct;
    const result = schema.safeParse(input);
    if (!result.success) rowIssues.push(...zodRowIssues(r.row, result.error));
    if (number) {
      const first = seenNumbers.get(number);
      if (first !== undefined)
        rowIssues.push({ row: r.row, field: 'number', code: 'DUPLICATE_VALUE', params: { first } });
      else seenNumbers.set(number, r.row);
    } else if (!rowIssues.some((x) => x.field === 'number')) {
      rowIssues.push({ row: r.row, field: 'number', code: 'REQUIRED_FIELD' });
    }
    const barcode = typeof input.barcode === 'string' ? input.barcode : null;
    if (barcode && isValidProductBarcode(barcode)) {
      const first = seenBarcodes.get(barcode);
      const owner = await repo.findBarcodeOwner(tx, customerId, barcode, before?.product.id);
      if (first !== undefined || (owner && owner.number !== number))
        rowIssues.push({ row: r.row, field: 'barcode', code: 'DUPLICATE_VALUE' });
      else seenBarcodes.set(barcode, r.row);
    }
    if (rowIssues.length === 0 && number) {
      const p = before?.product;
      const merged = {
        type: (input.type as string) ?? p?.type ?? 'single',
        shelf_life_months: (input.shelf_life_months as number | undefined) ?? p?.shelf_life_months ?? null,
        sellable_rule_months: (input.sellable_rule_months as number | undefined) ?? p?.sellable_rule_months ?? null,
        volume_required: (input.volume_required as boolean | undefined) ?? p?.volume_required ?? false,
        length_cm: (input.length_cm as string | undefined) ?? p?.length_cm ?? null,
        width_cm: (input.width_cm as string | undefined) ?? p?.width_cm ?? null,
        height_cm: (input.height_cm as string | undefined) ?? p?.height_cm ?? null,
        // Components of an existing combination stay when the cell is blank.
        component_count: components?.length ?? (p?.type === 'combination' ? 1 : 0),
      };
      for (const issue of productRuleIssues(merged)) rowIssues.push({ row: r.row, ...issue });
      parsed.push({ row: r.row, input: input as TParsedRow['input'], components });
    }
    issues.push(...rowIssues);
    if (i % 200 === 199) await onProgress(i + 1);
  }

  // Components: single products from the database or from this file, never the row itself.
  const fileTypes = new Map(
    parsed.map((p) => [p.input.number, p.input.type ?? existing.get(p.input.number)?.product.type ?? 'single']),
  );
  const componentNumbers = new Set(parsed.flatMap((p) => p.components?.map((c) => c.number) ?? []));
  const dbComponents = new Map(
    (await repo.findProductsByNumbers(tx, customerId, [...componentNumbers])).map((r) => [
      r.product.number,
      r.product.type,
    ]),
  );
  for (const p of parsed) {
    if (!p.components) continue;
    const numbersInKit = p.components.map((c) => c.number);
    const invalid =
      new Set(numbersInKit).size !== numbersInKit.length ||
      p.components.some((c) => {
        const type = fileTypes.get(c.number) ?? dbComponents.get(c.number);
        return c.number === p.input.number || type !== 'single' || c.quantity < 1;
      });
    if (invalid) issues.push({ row: p.row, field: 'components', code: 'COMBINATION_INVALID' });
  }
  return { issues, parsed, existing };
}

/** Write validated rows in the caller's transaction: new products in batches, updates one by one, then components. */
async function writeProductRows(
  tx: Tx,
  customerId: string,
  parsed: TParsedRow[],
  existing: Map<string, repo.TProductView>,
  defaultCategoryId: string,
  onProgress: (done: number) => void,
) {
  const created: string[] = [];
  const updated: string[] = [];
  const fresh = parsed.filter((p) => !existing.has(p.input.number));
  for (let i = 0; i < fresh.length; i += 500) {
    const batch = fresh.slice(i, i + 500);
    for (const p of batch) {
      const { components: _c, ...fields } = p.input;
      await repo.insertProduct(tx, {
        category_id: defaultCategoryId,
        ...fields,
        name: fields.name ?? fields.number,
        customer_id: customerId,
      });
      created.push(p.input.number);
    }
    onProgress(created.length);
  }
  for (const p of parsed.filter((x) => existing.has(x.input.number))) {
    const before = existing.get(p.input.number)!;
    const { number: _n, components: _c, ...fields } = p.input;
    await repo.updateProduct(tx, customerId, before.product.id, fields);
    // A product turned single drops its components.
    if (fields.type === 'single' && before.product.type === 'combination' && !p.components)
      await repo.replaceComponents(tx, customerId, before.product.id, []);
    updated.push(p.input.number);
    if (updated.length % 200 === 0) onProgress(created.length + updated.length);
  }
  const withComponents = parsed.filter((p) => p.components);
  if (withComponents.length) {
    const all = new Set(withComponents.flatMap((p) => [p.input.number, ...p.components!.map((c) => c.number)]));
    const ids = new Map(
      (await repo.findProductsByNumbers(tx, customerId, [...all])).map((r) => [r.product.number, r.product.id]),
    );
    for (const p of withComponents)
      await repo.replaceComponents(
        tx,
        customerId,
        ids.get(p.input.number)!,
        p.components!.map((c) => ({ component_id: ids.get(c.number)!, quantity: c.quantity })),
      );
  }
  return { created, updated };
}

/** The columns of a product file as the import reads them: our export/template layout, headers in any language. */
export const PRODUCT_LAYOUT = sheetLayout(PRODUCT_COLUMNS, IMPORT_MAX_ROWS);

/**
 * The job: read, validate every row (reads only, progress reported), then write all rows in one transaction, or
 * nothing and the row errors.
 */
export async function runProductImport(ctx: TJobContext) {
  const { lang, actor } = jobPayload(ctx.job);
  const customerId = ctx.job.customer_id!;
  const issues = new RowIssues(lang);
  const rows = (await readImportRows((await jobFile(ctx)).content, PRODUCT_LAYOUT, issues)).map((r) => ({
    row: r.row,
    values: r.record(),
  }));
  const total = rows.length * 2;
  await ctx.progress(0, total);
  const checked = await validateProductRows(ctx.db, customerId, rows, (n) => ctx.progress(n, total));
  issues.add(...checked.issues);
  issues.rejectIfAny();
  await ctx.progress(rows.length, total);
  const progress = progressFromTx(ctx);
  let published = false;
  const result = await withTx(ctx.db, async (tx) => {
    const defaultCategory = await repo.ensureDefaultCategory(tx, customerId);
    const { created, updated } = await writeProductRows(
      tx,
      customerId,
      checked.parsed,
      checked.existing,
      defaultCategory.id,
      (n) => progress.report(rows.length + n, total),
    );
    published = await publishProductCodes(
      tx,
      ctx.queue,
      customerId,
      checked.parsed.flatMap((p) => [p.input.number, p.input.barcode]),
    );
    await writeAudit(tx, actor, {
      action: 'import',
      entity: 'product',
      entityId: ctx.job.id,
      customerId,
      after: { created, updated },
    });
    return { created: created.length, updated: updated.length, rows: rows.length };
  });
  await progress.settled();
  if (published) ctx.queue.kick('outbox.deliver');
  return result;
}

/** Products from an .xlsx: validated, then all written in one transaction or none. */
export const productImport = defineJob(PRODUCT_IMPORT_JOB, ZImportPayload, runProductImport, { retryLimit: 1 });
