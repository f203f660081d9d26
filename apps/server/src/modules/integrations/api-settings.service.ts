/**
 * Use cases of the seller's API settings: list, get, create, update, delete, enable (a new API key, shown once),
 * disable, test a connection, and authenticating a partner's API key. Callback deliveries are in
 * callback-deliveries.ts.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type {
  TApiKeyIssued,
  TApiScope,
  TApiSetting,
  TApiSettingKind,
  TCallbackEvent,
  TCreateApiSetting,
  TUpdateApiSetting,
} from '@wms/contracts';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { decryptSecret, encryptSecret, sha256Hex } from '../../platform/crypto';
import type { TAppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { isPrivateAddress, MASK } from '../../platform/outgoing-http';
import * as repo from './api-settings.repository';
import { connectionToken } from './callbacks';

/**
 * API settings (/module-api-setup, /gd-api-setup, /gd-api-callback): a seller's partner keys and callback settings,
 * and its outgoing connections. Keys are random, shown once, kept as SHA-256; every other secret is AES-GCM
 * encrypted and shown masked (its last four characters).
 */

export type TDeps = Pick<TAppDeps, 'database' | 'config' | 'jobs' | 'http' | 'providers' | 'rateLimits'>;

/** `wms_` + 40 base62-ish characters (240 bits): recognisable in logs and secret scanners, never a JWT. */
export const API_KEY_PREFIX = 'wms_';
function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(30).toString('base64url');
}

const masked = (hint: string | undefined, set: boolean) => (set ? `${MASK}${hint ?? ''}` : null);

function view(row: repo.TApiSettingRow, connections: repo.TApiSettingRow[]): TApiSetting {
  const hints = row.secret_hints ?? {};
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as TApiSettingKind,
    enabled: row.enabled,
    key_prefix: row.key_prefix,
    key_issued_at: row.key_issued_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    rate_limit_per_minute: row.rate_limit_per_minute,
    scope: row.scope as TApiScope,
    callback_url: row.callback_url,
    http_headers: Object.fromEntries(row.http_header_names.map((h) => [h, `${MASK}${hints[`header:${h}`] ?? ''}`])),
    order_callback_enabled: row.order_callback_enabled,
    callback_events: row.callback_events as TCallbackEvent[],
    connection_id: row.connection_id,
    connection_name: connections.find((c) => c.id === row.connection_id)?.name ?? null,
    base_url: row.base_url,
    token_url: row.token_url,
    user_name: row.user_name,
    password: masked(hints.password, !!row.password_enc),
    access_token: masked(hints.access_token, !!row.access_token_enc),
    refresh_token: masked(hints.refresh_token, !!row.refresh_token_enc),
    signing_secret: masked(hints.signing_secret, !!row.signing_secret_enc),
    token_expires_at: row.token_expires_at?.toISOString() ?? null,
    last_test_at: row.last_test_at?.toISOString() ?? null,
    last_test_ok: row.last_test_ok,
    last_test_message: row.last_test_message,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The columns a create/update writes: secrets encrypted with their hints, headers as encrypted JSON. */
function columnsOf(
  deps: TDeps,
  input: TUpdateApiSetting,
  before?: repo.TApiSettingRow,
): Partial<repo.TApiSettingInsert> {
  const key = deps.config.encryptionKey;
  const out: Partial<repo.TApiSettingInsert> = {};
  const hints: Record<string, string> = { ...(before?.secret_hints ?? {}) };
  for (const f of ['name', 'callback_url', 'order_callback_enabled', 'callback_events', 'connection_id'] as const)
    if (input[f] !== undefined) (out as Record<string, unknown>)[f] = input[f];
  for (const f of ['rate_limit_per_minute', 'scope', 'base_url', 'token_url', 'user_name'] as const)
    if (input[f] !== undefined) (out as Record<string, unknown>)[f] = input[f];
  const secrets = { password: 'password_enc', access_token: 'access_token_enc', refresh_token: 'refresh_token_enc' };
  for (const [f, col] of Object.entries(secrets) as Array<[keyof typeof secrets, string]>) {
    const value = input[f];
    if (value === undefined) continue;
    (out as Record<string, unknown>)[col] = value ? encryptSecret(key, value) : null;
    if (value) hints[f] = value.slice(-4);
    else delete hints[f];
    if (f === 'access_token') out.token_expires_at = null;
  }
  if (input.http_headers !== undefined) {
    const names = Object.keys(input.http_headers);
    for (const k of Object.keys(hints)) if (k.startsWith('header:')) delete hints[k];
    for (const n of names) hints[`header:${n}`] = [...(input.http_headers[n] ?? '')].slice(-4).join('');
    out.http_header_names = names;
    out.http_headers_enc = names.length ? encryptSecret(key, JSON.stringify(input.http_headers)) : null;
  }
  out.secret_hints = hints;
  return out;
}

/**
 * A URL a seller types must not point inside the operator's network (checked again at each call, after DNS): a
 * literal private/loopback address or `localhost` is refused when saved, unless the operator allows private targets.
 */
function checkUrls(deps: TDeps, input: TUpdateApiSetting): void {
  if (deps.config.outgoingAllowPrivate) return;
  for (const field of ['callback_url', 'base_url', 'token_url'] as const) {
    const value = input[field];
    if (!value) continue;
    const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host)))
      throw new AppError('TARGET_NOT_ALLOWED', { field });
  }
}

