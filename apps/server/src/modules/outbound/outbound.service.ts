import {
  COLUMN_SCREENS,
  DEFAULT_COLUMNS,
  type TBulkResult,
  type TColumnSettings,
  type TConsignmentItem,
  type TCreateOrder,
  type TLanguage,
  type TOrder,
  type TOrderAction,
  type TOrderCounts,
  type TOrderDetail,
  type TOrderListQuery,
  type TOrderSerial,
  type TOrderStatus,
  type TPackItem,
  type TPackScan,
  type TPackView,
  type TSetConsignment,
  type TShipOrder,
  type TUpdateOrder,
} from '@wms/contracts';
import { and, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { allOf, type Db, type Executor, type Tx } from '../../db/client';
import { outbound_orders, outbound_serials, products } from '../../db/schema';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { rejectRows, type TRowIssue } from '../../platform/importing';
import { iso, orderingOf, pageWindow, searchWhere } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import * as engine from '../stock/stock.engine';
import * as repo from './outbound.repository';
import { checkOrder, type TOrderDraft } from './outbound.rules';
import { acceptsConsignment, canApply, canPack, isEditable, nextStatus, type TOrderEvent } from './outbound.workflow';

export interface TOutboundDeps {
  db: Db;
}

/** Prefix of order numbers: OUT202611220001. */
export const ORDER_PREFIX = 'OUT';
const illegal = (status: string, event: string) => new AppError('INVALID_STATUS_TRANSITION', { status, action: event });

// ---- views ----

export function toOrder(v: repo.TOrderView): TOrder {
  const o = v.order;
  return {
    id: o.id,
    number: o.number,
    platform_order_number: o.platform_order_number,
    third_party_number: o.third_party_number,
    consignment_number: o.consignment_number,
    shipping_date: o.shipping_date,
    category: o.category as TOrder['category'],
    channel: o.channel as TOrder['channel'],
    is_cross_border: o.is_cross_border,
    recipient_name: o.recipient_name,
    recipient_phone: o.recipient_phone,
    recipient_mobile: o.recipient_mobile,
    recipient_postcode: o.recipient_postcode,
    recipient_address: o.recipient_address,
    sender_name: o.sender_name,
    sender_phone: o.sender_phone,
    sender_postcode: o.sender_postcode,
    sender_address: o.sender_address,
    shipping_remark: o.shipping_remark,
    warehouse_id: o.warehouse_id,
    warehouse_code: v.warehouse_code,
    arrival_date: o.arrival_date,
    arrival_time_slot: o.arrival_time_slot as TOrder['arrival_time_slot'],
    logistics_provider_id: o.logistics_provider_id,
    logistics_provider_code: v.provider_code,
    logistics_provider_name: v.provider_name,
    platform_id: o.platform_id,
    platform_code: v.platform_code,
    platform_name: v.platform_name,
    cod: o.cod,
    cod_amount: o.cod_amount,
    total_amount: o.total_amount,
    piece_count: o.piece_count,
    volume: o.volume as TOrder['volume'],
    status: o.status as TOrderStatus,
    abnormal: o.abnormal_code
      ? { code: o.abnormal_code, params: (o.abnormal_params as Record<string, unknown> | null) ?? {} }
      : null,
    batch_id: o.batch_id,
    batch_number: v.batch_number,
    line_count: Number(v.line_count),
    unit_count: Number(v.unit_count),
    exported_at: iso(o.exported_at),
    online_at: iso(o.online_at),
    closed_at: iso(o.closed_at),
    cancelled_at: iso(o.cancelled_at),
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  };
}

export function toLine(l: Awaited<ReturnType<typeof repo.orderLines>>[number]) {
  return {
    id: l.id,
    line_no: l.line_no,
    product_id: l.product_id,
    product_number: l.product_number,
    product_name: l.product_name,
    product_type: l.product_type as 'single' | 'combination',
    barcode: l.barcode,
    quantity: l.quantity,
    unit_price: l.unit_price,
  };
}

export function toAllocation(a: repo.TAllocationRow) {
  return {
    product_id: a.product_id,
    product_number: a.product_number,
    product_name: a.product_name,
    location_id: a.location_id,
    location_code: a.location_code,
    expiry_date: a.expiry_date,
    quantity: a.quantity,
  };
}

function toSerial(s: Awaited<ReturnType<typeof repo.orderSerials>>[number]): TOrderSerial {
  return {
    id: s.id,
    serial: s.serial,
    order_id: s.order_id,
    order_number: s.order_number,
    platform_order_number: s.platform_order_number,
    consignment_number: s.consignment_number,
    product_id: s.product_id,
    product_number: s.product_number,
    product_name: s.product_name,
    shipped_at: iso(s.closed_at),
    returned_at: iso(s.returned_at),
    created_at: s.created_at.toISOString(),
  };
}

/** Products to put in the box: the order's reservations summed per product (combinations appear as components). */
function expectedFromAllocations(allocations: repo.TAllocationRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of allocations) m.set(a.product_id, (m.get(a.product_id) ?? 0) + a.quantity);
  return m;
}

