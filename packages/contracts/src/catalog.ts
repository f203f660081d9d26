import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZMoney, ZOk, ZPage } from './common';
import type { TLanguage } from './errors';
import { ZJob } from './jobs';
import { defineRoutes } from './routes';
import { ZBoolFilter, ZBulkDelete, ZBulkDeleteResult, ZCode, ZImportUpload, ZName, ZUploadBase64 } from './warehouse';

/** The default category every seller has (spec §9: "Default category: 0015 other"). */
export const DEFAULT_CATEGORY_CODE = '0015';
export const DEFAULT_CATEGORY_NAME = { 'zh-TW': '其他', ja: 'その他', en: 'Other' } as const;

export const PRODUCT_TYPES = ['single', 'combination'] as const;
export const PRODUCT_STATUSES = ['active', 'inactive'] as const;
/** Type and status words as the product list and its Excel export show them; the import accepts them in any language. */
export const PRODUCT_VALUE_LABELS: {
  type: Record<(typeof PRODUCT_TYPES)[number], Record<TLanguage, string>>;
  status: Record<(typeof PRODUCT_STATUSES)[number], Record<TLanguage, string>>;
} = {
  type: {
    single: { 'zh-TW': '單一商品', ja: '単品', en: 'Single' },
    combination: { 'zh-TW': '組合商品', ja: 'セット商品', en: 'Combination' },
  },
  status: {
    active: { 'zh-TW': '啟用', ja: '有効', en: 'Active' },
    inactive: { 'zh-TW': '停用', ja: '無効', en: 'Inactive' },
  },
};
export const WEIGHT_UNITS = ['g', 'kg'] as const;
/** Shelf-life and sellable-date rule periods: 1 to 12 months (spec §9). */
export const MONTH_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/**
 * Check digit of GS1 numeric barcodes (EAN-8, UPC-A, EAN-13, GTIN-14): weights 3,1 from the right, excluding the
 * check digit itself.
 */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * An international barcode: numeric ones must be EAN-8, UPC-A (12), EAN-13 or GTIN-14 with a correct check digit;
 * anything else (internal alphanumeric codes printed as Code128) is accepted as printable ASCII.
 */
export function isValidProductBarcode(value: string): boolean {
  if (/^\d+$/.test(value)) {
    if (![8, 12, 13, 14].includes(value.length)) return false;
    return gs1CheckDigit(value.slice(0, -1)) === Number(value.at(-1));
  }
  return /^[\x21-\x7e]{1,48}$/.test(value);
}

/** A decimal string ≥ 0 (weights, dimensions). */
export const ZDecimal = z.string().regex(/^\d{1,9}(\.\d{1,3})?$/);
const ZPrice = ZMoney.refine((v) => !v.startsWith('-'));
const ZDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const ZCount = z.number().int().min(0).max(1_000_000_000);

// ---- categories ----
export const ZProductCategory = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  is_default: z.boolean(),
  product_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProductCategory = z.infer<typeof ZProductCategory>;
export const ZCreateProductCategory = z.strictObject({ code: ZCode, name: ZName });
export type TCreateProductCategory = z.infer<typeof ZCreateProductCategory>;
export const ZUpdateProductCategory = ZCreateProductCategory.partial();
export type TUpdateProductCategory = z.infer<typeof ZUpdateProductCategory>;
export const PRODUCT_CATEGORY_ORDERING = ['code', 'name', 'created_at'] as const;

// ---- products ----
export const ZComponentInput = z.strictObject({
  component_id: ZId,
  quantity: z.number().int().min(1).max(100_000),
});
export const ZProductComponent = z.object({
  component_id: ZId,
  number: z.string(),
  name: z.string(),
  barcode: z.string().nullable(),
  quantity: z.number().int(),
});
export type TProductComponent = z.infer<typeof ZProductComponent>;

