/**
 * Stocktakes: counts by location or product, their lines, and posting the differences into stock. Owns stocktakes,
 * stocktake_locations, stocktake_products and stocktake_lines.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */
export { stocktakesPurge } from './stocktake.repository';
