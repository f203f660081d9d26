import { randomBytes } from 'node:crypto';
import {
  DEFAULT_LANGUAGE,
  type TCreateStoreMember,
  type TDirectPurchase,
  type TErrorCode,
  type TLanguage,
  type TOrderStatus,
  type TSaveStore,
  type TStore,
  type TStoreCatalog,
  type TStoreMember,
  type TStoreMemberQuery,
  type TStoreOrder,
  type TStoreOrderQuery,
  type TStoreProduct,
  type TStoreProductQuery,
  type TUpdateMemberProfile,
  type TUpdateStoreMember,
  trackingUrlOf,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { generatePassword, hashPassword, verifyPassword } from '../../platform/crypto';
import { AppError, notFound } from '../../platform/errors';
import { checkedImageDataUrl } from '../../platform/images';
import type { JobQueue } from '../../platform/jobs';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import * as authRepo from '../auth';
import { memberProfileOf } from '../auth';
import { setProductListing } from '../catalog';
import { createOrdersFromRows, loadOrderLookups, type TOrderIntakeRow } from '../outbound';
import * as repo from './store.repository';

/**
 * The online store: the seller's store and listed products (/store-admin), its members (/store-member), the member
 * portal (/store/…) and direct purchase. An order placed here is an ordinary pending outbound order of channel
 * `store`, created through the shared order-creation function (the importer's and the partner API's rules); a
 * `store_orders` row ties it to the store and the member who placed it.
 */

export interface TStoreDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
}

/** Listed products a catalog shows at most (a members' shop, not a marketplace). */
const CATALOG_MAX = 500;

function toStore(r: repo.TStoreRow): TStore {
  return {
    id: r.id,
    name: r.name,
    short_url: r.short_url,
    description: r.description,
    logo: r.logo,
    is_open: r.is_open,
    updated_at: r.updated_at.toISOString(),
  };
}

function toMember(r: repo.TMemberRow): TStoreMember {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    postcode: r.postcode,
    address: r.address,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
  };
}

/** A money column (numeric, up to 4 decimals) as a 2-decimal string; null stays null. */
function money2(v: string | null): string | null {
  if (v === null) return null;
  return centsText(toCents(v));
}

function toCents(v: string): bigint {
  const [int = '0', frac = ''] = v.split('.');
  const ten4 = BigInt(int) * 10000n + BigInt(`${frac}0000`.slice(0, 4));
  return (ten4 + 50n) / 100n; // half up (prices are never negative)
}

function centsText(c: bigint): string {
  const s = c.toString().padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

async function requireStore(deps: TStoreDeps, customerId: string): Promise<repo.TStoreRow> {
  const store = await repo.storeOf(deps.db, customerId);
  if (!store) throw new AppError('STORE_NOT_CREATED');
  return store;
}

// ---- /store-admin --------------------------------------------------------------------------------------------------

export async function getStoreAdmin(deps: TStoreDeps, actor: TActor) {
  const store = await repo.storeOf(deps.db, tenantOf(actor));
  return { store: store ? toStore(store) : null };
}

export async function checkShortUrl(deps: TStoreDeps, actor: TActor, shortUrl: string) {
  const value = shortUrl.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/.test(value)) return { valid: false, available: false };
  return { valid: true, available: !(await repo.shortUrlTaken(deps.db, value, tenantOf(actor))) };
}

/** Create the seller's store, or change it. A short URL another store has is refused (DUPLICATE_VALUE short_url). */
export async function saveStore(deps: TStoreDeps, actor: TActor, input: TSaveStore): Promise<TStore> {
  const customerId = tenantOf(actor);
  try {
    return await withTx(deps.db, async (tx) => {
      if (await repo.shortUrlTaken(tx, input.short_url, customerId))
        throw new AppError('DUPLICATE_VALUE', { field: 'short_url' });
      const before = await repo.storeOf(tx, customerId);
      const values = {
        name: input.name,
        short_url: input.short_url,
        description: input.description ?? before?.description ?? '',
        // The logo's bytes must be the image it claims to be (shown on the member login page and the portal).
        logo: input.logo ? checkedImageDataUrl(input.logo, 'logo') : (input.logo ?? before?.logo ?? ''),
        is_open: input.is_open ?? before?.is_open ?? false,
      };
      const row = before
        ? await repo.updateStore(tx, before.id, values)
        : await repo.insertStore(tx, { ...values, customer_id: customerId });
      const { logo: _l, ...after } = toStore(row);
      await writeAudit(tx, actor, {
        action: before ? 'update' : 'create',
        entity: 'store',
        entityId: row.id,
        before: before ? { ...toStore(before), logo: undefined } : undefined,
        after,
      });
      return toStore(row);
    });
  } catch (err) {
    if (sqlState(err) === '23505') throw new AppError('DUPLICATE_VALUE', { field: 'short_url' });
    throw err;
  }
}

