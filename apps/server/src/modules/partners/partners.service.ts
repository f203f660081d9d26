import {
  maskSecret,
  providerCodeIssue,
  senderIssue,
  type TCreateEcommercePlatform,
  type TCreateLogisticsProvider,
  type TEcommercePlatform,
  type TLogisticsProvider,
  type TUpdateEcommercePlatform,
  type TUpdateLogisticsProvider,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import type { logistics_providers } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import { AppError, notFound } from '../../platform/errors';
import { constraintError, EXPORT_MAX_ROWS } from '../../platform/listing';
import * as repo from './partners.repository';

export interface TPartnersDeps {
  db: Db;
  /** AES-256-GCM key for the carriers' hash key and IV at rest. */
  encryptionKey: Buffer;
}
type TPage = { page: number; page_size: number; search?: string; ordering?: string; all?: number };

/** The API view: secrets only masked (last four characters kept as a hint at write time). */
export function toProvider(r: repo.TProviderRow): TLogisticsProvider {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    merchant_id: r.merchant_id,
    hash_key: maskSecret(r.hash_key_hint, !!r.hash_key_enc),
    hash_iv: maskSecret(r.hash_iv_hint, !!r.hash_iv_enc),
    contract_type: r.contract_type as TLogisticsProvider['contract_type'],
    temperature_code: r.temperature_code as TLogisticsProvider['temperature_code'],
    specification_code: r.specification_code as TLogisticsProvider['specification_code'],
    billing_basis: r.billing_basis as TLogisticsProvider['billing_basis'],
    carrier_type: r.carrier_type as TLogisticsProvider['carrier_type'],
    sender_name: r.sender_name,
    sender_phone: r.sender_phone,
    sender_postcode: r.sender_postcode,
    sender_address: r.sender_address,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** The last 4 characters (code points: an emoji is never cut in half into a lone surrogate). */
const hint = (secret: string) => [...secret].slice(-4).join('');

/** Provider columns from a create/update body; secrets encrypted, '' or null clears one. */
function providerColumns(key: Buffer, input: TUpdateLogisticsProvider) {
  const { hash_key, hash_iv, ...rest } = input;
  const values: Partial<typeof logistics_providers.$inferInsert> = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined),
  );
  if (hash_key !== undefined) {
    values.hash_key_enc = hash_key ? encryptSecret(key, hash_key) : null;
    values.hash_key_hint = hash_key ? hint(hash_key) : '';
  }
  if (hash_iv !== undefined) {
    values.hash_iv_enc = hash_iv ? encryptSecret(key, hash_iv) : null;
    values.hash_iv_hint = hash_iv ? hint(hash_iv) : '';
  }
  return values;
}

function checkCodes(p: { temperature_code?: string | null; specification_code?: string | null }) {
  const field = providerCodeIssue(p);
  if (field) throw new AppError('INVALID_FIELD', { field });
}

type TSender = { sender_name: string; sender_phone: string; sender_postcode: string; sender_address: string };

/**
 * The sender of a carrier API contract, checked when saved against that carrier's rules (`senderIssue`: ECPay's name,
 * phone, postcode and address rules; T-cat's required fields), so a consignment is never refused for it later. A
 * provider without a sender yet is saved (the credentials may come first); its orders are then refused one by one
 * with the fix before the carrier is asked (carriers.service).
 */
function checkSender(carrier: string | null | undefined, s: TSender) {
  const given = s.sender_name || s.sender_phone || s.sender_postcode || s.sender_address;
  if (!carrier || !given) return;
  const issue = senderIssue(carrier, {
    name: s.sender_name,
    phone: s.sender_phone,
    postcode: s.sender_postcode,
    address: s.sender_address,
  });
  if (issue) throw new AppError(issue.code, { field: issue.field, carrier });
}

const senderOf = (
  p: Partial<TSender>,
  before: TSender = { sender_name: '', sender_phone: '', sender_postcode: '', sender_address: '' },
): TSender => ({
  sender_name: p.sender_name ?? before.sender_name,
  sender_phone: p.sender_phone ?? before.sender_phone,
  sender_postcode: p.sender_postcode ?? before.sender_postcode,
  sender_address: p.sender_address ?? before.sender_address,
});

export async function listProviders(deps: TPartnersDeps, actor: TActor, q: TPage & { is_active?: boolean }) {
  const { rows, count } = await repo.listProviders(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toProvider) };
}

export async function exportProviders(deps: TPartnersDeps, actor: TActor, q: TPage & { is_active?: boolean }) {
  return (await listProviders(deps, actor, { ...q, all: EXPORT_MAX_ROWS })).results;
}

