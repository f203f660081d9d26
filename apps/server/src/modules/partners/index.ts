/**
 * Logistics providers and e-commerce platforms a seller works with, and their credentials. Owns
 * logistics_providers and ecommerce_platforms.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { findPlatform, providersByIds, providersByMerchantId, type TProviderRow } from './partners.repository';
export { providerCredentials } from './partners.service';