function totalOf(byWarehouse: Map<string, number> | undefined): number {
  let n = 0;
  for (const v of byWarehouse?.values() ?? []) n += v;
  return n;
}

function toStoreProduct(p: repo.TProductRow, available: number): TStoreProduct {
  return {
    id: p.id,
    number: p.number,
    name: p.name,
    barcode: p.barcode,
    unit: p.unit || null,
    selling_price: money2(p.selling_price),
    online_listing: p.online_listing,
    orderable: p.status === 'active' && p.allow_shipping,
    available,
  };
}

export async function listStoreProducts(deps: TStoreDeps, actor: TActor, q: TStoreProductQuery) {
  const customerId = tenantOf(actor);
  const { count, rows } = await repo.listProducts(deps.db, customerId, q);
  const stock = await repo.availability(
    deps.db,
    customerId,
    rows.map((r) => r.id),
    taipeiToday(),
  );
  return { count, results: rows.map((p) => toStoreProduct(p, totalOf(stock.get(p.id)))) };
}

/** List or unlist a product and set its selling price (the product's own fields). */
export async function updateStoreProduct(
  deps: TStoreDeps,
  actor: TActor,
  id: string,
  input: { online_listing: boolean; selling_price: string | null },
): Promise<TStoreProduct> {
  const customerId = tenantOf(actor);
  if (input.online_listing && input.selling_price === null)
    throw new AppError('REQUIRED_FIELD', { field: 'selling_price' });
  if (input.selling_price?.startsWith('-')) throw new AppError('INVALID_FIELD', { field: 'selling_price' });
  const row = await withTx(deps.db, async (tx) => {
    const before = await repo.productOf(tx, customerId, id);
    if (!before) throw notFound();
    await setProductListing(tx, customerId, id, input);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'product',
      entityId: id,
      before: { online_listing: before.online_listing, selling_price: before.selling_price },
      after: input,
    });
    return (await repo.productOf(tx, customerId, id))!;
  });
  const stock = await repo.availability(deps.db, customerId, [id], taipeiToday());
  return toStoreProduct(row, totalOf(stock.get(id)));
}

async function ordersPage(
  deps: TStoreDeps,
  scope: { customerId: string; storeId: string; memberId?: string },
  q: TStoreOrderQuery,
) {
  const { count, rows, lines } = await repo.listOrders(deps.db, scope, q);
  const results: TStoreOrder[] = rows.map((r) => ({
    id: r.id,
    number: r.number,
    created_at: r.created_at.toISOString(),
    status: r.status as TOrderStatus,
    consignment_number: r.consignment_number,
    tracking_url: trackingUrlOf(
      r.provider_code ? { code: r.provider_code, name: r.provider_name ?? '' } : null,
      r.consignment_number,
    ),
    logistics_provider: r.provider_name,
    recipient_name: r.recipient_name,
    recipient_address: r.recipient_address,
    total_amount: money2(r.total_amount),
    cod: r.cod,
    member_name: r.member_name,
    member_email: r.member_email,
    lines: lines
      .filter((l) => l.order_id === r.id)
      .map((l) => ({
        product_number: l.product_number,
        product_name: l.product_name,
        quantity: l.quantity,
        unit_price: money2(l.unit_price),
      })),
  }));
  return { count, results };
}

export async function listStoreOrders(deps: TStoreDeps, actor: TActor, q: TStoreOrderQuery) {
  const customerId = tenantOf(actor);
  const store = await repo.storeOf(deps.db, customerId);
  if (!store) return { count: 0, results: [] };
  return ordersPage(deps, { customerId, storeId: store.id }, q);
}

