/**
 * Outbound orders: order intake (screen, file import, partner API, store, Shopee), allocation and release of stock,
 * export to picking, collection batches, packing and shipping, consignments, order forms. Owns collection_batches,
 * outbound_orders, outbound_order_lines, outbound_pack_items, outbound_serials, outbound_packaging_uses, pick_scans, pick_totes,
 * order_import_forms, outbound_column_settings and release_channels (saved wave rules). Publishes `outbound.orders-shipped` (when an order ships).
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { setConsignment } from './outbound.consignments';
export { ordersShipped } from './outbound.events';
export { createOrdersFromRows } from './outbound.intake';
export { codeKey, loadOrderLookups, type TOrderIntakeRow, type TOrderLookups } from './outbound.intake.rows';
export { findShippedOrder, getOrder, lookupOrder, refreshShipBy } from './outbound.orders';
export {
  findOrderIdByCode,
  findOrderIdByNumberOrConsignment,
  findOrders,
  lockOrder,
  orderIdsByPlatformNumber,
  orderNumbersOf,
  outboundOrdersPurge,
  type TOrderRow,
} from './outbound.orders.repository';
export { markAbnormal } from './outbound.pipeline.repository';
export { applyReturnEvent, moveOrder, type TReturnEvent, transitionOrder } from './outbound.status';
export { acceptsConsignment, SHIPPED_OUT_STATUSES } from './outbound.workflow';
