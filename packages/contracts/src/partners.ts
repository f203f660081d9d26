import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZOk, ZPage } from './common';
import { defineRoutes } from './routes';
import { ZBoolFilter, ZCode, ZName } from './warehouse';

/** Package size (specification) codes of T-cat / ECPay HOME: code → maximum length + width + height in cm. */
export const PACKAGE_SIZE_CODES = { '0001': 60, '0002': 90, '0003': 120, '0004': 150 } as const;
/** Temperature layers of T-cat / ECPay (`Thermosphere`, `Temperature`): ambient, refrigerated, frozen. */
export const TEMPERATURE_CODES = { '0001': 'ambient', '0002': 'refrigerated', '0003': 'frozen' } as const;
/** The other carrier scheme (HCT `eprdcl2`): general, frozen, refrigerated. */
export const HCT_TEMPERATURE_CODES = { '001': 'general', '003': 'frozen', '008': 'refrigerated' } as const;
/** Payment terms of a carrier contract (HCT `eprdct`): monthly, collect on arrival, cash. */
export const CONTRACT_TERMS = { '11': 'monthly', '21': 'collect_on_arrival', '31': 'cash' } as const;
/** Billing basis of a carrier contract: total weight or total length. */
export const BILLING_BASES = { '001': 'total_weight', '002': 'total_length' } as const;

/** Carrier APIs a logistics provider can get consignment numbers from (null: none, numbers typed or imported). */
export const CARRIER_TYPES = ['ecpay', 'tcat'] as const;
export type TCarrierType = (typeof CARRIER_TYPES)[number];

export const SIZE_CODE_VALUES = Object.keys(PACKAGE_SIZE_CODES) as Array<keyof typeof PACKAGE_SIZE_CODES>;
export const TEMPERATURE_CODE_VALUES = [
  ...(Object.keys(TEMPERATURE_CODES) as Array<keyof typeof TEMPERATURE_CODES>),
  ...(Object.keys(HCT_TEMPERATURE_CODES) as Array<keyof typeof HCT_TEMPERATURE_CODES>),
];
export const CONTRACT_TERM_VALUES = Object.keys(CONTRACT_TERMS) as Array<keyof typeof CONTRACT_TERMS>;
export const BILLING_BASIS_VALUES = Object.keys(BILLING_BASES) as Array<keyof typeof BILLING_BASES>;

/**
 * Carrier rules between the codes: the 4-digit temperature scheme goes with the size codes (T-cat/ECPay), and
 * 150 cm (0004) is not accepted chilled or frozen. Returns the offending field or null.
 */
export function providerCodeIssue(p: {
  temperature_code?: string | null;
  specification_code?: string | null;
}): 'specification_code' | null {
  if (p.specification_code === '0004' && (p.temperature_code === '0002' || p.temperature_code === '0003'))
    return 'specification_code';
  return null;
}

/** A secret shown masked: the last four characters, the rest as bullets. */
export function maskSecret(hint: string, present: boolean): string | null {
  if (!present) return null;
  return `••••••••${hint}`;
}

export const ZLogisticsProvider = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  merchant_id: z.string(),
  /** Masked (`••••••••x5x9`); null when not set. The clear value never leaves the server. */
  hash_key: z.string().nullable(),
  hash_iv: z.string().nullable(),
  contract_type: z.enum(CONTRACT_TERM_VALUES).nullable(),
  temperature_code: z.enum(TEMPERATURE_CODE_VALUES).nullable(),
  specification_code: z.enum(SIZE_CODE_VALUES).nullable(),
  billing_basis: z.enum(BILLING_BASIS_VALUES).nullable(),
  carrier_type: z.enum(CARRIER_TYPES).nullable(),
  /** The sender printed on this contract's consignments (an order's own sender fields win field by field). */
  sender_name: z.string(),
  sender_phone: z.string(),
  sender_postcode: z.string(),
  sender_address: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TLogisticsProvider = z.infer<typeof ZLogisticsProvider>;

