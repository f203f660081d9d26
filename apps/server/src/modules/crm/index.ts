/**
 * The staff's CRM area: the list of sellers, their accounts, contracts and label sheets as staff see them.
 * Owns no table: its writes go through account (a seller's active flag, a user's password set by staff), the
 * built-in label sheets come from labels, and its cross-seller reports are read models in crm.repository.ts.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