// ---- /store-member -------------------------------------------------------------------------------------------------

export async function listMembers(deps: TStoreDeps, actor: TActor, q: TStoreMemberQuery) {
  const { count, rows } = await repo.listMembers(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toMember) };
}

export async function exportMembers(deps: TStoreDeps, actor: TActor, q: TStoreMemberQuery) {
  return (await repo.listMembers(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS })).rows.map(toMember);
}

/** Queue the member's login mail (the store's login link, the corporation to type, the password) in `tx`. */
async function queueMemberMail(
  deps: TStoreDeps,
  tx: Parameters<typeof queueMail>[1],
  store: repo.TStoreRow,
  member: { name: string; email: string },
  password: string,
  lang: TLanguage,
): Promise<void> {
  const mail = renderMail('store_member', lang, {
    name: member.name,
    store: store.name,
    corp: store.short_url,
    email: member.email,
    password,
    link: `${deps.config.publicUrl}/store/login/${store.short_url}`,
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: member.email, ...mail });
}

/** Create a member of the seller's store and mail them the login link and a password (theirs or a generated one). */
export async function createMember(
  deps: TStoreDeps,
  actor: TActor,
  input: TCreateStoreMember,
  lang: TLanguage = DEFAULT_LANGUAGE,
): Promise<TStoreMember> {
  const customerId = tenantOf(actor);
  const store = await requireStore(deps, customerId);
  const password = input.password ?? generatePassword();
  const hash = await hashPassword(password);
  const email = input.email.trim().toLowerCase();
  let row: repo.TMemberRow;
  try {
    row = await withTx(deps.db, async (tx) => {
      const created = await repo.insertMember(tx, {
        customer_id: customerId,
        store_id: store.id,
        email,
        name: input.name,
        phone: input.phone ?? '',
        postcode: input.postcode ?? '',
        address: input.address ?? '',
        is_active: input.is_active ?? true,
        password_hash: hash,
      });
      await writeAudit(tx, actor, {
        action: 'create',
        entity: 'store_member',
        entityId: created.id,
        after: toMember(created),
      });
      await queueMemberMail(deps, tx, store, created, password, lang);
      return created;
    });
  } catch (err) {
    if (sqlState(err) === '23505') throw new AppError('DUPLICATE_VALUE', { field: 'email' });
    throw err;
  }
  deps.jobs.kick(mailDelivery.name);
  return toMember(row);
}

/** Change a member; deactivating one revokes their sessions at once (refresh tokens, and every member call checks). */
export async function updateMember(
  deps: TStoreDeps,
  actor: TActor,
  id: string,
  input: TUpdateStoreMember,
): Promise<TStoreMember> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.memberOf(tx, customerId, id);
    if (!before) throw notFound();
    const row = await repo.updateMember(tx, id, input);
    if (before.is_active && !input.is_active) await authRepo.revokeAllForSubject(tx, 'member', id);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'store_member',
      entityId: id,
      before: toMember(before),
      after: toMember(row),
    });
    return toMember(row);
  });
}

/** A new generated password, mailed to the member; their sessions end. */
export async function resetMemberPassword(
  deps: TStoreDeps,
  actor: TActor,
  id: string,
  lang: TLanguage = DEFAULT_LANGUAGE,
) {
  const customerId = tenantOf(actor);
  const password = generatePassword();
  const hash = await hashPassword(password);
  await withTx(deps.db, async (tx) => {
    const member = await repo.memberOf(tx, customerId, id);
    if (!member) throw notFound();
    const store = await repo.storeById(tx, member.store_id);
    if (!store) throw notFound();
    await repo.updateMember(tx, id, { password_hash: hash, password_changed_at: new Date() });
    await authRepo.revokeAllForSubject(tx, 'member', id);
    await writeAudit(tx, actor, { action: 'reset_password', entity: 'store_member', entityId: id });
    await queueMemberMail(deps, tx, store, member, password, lang);
  });
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}

// ---- the member portal ---------------------------------------------------------------------------------------------

type TMemberActor = Extract<TActor, { kind: 'member' }>;