export async function getProvider(deps: TPartnersDeps, actor: TActor, id: string) {
  const row = await repo.findProvider(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toProvider(row);
}

export async function createProvider(deps: TPartnersDeps, actor: TActor, input: TCreateLogisticsProvider) {
  const customerId = tenantOf(actor);
  checkCodes(input);
  checkSender(input.carrier_type, senderOf(input));
  return withTx(deps.db, async (tx) => {
    const row = await repo
      .insertProvider(tx, {
        ...providerColumns(deps.encryptionKey, input),
        customer_id: customerId,
        code: input.code,
        name: input.name,
      })
      .catch((e) => constraintError(e));
    const view = toProvider(row);
    await writeAudit(tx, actor, { action: 'create', entity: 'logistics_provider', entityId: row.id, after: view });
    return view;
  });
}

export async function updateProvider(deps: TPartnersDeps, actor: TActor, id: string, patch: TUpdateLogisticsProvider) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findProvider(tx, customerId, id);
    if (!before) throw notFound();
    checkCodes({
      temperature_code: patch.temperature_code !== undefined ? patch.temperature_code : before.temperature_code,
      specification_code: patch.specification_code !== undefined ? patch.specification_code : before.specification_code,
    });
    checkSender(patch.carrier_type !== undefined ? patch.carrier_type : before.carrier_type, senderOf(patch, before));
    const row = await repo
      .updateProvider(tx, customerId, id, providerColumns(deps.encryptionKey, patch))
      .catch((e) => constraintError(e));
    const after = toProvider(row!);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'logistics_provider',
      entityId: id,
      before: toProvider(before),
      after: { ...after, secrets_changed: patch.hash_key !== undefined || patch.hash_iv !== undefined },
    });
    return after;
  });
}

export async function deleteProvider(deps: TPartnersDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findProvider(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deleteProvider(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'logistics_provider',
      entityId: id,
      before: toProvider(before),
    });
  });
  return { ok: true as const };
}

/**
 * The clear merchant id, hash key and IV of a provider, for the carrier clients (integrations). Never return this
 * from an HTTP route.
 */
export async function providerCredentials(tx: Executor, key: Buffer, customerId: string, id: string) {
  const row = await repo.findProvider(tx, customerId, id);
  if (!row) throw notFound();
  return {
    merchantId: row.merchant_id,
    hashKey: row.hash_key_enc ? decryptSecret(key, row.hash_key_enc) : null,
    hashIv: row.hash_iv_enc ? decryptSecret(key, row.hash_iv_enc) : null,
  };
}

// ---- e-commerce platforms ----
function toPlatform(r: repo.TPlatformRow): TEcommercePlatform {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    store_number: r.store_number,
    url: r.url,
    callback_enabled: r.callback_enabled,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export async function listPlatforms(deps: TPartnersDeps, actor: TActor, q: TPage & { callback_enabled?: boolean }) {
  const { rows, count } = await repo.listPlatforms(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toPlatform) };
}

export async function exportPlatforms(deps: TPartnersDeps, actor: TActor, q: TPage & { callback_enabled?: boolean }) {
  return (await listPlatforms(deps, actor, { ...q, all: EXPORT_MAX_ROWS })).results;
}

export async function getPlatform(deps: TPartnersDeps, actor: TActor, id: string) {
  const row = await repo.findPlatform(deps.db, tenantOf(actor), id);
  if (!row) throw notFound();
  return toPlatform(row);
}

export async function createPlatform(deps: TPartnersDeps, actor: TActor, input: TCreateEcommercePlatform) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const row = await repo
      .insertPlatform(tx, {
        customer_id: customerId,
        code: input.code,
        name: input.name,
        store_number: input.store_number ?? '',
        url: input.url ?? '',
        callback_enabled: input.callback_enabled ?? false,
      })
      .catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'ecommerce_platform',
      entityId: row.id,
      after: toPlatform(row),
    });
    return toPlatform(row);
  });
}

export async function updatePlatform(deps: TPartnersDeps, actor: TActor, id: string, patch: TUpdateEcommercePlatform) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findPlatform(tx, customerId, id);
    if (!before) throw notFound();
    const row = await repo.updatePlatform(tx, customerId, id, patch).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'ecommerce_platform',
      entityId: id,
      before: toPlatform(before),
      after: toPlatform(row!),
    });
    return toPlatform(row!);
  });
}

export async function deletePlatform(deps: TPartnersDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findPlatform(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deletePlatform(tx, customerId, id).catch((e) => constraintError(e));
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'ecommerce_platform',
      entityId: id,
      before: toPlatform(before),
    });
  });
  return { ok: true as const };
}
