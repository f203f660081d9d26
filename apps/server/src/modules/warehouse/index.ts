/**
 * Warehouses, areas, shelves and storage locations, with their import and export. Owns warehouses, areas, shelves
 * and storage_locations.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { findLocationsByIds } from './warehouse.locations.repository';
export { findWarehouse, insertWarehouse } from './warehouse.repository';
