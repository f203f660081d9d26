import {
  COLUMN_SCREENS,
  DEFAULT_COLUMNS,
  isOrderLineQuantity,
  type TColumnSettings,
  type TCreateOrder,
  type TOrder,
  type TOrderCounts,
  type TOrderDetail,
  type TOrderListQuery,
  type TOrderStatus,
  type TUpdateOrder,
} from '@wms/contracts';
import { allOf, type Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import { companyContact } from '../account';
import * as catalog from '../catalog';
import { loadShipRules, shipByOf } from '../ships';
import * as engine from '../stock';
import * as batchRepo from './outbound.batches.repository';
import * as listRepo from './outbound.list.repository';
import * as lookupRepo from './outbound.lookups.repository';
import * as orderRepo from './outbound.orders.repository';
import { checkOrder, type TOrderDraft } from './outbound.rules';
import { illegal, orderDetail, type TOutboundDeps, toLine, toOrder } from './outbound.views';
import { holdsReservation, isEditable, SHIPPED_STATUSES } from './outbound.workflow';

/**
 * Orders: the list and its counts, one order (by id or by a scanned code), creating and editing pending orders, the
 * list's column settings (/customize), and what the returns module reads of a shipped order.
 */

/** Prefix of order numbers: OUT202611220001. */
export const ORDER_PREFIX = 'OUT';

// ---- read ----

export async function listOrders(deps: TOutboundDeps, actor: TActor, q: TOrderListQuery) {
  const { rows, count, capped } = await listRepo.listOrderViews(deps.db, tenantOf(actor), q);
  // The rows come out of SQL in the contract's shape (outbound.repository LIST_SELECT): nothing to map.
  return { count, count_capped: capped, results: rows as TOrder[] };
}

export async function getOrder(deps: TOutboundDeps, actor: TActor, id: string): Promise<TOrderDetail> {
  return orderDetail(deps.db, tenantOf(actor), id);
}

/** An order by what a scanner or a user types: our number, the consignment number or the platform's number. */
/** The packing station's tote scan: the order picked into this tote, while it has not left the warehouse. */
async function openOrderInTote(ex: Executor, customerId: string, code: string): Promise<string | undefined> {
  const tote = await batchRepo.findTote(ex, customerId, code);
  return tote && holdsReservation(tote.status as TOrderStatus) ? tote.order_id : undefined;
}

export async function lookupOrder(deps: TOutboundDeps, actor: TActor, code: string): Promise<TOrder> {
  const customerId = tenantOf(actor);
  // The packing station's tote scan (cluster pick) opens the order picked into that tote.
  const id =
    (await orderRepo.findOrderIdByCode(deps.db, customerId, code.trim())) ??
    (await openOrderInTote(deps.db, customerId, code.trim()));
  const view = id ? await orderRepo.findOrderView(deps.db, customerId, id) : undefined;
  if (!view) throw notFound();
  return toOrder(view);
}

/**
 * For the returns module: a seller's shipped order with its lines and what actually left the warehouse per product
 * and lot (from the stock ledger), to prefill a return receipt. 404 for another seller's order.
 */
export async function findShippedOrder(ex: Executor, customerId: string, orderId: string) {
  const view = await orderRepo.findOrderView(ex, customerId, orderId);
  if (!view) throw notFound();
  const lines = await orderRepo.orderLines(ex, customerId, [orderId]);
  return {
    order: toOrder(view),
    lines: lines.map(toLine),
    shipped: await engine.shippedQuantities(ex, customerId, orderRepo.ORDER_DOCUMENT, orderId),
  };
}

// ---- create and edit ----

/** References of an order must be the caller's own rows; another seller's id is simply not found. */
async function checkReferences(
  ex: Executor,
  customerId: string,
  refs: { warehouse_id?: string | null; logistics_provider_id?: string | null; platform_id?: string | null },
) {
  const [whs, providers, platforms] = await allOf(ex, [
    () => (refs.warehouse_id ? lookupRepo.warehousesOf(ex, customerId) : []),
    () => (refs.logistics_provider_id ? lookupRepo.providersOf(ex, customerId) : []),
    () => (refs.platform_id ? lookupRepo.platformsOf(ex, customerId) : []),
  ]);
  if (refs.warehouse_id && !whs.some((w) => w.id === refs.warehouse_id))
    throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
  if (refs.platform_id && !platforms.some((p) => p.id === refs.platform_id))
    throw new AppError('PLATFORM_ABNORMAL', { field: 'platform_id' });
  if (refs.logistics_provider_id) {
    const p = providers.find((x) => x.id === refs.logistics_provider_id);
    if (!p?.is_active) throw new AppError('PATHWAY_ABNORMAL', { field: 'logistics_provider_id' });
  }
}

/** What filling in an order's defaults needs to know about the seller (read once per import). */
export interface TDefaultsContext {
  company: { name: string; phone: string | null; address: string | null } | undefined;
  warehouses: Array<{ id: string; address: string }>;
}

export async function defaultsContext(ex: Executor, customerId: string): Promise<TDefaultsContext> {
  const [company, warehouses] = await allOf(ex, [
    () => companyContact(ex, customerId),
    () => lookupRepo.warehousesOf(ex, customerId),
  ]);
  return { company, warehouses };
}

/** Defaults of an order nobody filled in: the only warehouse, sender from the company and the warehouse, the first line's carrier. */
export function fillDefaults(draft: TOrderDraft, lineProducts: catalog.TProductInfo[], ctx: TDefaultsContext): void {
  if (!draft.warehouse_id && ctx.warehouses.length === 1) draft.warehouse_id = ctx.warehouses[0]!.id;
  const wh = ctx.warehouses.find((w) => w.id === draft.warehouse_id);
  if (!draft.sender_name) draft.sender_name = ctx.company?.name ?? '';
  if (!draft.sender_phone) draft.sender_phone = ctx.company?.phone ?? '';
  if (!draft.sender_address) draft.sender_address = wh?.address || ctx.company?.address || '';
  if (!draft.logistics_provider_id)
    draft.logistics_provider_id =
      lineProducts.find((p) => p.default_logistics_provider_id)?.default_logistics_provider_id ?? null;
}

/** The order as the rules check it: the input's fields, else the stored order's (an edit), else the defaults. */
export function draftOf(input: Partial<TCreateOrder>, base?: orderRepo.TOrderRow): TOrderDraft {
  const pick = <K extends keyof TOrderDraft>(k: K, fallback: TOrderDraft[K]): TOrderDraft[K] =>
    (input as Partial<TOrderDraft>)[k] !== undefined
      ? ((input as Partial<TOrderDraft>)[k] as TOrderDraft[K])
      : base
        ? (base[k as keyof orderRepo.TOrderRow] as TOrderDraft[K])
        : fallback;
  const platformId = pick('platform_id', null);
  return {
    platform_order_number: pick('platform_order_number', null) || null,
    third_party_number: pick('third_party_number', null) || null,
    consignment_number: pick('consignment_number', null) || null,
    shipping_date: pick('shipping_date', null),
    category: pick('category', 'normal'),
    channel: pick('channel', platformId ? 'ecommerce' : 'manual'),
    is_cross_border: pick('is_cross_border', false),
    recipient_name: pick('recipient_name', ''),
    recipient_phone: pick('recipient_phone', ''),
    recipient_mobile: pick('recipient_mobile', ''),
    recipient_postcode: pick('recipient_postcode', ''),
    recipient_address: pick('recipient_address', ''),
    sender_name: pick('sender_name', ''),
    sender_phone: pick('sender_phone', ''),
    sender_postcode: pick('sender_postcode', ''),
    sender_address: pick('sender_address', ''),
    shipping_remark: pick('shipping_remark', ''),
    warehouse_id: pick('warehouse_id', null),
    arrival_date: pick('arrival_date', null),
    arrival_time_slot: pick('arrival_time_slot', null),
    logistics_provider_id: pick('logistics_provider_id', null),
    platform_id: platformId,
    cod: pick('cod', false),
    cod_amount: pick('cod_amount', null),
    total_amount: pick('total_amount', null),
    piece_count: pick('piece_count', 1),
    volume: pick('volume', null),
    platform_logistics: pick('platform_logistics', false),
  };
}

/** The first problem the rules find with an order, as the catalogue's error (null when there is none). */
export function orderIssue(draft: TOrderDraft, products: catalog.TProductInfo[]): AppError | null {
  const [issue] = checkOrder(draft, products);
  return issue
    ? new AppError(issue.code, { field: issue.field, ...(issue.value ? { value: issue.value } : {}) })
    : null;
}

function firstIssue(draft: TOrderDraft, products: catalog.TProductInfo[]): void {
  const issue = orderIssue(draft, products);
  if (issue) throw issue;
}

/** Unique keys of orders turned into the catalogue's DUPLICATE_VALUE with the field. */
export function orderConstraintError(err: unknown): never {
  if (sqlState(err) === '23505') {
    // The constraint's name (node-postgres and PGlite both give it, and put it in the message).
    const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
    const text = cause?.constraint ?? cause?.message ?? '';
    if (text.includes('consignment')) throw new AppError('DUPLICATE_VALUE', { field: 'consignment_number' });
    if (text.includes('platform_order')) throw new AppError('DUPLICATE_VALUE', { field: 'platform_order_number' });
  }
  throw err;
}

/** The first line whose quantity is not whole and 1…100,000, as ABNORMAL_QUANTITY naming the line. */
function checkLineQuantities(lines: Array<{ quantity: number }>): void {
  const at = lines.findIndex((l) => !isOrderLineQuantity(l.quantity));
  if (at >= 0)
    throw new AppError('ABNORMAL_QUANTITY', {
      field: `lines.${at}.quantity`,
      line: at + 1,
      value: lines[at]!.quantity,
    });
}

async function lineProductsOf(ex: Executor, customerId: string, lines: Array<{ product_id: string }>) {
  const found = await catalog.productsByIds(
    ex,
    customerId,
    lines.map((l) => l.product_id),
  );
  for (const l of lines)
    if (!found.some((p) => p.id === l.product_id))
      throw new AppError('PRODUCT_ABNORMAL', { field: 'lines', product_id: l.product_id });
  return found;
}

function lineRows(
  customerId: string,
  orderId: string,
  lines: Array<{ product_id: string; quantity: number; unit_price?: string | null }>,
) {
  return lines.map((l, i) => ({
    customer_id: customerId,
    order_id: orderId,
    line_no: i + 1,
    product_id: l.product_id,
    quantity: l.quantity,
    unit_price: l.unit_price ?? null,
  }));
}

export async function createOrder(deps: TOutboundDeps, actor: TActor, input: TCreateOrder): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    checkLineQuantities(input.lines);
    await checkReferences(tx, customerId, input);
    const lineProducts = await lineProductsOf(tx, customerId, input.lines);
    const draft = draftOf(input);
    fillDefaults(draft, lineProducts, await defaultsContext(tx, customerId));
    firstIssue(draft, lineProducts);
    const number = await nextDocumentNumber(tx, customerId, ORDER_PREFIX);
    const now = new Date();
    const shipBy = shipByOf(
      await loadShipRules(tx, customerId, now),
      draft.warehouse_id,
      draft.logistics_provider_id,
      now,
    );
    const [row] = await orderRepo
      .insertOrders(tx, [{ ...draft, customer_id: customerId, number, created_by: actor.id, ship_by: shipBy }])
      .catch(orderConstraintError);
    await orderRepo.insertLines(tx, lineRows(customerId, row!.id, input.lines));
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'outbound_order',
      entityId: row!.id,
      after: { number, ...draft, lines: input.lines },
    });
    return row!.id;
  });
  return orderDetail(deps.db, customerId, id);
}