async function packItemsOf(ex: Executor, customerId: string, order: repo.TOrderRow): Promise<TPackItem[]> {
  const serials = await repo.orderSerials(ex, customerId, order.id);
  const serialsOf = (productId: string) => serials.filter((s) => s.product_id === productId).map((s) => s.serial);
  const stored = await repo.packItems(ex, customerId, order.id);
  if (stored.length) return stored.map((i) => ({ ...i, serials: serialsOf(i.product_id) }));
  if (order.status !== 'exported') return [];
  // Not opened at the packing station yet: what it will expect, read from the reservations.
  const expected = expectedFromAllocations(await repo.orderAllocations(ex, customerId, [order.id]));
  const info = await repo.productsByIds(ex, customerId, [...expected.keys()]);
  return info
    .map((p) => ({
      product_id: p.id,
      product_number: p.number,
      product_name: p.name,
      barcode: p.barcode,
      requires_serial: p.requires_serial,
      expected: expected.get(p.id) ?? 0,
      packed: 0,
      serials: [],
    }))
    .sort((a, b) => (a.product_number < b.product_number ? -1 : 1));
}

export async function orderDetail(ex: Executor, customerId: string, id: string): Promise<TOrderDetail> {
  const view = await repo.findOrderView(ex, customerId, id);
  if (!view) throw notFound();
  const [lines, allocations, serials, packaging, packItems] = await allOf(ex, [
    () => repo.orderLines(ex, customerId, [id]),
    () => repo.orderAllocations(ex, customerId, [id]),
    () => repo.orderSerials(ex, customerId, id),
    () => repo.orderPackaging(ex, customerId, id),
    () => packItemsOf(ex, customerId, view.order),
  ]);
  return {
    ...toOrder(view),
    lines: lines.map(toLine),
    allocations: allocations.map(toAllocation),
    pack_items: packItems,
    serials: serials.map(toSerial),
    packaging,
  };
}

// ---- list ----

export function parseIds(ids: string | undefined): string[] | undefined {
  if (ids === undefined) return undefined;
  return ids
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s));
}

/** The WHERE of the order list and of the exports: the caller's tenant, then every filter of the list query. */
export function orderWhere(customerId: string, q: Partial<TOrderListQuery>): SQL {
  const o = outbound_orders;
  const conds: Array<SQL | undefined> = [eq(o.customer_id, customerId)];
  if (q.status) conds.push(eq(o.status, q.status));
  if (q.channel) conds.push(eq(o.channel, q.channel));
  if (q.platform_id) conds.push(eq(o.platform_id, q.platform_id));
  if (q.logistics_provider_id) conds.push(eq(o.logistics_provider_id, q.logistics_provider_id));
  if (q.warehouse_id) conds.push(eq(o.warehouse_id, q.warehouse_id));
  if (q.batch_id) conds.push(eq(o.batch_id, q.batch_id));
  if (q.abnormal !== undefined) conds.push(q.abnormal ? isNotNull(o.abnormal_code) : isNull(o.abnormal_code));
  if (q.in_batch !== undefined) conds.push(q.in_batch ? isNotNull(o.batch_id) : isNull(o.batch_id));
  if (q.has_consignment !== undefined)
    conds.push(q.has_consignment ? isNotNull(o.consignment_number) : isNull(o.consignment_number));
  const ids = parseIds(q.ids);
  if (ids) conds.push(ids.length ? inArray(o.id, ids) : sql`false`);
  const field = q.date_field ?? 'created_at';
  if (field === 'shipping_date') {
    if (q.date_from) conds.push(gte(o.shipping_date, q.date_from));
    if (q.date_to) conds.push(sql`${o.shipping_date} <= ${q.date_to}`);
  } else {
    const col = field === 'closed_at' ? o.closed_at : o.created_at;
    if (q.date_from) conds.push(gte(col, taipeiMidnight(q.date_from)));
    if (q.date_to) conds.push(lt(col, taipeiMidnight(q.date_to, 1)));
  }
  conds.push(
    searchWhere(q.search, [
      o.number,
      o.platform_order_number,
      o.third_party_number,
      o.consignment_number,
      o.recipient_name,
      o.recipient_phone,
      o.recipient_mobile,
    ]),
  );
  return and(...conds)!;
}

const o = outbound_orders;
export const ORDER_SORT = {
  number: o.number,
  platform_order_number: o.platform_order_number,
  consignment_number: o.consignment_number,
  status: o.status,
  shipping_date: o.shipping_date,
  recipient_name: o.recipient_name,
  created_at: o.created_at,
  closed_at: o.closed_at,
};

export async function listOrders(deps: TOutboundDeps, actor: TActor, q: TOrderListQuery) {
  const customerId = tenantOf(actor);
  const order = orderingOf(q.ordering, ORDER_SORT, '-created_at', o.id);
  const { rows, count } = await repo.listOrderViews(deps.db, orderWhere(customerId, q), order, pageWindow(q));
  return { count, results: rows.map(toOrder) };
}

export async function getOrder(deps: TOutboundDeps, actor: TActor, id: string): Promise<TOrderDetail> {
  return orderDetail(deps.db, tenantOf(actor), id);
}