const productFields = {
  number: ZCode,
  name: z.string().trim().min(1).max(200),
  barcode: z.string().trim().max(48).refine(isValidProductBarcode).nullable(),
  type: z.enum(PRODUCT_TYPES),
  category_id: ZId.nullable(),
  unit: z.string().trim().max(20),
  unit_price: ZPrice.nullable(),
  selling_price: ZPrice.nullable(),
  cost: ZPrice.nullable(),
  weight: ZDecimal.nullable(),
  weight_unit: z.enum(WEIGHT_UNITS),
  length_cm: ZDecimal.nullable(),
  width_cm: ZDecimal.nullable(),
  height_cm: ZDecimal.nullable(),
  volume_required: z.boolean(),
  fragile: z.boolean(),
  can_pack_together: z.boolean(),
  safety_stock: ZCount,
  stocking_days: z.number().int().min(0).max(3650),
  shelf_life_months: z.number().int().min(1).max(12).nullable(),
  sellable_rule_months: z.number().int().min(1).max(12).nullable(),
  allowed_sale_date: ZDate.nullable(),
  allow_shipping: z.boolean(),
  online_listing: z.boolean(),
  status: z.enum(PRODUCT_STATUSES),
  requires_serial: z.boolean(),
  default_logistics_provider_id: ZId.nullable(),
  default_platform_id: ZId.nullable(),
};

/** Create: number and name are required, everything else has the database default. */
export const ZCreateProduct = z
  .strictObject(productFields)
  .partial()
  .required({ number: true, name: true })
  .extend({ components: z.array(ZComponentInput).max(100).optional() });
export type TCreateProduct = z.infer<typeof ZCreateProduct>;
export const ZUpdateProduct = ZCreateProduct.partial();
export type TUpdateProduct = z.infer<typeof ZUpdateProduct>;

