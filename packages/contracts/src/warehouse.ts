import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZOk, ZPage } from './common';
import type { TLanguage } from './errors';
import { ZJob } from './jobs';
import { defineRoutes } from './routes';

/**
 * A code a scanner reads (warehouse, area, shelf, storage location, product number, packaging): printable ASCII
 * without spaces, so it survives Code128 and a keyboard-wedge scanner unchanged.
 */
export const ZCode = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_\-./]*$/);
export const ZName = z.string().trim().min(1).max(100);
const ZOptionalText = (max: number) => z.string().trim().max(max);

/** An optional reference: a uuid, or null to clear it. */
const ZRef = ZId.nullable();

/** Boolean list filter (`?is_active=true`). */
export const ZBoolFilter = z.enum(['true', 'false']).transform((v) => v === 'true');

// ---- warehouses ----
export const ZWarehouse = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  address: z.string(),
  /** The warehouse's label printer, sent ZPL raw over TCP (port 9100 by convention); null: none set. */
  label_printer_host: z.string().nullable(),
  label_printer_port: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWarehouse = z.infer<typeof ZWarehouse>;
export const ZCreateWarehouse = z.strictObject({
  code: ZCode,
  name: ZName,
  address: ZOptionalText(200).optional(),
  /** A host name or IP address on the warehouse's network (no scheme, no port); null clears it. */
  label_printer_host: z
    .string()
    .trim()
    .max(253)
    .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/)
    .nullable()
    .optional(),
  label_printer_port: z.number().int().min(1).max(65535).nullable().optional(),
});
export type TCreateWarehouse = z.infer<typeof ZCreateWarehouse>;
export const ZUpdateWarehouse = ZCreateWarehouse.partial();
export type TUpdateWarehouse = z.infer<typeof ZUpdateWarehouse>;
export const ZWarehouseListQuery = ZListQuery.extend({ code: z.string().trim().max(40).optional() });
export const WAREHOUSE_ORDERING = ['code', 'name', 'created_at'] as const;

// ---- areas (subzones) ----
export const ZArea = z.object({
  id: ZId,
  warehouse_id: ZId,
  warehouse_code: z.string(),
  code: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TArea = z.infer<typeof ZArea>;
export const ZCreateArea = z.strictObject({ warehouse_id: ZId, code: ZCode, name: ZName });
export type TCreateArea = z.infer<typeof ZCreateArea>;
export const ZUpdateArea = z.strictObject({ code: ZCode, name: ZName }).partial();
export type TUpdateArea = z.infer<typeof ZUpdateArea>;
export const ZAreaListQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  code: z.string().trim().max(40).optional(),
});
export const AREA_ORDERING = ['code', 'name', 'warehouse_code', 'created_at'] as const;

// ---- shelves ----
export const SHELF_LAYERS_MAX = 99;
export const SHELF_CELLS_MAX = 99;
export const ZShelf = z.object({
  id: ZId,
  warehouse_id: ZId,
  warehouse_code: z.string(),
  area_id: ZId.nullable(),
  area_code: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  layers: z.number().int(),
  location_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TShelf = z.infer<typeof ZShelf>;
export const ZCreateShelf = z.strictObject({
  warehouse_id: ZId,
  area_id: ZRef.optional(),
  code: ZCode,
  name: ZName,
  category: ZOptionalText(40).optional(),
  layers: z.number().int().min(1).max(SHELF_LAYERS_MAX),
});
export type TCreateShelf = z.infer<typeof ZCreateShelf>;
export const ZUpdateShelf = ZCreateShelf.omit({ warehouse_id: true }).partial();
export type TUpdateShelf = z.infer<typeof ZUpdateShelf>;
export const ZShelfListQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  area_id: ZId.optional(),
  category: z.string().trim().max(40).optional(),
});
export const SHELF_ORDERING = ['code', 'name', 'category', 'layers', 'warehouse_code', 'created_at'] as const;

/**
 * Generate a shelf's storage locations in one step: one location per (layer, position), coded
 * `<shelf code>-<layer, 2 digits>-<position, 2 digits>` (shelf A01, layer 2, position 3 → `A01-02-03`).
 * Codes that already exist are left alone, so the call can be repeated after adding layers.
 */
export const ZGenerateLocations = z.strictObject({
  positions_per_layer: z.number().int().min(1).max(SHELF_CELLS_MAX),
  cells: z.number().int().min(1).max(999).default(1),
  kind: z.enum(['sellable', 'defective', 'expired', 'staging']).default('sellable'),
});
export type TGenerateLocations = z.infer<typeof ZGenerateLocations>;
export const ZGenerateLocationsResult = z.object({
  created: z.number().int(),
  skipped: z.number().int(),
  codes: z.array(z.string()),
});