export async function lookupOrder(deps: TOutboundDeps, actor: TActor, code: string): Promise<TOrder> {
  const customerId = tenantOf(actor);
  const id = await repo.findOrderIdByCode(deps.db, customerId, code.trim());
  const view = id ? await repo.findOrderView(deps.db, customerId, id) : undefined;
  if (!view) throw notFound();
  return toOrder(view);
}

// ---- create and edit ----

/** References of an order must be the caller's own rows; another seller's id is simply not found. */
async function checkReferences(
  ex: Executor,
  customerId: string,
  refs: { warehouse_id?: string | null; logistics_provider_id?: string | null; platform_id?: string | null },
) {
  const [whs, providers, platforms] = await allOf(ex, [
    () => (refs.warehouse_id ? repo.warehousesOf(ex, customerId) : []),
    () => (refs.logistics_provider_id ? repo.providersOf(ex, customerId) : []),
    () => (refs.platform_id ? repo.platformsOf(ex, customerId) : []),
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
    () => repo.companyOf(ex, customerId),
    () => repo.warehousesOf(ex, customerId),
  ]);
  return { company, warehouses };
}

/** Defaults of an order nobody filled in: the only warehouse, sender from the company and the warehouse, the first line's carrier. */
export function fillDefaults(draft: TOrderDraft, lineProducts: repo.TProductInfo[], ctx: TDefaultsContext): void {
  if (!draft.warehouse_id && ctx.warehouses.length === 1) draft.warehouse_id = ctx.warehouses[0]!.id;
  const wh = ctx.warehouses.find((w) => w.id === draft.warehouse_id);
  if (!draft.sender_name) draft.sender_name = ctx.company?.name ?? '';
  if (!draft.sender_phone) draft.sender_phone = ctx.company?.phone ?? '';
  if (!draft.sender_address) draft.sender_address = wh?.address || ctx.company?.address || '';
  if (!draft.logistics_provider_id)
    draft.logistics_provider_id =
      lineProducts.find((p) => p.default_logistics_provider_id)?.default_logistics_provider_id ?? null;
}

function draftOf(input: Partial<TCreateOrder>, base?: repo.TOrderRow): TOrderDraft {
  const pick = <K extends keyof TOrderDraft>(k: K, fallback: TOrderDraft[K]): TOrderDraft[K] =>
    (input as Partial<TOrderDraft>)[k] !== undefined
      ? ((input as Partial<TOrderDraft>)[k] as TOrderDraft[K])
      : base
        ? (base[k as keyof repo.TOrderRow] as TOrderDraft[K])
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
  };
}

function firstIssue(draft: TOrderDraft, products: repo.TProductInfo[]): void {
  const [issue] = checkOrder(draft, products);
  if (issue) throw new AppError(issue.code, { field: issue.field, ...(issue.value ? { value: issue.value } : {}) });
}

/** Unique keys of orders turned into the catalogue's DUPLICATE_VALUE with the field. */
function orderConstraintError(err: unknown): never {
  if (sqlState(err) === '23505') {
    // The constraint's name (node-postgres and PGlite both give it, and put it in the message).
    const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
    const text = cause?.constraint ?? cause?.message ?? '';
    if (text.includes('consignment')) throw new AppError('DUPLICATE_VALUE', { field: 'consignment_number' });
    if (text.includes('platform_order')) throw new AppError('DUPLICATE_VALUE', { field: 'platform_order_number' });
  }
  throw err;
}

async function lineProductsOf(ex: Executor, customerId: string, lines: Array<{ product_id: string }>) {
  const found = await repo.productsByIds(
    ex,
    customerId,
    lines.map((l) => l.product_id),
  );
  for (const l of lines)
    if (!found.some((p) => p.id === l.product_id))
      throw new AppError('PRODUCT_ABNORMAL', { field: 'lines', product_id: l.product_id });
  return found;
}

export async function createOrder(deps: TOutboundDeps, actor: TActor, input: TCreateOrder): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    await checkReferences(tx, customerId, input);
    const lineProducts = await lineProductsOf(tx, customerId, input.lines);
    const draft = draftOf(input);
    fillDefaults(draft, lineProducts, await defaultsContext(tx, customerId));
    firstIssue(draft, lineProducts);
    const number = await nextDocumentNumber(tx, customerId, ORDER_PREFIX);
    const [row] = await repo
      .insertOrders(tx, [{ ...draft, customer_id: customerId, number, created_by: actor.id }])
      .catch(orderConstraintError);
    await repo.insertLines(
      tx,
      input.lines.map((l, i) => ({
        customer_id: customerId,
        order_id: row!.id,
        line_no: i + 1,
        product_id: l.product_id,
        quantity: l.quantity,
        unit_price: l.unit_price ?? null,
      })),
    );
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

