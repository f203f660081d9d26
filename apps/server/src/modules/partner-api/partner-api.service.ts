import { createHash } from 'node:crypto';
import type {
  TApiCreateInbound,
  TApiCreateOrder,
  TInboundReceiptDetail,
  TOrderDetail,
  ZApiStockQuery,
  ZProductListQuery,
} from '@wms/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { putCvsStore } from '../carriers';
import * as catalog from '../catalog';
import * as inbound from '../inbound';
import * as idempotency from '../integrations';
import * as outboundRepo from '../outbound';
import {
  codeKey,
  createOrdersFromRows,
  getOrder,
  loadOrderLookups,
  lookupOrder,
  type TOrderIntakeRow,
  transitionOrder,
} from '../outbound';
import * as stock from '../stock';
import * as usage from '../usage';

/**
 * The public partner API (`/api/v1/…`): a seller's own system creates orders and inbound receipts, reads orders,
 * products and stock. Every call is the seller's own (the key's actor carries its tenant) and goes through the same
 * use cases as the screens and the order file import, with codes (SKU, warehouse code) instead of ids.
 */

interface TDeps {
  db: Db;
}

type TWrite<T> = { status: 200 | 201; body: T };

function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body)}`)
    .digest('hex');
}

/**
 * Run a create under an `Idempotency-Key`: the same key again (same request) answers the resource it created; the
 * same key with another request is refused (422); two at once with one key create one resource.
 */
async function withIdempotency<T>(
  deps: TDeps,
  actor: TActor,
  key: string | undefined,
  request: { method: string; path: string; body: unknown },
  create: (
    claim: (resourceId: string, tx: Parameters<typeof idempotency.claimIdempotencyKey>[0]) => Promise<void>,
  ) => Promise<TWrite<T>>,
  read: (resourceId: string) => Promise<T>,
): Promise<TWrite<T>> {
  const noop = async () => {};
  if (!key || actor.kind !== 'api') return create(noop);
  if (key.length > 200) throw new AppError('INVALID_FIELD', { field: 'Idempotency-Key' });
  const hash = requestHash(request.method, request.path, request.body);
  const replay = async (): Promise<TWrite<T> | null> => {
    const found = await idempotency.findIdempotencyKey(deps.db, actor.id, key);
    if (!found) return null;
    if (found.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return { status: 200, body: await read(found.resource_id) };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  try {
    return await create(async (resourceId, tx) => {
      const claimed = await idempotency.claimIdempotencyKey(tx, {
        setting_id: actor.id,
        key,
        request_hash: hash,
        status: 201,
        resource_id: resourceId,
      });
      // Another request with this key committed first: roll this one back and answer that one's.
      if (!claimed) throw new ConcurrentKey();
    });
  } catch (err) {
    if (err instanceof ConcurrentKey) {
      const other = await replay();
      if (other) return other;
    }
    throw err;
  }
}
class ConcurrentKey extends Error {}

/** Create an order from the partner's fields, as one row per line through the import's rules. */
export async function createOrder(
  deps: TDeps,
  actor: TActor,
  input: TApiCreateOrder,
  idempotencyKey?: string,
): Promise<TWrite<TOrderDetail>> {
  const customerId = tenantOf(actor);
  const orderFields = {
    platform_order_number: input.order_number,
    third_party_number: input.third_party_number ?? '',
    consignment_number: input.consignment_number ?? null,
    shipping_date: input.shipping_date ?? null,
    category: input.category ?? null,
    channel: null,
    is_cross_border: false,
    recipient_name: input.recipient_name,
    recipient_phone: input.recipient_phone ?? '',
    recipient_mobile: input.recipient_mobile ?? '',
    recipient_postcode: input.recipient_postcode,
    recipient_address: input.recipient_address,
    sender_name: input.sender_name ?? '',
    sender_phone: input.sender_phone ?? '',
    sender_postcode: input.sender_postcode ?? '',
    sender_address: input.sender_address ?? '',
    shipping_remark: input.shipping_remark ?? '',
    arrival_date: input.arrival_date ?? null,
    arrival_time_slot: input.arrival_time_slot ?? null,
    cod: input.cod ?? false,
    cod_amount: input.cod_amount ?? null,
    total_amount: input.total_amount ?? null,
    piece_count: input.piece_count ?? 1,
    volume: input.volume ?? null,
    platform: input.platform ?? null,
    warehouse: input.warehouse ?? null,
    logistics_provider: input.logistics_provider ?? null,
  };
  const rows: TOrderIntakeRow[] = input.lines.map((l, i) => ({
    row: i + 1,
    key: input.order_number,
    ...(i === 0 ? { order: orderFields } : {}),
    line: { products: [l.sku], quantity: l.quantity, unit_price: l.unit_price ?? null },
  }));
  const existing = async () => {
    const id = await outboundRepo.findOrderIdByCode(deps.db, customerId, input.order_number);
    if (!id) throw notFound();
    return getOrder(deps, actor, id);
  };
  return withIdempotency(
    deps,
    actor,
    idempotencyKey,
    { method: 'POST', path: '/api/v1/orders/', body: input },
    async (claim) => {
      const created = await withTx(deps.db, async (tx) => {
        const codes = input.lines.map((l) => l.sku);
        const lookups = await loadOrderLookups(tx, customerId, codes);
        const result = await createOrdersFromRows(tx, actor, rows, { lookups });
        const order = result.created[0];
        // The buyer's pickup store, in the order's own transaction.
        if (order && input.cvs_store) await putCvsStore(tx, actor, customerId, order.id, input.cvs_store, 'api');
        if (order) await claim(order.id, tx);
        return order ?? null;
      });
      // The order number exists already: answer that order (idempotent by the partner's order number).
      if (!created) return { status: 200, body: await existing() };
      return { status: 201, body: await getOrder(deps, actor, created.id) };
    },
    (id) => getOrder(deps, actor, id),
  );
}

export async function getOrderByCode(deps: TDeps, actor: TActor, code: string): Promise<TOrderDetail> {
  const order = await lookupOrder(deps, actor, code);
  return getOrder(deps, actor, order.id);
}

export async function cancelOrder(deps: TDeps, actor: TActor, code: string): Promise<TOrderDetail> {
  const order = await lookupOrder(deps, actor, code);
  return transitionOrder(deps, actor, order.id, 'cancel');
}

export function listProducts(deps: TDeps, actor: TActor, q: z.infer<typeof ZProductListQuery>) {
  return catalog.listProducts(deps, actor, q);
}

/** Resolve a SKU/barcode and a warehouse code of the seller; unknown ones are a field error (never another seller's). */
async function resolveCodes(deps: TDeps, customerId: string, skus: string[], warehouse: string | null | undefined) {
  const lookups = await loadOrderLookups(deps.db, customerId, skus);
  const products = skus.map((sku, i) => {
    const p = lookups.products.get(codeKey(sku));
    if (!p) throw new AppError('PRODUCT_ABNORMAL', { field: `lines.${i}.sku`, value: sku });
    return p;
  });
  let warehouseId: string | null = null;
  if (warehouse) {
    warehouseId = lookups.warehouses.get(codeKey(warehouse)) ?? null;
    if (!warehouseId) throw new AppError('INVALID_FIELD', { field: 'warehouse', value: warehouse });
  } else {
    const only = lookups.defaults.warehouses;
    warehouseId = only.length === 1 ? only[0]!.id : null;
  }
  return { products, warehouseId };
}

export async function stockOf(deps: TDeps, actor: TActor, q: z.infer<typeof ZApiStockQuery>) {
  const customerId = tenantOf(actor);
  const { sku, warehouse, ...rest } = q;
  const query = { ...rest };
  if (sku || warehouse) {
    const lookups = await loadOrderLookups(deps.db, customerId, sku ? [sku] : []);
    if (sku) {
      const p = lookups.products.get(codeKey(sku));
      if (!p) return { count: 0, results: [] };
      query.product_id = p.id;
    }
    if (warehouse) {
      const w = lookups.warehouses.get(codeKey(warehouse));
      if (!w) return { count: 0, results: [] };
      query.warehouse_id = w;
    }
  }
  return stock.productStock(deps, actor, query);
}

export async function createInbound(
  deps: TDeps,
  actor: TActor,
  input: TApiCreateInbound,
  idempotencyKey?: string,
): Promise<TWrite<TInboundReceiptDetail>> {
  const customerId = tenantOf(actor);
  const { products, warehouseId } = await resolveCodes(
    deps,
    customerId,
    input.lines.map((l) => l.sku),
    input.warehouse,
  );
  if (!warehouseId) throw new AppError('REQUIRED_FIELD', { field: 'warehouse' });
  return withIdempotency(
    deps,
    actor,
    idempotencyKey,
    { method: 'POST', path: '/api/v1/inbound-receipts/', body: input },
    async (claim) => {
      const receipt = await inbound.createReceipt(
        deps,
        actor,
        {
          warehouse_id: warehouseId,
          category: input.category,
          planned_date: input.planned_date,
          ...(input.remark !== undefined ? { remark: input.remark } : {}),
          lines: input.lines.map((l, i) => ({
            product_id: products[i]!.id,
            quantity: l.quantity,
            ...(l.expiry_date !== undefined ? { expiry_date: l.expiry_date } : {}),
          })),
        },
        { afterWrite: claim },
      );
      return { status: 201, body: receipt };
    },
    (id) => inbound.getReceipt(deps, actor, id),
  );
}

/** The key's seller's statements (another seller's statement answers 404). */
export function listStatements(deps: TDeps, actor: TActor, q: { month?: string; page: number; page_size: number }) {
  return usage.listStatements(deps, { ...q, customerId: tenantOf(actor) });
}

export function getStatement(deps: TDeps, actor: TActor, id: string) {
  return usage.getStatement(deps, id, tenantOf(actor));
}

export function statementEvents(
  deps: TDeps,
  actor: TActor,
  id: string,
  q: Parameters<typeof usage.statementEvents>[3],
) {
  return usage.partnerStatementEvents(deps, id, tenantOf(actor), q);
}