/** Edit a pending order (header, and lines when given); the rules check the result, a recorded refusal is cleared. */
export async function updateOrder(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  patch: TUpdateOrder,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await orderRepo.lockOrder(tx, customerId, id);
    if (!before) throw notFound();
    if (!isEditable(before.status as TOrderStatus)) throw illegal(before.status, 'update');
    if (patch.lines) checkLineQuantities(patch.lines);
    await checkReferences(tx, customerId, patch);
    const lines =
      patch.lines ??
      (await orderRepo.orderLines(tx, customerId, [id])).map((l) => ({
        product_id: l.product_id,
        quantity: l.quantity,
        unit_price: l.unit_price,
      }));
    const lineProducts = await lineProductsOf(tx, customerId, lines);
    const draft = draftOf(patch, before);
    firstIssue(draft, lineProducts);
    // Another warehouse or carrier: the ship-by time again, from when the order arrived.
    const shipBy =
      draft.warehouse_id !== before.warehouse_id || draft.logistics_provider_id !== before.logistics_provider_id
        ? shipByOf(
            await loadShipRules(tx, customerId, before.created_at),
            draft.warehouse_id,
            draft.logistics_provider_id,
            before.created_at,
            await orderRepo.cvsChainOfOrder(tx, customerId, id),
          )
        : before.ship_by;
    await orderRepo
      .updateOrder(tx, customerId, id, { ...draft, ship_by: shipBy, abnormal_code: null, abnormal_params: null })
      .catch(orderConstraintError);
    if (patch.lines) {
      await orderRepo.deleteLines(tx, customerId, id);
      await orderRepo.insertLines(tx, lineRows(customerId, id, patch.lines));
    }
    await writeAudit(tx, actor, { action: 'update', entity: 'outbound_order', entityId: id, before, after: patch });
  });
  return orderDetail(deps.db, customerId, id);
}