export async function updateOrder(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  patch: TUpdateOrder,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.lockOrder(tx, customerId, id);
    if (!before) throw notFound();
    if (!isEditable(before.status as TOrderStatus)) throw illegal(before.status, 'update');
    await checkReferences(tx, customerId, patch);
    const lines =
      patch.lines ??
      (await repo.orderLines(tx, customerId, [id])).map((l) => ({
        product_id: l.product_id,
        quantity: l.quantity,
        unit_price: l.unit_price,
      }));
    const lineProducts = await lineProductsOf(tx, customerId, lines);
    const draft = draftOf(patch, before);
    firstIssue(draft, lineProducts);
    await repo
      .updateOrder(tx, customerId, id, { ...draft, abnormal_code: null, abnormal_params: null })
      .catch(orderConstraintError);
    if (patch.lines) {
      await repo.deleteLines(tx, customerId, id);
      await repo.insertLines(
        tx,
        patch.lines.map((l, i) => ({
          customer_id: customerId,
          order_id: id,
          line_no: i + 1,
          product_id: l.product_id,
          quantity: l.quantity,
          unit_price: l.unit_price ?? null,
        })),
      );
    }
    await writeAudit(tx, actor, { action: 'update', entity: 'outbound_order', entityId: id, before, after: patch });
  });
  return orderDetail(deps.db, customerId, id);
}

// ---- status changes ----

/** Why an export failed, kept on the order so the list shows it (with the product number for a shortage). */
async function abnormalOf(ex: Executor, customerId: string, err: AppError): Promise<Record<string, unknown>> {
  const params = { ...err.params };
  if (typeof params.product_id === 'string') {
    const [p] = await repo.productsByIds(ex, customerId, [params.product_id]);
    if (p) params.product_number = p.number;
  }
  return params;
}

/**
 * Export one locked order: validate it, reserve all its lines through the stock engine (in a savepoint, so a
 * shortage leaves nothing reserved), then move it to exported. Returns the refusal instead of throwing it when
 * the order should stay pending with the reason recorded (shortage, product or pathway problems).
 */
async function exportLocked(tx: Tx, actor: TActor, order: repo.TOrderRow): Promise<AppError | null> {
  const customerId = order.customer_id;
  const lines = await repo.orderLines(tx, customerId, [order.id]);
  const lineProducts = await repo.productsByIds(
    tx,
    customerId,
    lines.map((l) => l.product_id),
  );
  const draft = draftOf({}, order);
  const [issue] = checkOrder(draft, lineProducts);
  if (issue) return new AppError(issue.code, { field: issue.field, ...(issue.value ? { value: issue.value } : {}) });
  if (!order.warehouse_id) return new AppError('REQUIRED_FIELD', { field: 'warehouse' });
  if (order.logistics_provider_id) {
    const provider = (await repo.providersOf(tx, customerId)).find((p) => p.id === order.logistics_provider_id);
    if (!provider?.is_active) return new AppError('PATHWAY_ABNORMAL', { field: 'logistics_provider' });
  }
  try {
    await tx.transaction(async (sp) => {
      await engine.reserveForOrder(sp, engine.stockActorOf(actor), {
        document: { type: repo.ORDER_DOCUMENT, id: order.id, number: order.number },
        warehouseId: order.warehouse_id,
        lines: lines.map((l) => ({ productId: l.product_id, quantity: l.quantity, ref: l.id })),
      });
    });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return err;
    throw err;
  }
  const moved = await repo.changeStatus(tx, customerId, order.id, ['pending_export'], {
    status: 'exported',
    exported_at: new Date(),
    abnormal_code: null,
    abnormal_params: null,
  });
  if (!moved) throw illegal(order.status, 'export');
  return null;
}

/** Open a locked order for packing: what to pack comes from its reservations (combinations as their components). */
export async function startPackingLocked(tx: Tx, order: repo.TOrderRow): Promise<repo.TOrderRow> {
  const expected = expectedFromAllocations(await repo.orderAllocations(tx, order.customer_id, [order.id]));
  await repo.insertPackItems(
    tx,
    order.customer_id,
    order.id,
    [...expected].map(([productId, n]) => ({ productId, expected: n })),
  );
  const moved = await repo.changeStatus(tx, order.customer_id, order.id, ['exported'], {
    status: 'online',
    online_at: new Date(),
  });
  if (!moved) throw illegal(order.status, 'start_packing');
  return moved;
}

/**
 * Apply one action to one order in the caller's transaction. Returns a refusal that must be recorded on the order
 * (a failed export); other refusals are thrown.
 */
