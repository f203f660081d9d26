import {
  BATCH_FIELDS,
  type TBatchPreview,
  type TBatchSet,
  type TBatchUpdate,
  type TLanguage,
  type TProduct,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { decodeUpload, issueMessages, RowIssues, readImportRows, type TRowIssue } from '../../platform/importing';
import { publishProductCodes } from './catalog.events';
import { PRODUCT_LAYOUT, validateProductRows } from './catalog.import';
import * as repo from './catalog.repository';
import { productRuleIssues, trimDecimal } from './catalog.rules';
import { changeProduct, type TCatalogDeps, withComponents } from './catalog.service';

interface TPlanItem {
  row: number | null;
  product: TProduct;
  set: TBatchSet;
}

const DECIMALS = new Set(['unit_price', 'selling_price', 'cost', 'weight', 'length_cm', 'width_cm', 'height_cm']);

function same(field: string, before: unknown, after: unknown): boolean {
  if (DECIMALS.has(field) && typeof after === 'string') return trimDecimal(after) === before;
  return (before ?? null) === (after ?? null);
}

/** Resolve the request into (product, set) pairs; unknown numbers and bad cells become row issues. */
async function plan(db: Executor, customerId: string, input: TBatchUpdate) {
  const issues: TRowIssue[] = [];
  const items: TPlanItem[] = [];
  const sources = [input.product_ids?.length && input.set, input.rows?.length, input.file_base64].filter(Boolean);
  if (sources.length !== 1) throw new AppError('REQUIRED_FIELD', { field: 'product_ids' });

  if (input.product_ids && input.set) {
    const ids = [...new Set(input.product_ids)];
    const found = await withComponents(db, customerId, await repo.findProductsByIds(db, customerId, ids));
    if (found.length !== ids.length) throw notFound();
    for (const product of found) items.push({ row: null, product, set: input.set });
  } else {
    let rows = (input.rows ?? []).map((r, i) => ({ row: i + 1, number: r.number, set: r.set }));
    if (input.file_base64) {
      // The export's layout: a row per product number, blank cells unchanged; type and components are not batch fields.
      const sheet = await readImportRows<string>(
        decodeUpload(input.file_base64, ['xlsx']),
        { ...PRODUCT_LAYOUT, required: ['number'] },
        new RowIssues('zh-TW'),
      ).catch((err: unknown) => {
        // Refused before any row only for a missing number column: reported with the other problems instead.
        if (err instanceof AppError && err.code === 'IMPORT_REJECTED') return null;
        throw err;
      });
      if (!sheet) issues.push({ row: 1, field: 'number', code: 'REQUIRED_FIELD' });
      const sheetRows = (sheet ?? []).map((r) => {
        const { type: _t, components: _c, ...values } = r.record();
        return { row: r.row, values };
      });
      const checked = await validateProductRows(db, customerId, sheetRows, async () => {});
      issues.push(...checked.issues.filter((i) => !(i.field === 'name' && i.code === 'REQUIRED_FIELD')));
      rows = checked.parsed.map((p) => {
        const { number, components: _c, type: _t, requires_serial: _s, ...set } = p.input;
        return { row: p.row, number, set: set as TBatchSet };
      });
    }
    const found = await withComponents(
      db,
      customerId,
      await repo.findProductsByNumbers(
        db,
        customerId,
        rows.map((r) => r.number),
      ),
    );
    const byNumber = new Map(found.map((p) => [p.number, p]));
    const seen = new Set<string>();
    for (const r of rows) {
      const product = byNumber.get(r.number);
      if (!product) issues.push({ row: r.row, field: 'number', code: 'NOT_FOUND', params: { number: r.number } });
      else if (seen.has(r.number)) issues.push({ row: r.row, field: 'number', code: 'DUPLICATE_VALUE' });
      else items.push({ row: r.row, product, set: r.set });
      seen.add(r.number);
    }
  }

  // References and rules on the product as it would be after the change.
  const refs = await repo.referenceMaps(db, customerId);
  const barcodes = new Map<string, number>();
  for (const it of items) {
    const at = (field: string, code: TRowIssue['code'], params: Record<string, unknown> = {}) =>
      issues.push({ row: it.row, field, code, params: { number: it.product.number, ...params } });
    const s = it.set;
    if (s.category_id && !refs.categoryCodes.has(s.category_id)) at('category_id', 'INVALID_FIELD');
    if (s.default_logistics_provider_id && !refs.providerCodes.has(s.default_logistics_provider_id))
      at('default_logistics_provider_id', 'INVALID_FIELD');
    if (s.default_platform_id && !refs.platformCodes.has(s.default_platform_id))
      at('default_platform_id', 'INVALID_FIELD');
    if (s.barcode) {
      barcodes.set(s.barcode, (barcodes.get(s.barcode) ?? 0) + 1);
      const owner = await repo.findBarcodeOwner(db, customerId, s.barcode, it.product.id);
      if (owner && !items.some((x) => x.product.id === owner.id && x.set.barcode !== undefined))
        at('barcode', 'DUPLICATE_VALUE');
    }
    const merged = { ...it.product, ...s };
    for (const issue of productRuleIssues({ ...merged, component_count: it.product.components.length }))
      at(issue.field, issue.code, issue.params);
  }
  for (const it of items)
    if (it.set.barcode && (barcodes.get(it.set.barcode) ?? 0) > 1)
      issues.push({ row: it.row, field: 'barcode', code: 'DUPLICATE_VALUE', params: { number: it.product.number } });
  return { items, issues };
}

function changesOf(it: TPlanItem) {
  const changes: Array<{ field: string; before: unknown; after: unknown }> = [];
  for (const field of BATCH_FIELDS) {
    if (!(field in it.set) || it.set[field] === undefined) continue;
    const before = it.product[field as keyof TProduct];
    const after = it.set[field];
    if (!same(field, before, after)) changes.push({ field, before: before ?? null, after: after ?? null });
  }
  return changes;
}

/** Preview a batch change: every changed field with its before and after, and the problems, nothing written. */
export async function previewBatchUpdate(
  deps: { db: Db },
  actor: TActor,
  input: TBatchUpdate,
  lang: TLanguage,
): Promise<TBatchPreview> {
  const customerId = tenantOf(actor);
  const { items, issues } = await plan(deps.db, customerId, input);
  const withChanges = items.map((it) => ({ it, changes: changesOf(it) }));
  return {
    items: withChanges
      .filter((x) => x.changes.length > 0)
      .map(({ it, changes }) => ({
        product_id: it.product.id,
        number: it.product.number,
        name: it.product.name,
        changes,
      })),
    unchanged: withChanges.filter((x) => x.changes.length === 0).length,
    errors: issueMessages(issues, lang),
  };
}

/**
 * Apply a batch change in one transaction: the plan is re-checked inside it, every product goes through the same
 * checks as the edit form, each gets its audit row; one problem and nothing changes.
 */
export async function applyBatchUpdate(deps: TCatalogDeps, actor: TActor, input: TBatchUpdate, lang: TLanguage) {
  const customerId = tenantOf(actor);
  let published = false;
  const result = await withTx(deps.db, async (tx) => {
    const { items, issues } = await plan(tx, customerId, input);
    if (issues.length) {
      const errors = issueMessages(issues, lang);
      const first = errors[0]!;
      throw new AppError(first.code as TRowIssue['code'], { field: first.field, row: first.row, errors });
    }
    let updated = 0;
    const codes: Array<string | null> = [];
    for (const it of items) {
      const changes = changesOf(it);
      if (changes.length === 0) continue;
      const patch = Object.fromEntries(changes.map((c) => [c.field, c.after]));
      const after = await changeProduct(tx, actor, customerId, it.product.id, patch, 'batch_update');
      // A new number or barcode may be the SKU an abnormal Shopee order waits for (as the edit form does).
      if ('number' in patch || 'barcode' in patch) codes.push(after.number, after.barcode);
      updated++;
    }
    if (deps.jobs) published = await publishProductCodes(tx, deps.jobs, customerId, codes);
    return { updated };
  });
  if (published) deps.jobs?.kick('outbox.deliver');
  return result;
}
