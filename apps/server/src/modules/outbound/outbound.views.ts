import type { TOrder, TOrderDetail, TOrderSerial, TOrderStatus, TPackItem } from '@wms/contracts';
import { allOf, type Db, type Executor } from '../../db/client';
import { AppError, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { iso } from '../../platform/listing';
import * as catalog from '../catalog';
import * as engine from '../stock';
import * as orderRepo from './outbound.orders.repository';
import * as packRepo from './outbound.packing.repository';
import { canApply } from './outbound.workflow';

/**
 * What the outbound use cases share: their dependencies, their two errors, and what the API shows of an order (rows
 * → contract shapes, the order detail with its pack items).
 */

export interface TOutboundDeps {
  db: Db;
  /** For the events a write hands on in its transaction (a shipped Shopee order's tracking number). */
  jobs?: JobQueue;
}

/** 409 for an event (or an edit) the order's status does not allow. */
export const illegal = (status: string, event: string) =>
  new AppError('INVALID_STATUS_TRANSITION', { status, action: event });

export function toOrder(v: orderRepo.TOrderView): TOrder {
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
    ship_by: iso(o.ship_by),
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

export function toLine(l: Awaited<ReturnType<typeof orderRepo.orderLines>>[number]) {
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

export function toAllocation(a: engine.TAllocationRow) {
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

export function toSerial(s: Awaited<ReturnType<typeof packRepo.orderSerials>>[number]): TOrderSerial {
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
export function expectedFromAllocations(allocations: engine.TAllocationRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of allocations) m.set(a.product_id, (m.get(a.product_id) ?? 0) + a.quantity);
  return m;
}

/** What the packing station counts for an order: its pack items, or, before packing starts, what they will be. */
export async function packItemsOf(ex: Executor, customerId: string, order: orderRepo.TOrderRow): Promise<TPackItem[]> {
  const serials = await packRepo.orderSerials(ex, customerId, order.id);
  const serialsOf = (productId: string) => serials.filter((s) => s.product_id === productId).map((s) => s.serial);
  const stored = await packRepo.packItems(ex, customerId, order.id);
  if (stored.length) return stored.map((i) => ({ ...i, serials: serialsOf(i.product_id) }));
  if (!canApply('start_packing', order.status as TOrderStatus)) return [];
  // Not opened at the packing station yet: what it will expect, read from the reservations.
  const expected = expectedFromAllocations(
    await engine.orderAllocations(ex, customerId, orderRepo.ORDER_DOCUMENT, [order.id]),
  );
  const info = await catalog.productsByIds(ex, customerId, [...expected.keys()]);
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

/** An order with its lines, reservations, pack items, serials and packaging (404 for another seller's order). */
export async function orderDetail(ex: Executor, customerId: string, id: string): Promise<TOrderDetail> {
  const view = await orderRepo.findOrderView(ex, customerId, id);
  if (!view) throw notFound();
  const [lines, allocations, serials, packaging, packItems] = await allOf(ex, [
    () => orderRepo.orderLines(ex, customerId, [id]),
    () => engine.orderAllocations(ex, customerId, orderRepo.ORDER_DOCUMENT, [id]),
    () => packRepo.orderSerials(ex, customerId, id),
    () => packRepo.orderPackaging(ex, customerId, id),
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

/** The order as the list shows it, read after a change (the caller knows it exists). */
export async function orderSummary(ex: Executor, customerId: string, id: string): Promise<TOrder> {
  const view = await orderRepo.findOrderView(ex, customerId, id);
  return toOrder(view!);
}
