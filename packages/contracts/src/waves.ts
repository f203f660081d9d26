import { z } from 'zod';
import { ZId } from './common';
import { ZBatchDetail } from './outbound';
import { defineRoutes } from './routes';

// ---- release by wave: the next picking batch for one picker ----

/**
 * "Release next wave": one collection batch (the /deliver-opser kind) of exported orders not yet in a batch, at one
 * warehouse (and carrier, when given), taken in ship-by order (late ones first, as theirs passed earliest) up to the
 * picker's limits: at most `max_orders` orders and `max_units` units, and only orders whose reserved stock all lies in
 * one area when `area_id` is given.
 */
export const ZReleaseWave = z.strictObject({
  warehouse_id: ZId,
  logistics_provider_id: ZId.nullable().optional(),
  max_orders: z.number().int().min(1).max(500),
  max_units: z.number().int().min(1).max(100_000).nullable().optional(),
  area_id: ZId.nullable().optional(),
  remark: z.string().max(200).optional(),
});
export type TReleaseWave = z.infer<typeof ZReleaseWave>;

export const shipWaveRoutes = defineRoutes({
  releaseWave: {
    method: 'POST',
    path: '/api/waves/release/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZReleaseWave,
    response: ZBatchDetail,
  },
});

// ---- handover scan: a carrier's pick-up as a manifest ----

export const MANIFEST_STATUSES = ['open', 'closed'] as const;

export const ZManifestParcel = z.object({
  order_id: ZId,
  order_number: z.string(),
  platform_order_number: z.string().nullable(),
  consignment_number: z.string().nullable(),
  recipient_name: z.string(),
  scanned_code: z.string(),
  scanned_at: z.string(),
});
export type TManifestParcel = z.infer<typeof ZManifestParcel>;

export const ZManifestSummary = z.object({
  id: ZId,
  number: z.string(),
  warehouse_id: ZId,
  warehouse_code: z.string(),
  logistics_provider_id: ZId,
  provider_code: z.string(),
  provider_name: z.string(),
  status: z.enum(MANIFEST_STATUSES),
  parcel_count: z.number().int(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
});
export type TManifestSummary = z.infer<typeof ZManifestSummary>;

export const ZManifest = ZManifestSummary.extend({
  parcels: z.array(ZManifestParcel),
  /** The manifest number as a Code128 barcode (SVG), for the printed manifest. */
  barcode_svg: z.string(),
});
export type TManifest = z.infer<typeof ZManifest>;

export const ZManifestScope = z.object({ warehouse_id: ZId, logistics_provider_id: ZId });
/** Scan a parcel (its tracking number or order number) into the open manifest of this warehouse and carrier. */
export const ZManifestScan = ZManifestScope.extend({ code: z.string().trim().min(1).max(80) }).strict();
export type TManifestScan = z.infer<typeof ZManifestScan>;

export const ZManifestList = z.object({
  /** The open manifest (scanning), if any. */
  open: ZManifest.nullable(),
  /** The latest closed manifests (20 at most), newest first. */
  closed: z.array(ZManifestSummary),
});
export type TManifestList = z.infer<typeof ZManifestList>;

export const shipManifestRoutes = defineRoutes({
  listManifests: {
    method: 'GET',
    path: '/api/ship-manifests/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZManifestScope,
    response: ZManifestList,
  },
  scanManifest: {
    method: 'POST',
    path: '/api/ship-manifests/scan/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZManifestScan,
    response: ZManifest,
  },
  getManifest: {
    method: 'GET',
    path: '/api/ship-manifests/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: z.object({ id: ZId }),
    response: ZManifest,
    tenantScoped: true,
  },
  closeManifest: {
    method: 'POST',
    path: '/api/ship-manifests/:id/close/',
    auth: 'customer',
    perm: 'orders:write',
    params: z.object({ id: ZId }),
    response: ZManifest,
    tenantScoped: true,
  },
});
