/**
 * Use cases of product categories: list, export, get, create, rename, delete (not while products use it).
 */
import {
  DEFAULT_CATEGORY_CODE,
  type TCreateProductCategory,
  type TProductCategory,
  type TUpdateProductCategory,
} from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import * as repo from './catalog.repository';
import type { TCatalogDeps, TPage } from './catalog.service';

function toCategory(r: { category: repo.TCategoryRow; product_count: number }): TProductCategory {
  const c = r.category;
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    is_default: c.code === DEFAULT_CATEGORY_CODE,
    product_count: Number(r.product_count),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export async function listCategories(deps: TCatalogDeps, actor: TActor, q: TPage & { all?: number }) {
  const customerId = tenantOf(actor);
  await repo.ensureDefaultCategory(deps.db, customerId);
  const { rows, count } = await repo.listCategories(deps.db, customerId, q);
  return { count, results: rows.map(toCategory) };
}

export async function exportCategories(deps: TCatalogDeps, actor: TActor, q: TPage) {
  return (await listCategories(deps, actor, { ...q, all: EXPORT_MAX_ROWS })).results;
}

export async function getCategory(deps: TCatalogDeps, actor: TActor, id: string) {
  const row = await repo.findCategory(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toCategory(row);
}

export async function createCategory(deps: TCatalogDeps, actor: TActor, input: TCreateProductCategory) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    await repo.ensureDefaultCategory(tx, customerId);
    const row = await repo.insertCategory(tx, { customer_id: customerId, ...input }).catch((e) => constraintError(e));
    const view = toCategory({ category: row, product_count: 0 });
    await writeAudit(tx, actor, { action: 'create', entity: 'product_category', entityId: row.id, after: view });
    return view;
  });
}

export async function updateCategory(deps: TCatalogDeps, actor: TActor, id: string, patch: TUpdateProductCategory) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findCategory(tx, customerId, id);
    if (!before) throw notFound();
    if (before.category.code === DEFAULT_CATEGORY_CODE && patch.code && patch.code !== DEFAULT_CATEGORY_CODE)
      throw new AppError('DEFAULT_CATEGORY_LOCKED', { field: 'code' });
    await repo.updateCategory(tx, customerId, id, patch).catch((e) => constraintError(e));
    const after = toCategory((await repo.findCategory(tx, customerId, id))!);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'product_category',
      entityId: id,
      before: toCategory(before),
      after,
    });
    return after;
  });
}

export async function deleteCategory(deps: TCatalogDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findCategory(tx, customerId, id);
    if (!before) throw notFound();
    if (before.category.code === DEFAULT_CATEGORY_CODE) throw new AppError('DEFAULT_CATEGORY_LOCKED');
    await repo.deleteCategory(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'product_category',
      entityId: id,
      before: toCategory(before),
    });
  });
  return { ok: true as const };
}