async function applyAction(tx: Tx, actor: TActor, id: string, action: TOrderAction): Promise<AppError | null> {
  const customerId = tenantOf(actor);
  const order = await repo.lockOrder(tx, customerId, id);
  if (!order) throw notFound();
  const status = order.status as TOrderStatus;
  if (!canApply(action, status)) throw illegal(status, action);
  const who = engine.stockActorOf(actor);
  const document = { type: repo.ORDER_DOCUMENT, id: order.id, number: order.number };
  let failure: AppError | null = null;
  switch (action) {
    case 'export':
      failure = await exportLocked(tx, actor, order);
      break;
    case 'start_packing':
      await startPackingLocked(tx, order);
      break;
    case 'request_cancel_export':
      if (
        !(await repo.changeStatus(tx, customerId, id, ['exported', 'online'], {
          status: 'cancel_export',
          status_before_cancel: status,
        }))
      )
        throw illegal(status, action);
      break;
    case 'grant_cancel_export': {
      await engine.release(tx, who, { document });
      await repo.resetPack(tx, customerId, id);
      await repo.deletePackItems(tx, customerId, id);
      const moved = await repo.changeStatus(tx, customerId, id, ['cancel_export'], {
        status: 'pending_export',
        status_before_cancel: null,
        exported_at: null,
        online_at: null,
        batch_id: null,
      });
      if (!moved) throw illegal(status, action);
      break;
    }
    case 'refuse_cancel_export': {
      const to = nextStatus('refuse_cancel_export', status, order.status_before_cancel as TOrderStatus | null)!;
      if (!(await repo.changeStatus(tx, customerId, id, ['cancel_export'], { status: to, status_before_cancel: null })))
        throw illegal(status, action);
      break;
    }
    case 'cancel':
      if (
        !(await repo.changeStatus(tx, customerId, id, ['pending_export'], {
          status: 'cancelled',
          cancelled_at: new Date(),
        }))
      )
        throw illegal(status, action);
      break;
  }
  if (failure) {
    const params = await abnormalOf(tx, customerId, failure);
    await repo.updateOrder(tx, customerId, id, { abnormal_code: failure.code, abnormal_params: params });
    await writeAudit(tx, actor, {
      action: `${action}_refused`,
      entity: 'outbound_order',
      entityId: id,
      after: { code: failure.code, params },
    });
    return new AppError(failure.code, params, failure.status);
  }
  await writeAudit(tx, actor, {
    action,
    entity: 'outbound_order',
    entityId: id,
    before: { status },
    after: { status: nextStatus(action, status, order.status_before_cancel as TOrderStatus | null) },
  });
  return null;
}

/**
 * One status change of one order (one transaction). A refused export is recorded on the order (it stays pending
 * with the reason visible) and then answered with its code, e.g. 409 INVENTORY_SHORTAGE.
 */
export async function transitionOrder(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  action: TOrderAction,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  const failure = await withTx(deps.db, (tx) => applyAction(tx, actor, id, action));
  if (failure) throw failure;
  return orderDetail(deps.db, customerId, id);
}

/** Export one order in its own transaction; the refusal (recorded on the order) is returned, not thrown. */
export async function exportOrderInTx(db: Db, actor: TActor, id: string): Promise<AppError | null> {
  try {
    return await withTx(db, (tx) => applyAction(tx, actor, id, 'export'));
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

/** The same action on many orders, each in its own transaction: every order is done fully or not at all. */
export async function bulkTransition(
  deps: TOutboundDeps,
  actor: TActor,
  input: { action: TOrderAction; ids: string[] },
): Promise<TBulkResult> {
  const customerId = tenantOf(actor);
  const results: TBulkResult['results'] = [];
  for (const id of [...new Set(input.ids)]) {
    let error: AppError | null;
    try {
      error = await withTx(deps.db, (tx) => applyAction(tx, actor, id, input.action));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      error = err;
    }
    const view = await repo.findOrderView(deps.db, customerId, id);
    results.push({
      id,
      number: view?.order.number ?? null,
      ok: !error,
      status: (view?.order.status as TOrderStatus | undefined) ?? null,
      error: error ? { code: error.code, params: error.params } : null,
    });
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

// ---- consignment numbers (/deliver-operation) ----

export async function setConsignment(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  input: TSetConsignment,
): Promise<TOrder> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.lockOrder(tx, customerId, id);
    if (!before) throw notFound();
    if (!acceptsConsignment(before.status as TOrderStatus)) throw illegal(before.status, 'set_consignment');
    const patch = {
      consignment_number: input.consignment_number,
      ...(input.shipping_date !== undefined ? { shipping_date: input.shipping_date } : {}),
      ...(input.piece_count !== undefined ? { piece_count: input.piece_count } : {}),
    };
    await repo.updateOrder(tx, customerId, id, patch).catch(orderConstraintError);
    await writeAudit(tx, actor, {
      action: 'set_consignment',
      entity: 'outbound_order',
      entityId: id,
      before: {
        consignment_number: before.consignment_number,
        shipping_date: before.shipping_date,
        piece_count: before.piece_count,
      },
      after: patch,
    });
  });
  const view = await repo.findOrderView(deps.db, customerId, id);
  return toOrder(view!);
}

/**
 * Consignment numbers for many orders at once (scanned, typed or from a file): all or nothing. A number used twice
 * in the input or already on another order, an unknown order, or an order past shipping refuses the whole input
 * with every problem and its row.
 */
export async function setConsignments(
  deps: TOutboundDeps,
  actor: TActor,
  items: Array<TConsignmentItem & { row?: number }>,
  lang: TLanguage,
): Promise<{ updated: number }> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const errors: Array<TRowIssue & { row: number }> = [];
    const seen = new Map<string, number>();
    const resolved: Array<{ id: string; item: TConsignmentItem; row: number }> = [];
    for (const [i, item] of items.entries()) {
      const row = item.row ?? i + 1;
      const prev = seen.get(item.consignment_number);
      if (prev !== undefined)
        errors.push({ row, code: 'DUPLICATE_VALUE', field: 'consignment_number', value: item.consignment_number });
      seen.set(item.consignment_number, row);
      const [match] = await tx
        .select({ id: o.id, status: o.status })
        .from(o)
        .where(
          and(eq(o.customer_id, customerId), or(eq(o.number, item.order), eq(o.platform_order_number, item.order))),
        )
        .limit(1);
      if (!match) errors.push({ row, code: 'NOT_FOUND', field: 'order', value: item.order });
      else if (!acceptsConsignment(match.status as TOrderStatus))
        errors.push({ row, code: 'INVALID_STATUS_TRANSITION', field: 'order', value: item.order });
      else resolved.push({ id: match.id, item, row });
    }
    const numbers = [...seen.keys()];
    for (let i = 0; i < numbers.length; i += 1000) {
      const taken = await tx
        .select({ id: o.id, consignment: o.consignment_number })
        .from(o)
        .where(and(eq(o.customer_id, customerId), inArray(o.consignment_number, numbers.slice(i, i + 1000))));
      const inInput = new Set(resolved.map((r) => r.id));
      for (const t of taken) {
        // Held by an order of this input, which gets its number from the input: not a conflict.
        if (!inInput.has(t.id))
          errors.push({
            row: seen.get(t.consignment!)!,
            code: 'DUPLICATE_VALUE',
            field: 'consignment_number',
            value: t.consignment,
          });
      }
    }
    if (errors.length) rejectRows(errors, lang);
    // Clear first, then set: two orders may swap numbers within one input.
    await tx
      .update(o)
      .set({ consignment_number: null })
      .where(
        and(
          eq(o.customer_id, customerId),
          inArray(
            o.id,
            resolved.map((r) => r.id),
          ),
        ),
      );
    for (const r of resolved) {
      await repo.updateOrder(tx, customerId, r.id, {
        consignment_number: r.item.consignment_number,
        ...(r.item.shipping_date !== undefined ? { shipping_date: r.item.shipping_date } : {}),
        ...(r.item.piece_count !== undefined ? { piece_count: r.item.piece_count } : {}),
      });
    }
    await writeAudit(tx, actor, {
      action: 'set_consignments',
      entity: 'outbound_order',
      after: { count: resolved.length, items: resolved.slice(0, 200).map((r) => ({ id: r.id, ...r.item })) },
    });
    return { updated: resolved.length };
  });
}

