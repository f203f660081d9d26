/**
 * The seller's company profile (name, addresses, contact, sender details used on labels and forms). Writes its
 * fields of the customers row.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
