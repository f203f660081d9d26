import {
  IMPORT_REQUIRED_FIELDS,
  type TCreateImportForm,
  type TImportForm,
  type TImportMapping,
  type TInspectResult,
  type TUpdateImportForm,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { decodeUpload, uploadRows } from '../../platform/importing';
import { headerText } from '../../platform/spreadsheet';
import * as formRepo from './outbound.forms.repository';
import { suggestMapping } from './outbound.import';
import * as lookupRepo from './outbound.lookups.repository';

/**
 * Custom upload forms (/deliver-customize-form): a seller's saved layouts of order files (per channel: the header row
 * and which column holds which field), and a sample of a file for the mapping form. The import job reads them.
 */

function toForm(r: NonNullable<Awaited<ReturnType<typeof formRepo.findForm>>>): TImportForm {
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

export async function checkPlatform(ex: Executor, customerId: string, platformId: string | null | undefined) {
  if (platformId && !(await lookupRepo.platformsOf(ex, customerId)).some((p) => p.id === platformId))
    throw new AppError('PLATFORM_ABNORMAL', { field: 'platform_id' });
}

export async function listForms(deps: { db: Db }, actor: TActor) {
  const rows = await formRepo.listForms(deps.db, tenantOf(actor));
  return { count: rows.length, results: rows.map(toForm) };
}

export async function getForm(deps: { db: Db }, actor: TActor, id: string): Promise<TImportForm> {
  const row = await formRepo.findForm(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toForm(row);
}

export async function createForm(deps: { db: Db }, actor: TActor, input: TCreateImportForm): Promise<TImportForm> {
  const customerId = tenantOf(actor);
  const mapping = cleanMapping(input.mapping);
  const id = await withTx(deps.db, async (tx) => {
    await checkPlatform(tx, customerId, input.platform_id);
    const row = await formRepo
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
    const before = await formRepo.findForm(tx, customerId, id);
    if (!before) throw notFound();
    await checkPlatform(tx, customerId, patch.platform_id);
    await formRepo
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
    const before = await formRepo.findForm(tx, customerId, id);
    if (!before || !(await formRepo.deleteForm(tx, customerId, id))) throw notFound();
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
  const content = decodeUpload(input.file_base64);
  const headerRow = input.header_row ?? 1;
  let headers: string[] | null = null;
  const samples: string[][] = [];
  for await (const r of uploadRows(content)) {
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