/** The calling member, still active, and their store: a deactivated member's access token stops working at once. */
async function activeMember(deps: TStoreDeps, actor: TMemberActor) {
  const member = await repo.memberById(deps.db, actor.id);
  if (!member?.is_active || member.store_id !== actor.storeId || member.customer_id !== actor.customerId)
    throw new AppError('TOKEN_INVALID');
  const store = await repo.storeById(deps.db, member.store_id);
  if (!store) throw new AppError('TOKEN_INVALID');
  return { member, store };
}

export async function updateMemberProfile(deps: TStoreDeps, actor: TMemberActor, input: TUpdateMemberProfile) {
  const { member } = await activeMember(deps, actor);
  const row = await withTx(deps.db, async (tx) => {
    const updated = await repo.updateMember(tx, member.id, input);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'store_member',
      entityId: member.id,
      before: toMember(member),
      after: toMember(updated),
    });
    return updated;
  });
  return memberProfileOf(deps, row);
}

/** The member's own password: the current one is checked; every session ends ("Change successful, please log in again"). */
export async function changeMemberPassword(
  deps: TStoreDeps,
  actor: TMemberActor,
  input: { old_password: string; new_password: string },
) {
  const { member } = await activeMember(deps, actor);
  if (!(await verifyPassword(input.old_password, member.password_hash)))
    throw new AppError('WRONG_PASSWORD', { field: 'old_password' });
  const hash = await hashPassword(input.new_password);
  await withTx(deps.db, async (tx) => {
    await repo.updateMember(tx, member.id, { password_hash: hash, password_changed_at: new Date() });
    await authRepo.revokeAllForSubject(tx, 'member', member.id);
    await writeAudit(tx, actor, { action: 'change_password', entity: 'store_member', entityId: member.id });
  });
  return { ok: true as const };
}

async function catalogOf(deps: TStoreDeps, store: repo.TStoreRow): Promise<TStoreCatalog> {
  const products = await repo.listedProducts(deps.db, store.customer_id, CATALOG_MAX);
  const stock = await repo.availability(
    deps.db,
    store.customer_id,
    products.map((p) => p.id),
    taipeiToday(),
  );
  return {
    store: {
      name: store.name,
      short_url: store.short_url,
      description: store.description,
      logo: store.logo,
      is_open: store.is_open,
    },
    products: products.map((p) => ({
      id: p.id,
      number: p.number,
      name: p.name,
      unit: p.unit || null,
      selling_price: money2(p.selling_price),
      available: totalOf(stock.get(p.id)),
    })),
    providers: await repo.activeProviders(deps.db, store.customer_id),
  };
}

/** A member's catalogue: a closed store shows itself (name, logo, closed) but none of its products, prices or stock. */
export async function memberCatalog(deps: TStoreDeps, actor: TMemberActor): Promise<TStoreCatalog> {
  const { store } = await activeMember(deps, actor);
  if (!store.is_open) {
    const { name, short_url, description, logo, is_open } = store;
    return { store: { name, short_url, description, logo, is_open }, products: [], providers: [] };
  }
  return catalogOf(deps, store);
}

export async function sellerCatalog(deps: TStoreDeps, actor: TActor) {
  return catalogOf(deps, await requireStore(deps, tenantOf(actor)));
}

export async function listMemberOrders(deps: TStoreDeps, actor: TMemberActor, q: TStoreOrderQuery) {
  const { member, store } = await activeMember(deps, actor);
  return ordersPage(deps, { customerId: store.customer_id, storeId: store.id, memberId: member.id }, q);
}

