/**
 * Carriers: shipment labels and tracking with ECPay and T-cat (label creation, status notifications), the
 * convenience-store picker (store map) and the order's chosen store. Owns carrier_events, carrier_labels,
 * order_cvs_stores and cvs_map_requests.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { putCvsStore } from './carriers.cvs';
export { deleteCarrierEventsOfOrders } from './carriers.repository';