/** The code of a generated storage location (see ZGenerateLocations). */
export function locationCode(shelfCode: string, layer: number, position: number): string {
  return `${shelfCode}-${String(layer).padStart(2, '0')}-${String(position).padStart(2, '0')}`;
}

// ---- storage locations ----
export const ZRenumberWalk = z.strictObject({ reset_manual: z.boolean().optional() });
export type TRenumberWalk = z.infer<typeof ZRenumberWalk>;
export const ZRenumberWalkResult = z.object({ renumbered: z.number().int() });
export const LOCATION_KIND_VALUES = ['sellable', 'defective', 'expired', 'staging'] as const;
export const ZLocationKind = z.enum(LOCATION_KIND_VALUES);
/** Location kinds as the list and its Excel export show them; the import accepts them in any language. */
export const LOCATION_KIND_LABELS: Record<(typeof LOCATION_KIND_VALUES)[number], Record<TLanguage, string>> = {
  sellable: { 'zh-TW': '可銷售', ja: '販売可', en: 'Sellable' },
  defective: { 'zh-TW': '不良品', ja: '不良品', en: 'Defective' },
  expired: { 'zh-TW': '過期品', ja: '期限切れ', en: 'Expired' },
  staging: { 'zh-TW': '暫存區', ja: '仮置き', en: 'Staging' },
};
export type TLocationKind = z.infer<typeof ZLocationKind>;
export const ZStorageLocation = z.object({
  id: ZId,
  warehouse_id: ZId,
  warehouse_code: z.string(),
  area_id: ZId.nullable(),
  area_code: z.string().nullable(),
  shelf_id: ZId.nullable(),
  shelf_code: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  layer: z.number().int().nullable(),
  cells: z.number().int(),
  kind: ZLocationKind,
  /** Walking order on pick lists (lower first; 10, 20, … when derived from the location's place). */
  pick_sequence: z.number().int(),
  /** Set by hand (kept when the warehouse's walk is renumbered); false: derived. */
  pick_sequence_manual: z.boolean(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TStorageLocation = z.infer<typeof ZStorageLocation>;
export const ZCreateStorageLocation = z.strictObject({
  warehouse_id: ZId,
  area_id: ZRef.optional(),
  shelf_id: ZRef.optional(),
  code: ZCode,
  name: ZOptionalText(100).optional(),
  layer: z.number().int().min(1).max(SHELF_LAYERS_MAX).nullable().optional(),
  cells: z.number().int().min(1).max(999).optional(),
  kind: ZLocationKind.optional(),
  pick_sequence: z.number().int().min(0).max(1_000_000).optional(),
  is_active: z.boolean().optional(),
});
export type TCreateStorageLocation = z.infer<typeof ZCreateStorageLocation>;
export const ZUpdateStorageLocation = ZCreateStorageLocation.omit({ warehouse_id: true })
  .partial()
  .extend({
    /** A number sets the walking order by hand; null gives it back to the derived walk. */
    pick_sequence: z.number().int().min(0).max(1_000_000).nullable().optional(),
  });
export type TUpdateStorageLocation = z.infer<typeof ZUpdateStorageLocation>;
export const ZStorageLocationListQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  area_id: ZId.optional(),
  shelf_id: ZId.optional(),
  kind: ZLocationKind.optional(),
  is_active: ZBoolFilter.optional(),
  /** Exact code (what a scanner read); combine with warehouse_id for a unique hit. */
  code: z.string().trim().max(40).optional(),
});
export type TStorageLocationListQuery = z.infer<typeof ZStorageLocationListQuery>;
export const STORAGE_LOCATION_ORDERING = [
  'code',
  'name',
  'kind',
  'cells',
  'pick_sequence',
  'warehouse_code',
  'created_at',
] as const;

/** Delete several rows at once (list screens' batch delete); all or nothing. */
export const ZBulkDelete = z.strictObject({ ids: z.array(ZId).min(1).max(500) });
export const ZBulkDeleteResult = z.object({ deleted: z.number().int() });

// ---- Excel import (shared by products and storage locations) ----
/** The largest file any upload accepts (imports, batch changes, consignment files), decoded. */
export const UPLOAD_MAX_BYTES = 40 * 1024 * 1024;
/** An uploaded file as base64 (JSON keeps one validation path; the route raises its body limit). */
export const ZUploadBase64 = z
  .string()
  .min(1)
  .max(Math.ceil((UPLOAD_MAX_BYTES * 4) / 3));
export const ZImportUpload = z.strictObject({
  file_base64: ZUploadBase64,
  filename: z.string().trim().max(200).optional(),
});
export type TImportUpload = z.infer<typeof ZImportUpload>;
export const IMPORT_MAX_ROWS = 20_000;
export const ZImportRowError = z.object({
  row: z.number().int(),
  field: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type TImportRowError = z.infer<typeof ZImportRowError>;
const page = ZPage;
export const warehouseRoutes = defineRoutes({
  listWarehouses: {
    method: 'GET',
    path: '/api/warehouses/',
    auth: 'customer',
    perm: 'lookup',
    query: ZWarehouseListQuery,
    response: page(ZWarehouse),
  },
  createWarehouse: {
    method: 'POST',
    path: '/api/warehouses/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateWarehouse,
    response: ZWarehouse,
  },
  getWarehouse: {
    method: 'GET',
    path: '/api/warehouses/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: ZIdParams,
    response: ZWarehouse,
    tenantScoped: true,
  },
  /**
   * Renumber a warehouse's walking order from its locations' places (area → shelf → layer → cell, serpentine by
   * shelf); sequences set by hand are kept unless `reset_manual`.
   */
  renumberWalk: {
    method: 'POST',
    path: '/api/warehouses/:id/walk/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZRenumberWalk,
    response: ZRenumberWalkResult,
    tenantScoped: true,
  },
  updateWarehouse: {
    method: 'PATCH',
    path: '/api/warehouses/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZUpdateWarehouse,
    response: ZWarehouse,
    tenantScoped: true,
  },
  deleteWarehouse: {
    method: 'DELETE',
    path: '/api/warehouses/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  exportWarehouses: {
    method: 'GET',
    path: '/api/warehouses/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZWarehouseListQuery,
    response: z.unknown(),
  },

  listAreas: {
    method: 'GET',
    path: '/api/areas/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZAreaListQuery,
    response: page(ZArea),
  },
  createArea: {
    method: 'POST',
    path: '/api/areas/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateArea,
    response: ZArea,
  },
  getArea: {
    method: 'GET',
    path: '/api/areas/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: ZIdParams,
    response: ZArea,
    tenantScoped: true,
  },
  updateArea: {
    method: 'PATCH',
    path: '/api/areas/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZUpdateArea,
    response: ZArea,
    tenantScoped: true,
  },
  deleteArea: {
    method: 'DELETE',
    path: '/api/areas/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  exportAreas: {
    method: 'GET',
    path: '/api/areas/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZAreaListQuery,
    response: z.unknown(),
  },

  listShelves: {
    method: 'GET',
    path: '/api/shelves/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZShelfListQuery,
    response: page(ZShelf),
  },
  createShelf: {
    method: 'POST',
    path: '/api/shelves/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateShelf,
    response: ZShelf,
  },
  getShelf: {
    method: 'GET',
    path: '/api/shelves/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: ZIdParams,
    response: ZShelf,
    tenantScoped: true,
  },
  updateShelf: {
    method: 'PATCH',
    path: '/api/shelves/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZUpdateShelf,
    response: ZShelf,
    tenantScoped: true,
  },
  deleteShelf: {
    method: 'DELETE',
    path: '/api/shelves/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  generateShelfLocations: {
    method: 'POST',
    path: '/api/shelves/:id/generate-locations/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZGenerateLocations,
    response: ZGenerateLocationsResult,
    tenantScoped: true,
  },
  exportShelves: {
    method: 'GET',
    path: '/api/shelves/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZShelfListQuery,
    response: z.unknown(),
  },

  listStorageLocations: {
    method: 'GET',
    path: '/api/storage-locations/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZStorageLocationListQuery,
    response: page(ZStorageLocation),
  },
  createStorageLocation: {
    method: 'POST',
    path: '/api/storage-locations/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZCreateStorageLocation,
    response: ZStorageLocation,
  },
  getStorageLocation: {
    method: 'GET',
    path: '/api/storage-locations/:id/',
    auth: 'customer',
    perm: 'basics:read',
    params: ZIdParams,
    response: ZStorageLocation,
    tenantScoped: true,
  },
  updateStorageLocation: {
    method: 'PATCH',
    path: '/api/storage-locations/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    body: ZUpdateStorageLocation,
    response: ZStorageLocation,
    tenantScoped: true,
  },
  deleteStorageLocation: {
    method: 'DELETE',
    path: '/api/storage-locations/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  bulkDeleteStorageLocations: {
    method: 'POST',
    path: '/api/storage-locations/bulk-delete/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZBulkDelete,
    response: ZBulkDeleteResult,
  },
  exportStorageLocations: {
    method: 'GET',
    path: '/api/storage-locations/export/',
    auth: 'customer',
    perm: 'basics:read',
    query: ZStorageLocationListQuery,
    response: z.unknown(),
  },
  storageLocationImportTemplate: {
    method: 'GET',
    path: '/api/storage-locations/import-template/',
    auth: 'customer',
    perm: 'basics:read',
    response: z.unknown(),
  },
  /** Queue an import job; poll GET /api/jobs/:id/ (result {created, updated, rows}, or error IMPORT_REJECTED with params.errors). */
  importStorageLocations: {
    method: 'POST',
    path: '/api/storage-locations/import/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZImportUpload,
    response: ZJob,
  },
});