// ---- packing station ----

async function packViewOf(ex: Executor, customerId: string, id: string): Promise<TPackView> {
  const view = await repo.findOrderView(ex, customerId, id);
  if (!view) throw notFound();
  const items = await packItemsOf(ex, customerId, view.order);
  const complete =
    items.length > 0 &&
    items.every((i) => i.packed === i.expected && (!i.requires_serial || i.serials.length === i.expected));
  return { order: toOrder(view), items, complete };
}

export async function packView(deps: TOutboundDeps, actor: TActor, id: string): Promise<TPackView> {
  return packViewOf(deps.db, tenantOf(actor), id);
}

/** Lock an order for packing; an exported order is opened (→ online) by its first scan. */
async function lockForPacking(tx: Tx, actor: TActor, id: string): Promise<repo.TOrderRow> {
  const customerId = tenantOf(actor);
  let order = await repo.lockOrder(tx, customerId, id);
  if (!order) throw notFound();
  if (!canPack(order.status as TOrderStatus)) throw illegal(order.status, 'pack');
  if (order.status === 'exported') {
    order = await startPackingLocked(tx, order);
    await writeAudit(tx, actor, {
      action: 'start_packing',
      entity: 'outbound_order',
      entityId: id,
      before: { status: 'exported' },
      after: { status: 'online' },
    });
  }
  return order;
}

/**
 * One scanned unit at the packing station: the barcode (or product number) must be an item of the order that is
 * not fully packed yet; an item that needs an IMEI/serial needs it with the scan, and a serial ships once.
 */
export async function packScan(deps: TOutboundDeps, actor: TActor, id: string, scan: TPackScan): Promise<TPackView> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    await lockForPacking(tx, actor, id);
    const items = await repo.packItems(tx, customerId, id);
    const candidates = new Set((await repo.productsByCode(tx, customerId, scan.barcode)).map((p) => p.id));
    const matching = items.filter((i) => candidates.has(i.product_id));
    if (matching.length === 0) throw new AppError('PACK_ITEM_NOT_IN_ORDER', { barcode: scan.barcode });
    const item = matching.find((i) => i.packed < i.expected);
    if (!item)
      throw new AppError('PACK_ITEM_COMPLETE', { barcode: scan.barcode, product_number: matching[0]!.product_number });
    if (item.requires_serial) {
      if (!scan.serial) throw new AppError('REQUIRED_FIELD', { field: 'serial', product_number: item.product_number });
      const used = await repo.findActiveSerial(tx, customerId, scan.serial);
      if (used) throw new AppError('SERIAL_ALREADY_SHIPPED', { serial: scan.serial, order_number: used.order_number });
      try {
        await tx.transaction((sp) =>
          repo.insertSerial(sp, {
            customer_id: customerId,
            order_id: id,
            product_id: item.product_id,
            serial: scan.serial!,
            created_by: actor.id,
          }),
        );
      } catch (err) {
        if (sqlState(err) !== '23505') throw err;
        const other = await repo.findActiveSerial(tx, customerId, scan.serial);
        throw new AppError('SERIAL_ALREADY_SHIPPED', { serial: scan.serial, order_number: other?.order_number ?? '' });
      }
    }
    if (!(await repo.addPackedUnit(tx, customerId, id, item.product_id)))
      throw new AppError('PACK_ITEM_COMPLETE', { barcode: scan.barcode, product_number: item.product_number });
    await writeAudit(tx, actor, {
      action: 'pack_scan',
      entity: 'outbound_order',
      entityId: id,
      after: { product_id: item.product_id, serial: scan.serial ?? null },
    });
  });
  return packViewOf(deps.db, customerId, id);
}

