/**
 * The online store: store members (buyers of a seller's store) and their orders, which become outbound orders.
 * Owns stores, store_members and store_orders.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