async function checkConnection(deps: TDeps, customerId: string, connectionId: string | null | undefined) {
  if (!connectionId) return;
  const c = await repo.findSetting(deps.database.db, customerId, connectionId);
  if (c?.kind !== 'connection') throw new AppError('INVALID_FIELD', { field: 'connection_id' });
}

const duplicateName = (err: unknown): never => {
  if (sqlState(err) === '23505') throw new AppError('DUPLICATE_VALUE', { field: 'name' });
  throw err;
};

async function viewOf(deps: TDeps, customerId: string, row: repo.TApiSettingRow): Promise<TApiSetting> {
  const connections = row.connection_id ? await repo.listSettings(deps.database.db, customerId, 'connection') : [];
  return view(row, connections);
}

export async function requireSetting(deps: TDeps, customerId: string, id: string) {
  const row = await repo.findSetting(deps.database.db, customerId, id);
  if (!row) throw notFound();
  return row;
}

export async function listSettings(deps: TDeps, actor: TActor, kind?: TApiSettingKind): Promise<TApiSetting[]> {
  const customerId = tenantOf(actor);
  const rows = await repo.listSettings(deps.database.db, customerId, kind);
  const connections =
    kind === 'connection' ? rows : await repo.listSettings(deps.database.db, customerId, 'connection');
  return rows.map((r) => view(r, connections));
}

export async function getSetting(deps: TDeps, actor: TActor, id: string): Promise<TApiSetting> {
  const customerId = tenantOf(actor);
  return viewOf(deps, customerId, await requireSetting(deps, customerId, id));
}

export async function createSetting(deps: TDeps, actor: TActor, input: TCreateApiSetting): Promise<TApiSetting> {
  const customerId = tenantOf(actor);
  checkUrls(deps, input);
  await checkConnection(deps, customerId, input.connection_id);
  const row = await withTx(deps.database.db, async (tx) => {
    const created = await repo
      .insertSetting(tx, {
        customer_id: customerId,
        kind: input.kind,
        name: input.name,
        created_by: actor.id,
        ...columnsOf(deps, input),
      } as repo.TApiSettingInsert)
      .catch(duplicateName);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'api_setting',
      entityId: created.id,
      after: { name: created.name, kind: created.kind, callback_url: created.callback_url },
    });
    return created;
  });
  return viewOf(deps, customerId, row);
}

export async function updateSetting(
  deps: TDeps,
  actor: TActor,
  id: string,
  input: TUpdateApiSetting,
): Promise<TApiSetting> {
  const customerId = tenantOf(actor);
  if (input.connection_id === id) throw new AppError('INVALID_FIELD', { field: 'connection_id' });
  checkUrls(deps, input);
  await checkConnection(deps, customerId, input.connection_id);
  const row = await withTx(deps.database.db, async (tx) => {
    const before = await repo.lockSetting(tx, customerId, id);
    if (!before) throw notFound();
    const after = await repo.updateSetting(tx, customerId, id, columnsOf(deps, input, before)).catch(duplicateName);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'api_setting',
      entityId: id,
      before: { name: before.name, callback_url: before.callback_url, enabled: before.enabled },
      // Secrets are never written to the audit trail: only which fields changed.
      after: { fields: Object.keys(input) },
    });
    return after;
  });
  return viewOf(deps, customerId, row);
}

export async function deleteSetting(deps: TDeps, actor: TActor, id: string): Promise<{ ok: true }> {
  const customerId = tenantOf(actor);
  await withTx(deps.database.db, async (tx) => {
    const before = await repo.lockSetting(tx, customerId, id);
    if (!before) throw notFound();
    await repo.deleteSetting(tx, customerId, id);
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'api_setting',
      entityId: id,
      before: { name: before.name },
    });
  });
  return { ok: true };
}

/** Enable: a new key and signing secret, answered in clear this once. Enabled already → 409 (disable first). */
export async function enableSetting(deps: TDeps, actor: TActor, id: string): Promise<TApiKeyIssued> {
  const customerId = tenantOf(actor);
  const apiKey = newApiKey();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = await withTx(deps.database.db, async (tx) => {
    const before = await repo.lockSetting(tx, customerId, id);
    if (!before) throw notFound();
    if (before.kind !== 'partner') throw new AppError('API_SETTING_KIND', { kind: before.kind });
    if (before.enabled) throw new AppError('API_ALREADY_ENABLED');
    const after = await repo.updateSetting(tx, customerId, id, {
      enabled: true,
      key_hash: sha256Hex(apiKey),
      key_prefix: apiKey.slice(0, 10),
      key_issued_at: new Date(),
      last_used_at: null,
      signing_secret_enc: encryptSecret(deps.config.encryptionKey, secret),
      secret_hints: { ...before.secret_hints, signing_secret: secret.slice(-4) },
    });
    await writeAudit(tx, actor, {
      action: 'enable',
      entity: 'api_setting',
      entityId: id,
      after: { key_prefix: after.key_prefix },
    });
    return after;
  });
  return { setting: await viewOf(deps, customerId, row), api_key: apiKey, signing_secret: secret };
}

