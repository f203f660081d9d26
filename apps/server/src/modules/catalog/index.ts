/**
 * The product master: products, their components (sets), categories, packaging materials; the product list,
 * import, export and batch update. Owns product_categories, products, product_components and packaging_materials.
 * Publishes `catalog.product-codes-changed` (catalog.events.ts; its subscribers in src/events.ts) when a product number or barcode becomes known.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { productCodesChanged } from './catalog.events';
export {
  allProducts,
  componentsOf,
  packagingExists,
  productsByCode,
  productsByCodeKeys,
  productsByIds,
  type TProductInfo,
  takePackaging,
} from './catalog.lookups.repository';
export { findPackagingByIds, findProductByCode, findProductsByIds } from './catalog.repository';
export { listProducts, setProductListing } from './catalog.service';
