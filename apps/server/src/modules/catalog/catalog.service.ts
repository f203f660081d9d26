/**
 * Use cases of products: list, export, get, look up by code, create, change (shared with the batch update), update,
 * delete, listing on platforms. Categories and packaging materials are in catalog.categories.ts and
 * catalog.packaging.ts; import and batch update in catalog.import.ts and catalog.batch.ts.
 */
import type { TCreateProduct, TProduct, TProductListQuery, TUpdateProduct } from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import type { products } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import { publishProductCodes } from './catalog.events';
import * as repo from './catalog.repository';
import { productRuleIssues, trimDecimal } from './catalog.rules';

export interface TCatalogDeps {
  db: Db;
  /** For the follow-ups a product write queues (abnormal Shopee orders waiting for its code). */
  jobs?: JobQueue;
}
export type TPage = { page: number; page_size: number; search?: string; ordering?: string };

type TComponentView = TProduct['components'][number];

export function toProduct(v: repo.TProductView, components: TComponentView[] = []): TProduct {
  const p = v.product;
  return {
    id: p.id,
    number: p.number,
    name: p.name,
    barcode: p.barcode,
    type: p.type as TProduct['type'],
    category_id: p.category_id,
    category_code: v.category_code,
    category_name: v.category_name,
    unit: p.unit,
    unit_price: trimDecimal(p.unit_price),
    selling_price: trimDecimal(p.selling_price),
    cost: trimDecimal(p.cost),
    weight: trimDecimal(p.weight),
    weight_unit: p.weight_unit as TProduct['weight_unit'],
    length_cm: trimDecimal(p.length_cm),
    width_cm: trimDecimal(p.width_cm),
    height_cm: trimDecimal(p.height_cm),
    volume_required: p.volume_required,
    fragile: p.fragile,
    can_pack_together: p.can_pack_together,
    safety_stock: p.safety_stock,
    stocking_days: p.stocking_days,
    shelf_life_months: p.shelf_life_months,
    sellable_rule_months: p.sellable_rule_months,
    allowed_sale_date: p.allowed_sale_date,
    allow_shipping: p.allow_shipping,
    online_listing: p.online_listing,
    status: p.status as TProduct['status'],
    requires_serial: p.requires_serial,
    default_logistics_provider_id: p.default_logistics_provider_id,
    default_platform_id: p.default_platform_id,
    components,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

/** Products with their components, in the order given. */
export async function withComponents(tx: Executor, customerId: string, rows: repo.TProductView[]) {
  const combos = rows.filter((r) => r.product.type === 'combination').map((r) => r.product.id);
  const comps = await repo.componentsOf(tx, customerId, combos);
  return rows.map((r) => toProduct(r, comps.get(r.product.id) ?? []));
}

function listFilter(q: TProductListQuery) {
  const { ids, ...rest } = q;
  return {
    ...rest,
    ids: ids
      ? ids
          .split(',')
          .map((s) => s.trim())
          .filter((s) => /^[0-9a-f-]{36}$/i.test(s))
      : undefined,
  };
}

export async function listProducts(deps: TCatalogDeps, actor: TActor, q: TProductListQuery) {
  const customerId = tenantOf(actor);
  const { rows, count } = await repo.listProducts(deps.db, customerId, listFilter(q));
  return { count, results: await withComponents(deps.db, customerId, rows) };
}

/** Products for the Excel export, with the codes of their default provider and platform. */
export async function exportProductsWithCodes(deps: TCatalogDeps, actor: TActor, q: TProductListQuery) {
  const customerId = tenantOf(actor);
  const { rows } = await repo.listProducts(deps.db, customerId, { ...listFilter(q), all: EXPORT_MAX_ROWS });
  const maps = await repo.referenceMaps(deps.db, customerId);
  return {
    rows: await withComponents(deps.db, customerId, rows),
    codes: { providers: maps.providerCodes, platforms: maps.platformCodes },
  };
}

export async function getProduct(deps: TCatalogDeps, actor: TActor, id: string) {
  return requireProduct(deps.db, tenantOf(actor), id);
}

/** A product of this customer with its components; 404 for anyone else's. Other modules use this. */
export async function requireProduct(tx: Executor, customerId: string, id: string): Promise<TProduct> {
  const row = await repo.findProduct(tx, customerId, id);
  if (!row) throw notFound();
  return (await withComponents(tx, customerId, [row]))[0]!;
}

/** Scan lookup: a product by number or barcode. */
export async function lookupProduct(deps: TCatalogDeps, actor: TActor, code: string) {
  const customerId = tenantOf(actor);
  const row = await repo.findProductByCode(deps.db, customerId, code);
  if (!row) throw notFound();
  return (await withComponents(deps.db, customerId, [row]))[0]!;
}

type TProductValues = Partial<typeof products.$inferInsert>;

/** The product columns of a create/update body (components and undefined fields left out). */
function productColumns(input: TUpdateProduct): TProductValues {
  const { components: _components, ...fields } = input;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as TProductValues;
}

/** Check references (category, provider, platform, barcode) and components against this customer's data. */
async function checkProductReferences(
  tx: Executor,
  customerId: string,
  values: TProductValues,
  productId: string | null,
) {
  if (values.category_id && !(await repo.findCategory(tx, customerId, values.category_id)))
    throw new AppError('INVALID_FIELD', { field: 'category_id' });
  if (
    values.default_logistics_provider_id &&
    !(await repo.providerExists(tx, customerId, values.default_logistics_provider_id))
  )
    throw new AppError('INVALID_FIELD', { field: 'default_logistics_provider_id' });
  if (values.default_platform_id && !(await repo.platformExists(tx, customerId, values.default_platform_id)))
    throw new AppError('INVALID_FIELD', { field: 'default_platform_id' });
  if (values.barcode && (await repo.findBarcodeOwner(tx, customerId, values.barcode, productId ?? undefined)))
    throw new AppError('DUPLICATE_VALUE', { field: 'barcode' });
}

/**
 * Components must be distinct single products of this customer, other than the combination itself. Combinations
 * cannot nest, so there are no cycles and a kit explodes into stock-keeping products in one step.
 */
async function checkComponents(
  tx: Executor,
  customerId: string,
  productId: string | null,
  components: Array<{ component_id: string; quantity: number }>,
) {
  const ids = components.map((c) => c.component_id);
  if (new Set(ids).size !== ids.length) throw new AppError('COMBINATION_INVALID', { field: 'components' });
  if (productId && ids.includes(productId)) throw new AppError('COMBINATION_INVALID', { field: 'components' });
  const found = await repo.findProductsByIds(tx, customerId, ids);
  if (found.length !== ids.length) throw new AppError('COMBINATION_INVALID', { field: 'components' });
  const nested = found.find((f) => f.product.type !== 'single');
  if (nested) throw new AppError('COMBINATION_INVALID', { field: 'components', number: nested.product.number });
}

function throwFirstIssue(shape: Parameters<typeof productRuleIssues>[0]) {
  const [issue] = productRuleIssues(shape);
  if (issue) throw new AppError(issue.code, { field: issue.field, ...issue.params });
}

export async function createProduct(deps: TCatalogDeps, actor: TActor, input: TCreateProduct) {
  const customerId = tenantOf(actor);
  let published = false;
  const created = await withTx(deps.db, async (tx) => {
    const values = productColumns(input);
    if (!values.category_id) values.category_id = (await repo.ensureDefaultCategory(tx, customerId)).id;
    await checkProductReferences(tx, customerId, values, null);
    const components = input.components ?? [];
    await checkComponents(tx, customerId, null, components);
    throwFirstIssue({
      type: values.type ?? 'single',
      shelf_life_months: values.shelf_life_months ?? null,
      sellable_rule_months: values.sellable_rule_months ?? null,
      volume_required: values.volume_required ?? false,
      length_cm: values.length_cm ?? null,
      width_cm: values.width_cm ?? null,
      height_cm: values.height_cm ?? null,
      component_count: components.length,
    });
    const row = await repo
      .insertProduct(tx, { ...values, customer_id: customerId, number: input.number, name: input.name })
      .catch((e) => constraintError(e, 'number'));
    await repo.replaceComponents(tx, customerId, row.id, components);
    const view = await requireProduct(tx, customerId, row.id);
    await writeAudit(tx, actor, { action: 'create', entity: 'product', entityId: row.id, after: view });
    if (deps.jobs) published = await publishProductCodes(tx, deps.jobs, customerId, [view.number, view.barcode]);
    return view;
  });
  if (published) deps.jobs?.kick('outbox.deliver');
  return created;
}

/** Apply a change to one product inside the caller's transaction (the edit form, imports and batch changes). */
export async function changeProduct(
  tx: Executor,
  actor: TActor,
  customerId: string,
  id: string,
  patch: TUpdateProduct,
  action = 'update',
): Promise<TProduct> {
  const before = await requireProduct(tx, customerId, id);
  const values = productColumns(patch);
  if (values.category_id === null) values.category_id = (await repo.ensureDefaultCategory(tx, customerId)).id;
  await checkProductReferences(tx, customerId, values, id);
  const type = values.type ?? before.type;
  let components =
    patch.components ?? before.components.map((c) => ({ component_id: c.component_id, quantity: c.quantity }));
  if (type === 'single' && patch.components === undefined) components = [];
  if (patch.components !== undefined || type !== before.type) {
    await checkComponents(tx, customerId, id, components);
    if (type === 'combination' && (await repo.combinationsUsing(tx, id)).length > 0)
      throw new AppError('COMBINATION_INVALID', { field: 'type' });
  }
  const pick = <K extends keyof TProduct>(k: K) => (k in values ? (values as Record<string, unknown>)[k] : before[k]);
  throwFirstIssue({
    type,
    shelf_life_months: pick('shelf_life_months') as number | null,
    sellable_rule_months: pick('sellable_rule_months') as number | null,
    volume_required: pick('volume_required') as boolean,
    length_cm: pick('length_cm') as string | null,
    width_cm: pick('width_cm') as string | null,
    height_cm: pick('height_cm') as string | null,
    component_count: components.length,
  });
  await repo.updateProduct(tx, customerId, id, values).catch((e) => constraintError(e, 'number'));
  if (patch.components !== undefined || type !== before.type)
    await repo.replaceComponents(tx, customerId, id, components);
  const after = await requireProduct(tx, customerId, id);
  await writeAudit(tx, actor, { action, entity: 'product', entityId: id, before, after });
  return after;
}

export async function updateProduct(deps: TCatalogDeps, actor: TActor, id: string, patch: TUpdateProduct) {
  const customerId = tenantOf(actor);
  let published = false;
  const updated = await withTx(deps.db, async (tx) => {
    const after = await changeProduct(tx, actor, customerId, id, patch);
    // A new number or barcode may be the SKU an abnormal Shopee order waits for.
    if (deps.jobs && (patch.number !== undefined || patch.barcode !== undefined))
      published = await publishProductCodes(tx, deps.jobs, customerId, [after.number, after.barcode]);
    return after;
  });
  if (published) deps.jobs?.kick('outbox.deliver');
  return updated;
}

/**
 * Delete products, all or nothing. A product still referenced (a component of a combination, stock, documents)
 * answers IN_USE; deactivate it instead (status inactive).
 */
export async function deleteProducts(deps: TCatalogDeps, actor: TActor, ids: string[]) {
  const customerId = tenantOf(actor);
  const unique = [...new Set(ids)];
  return withTx(deps.db, async (tx) => {
    const found = await repo.findProductsByIds(tx, customerId, unique);
    if (found.length !== unique.length) throw notFound();
    const views = await withComponents(tx, customerId, found);
    await repo.deleteProducts(tx, customerId, unique).catch((e) => constraintError(e));
    for (const before of views)
      await writeAudit(tx, actor, { action: 'delete', entity: 'product', entityId: before.id, before });
    return { deleted: views.length };
  });
}

/**
 * Set whether a product is listed in the seller's online store and at which price, in the caller's transaction (the
 * store's listing screen validates and audits the change).
 */
export async function setProductListing(
  tx: Executor,
  customerId: string,
  id: string,
  values: { online_listing: boolean; selling_price: string | null },
): Promise<void> {
  await repo.updateProductListing(tx, customerId, id, values);
}
