/**
 * The online store: store members (buyers of a seller's store) and their orders, which become outbound orders.
 * Owns stores, store_members and store_orders.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { deleteStoreOrdersOf } from './store.repository';
