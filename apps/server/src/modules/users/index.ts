/**
 * Staff and seller users: invitations, roles and permissions, deactivation, password resets by staff, the audit
 * log of user changes.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
