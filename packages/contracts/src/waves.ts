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
