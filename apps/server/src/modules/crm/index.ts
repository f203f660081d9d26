/**
 * The staff's CRM area: the list of sellers, their accounts, contracts and label sheets as staff see them.
 * Owns no table of its own yet (it writes customers, users and label_sheets: to move behind their modules).
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