// ---- counts (/deliver-cnt) ----

export async function orderCounts(deps: TOutboundDeps, actor: TActor, q: listRepo.TCountRange): Promise<TOrderCounts> {
  const customerId = tenantOf(actor);
  const [counts, platforms, providers] = await allOf(deps.db, [
    () => listRepo.orderCounts(deps.db, customerId, q),
    () => lookupRepo.platformsOf(deps.db, customerId),
    () => lookupRepo.providersOf(deps.db, customerId),
  ]);
  const label = (rows: Array<{ key: string | null; count: number }>, names: Map<string, string>) =>
    rows.map((r) => ({ key: r.key, label: r.key ? (names.get(r.key) ?? null) : null, count: r.count }));
  return {
    total: counts.byStatus.reduce((s, r) => s + r.count, 0),
    by_status: label(counts.byStatus, new Map()),
    by_date: label(counts.byDate, new Map()),
    by_channel: label(counts.byChannel, new Map(platforms.map((p) => [p.code, p.name]))),
    by_carrier: label(counts.byCarrier, new Map(providers.map((p) => [p.code, p.name]))),
  };
}

// ---- /customize ----

export async function getColumnSettings(deps: TOutboundDeps, actor: TActor): Promise<TColumnSettings> {
  const rows = await listRepo.columnSettings(deps.db, tenantOf(actor));
  const out = { ...DEFAULT_COLUMNS } as TColumnSettings;
  for (const r of rows)
    if ((COLUMN_SCREENS as readonly string[]).includes(r.screen))
      out[r.screen as keyof TColumnSettings] = r.columns as TColumnSettings['deliver_list'];
  return out;
}

