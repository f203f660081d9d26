/**
 * Analysis and dashboard: the read-only figures of a seller's stock, orders and shipments (dashboard tiles,
 * shipment and stock reports). Owns no table; reads the others' tables for its reports.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