/** Start the scanning of an order over (a box packed wrong): counts and captured serials go back to zero. */
export async function packReset(deps: TOutboundDeps, actor: TActor, id: string): Promise<TPackView> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    await lockForPacking(tx, actor, id);
    await repo.resetPack(tx, customerId, id);
    await writeAudit(tx, actor, { action: 'pack_reset', entity: 'outbound_order', entityId: id });
  });
  return packViewOf(deps.db, customerId, id);
}

/**
 * Confirm a packed order: every unit scanned (and its serial captured), a consignment number present, the packaging
 * taken out of stock, the reserved stock consumed through the engine (the ledger's outbound rows), status closed.
 */
export async function shipOrder(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  input: TShipOrder,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const order = await repo.lockOrder(tx, customerId, id);
    if (!order) throw notFound();
    if (!canApply('ship', order.status as TOrderStatus)) throw illegal(order.status, 'ship');
    if (!order.consignment_number) throw new AppError('REQUIRED_FIELD', { field: 'consignment_number' });
    const view = await packViewOf(tx, customerId, id);
    if (!view.complete) throw new AppError('PACK_INCOMPLETE');
    const packaging = input.packaging ?? [];
    const known = await repo.packagingExists(
      tx,
      customerId,
      packaging.map((p) => p.packaging_material_id),
    );
    for (const p of packaging) {
      if (!known.has(p.packaging_material_id))
        throw new AppError('NOT_FOUND', { field: 'packaging_material_id', id: p.packaging_material_id });
      if (!(await repo.takePackaging(tx, customerId, p.packaging_material_id, p.quantity)))
        throw new AppError('PACKAGING_SHORTAGE', { packaging_material_id: p.packaging_material_id });
    }
    await repo.insertPackagingUses(
      tx,
      packaging.map((p) => ({ customer_id: customerId, order_id: id, ...p })),
    );
    const movements = await engine.consumeReserved(tx, engine.stockActorOf(actor), {
      document: { type: repo.ORDER_DOCUMENT, id, number: order.number },
    });
    const shipped = -movements.reduce((s, m) => s + m.quantity, 0);
    const packed = view.items.reduce((s, i) => s + i.packed, 0);
    // The box holds exactly what was reserved: the pack items were made from the reservations.
    if (shipped !== packed) throw new AppError('PACK_INCOMPLETE', { shipped, packed });
    const moved = await repo.changeStatus(tx, customerId, id, ['online'], {
      status: 'closed',
      closed_at: new Date(),
      closed_by: actor.id,
      shipping_date: order.shipping_date ?? taipeiToday(),
    });
    if (!moved) throw illegal(order.status, 'ship');
    await writeAudit(tx, actor, {
      action: 'ship',
      entity: 'outbound_order',
      entityId: id,
      before: { status: order.status },
      after: { status: 'closed', units: shipped, packaging },
    });
  });
  return orderDetail(deps.db, customerId, id);
}

// ---- returns (issue #7) ----

export type TReturnEvent = Extract<
  TOrderEvent,
  'return_registered' | 'return_confirmed' | 'return_unconfirmed' | 'return_cancelled'
>;

/**
 * For the returns module: move a shipped order along the returns part of the workflow **in the caller's
 * transaction** (closed → returned → closed_returned, and back). Leaving closed frees the order's IMEIs so the
 * returned devices may ship again; coming back to closed takes them back (409 SERIAL_ALREADY_SHIPPED if one has
 * shipped again meanwhile). Stock is the returns module's business
 * (it posts the returned goods through the stock engine). 404 for another seller's order, 409 from any other status.
 */
export async function applyReturnEvent(
  tx: Tx,
  actor: TActor,
  input: { orderId: string; event: TReturnEvent; returnNumber?: string },
): Promise<TOrder> {
  const customerId = tenantOf(actor);
  const order = await repo.lockOrder(tx, customerId, input.orderId);
  if (!order) throw notFound();
  const to = nextStatus(input.event, order.status as TOrderStatus);
  if (!to) throw illegal(order.status, input.event);
  const moved = await repo.changeStatus(tx, customerId, order.id, [order.status as TOrderStatus], { status: to });
  if (!moved) throw illegal(order.status, input.event);
  // The goods are back from the moment the order leaves closed; back to closed, its IMEIs count as shipped again.
  if (order.status === 'closed') await repo.setSerialsReturned(tx, customerId, order.id, true);
  if (to === 'closed') {
    try {
      await tx.transaction((sp) => repo.setSerialsReturned(sp, customerId, order.id, false));
    } catch (err) {
      if (sqlState(err) === '23505') throw new AppError('SERIAL_ALREADY_SHIPPED', { order_number: order.number });
      throw err;
    }
  }
  await writeAudit(tx, actor, {
    action: input.event,
    entity: 'outbound_order',
    entityId: order.id,
    before: { status: order.status },
    after: { status: to, return_number: input.returnNumber ?? null },
  });
  const view = await repo.findOrderView(tx, customerId, order.id);
  return toOrder(view!);
}

