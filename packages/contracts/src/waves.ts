import { z } from 'zod';
import { ZId, ZIdParams, ZListQuery, ZOk, ZPage } from './common';
import { ZBatchDetail } from './outbound';
import { defineRoutes } from './routes';
import { ZClockTime, ZCvsChain } from './ships';
import { ZBoolFilter } from './warehouse';

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

// ---- saved release channels: named wave rules per warehouse ----

/**
 * Which orders by ship-by a channel releases: `all` (any, earliest first), `due` (due by the end of today in Taipei,
 * the late ones included), `late` (ship-by passed).
 */
export const CHANNEL_PRIORITIES = ['all', 'due', 'late'] as const;
export const RELEASE_CHANNEL_ORDERING = ['sequence', 'name', 'warehouse_code', 'created_at'] as const;

const channelFields = {
  warehouse_id: ZId,
  name: z.string().trim().min(1).max(60),
  /** The carriers whose orders it takes; empty: every carrier (and orders without one). */
  logistics_provider_ids: z.array(ZId).max(20),
  /** Only orders delivered to a store of this chain; null: any order. */
  cvs_chain: ZCvsChain.nullable(),
  /** Its own cut-off (Taipei HH:MM); null: the earliest cut-off of its carriers at the warehouse. */
  cutoff_time: ZClockTime.nullable(),
  /** One zone: only orders whose reserved stock all lies in it; null: all zones. */
  area_id: ZId.nullable(),
  priority: z.enum(CHANNEL_PRIORITIES),
  max_orders: z.number().int().min(1).max(500),
  max_units: z.number().int().min(1).max(100_000).nullable(),
  sequence: z.number().int().min(0).max(9999),
  active: z.boolean(),
};

/** A new channel: warehouse, name and max orders are required; the rest default (all carriers, any chain, all zones…). */
export const ZCreateReleaseChannel = z.strictObject({
  ...channelFields,
  logistics_provider_ids: channelFields.logistics_provider_ids.optional(),
  cvs_chain: channelFields.cvs_chain.optional(),
  cutoff_time: channelFields.cutoff_time.optional(),
  area_id: channelFields.area_id.optional(),
  priority: channelFields.priority.optional(),
  max_units: channelFields.max_units.optional(),
  sequence: channelFields.sequence.optional(),
  active: channelFields.active.optional(),
});
export type TCreateReleaseChannel = z.infer<typeof ZCreateReleaseChannel>;
export const ZUpdateReleaseChannel = z.strictObject(channelFields).partial();
export type TUpdateReleaseChannel = z.infer<typeof ZUpdateReleaseChannel>;

export const ZReleaseChannel = z.object({
  id: ZId,
  warehouse_id: ZId,
  warehouse_code: z.string(),
  name: z.string(),
  logistics_provider_ids: z.array(ZId),
  /** Its carriers' names, in the order of `logistics_provider_ids`. */
  provider_names: z.array(z.string()),
  cvs_chain: ZCvsChain.nullable(),
  cutoff_time: z.string().nullable(),
  area_id: ZId.nullable(),
  area_code: z.string().nullable(),
  priority: z.enum(CHANNEL_PRIORITIES),
  max_orders: z.number().int(),
  max_units: z.number().int().nullable(),
  sequence: z.number().int(),
  active: z.boolean(),
  /** Exported orders outside any batch that its next wave may take (its rules, zone included). */
  open_count: z.number().int(),
  /** Its next cut-off (ISO): today's when still ahead on a working day, else the next working day's. */
  next_cutoff_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TReleaseChannel = z.infer<typeof ZReleaseChannel>;

export const ZReleaseChannelListQuery = ZListQuery.extend({
  warehouse_id: ZId.optional(),
  active: ZBoolFilter.optional(),
});

export const releaseChannelRoutes = defineRoutes({
  listReleaseChannels: {
    method: 'GET',
    path: '/api/release-channels/',
    auth: 'customer',
    perm: 'orders:read',
    query: ZReleaseChannelListQuery,
    response: ZPage(ZReleaseChannel),
  },
  createReleaseChannel: {
    method: 'POST',
    path: '/api/release-channels/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZCreateReleaseChannel,
    response: ZReleaseChannel,
  },
  getReleaseChannel: {
    method: 'GET',
    path: '/api/release-channels/:id/',
    auth: 'customer',
    perm: 'orders:read',
    params: ZIdParams,
    response: ZReleaseChannel,
    tenantScoped: true,
  },
  updateReleaseChannel: {
    method: 'PATCH',
    path: '/api/release-channels/:id/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    body: ZUpdateReleaseChannel,
    response: ZReleaseChannel,
    tenantScoped: true,
  },
  deleteReleaseChannel: {
    method: 'DELETE',
    path: '/api/release-channels/:id/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  /** "Release next wave" by the channel's saved rules: the same batch as `releaseWave`. */
  releaseChannelWave: {
    method: 'POST',
    path: '/api/release-channels/:id/release/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    response: ZBatchDetail,
    tenantScoped: true,
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