const ZSecretInput = z.string().trim().max(128).nullable();
export const ZCreateLogisticsProvider = z.strictObject({
  code: ZCode,
  name: ZName,
  merchant_id: z.string().trim().max(40).optional(),
  /** Omit to keep, '' or null to clear, a value to replace. */
  hash_key: ZSecretInput.optional(),
  hash_iv: ZSecretInput.optional(),
  contract_type: z.enum(CONTRACT_TERM_VALUES).nullable().optional(),
  temperature_code: z.enum(TEMPERATURE_CODE_VALUES).nullable().optional(),
  specification_code: z.enum(SIZE_CODE_VALUES).nullable().optional(),
  billing_basis: z.enum(BILLING_BASIS_VALUES).nullable().optional(),
  carrier_type: z.enum(CARRIER_TYPES).nullable().optional(),
  /** Checked when saved against the carrier's rules (`senderIssue`): ECPay refuses a consignment otherwise. */
  sender_name: z.string().trim().max(40).optional(),
  sender_phone: z.string().trim().max(30).optional(),
  sender_postcode: z.string().trim().max(10).optional(),
  sender_address: z.string().trim().max(120).optional(),
  is_active: z.boolean().optional(),
});
export type TCreateLogisticsProvider = z.infer<typeof ZCreateLogisticsProvider>;
export const ZUpdateLogisticsProvider = ZCreateLogisticsProvider.partial();
export type TUpdateLogisticsProvider = z.infer<typeof ZUpdateLogisticsProvider>;
export const ZLogisticsProviderListQuery = ZListQuery.extend({
  is_active: ZBoolFilter.optional(),
  temperature_code: z.enum(TEMPERATURE_CODE_VALUES).optional(),
});
export const LOGISTICS_PROVIDER_ORDERING = ['code', 'name', 'merchant_id', 'created_at'] as const;

export const ZEcommercePlatform = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  store_number: z.string(),
  url: z.string(),
  callback_enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TEcommercePlatform = z.infer<typeof ZEcommercePlatform>;
export const ZCreateEcommercePlatform = z.strictObject({
  code: ZCode,
  name: ZName,
  store_number: z.string().trim().max(60).optional(),
  url: z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === '' || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v))
    .optional(),
  callback_enabled: z.boolean().optional(),
});
export type TCreateEcommercePlatform = z.infer<typeof ZCreateEcommercePlatform>;
export const ZUpdateEcommercePlatform = ZCreateEcommercePlatform.partial();
export type TUpdateEcommercePlatform = z.infer<typeof ZUpdateEcommercePlatform>;
export const ZEcommercePlatformListQuery = ZListQuery.extend({ callback_enabled: ZBoolFilter.optional() });
export const ECOMMERCE_PLATFORM_ORDERING = ['code', 'name', 'store_number', 'created_at'] as const;

const P = ZIdParams;
export const partnerRoutes = defineRoutes({
  listLogisticsProviders: {
    method: 'GET',
    path: '/api/logistics-providers/',
    auth: 'customer',
    perm: 'lookup',
    query: ZLogisticsProviderListQuery,
    response: ZPage(ZLogisticsProvider),
  },
  createLogisticsProvider: {
    method: 'POST',
    path: '/api/logistics-providers/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateLogisticsProvider,
    response: ZLogisticsProvider,
  },
  getLogisticsProvider: {
    method: 'GET',
    path: '/api/logistics-providers/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: P,
    response: ZLogisticsProvider,
    tenantScoped: true,
  },
  updateLogisticsProvider: {
    method: 'PATCH',
    path: '/api/logistics-providers/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    body: ZUpdateLogisticsProvider,
    response: ZLogisticsProvider,
    tenantScoped: true,
  },
  deleteLogisticsProvider: {
    method: 'DELETE',
    path: '/api/logistics-providers/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },
  exportLogisticsProviders: {
    method: 'GET',
    path: '/api/logistics-providers/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZLogisticsProviderListQuery,
    response: z.unknown(),
  },
  listEcommercePlatforms: {
    method: 'GET',
    path: '/api/ecommerce-platforms/',
    auth: 'customer',
    perm: 'lookup',
    query: ZEcommercePlatformListQuery,
    response: ZPage(ZEcommercePlatform),
  },
  createEcommercePlatform: {
    method: 'POST',
    path: '/api/ecommerce-platforms/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateEcommercePlatform,
    response: ZEcommercePlatform,
  },
  getEcommercePlatform: {
    method: 'GET',
    path: '/api/ecommerce-platforms/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: P,
    response: ZEcommercePlatform,
    tenantScoped: true,
  },
  updateEcommercePlatform: {
    method: 'PATCH',
    path: '/api/ecommerce-platforms/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    body: ZUpdateEcommercePlatform,
    response: ZEcommercePlatform,
    tenantScoped: true,
  },
  deleteEcommercePlatform: {
    method: 'DELETE',
    path: '/api/ecommerce-platforms/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },
  exportEcommercePlatforms: {
    method: 'GET',
    path: '/api/ecommerce-platforms/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZEcommercePlatformListQuery,
    response: z.unknown(),
  },
});