export async function saveColumnSettings(
  deps: TOutboundDeps,
  actor: TActor,
  input: { screen: (typeof COLUMN_SCREENS)[number]; columns: TColumnSettings['deliver_list'] },
): Promise<TColumnSettings> {
  const customerId = tenantOf(actor);
  const columns = [...new Set(input.columns)];
  await withTx(deps.db, async (tx) => {
    await listRepo.saveColumnSettings(tx, customerId, input.screen, columns);
    await writeAudit(tx, actor, {
      action: 'save_columns',
      entity: 'outbound_column_settings',
      after: { ...input, columns },
    });
  });
  return getColumnSettings(deps, actor);
}

/**
 * The ship-by time of an order again, from when it arrived, after its pickup store changed (a convenience-store
 * chain's cut-off may differ from its carrier's): in the caller's transaction; an order already shipped keeps its own.
 */
export async function refreshShipBy(tx: Executor, customerId: string, orderId: string): Promise<void> {
  const order = await orderRepo.lockOrderShipping(tx, customerId, orderId);
  if (!order || (SHIPPED_STATUSES as readonly string[]).includes(order.status) || order.status === 'cancelled') return;
  const shipBy = shipByOf(
    await loadShipRules(tx, customerId, order.created_at),
    order.warehouse_id,
    order.logistics_provider_id,
    order.created_at,
    await orderRepo.cvsChainOfOrder(tx, customerId, orderId),
  );
  await orderRepo.setShipBy(tx, customerId, orderId, shipBy);
}
