/**
 * The stock engine and stock screens: balances per product, lot and location, movements, reservations of orders,
 * transfers; lot / expiry rules. Owns stock_balances, stock_movements, stock_reservations and stock_transfers.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export {
  holdsStockSql,
  orderAllocations,
  reservedOnlyInAreaSql,
  reservedUnitsSql,
  shippedAllocations,
  shippedQuantities,
  type TAllocationRow,
} from './stock.documents.repository';
export {
  consumeReserved,
  holdsReservations,
  lockBalances,
  postAdjustment,
  postInbound,
  release,
  reserve,
  reserveForOrder,
  reserveForOrders,
  stockActorOf,
  type TAdjustmentLine,
  type TInboundLine,
  type TProductInfo,
  type TStockDocument,
  type TStockReason,
} from './stock.engine';
export {
  deleteEmptyReservations,
  productStock as productStockRows,
  stockWarehouses,
  storedAt,
  type TStoredRow,
} from './stock.repository';
export { lotRuleViolation, sellableUntil, stockKeyString } from './stock.rules';
export { productStock } from './stock.service';
