/**
 * Logistics providers and e-commerce platforms a seller works with, and their credentials. Owns
 * logistics_providers and ecommerce_platforms (read by carriers and Shopee through the read models below; Shopee
 * makes a shop's platform with `insertPlatform`).
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export {
  findPlatform,
  findPlatformByCode,
  insertPlatform,
  insertProvider,
  platformCodes,
  providerCodes,
  providersByIds,
  providersByMerchantId,
  type TProviderRow,
} from './partners.repository';
export { providerCredentials } from './partners.service';
