/**
 * The outbound module's use cases, as the rest of the server sees them: the returns module, the importer, the
 * exports and the bench import from here. The use cases live in one file each (see its README.md);
 * inside the module, import the file that holds the use case, not this one.
 */

export { setConsignment, setConsignments } from './outbound.consignments';
export { ORDER_SORT, orderWhere, parseIds } from './outbound.list.repository';
export {
  createOrder,
  defaultsContext,
  fillDefaults,
  findShippedOrder,
  getColumnSettings,
  getOrder,
  listOrders,
  lookupOrder,
  ORDER_PREFIX,
  orderCounts,
  saveColumnSettings,
  type TDefaultsContext,
  updateOrder,
} from './outbound.orders';
export { listSerials, packReset, packScan, packView, shipOrder } from './outbound.packing';
export { bulkTransition, exportOrders } from './outbound.pipeline';
export {
  applyReturnEvent,
  exportOrderInTx,
  startPackingLocked,
  type TReturnEvent,
  transitionOrder,
} from './outbound.status';
export { orderDetail, type TOutboundDeps, toAllocation, toLine, toOrder } from './outbound.views';
