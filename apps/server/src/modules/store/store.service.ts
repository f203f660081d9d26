/**
 * /store-admin: the seller's store settings, its products and orders, and the presenters and money helpers the
 * store's use cases share. The other use cases are one concern per file: manage-members.ts, member-portal.ts,
 * purchase.ts.
 */
import {
  type TOrderStatus,
  type TSaveStore,
  type TStore,
  type TStoreMember,
  type TStoreOrder,
  type TStoreOrderQuery,
  type TStoreProduct,
  type TStoreProductQuery,
  trackingUrlOf,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { checkedImageDataUrl } from '../../platform/images';
import type { JobQueue } from '../../platform/jobs';
import { setProductListing } from '../catalog';
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
export const CATALOG_MAX = 500;

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

export function toMember(r: repo.TMemberRow): TStoreMember {
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
export function money2(v: string | null): string | null {
  if (v === null) return null;
  return centsText(toCents(v));
}

export function toCents(v: string): bigint {
  const [int = '0', frac = ''] = v.split('.');
  const ten4 = BigInt(int) * 10000n + BigInt(`${frac}0000`.slice(0, 4));
  return (ten4 + 50n) / 100n; // half up (prices are never negative)
}

export function centsText(c: bigint): string {
  const s = c.toString().padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

export async function requireStore(deps: TStoreDeps, customerId: string): Promise<repo.TStoreRow> {
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

export function totalOf(byWarehouse: Map<string, number> | undefined): number {
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

export async function ordersPage(
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
