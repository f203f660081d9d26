import { z } from 'zod';
import { ZId, ZIsoDate, ZOk } from './common';
import { defineRoutes } from './routes';

/**
 * Ship-by promises (issue #36): per warehouse and carrier the daily cut-off and pick-up time (Asia/Taipei, working
 * days: Monday to Friday without the warehouse's holidays), per seller the promise to buyers. Every order gets its
 * ship-by time from them when it is created.
 */

/** A Taipei wall-clock time, `HH:MM` (00:00–23:59). */
export const ZClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const SHIP_SLA_KINDS = ['same_day', 'next_day'] as const;
export const ZShipSla = z.strictObject({
  /** `same_day`: shipped the day it is ordered when before `before_time` and the carrier's cut-off; `next_day`: the next working day. */
  kind: z.enum(SHIP_SLA_KINDS),
  /** Same-day promise's own time limit (null: the carrier's cut-off alone); ignored for next_day. */
  before_time: ZClockTime.nullable(),
});
export type TShipSla = z.infer<typeof ZShipSla>;

export const ZShipCutoffInput = z.strictObject({
  logistics_provider_id: ZId,
  cutoff_time: ZClockTime,
  pickup_time: ZClockTime,
});
export const ZShipCutoff = ZShipCutoffInput.extend({ provider_code: z.string(), provider_name: z.string() });
export type TShipCutoff = z.infer<typeof ZShipCutoff>;

export const ZWarehouseShipping = z.object({
  warehouse_id: ZId,
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  cutoffs: z.array(ZShipCutoff),
  holidays: z.array(z.string()),
});
export type TWarehouseShipping = z.infer<typeof ZWarehouseShipping>;

export const ZShipSettings = z.object({
  sla: ZShipSla,
  /** The cut-off and pick-up of a carrier a warehouse has none for. */
  default_cutoff: z.object({ cutoff_time: z.string(), pickup_time: z.string() }),
  warehouses: z.array(ZWarehouseShipping),
});
export type TShipSettings = z.infer<typeof ZShipSettings>;

/** A warehouse's cut-offs and holidays, replaced as a whole. */
export const ZSaveWarehouseShipping = z.strictObject({
  cutoffs: z.array(ZShipCutoffInput).max(100),
  holidays: z.array(ZIsoDate).max(400),
});
export type TSaveWarehouseShipping = z.infer<typeof ZSaveWarehouseShipping>;

/** The order list's ship-by filter: due today (Taipei day) or late (ship-by passed, not shipped). */
export const SHIP_DUE_FILTERS = ['today', 'late'] as const;

export const shipRoutes = defineRoutes({
  getShipSettings: {
    method: 'GET',
    path: '/api/ship-settings/',
    auth: 'customer',
    perm: 'basics:read',
    response: ZShipSettings,
  },
  saveShipSla: {
    method: 'PUT',
    path: '/api/ship-settings/sla/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZShipSla,
    response: ZOk,
  },
  saveWarehouseShipping: {
    method: 'PUT',
    path: '/api/ship-settings/warehouses/:id/',
    auth: 'customer',
    perm: 'basics:write',
    params: z.object({ id: ZId }),
    body: ZSaveWarehouseShipping,
    response: ZWarehouseShipping,
    tenantScoped: true,
  },
});