export const ZProduct = z.object({
  id: ZId,
  number: z.string(),
  name: z.string(),
  barcode: z.string().nullable(),
  type: z.enum(PRODUCT_TYPES),
  category_id: ZId.nullable(),
  category_code: z.string().nullable(),
  category_name: z.string().nullable(),
  unit: z.string(),
  unit_price: z.string().nullable(),
  selling_price: z.string().nullable(),
  cost: z.string().nullable(),
  weight: z.string().nullable(),
  weight_unit: z.enum(WEIGHT_UNITS),
  length_cm: z.string().nullable(),
  width_cm: z.string().nullable(),
  height_cm: z.string().nullable(),
  volume_required: z.boolean(),
  fragile: z.boolean(),
  can_pack_together: z.boolean(),
  safety_stock: z.number().int(),
  stocking_days: z.number().int(),
  shelf_life_months: z.number().int().nullable(),
  sellable_rule_months: z.number().int().nullable(),
  allowed_sale_date: z.string().nullable(),
  allow_shipping: z.boolean(),
  online_listing: z.boolean(),
  status: z.enum(PRODUCT_STATUSES),
  requires_serial: z.boolean(),
  default_logistics_provider_id: ZId.nullable(),
  default_platform_id: ZId.nullable(),
  /** Components of a combination product (empty for a single product). */
  components: z.array(ZProductComponent),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProduct = z.infer<typeof ZProduct>;

export const ZProductListQuery = ZListQuery.extend({
  type: z.enum(PRODUCT_TYPES).optional(),
  status: z.enum(PRODUCT_STATUSES).optional(),
  category_id: ZId.optional(),
  online_listing: ZBoolFilter.optional(),
  allow_shipping: ZBoolFilter.optional(),
  /** Exact product number. */
  number: z.string().trim().max(40).optional(),
  /** Exact barcode. */
  barcode: z.string().trim().max(48).optional(),
  /** Several ids at once (comma separated), e.g. the print screens. */
  ids: z
    .string()
    .max(40 * 500)
    .optional(),
});
export type TProductListQuery = z.infer<typeof ZProductListQuery>;
export const PRODUCT_ORDERING = [
  'number',
  'name',
  'barcode',
  'type',
  'status',
  'category_code',
  'selling_price',
  'safety_stock',
  'created_at',
  'updated_at',
] as const;

/** Scan lookup: a product by number or barcode (exact). */
export const ZProductLookupQuery = z.object({ code: z.string().trim().min(1).max(48) });

// ---- batch changes (/product-update) ----
/** Fields a batch change may set. */
export const BATCH_FIELDS = [
  'name',
  'barcode',
  'category_id',
  'unit',
  'unit_price',
  'selling_price',
  'cost',
  'weight',
  'weight_unit',
  'length_cm',
  'width_cm',
  'height_cm',
  'volume_required',
  'fragile',
  'can_pack_together',
  'safety_stock',
  'stocking_days',
  'shelf_life_months',
  'sellable_rule_months',
  'allowed_sale_date',
  'allow_shipping',
  'online_listing',
  'status',
  'default_logistics_provider_id',
  'default_platform_id',
] as const;
export type TBatchField = (typeof BATCH_FIELDS)[number];
export const ZBatchSet = z.strictObject(
  Object.fromEntries(BATCH_FIELDS.map((f) => [f, productFields[f].optional()])) as {
    [K in TBatchField]: z.ZodOptional<(typeof productFields)[K]>;
  },
);
export type TBatchSet = z.infer<typeof ZBatchSet>;
/**
 * A batch change: either the same `set` for the selected `product_ids`, or per-product `rows` keyed by number
 * (what an uploaded Excel of changes becomes), or the Excel itself (`file_base64`, the export's column layout).
 */
export const ZBatchUpdate = z.strictObject({
  product_ids: z.array(ZId).max(5000).optional(),
  set: ZBatchSet.optional(),
  rows: z
    .array(z.strictObject({ number: z.string().trim().min(1).max(40), set: ZBatchSet }))
    .max(20_000)
    .optional(),
  file_base64: ZUploadBase64.optional(),
});
export type TBatchUpdate = z.infer<typeof ZBatchUpdate>;
export const ZBatchChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export const ZBatchPreview = z.object({
  /** Products that change, with each changed field's before and after. */
  items: z.array(z.object({ product_id: ZId, number: z.string(), name: z.string(), changes: z.array(ZBatchChange) })),
  unchanged: z.number().int(),
  errors: z.array(
    z.object({ row: z.number().int().nullable(), field: z.string().nullable(), code: z.string(), message: z.string() }),
  ),
});
export type TBatchPreview = z.infer<typeof ZBatchPreview>;
export const ZBatchApplyResult = z.object({ updated: z.number().int() });

// ---- packaging materials ----
export const ZPackagingMaterial = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TPackagingMaterial = z.infer<typeof ZPackagingMaterial>;
export const ZCreatePackagingMaterial = z.strictObject({
  code: ZCode,
  name: z.string().trim().max(100).optional(),
  category: z.string().trim().max(40).optional(),
  quantity: ZCount.optional(),
});
export type TCreatePackagingMaterial = z.infer<typeof ZCreatePackagingMaterial>;
export const ZUpdatePackagingMaterial = ZCreatePackagingMaterial.partial();
export type TUpdatePackagingMaterial = z.infer<typeof ZUpdatePackagingMaterial>;
export const ZPackagingListQuery = ZListQuery.extend({ category: z.string().trim().max(40).optional() });
export const PACKAGING_ORDERING = ['code', 'name', 'category', 'quantity', 'created_at'] as const;

const P = ZIdParams;
export const catalogRoutes = defineRoutes({
  listProductCategories: {
    method: 'GET',
    path: '/api/product-categories/',
    auth: 'customer',
    perm: 'products:read',
    query: ZListQuery,
    response: ZPage(ZProductCategory),
  },
  createProductCategory: {
    method: 'POST',
    path: '/api/product-categories/',
    auth: 'customer',
    perm: 'products:write',
    body: ZCreateProductCategory,
    response: ZProductCategory,
  },
  getProductCategory: {
    method: 'GET',
    path: '/api/product-categories/:id/',
    auth: 'customer',
    perm: 'products:read',
    params: P,
    response: ZProductCategory,
    tenantScoped: true,
  },
  updateProductCategory: {
    method: 'PATCH',
    path: '/api/product-categories/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: P,
    body: ZUpdateProductCategory,
    response: ZProductCategory,
    tenantScoped: true,
  },
  deleteProductCategory: {
    method: 'DELETE',
    path: '/api/product-categories/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },
  exportProductCategories: {
    method: 'GET',
    path: '/api/product-categories/export/',
    auth: 'customer',
    perm: 'products:read',
    query: ZListQuery,
    response: z.unknown(),
  },

  listProducts: {
    method: 'GET',
    path: '/api/products/',
    auth: 'customer',
    perm: 'products:read',
    query: ZProductListQuery,
    response: ZPage(ZProduct),
  },
  lookupProduct: {
    method: 'GET',
    path: '/api/products/lookup/',
    auth: 'customer',
    perm: 'products:read',
    query: ZProductLookupQuery,
    response: ZProduct,
  },
  createProduct: {
    method: 'POST',
    path: '/api/products/',
    auth: 'customer',
    perm: 'products:write',
    body: ZCreateProduct,
    response: ZProduct,
  },
  getProduct: {
    method: 'GET',
    path: '/api/products/:id/',
    auth: 'customer',
    perm: 'products:read',
    params: P,
    response: ZProduct,
    tenantScoped: true,
  },
  updateProduct: {
    method: 'PATCH',
    path: '/api/products/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: P,
    body: ZUpdateProduct,
    response: ZProduct,
    tenantScoped: true,
  },
  deleteProduct: {
    method: 'DELETE',
    path: '/api/products/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },
  bulkDeleteProducts: {
    method: 'POST',
    path: '/api/products/bulk-delete/',
    auth: 'customer',
    perm: 'products:write',
    body: ZBulkDelete,
    response: ZBulkDeleteResult,
  },
  exportProducts: {
    method: 'GET',
    path: '/api/products/export/',
    auth: 'customer',
    perm: 'products:read',
    query: ZProductListQuery,
    response: z.unknown(),
  },

  productImportTemplate: {
    method: 'GET',
    path: '/api/products/import-template/',
    auth: 'customer',
    perm: 'products:read',
    response: z.unknown(),
  },
  /** Queue an import job ("Product data is being imported"); poll GET /api/jobs/:id/. */
  importProducts: {
    method: 'POST',
    path: '/api/products/import/',
    auth: 'customer',
    perm: 'products:write',
    body: ZImportUpload,
    response: ZJob,
  },
  previewBatchUpdate: {
    method: 'POST',
    path: '/api/products/batch-update/preview/',
    auth: 'customer',
    perm: 'products:write',
    body: ZBatchUpdate,
    response: ZBatchPreview,
  },
  applyBatchUpdate: {
    method: 'POST',
    path: '/api/products/batch-update/apply/',
    auth: 'customer',
    perm: 'products:write',
    body: ZBatchUpdate,
    response: ZBatchApplyResult,
  },

  listPackagingMaterials: {
    method: 'GET',
    path: '/api/packaging-materials/',
    auth: 'customer',
    perm: 'lookup',
    query: ZPackagingListQuery,
    response: ZPage(ZPackagingMaterial),
  },
  createPackagingMaterial: {
    method: 'POST',
    path: '/api/packaging-materials/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreatePackagingMaterial,
    response: ZPackagingMaterial,
  },
  getPackagingMaterial: {
    method: 'GET',
    path: '/api/packaging-materials/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: P,
    response: ZPackagingMaterial,
    tenantScoped: true,
  },
  updatePackagingMaterial: {
    method: 'PATCH',
    path: '/api/packaging-materials/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    body: ZUpdatePackagingMaterial,
    response: ZPackagingMaterial,
    tenantScoped: true,
  },
  deletePackagingMaterial: {
    method: 'DELETE',
    path: '/api/packaging-materials/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: P,
    response: ZOk,
    tenantScoped: true,
  },
  exportPackagingMaterials: {
    method: 'GET',
    path: '/api/packaging-materials/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZPackagingListQuery,
    response: z.unknown(),
  },
});
