/**
 * Data retention (/database-clean): the operator's retention settings and the scheduled purge of old rows of
 * each kind. Owns retention_settings.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Nothing here is used by other modules: its routes (and jobs) are registered in app.ts (and jobs.ts).
export {};