/** A platform order number of the store's own: the short URL, the day and a random part. */
function storeOrderKey(store: repo.TStoreRow): string {
  const day = taipeiToday().replaceAll('-', '');
  return `${store.short_url.toUpperCase().slice(0, 30)}-${day}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * Direct purchase: listed products at their selling price → one pending outbound order of channel `store`, through
 * the shared order-creation function (the order's checks are the importer's). Stock is shown, not held: allocation
 * decides what ships, so nothing is oversold. The warehouse is the one that can serve most of the cart.
 */
async function purchase(
  deps: TStoreDeps,
  actor: TActor,
  store: repo.TStoreRow,
  memberId: string | null,
  input: TDirectPurchase,
) {
  const customerId = store.customer_id;
  const ids = [...new Set(input.lines.map((l) => l.product_id))];
  if (ids.length !== input.lines.length) throw new AppError('DUPLICATE_VALUE', { field: 'product_id' });
  const listed = new Map((await repo.listedProducts(deps.db, customerId, CATALOG_MAX)).map((p) => [p.id, p]));
  for (const id of ids) if (!listed.has(id)) throw new AppError('PRODUCT_ABNORMAL', { field: 'lines' });
  const provider = (await repo.activeProviders(deps.db, customerId)).find((p) => p.id === input.logistics_provider_id);
  if (!provider) throw new AppError('PATHWAY_ABNORMAL', { field: 'logistics_provider_id' });

  let total = 0n;
  const lines = input.lines.map((l) => {
    const p = listed.get(l.product_id)!;
    const price = money2(p.selling_price)!;
    total += toCents(price) * BigInt(l.quantity);
    return { product: p, quantity: l.quantity, price };
  });
  const totalText = centsText(total);

  // The warehouse that can serve most units of the cart (ties: the first by code).
  const stock = await repo.availability(deps.db, customerId, ids, taipeiToday());
  const served = new Map<string, number>();
  for (const l of lines)
    for (const [code, available] of stock.get(l.product.id) ?? [])
      served.set(code, (served.get(code) ?? 0) + Math.min(available, l.quantity));
  const warehouse = [...served.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;

  const key = storeOrderKey(store);
  const rows: TOrderIntakeRow[] = lines.map((l, i) => ({
    row: i + 1,
    key,
    ...(i === 0
      ? {
          order: {
            platform_order_number: key,
            third_party_number: '',
            consignment_number: null,
            shipping_date: null,
            category: null,
            channel: 'store' as const,
            is_cross_border: false,
            recipient_name: input.recipient_name,
            recipient_phone: input.recipient_phone,
            recipient_mobile: '',
            recipient_postcode: input.recipient_postcode,
            recipient_address: input.recipient_address,
            sender_name: store.name.slice(0, 100),
            sender_phone: '',
            sender_postcode: '',
            sender_address: '',
            shipping_remark: input.shipping_remark ?? '',
            arrival_date: null,
            arrival_time_slot: null,
            cod: input.cod ?? false,
            cod_amount: input.cod ? totalText : null,
            total_amount: totalText,
            piece_count: 1,
            volume: null,
            platform: null,
            warehouse,
            logistics_provider: provider.code,
          },
        }
      : {}),
    line: { products: [l.product.number], quantity: l.quantity, unit_price: l.price },
  }));

  try {
    return await withTx(deps.db, async (tx) => {
      const lookups = await loadOrderLookups(
        tx,
        customerId,
        lines.map((l) => l.product.number),
      );
      const result = await createOrdersFromRows(tx, actor, rows, { lookups });
      const order = result.created[0];
      if (!order) throw new AppError('INTERNAL_ERROR');
      await repo.insertStoreOrder(tx, {
        customer_id: customerId,
        store_id: store.id,
        member_id: memberId,
        order_id: order.id,
      });
      await writeAudit(tx, actor, {
        action: 'create',
        entity: 'store_order',
        entityId: order.id,
        after: { number: order.number, total_amount: totalText, lines: input.lines, member_id: memberId },
      });
      return { id: order.id, number: order.number, total_amount: totalText };
    });
  } catch (err) {
    // The order's own checks (phone, postcode, a product needing a volume…): the first problem, by its field.
    if (err instanceof AppError && err.code === 'IMPORT_REJECTED') {
      const first = (err.params.errors as Array<{ code: TErrorCode; field?: string }> | undefined)?.[0];
      if (first) throw new AppError(first.code, { field: first.field ?? '' });
    }
    throw err;
  }
}

export async function memberPurchase(deps: TStoreDeps, actor: TMemberActor, input: TDirectPurchase) {
  const { member, store } = await activeMember(deps, actor);
  if (!store.is_open) throw new AppError('STORE_CLOSED');
  return purchase(deps, actor, store, member.id, input);
}

/** The seller orders from its own store (the main area's direct-purchase menu); a closed store still takes these. */
export async function sellerPurchase(deps: TStoreDeps, actor: TActor, input: TDirectPurchase) {
  const store = await requireStore(deps, tenantOf(actor));
  return purchase(deps, actor, store, null, input);
}