/**
 * For the returns module: a seller's shipped order with its lines and what actually left the warehouse per product
 * and lot (from the stock ledger), to prefill a return receipt. 404 for another seller's order.
 */
export async function findShippedOrder(ex: Executor, customerId: string, orderId: string) {
  const view = await repo.findOrderView(ex, customerId, orderId);
  if (!view) throw notFound();
  const lines = await repo.orderLines(ex, customerId, [orderId]);
  return {
    order: toOrder(view),
    lines: lines.map(toLine),
    shipped: await repo.shippedQuantities(ex, customerId, orderId),
  };
}

// ---- IMEI (/deliver-imei) ----

export async function listSerials(
  deps: TOutboundDeps,
  actor: TActor,
  q: {
    page: number;
    page_size: number;
    search?: string;
    ordering?: string;
    serial?: string;
    order_id?: string;
    product_id?: string;
  },
) {
  const customerId = tenantOf(actor);
  const s = outbound_serials;
  const where = and(
    eq(s.customer_id, customerId),
    q.serial ? eq(s.serial, q.serial) : undefined,
    q.order_id ? eq(s.order_id, q.order_id) : undefined,
    q.product_id ? eq(s.product_id, q.product_id) : undefined,
    searchWhere(q.search, [s.serial, o.number, o.platform_order_number, o.consignment_number, products.number]),
  );
  const order = orderingOf(
    q.ordering,
    { serial: s.serial, created_at: s.created_at, order_number: o.number },
    '-created_at',
    s.id,
  );
  const { rows, count } = await repo.listSerials(deps.db, where, order, pageWindow(q));
  return { count, results: rows.map(toSerial) };
}

// ---- counts (/deliver-cnt) ----

export async function orderCounts(
  deps: TOutboundDeps,
  actor: TActor,
  q: { date_field: 'created_at' | 'shipping_date' | 'closed_at'; date_from?: string; date_to?: string },
): Promise<TOrderCounts> {
  const customerId = tenantOf(actor);
  const where = sql`o.customer_id = ${customerId} and ${rangeSql(q)}`;
  const day =
    q.date_field === 'shipping_date'
      ? sql`o.shipping_date::text`
      : sql`to_char(o.${sql.raw(q.date_field)} + interval '8 hours', 'YYYY-MM-DD')`;
  const [byStatus, byDate, byChannel, byCarrier] = await Promise.all([
    repo.countBy(deps.db, where, sql`o.status`),
    repo.countBy(deps.db, where, day),
    repo.countBy(deps.db, where, sql`coalesce(pf.code, o.channel)`),
    repo.countBy(deps.db, where, sql`lp.code`),
  ]);
  const [platforms, providers] = await Promise.all([
    repo.platformsOf(deps.db, customerId),
    repo.providersOf(deps.db, customerId),
  ]);
  const label = (rows: Array<{ key: string | null; count: number }>, names: Map<string, string>) =>
    rows.map((r) => ({ key: r.key, label: r.key ? (names.get(r.key) ?? null) : null, count: r.count }));
  return {
    total: byStatus.reduce((s, r) => s + r.count, 0),
    by_status: label(byStatus, new Map()),
    by_date: label(byDate, new Map()),
    by_channel: label(byChannel, new Map(platforms.map((p) => [p.code, p.name]))),
    by_carrier: label(byCarrier, new Map(providers.map((p) => [p.code, p.name]))),
  };
}

function rangeSql(q: { date_field: string; date_from?: string; date_to?: string }): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.date_field === 'shipping_date') {
    if (q.date_from) parts.push(sql`o.shipping_date >= ${q.date_from}`);
    if (q.date_to) parts.push(sql`o.shipping_date <= ${q.date_to}`);
    if (q.date_from || q.date_to) parts.push(sql`o.shipping_date is not null`);
  } else {
    const col = sql.raw(`o.${q.date_field === 'closed_at' ? 'closed_at' : 'created_at'}`);
    if (q.date_from) parts.push(sql`${col} >= ${taipeiMidnight(q.date_from)}`);
    if (q.date_to) parts.push(sql`${col} < ${taipeiMidnight(q.date_to, 1)}`);
    if (q.date_field === 'closed_at') parts.push(sql`o.closed_at is not null`);
  }
  return sql.join(parts, sql` and `);
}

// ---- /customize ----

export async function getColumnSettings(deps: TOutboundDeps, actor: TActor): Promise<TColumnSettings> {
  const rows = await repo.columnSettings(deps.db, tenantOf(actor));
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
    await repo.saveColumnSettings(tx, customerId, input.screen, columns);
    await writeAudit(tx, actor, {
      action: 'save_columns',
      entity: 'outbound_column_settings',
      after: { ...input, columns },
    });
  });
  return getColumnSettings(deps, actor);
}