/** Disable: the key stops working with the next request (its hash is gone). */
export async function disableSetting(deps: TDeps, actor: TActor, id: string): Promise<TApiSetting> {
  const customerId = tenantOf(actor);
  const row = await withTx(deps.database.db, async (tx) => {
    const before = await repo.lockSetting(tx, customerId, id);
    if (!before) throw notFound();
    if (before.kind !== 'partner') throw new AppError('API_SETTING_KIND', { kind: before.kind });
    const after = await repo.updateSetting(tx, customerId, id, { enabled: false, key_hash: null });
    await writeAudit(tx, actor, {
      action: 'disable',
      entity: 'api_setting',
      entityId: id,
      before: { key_prefix: before.key_prefix },
    });
    return after;
  });
  return viewOf(deps, customerId, row);
}

/**
 * Why a connection test failed, as a code the screen translates (`kind` or `kind:detail`), never a raw system message:
 * `dns:<host>` (the name does not resolve), `refused:<host>`, `timeout`, `tls`, `reset`, `blocked:<host>` (an
 * internal address), `token_refused:<status>`, `invalid_url`, else `network`.
 */
export function connectionFailure(err: unknown, url: string): string {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // a URL that does not parse is reported as invalid_url below
  }
  if (err instanceof AppError) {
    if (err.code === 'PROVIDER_REFUSED') return `token_refused:${String(err.params.status ?? '')}`;
    if (err.code === 'TARGET_NOT_ALLOWED') return `blocked:${String(err.params.host ?? host)}`;
    if (err.code === 'INVALID_FIELD') return 'invalid_url';
    return 'network';
  }
  const e = err as { code?: string; message?: string; cause?: { code?: string } } | null;
  const code = e?.code ?? e?.cause?.code ?? '';
  const text = e?.message ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return `dns:${host}`;
  if (code === 'ECONNREFUSED') return `refused:${host}`;
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || text.startsWith('timeout after')) return 'timeout';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (/CERT|SSL|TLS/i.test(code) || /certificate|ssl|tls/i.test(text)) return 'tls';
  return 'network';
}

/** Try a connection: a token from its token URL, else a GET of its base URL; the result is kept on the setting. */
export async function testConnection(deps: TDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  const setting = await requireSetting(deps, customerId, id);
  if (setting.kind !== 'connection') throw new AppError('API_SETTING_KIND', { kind: setting.kind });
  if (!setting.token_url && !setting.base_url) throw new AppError('REQUIRED_FIELD', { field: 'base_url' });
  const services = { http: deps.http, config: deps.config };
  let ok = false;
  let message = '';
  try {
    if (setting.token_url) {
      await connectionToken(deps.database.db, services, setting, { force: true });
      ok = true;
      message = 'token';
    }
    if (setting.base_url) {
      const fresh = (await repo.findSetting(deps.database.db, customerId, id))!;
      const token = await connectionToken(deps.database.db, services, fresh);
      const password = fresh.password_enc ? decryptSecret(deps.config.encryptionKey, fresh.password_enc) : '';
      const headers: Record<string, string> = token
        ? { authorization: `Bearer ${token}` }
        : fresh.user_name
          ? { authorization: `Basic ${Buffer.from(`${fresh.user_name}:${password}`).toString('base64')}` }
          : {};
      const res = await deps.http.send(
        { method: 'GET', url: fresh.base_url!, userUrl: true, headers, timeoutMs: 15_000, secrets: [password] },
        { customerId, provider: 'connection', operation: 'test', reference: id },
      );
      ok = res.status >= 200 && res.status < 300;
      message = `HTTP ${res.status}`;
    }
  } catch (err) {
    ok = false;
    message = connectionFailure(err, setting.token_url ?? setting.base_url ?? '');
  }
  const after = await repo.updateSetting(deps.database.db, customerId, id, {
    last_test_at: new Date(),
    last_test_ok: ok,
    last_test_message: message.slice(0, 500),
  });
  return { ok, message, setting: await viewOf(deps, customerId, after) };
}

/** Who a partner API key belongs to; spends one point of the key's per-minute limit (429 beyond). */
export async function authenticateApiKey(deps: TDeps, key: string): Promise<TActor | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
  const setting = await repo.settingByKeyHash(deps.database.db, sha256Hex(key));
  if (!setting) return null;
  await deps.rateLimits.consume('apikey', setting.id, { points: setting.rate_limit_per_minute, durationSeconds: 60 });
  await repo.touchKey(deps.database.db, setting.id);
  return { kind: 'api', id: setting.id, customerId: setting.customer_id, scope: setting.scope as TApiScope };
}
