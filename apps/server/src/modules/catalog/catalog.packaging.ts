/**
 * Use cases of packaging materials: list, export, get, create, update, delete.
 */
import type { TCreatePackagingMaterial, TPackagingMaterial, TUpdatePackagingMaterial } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import * as repo from './catalog.repository';
import type { TCatalogDeps, TPage } from './catalog.service';

function toPackaging(r: repo.TPackagingRow): TPackagingMaterial {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    category: r.category,
    quantity: r.quantity,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export async function listPackaging(deps: TCatalogDeps, actor: TActor, q: TPage & { category?: string; all?: number }) {
  const { rows, count } = await repo.listPackaging(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toPackaging) };
}

export async function exportPackaging(deps: TCatalogDeps, actor: TActor, q: TPage & { category?: string }) {
  return (await listPackaging(deps, actor, { ...q, all: EXPORT_MAX_ROWS })).results;
}

export async function getPackaging(deps: TCatalogDeps, actor: TActor, id: string) {
  const row = await repo.findPackaging(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toPackaging(row);
}

export async function createPackaging(deps: TCatalogDeps, actor: TActor, input: TCreatePackagingMaterial) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const row = await repo
      .insertPackaging(tx, {
        customer_id: customerId,
        code: input.code,
        name: input.name ?? '',
        category: input.category ?? '',
        quantity: input.quantity ?? 0,
      })
      .catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'packaging_material',
      entityId: row.id,
      after: toPackaging(row),
    });
    return toPackaging(row);
  });
}

export async function updatePackaging(deps: TCatalogDeps, actor: TActor, id: string, patch: TUpdatePackagingMaterial) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findPackaging(tx, customerId, id);
    if (!before) throw notFound();
    const row = await repo.updatePackaging(tx, customerId, id, patch).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'packaging_material',
      entityId: id,
      before: toPackaging(before),
      after: toPackaging(row!),
    });
    return toPackaging(row!);
  });
}

export async function deletePackaging(deps: TCatalogDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findPackaging(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deletePackaging(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'packaging_material',
      entityId: id,
      before: toPackaging(before),
    });
  });
  return { ok: true as const };
}
