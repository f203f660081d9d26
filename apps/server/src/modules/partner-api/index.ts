/**
 * The partner API (API-key access for a seller's own systems): products, stock, inbound receipts and orders, with
 * idempotency keys. Owns no table; calls the other modules' use cases.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
