import { z } from 'zod';
import { CVS_CHAINS, type TCvsChain } from './carriers';
import { ZId, ZIsoDate, ZOk } from './common';
import { defineRoutes } from './routes';

/**
 * Ship-by promises (issue #36): per warehouse and carrier the daily cut-off and pick-up time (Asia/Taipei, on the
 * warehouse's working weekdays — Monday to Friday unless set — without its holidays), per seller the promise to buyers. Every order gets its
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

/** The convenience-store chains (ECPay's chain codes, as order_cvs_stores keeps them: 7-ELEVEN, FamilyMart, Hi-Life, OK). */
export const CVS_CHAIN_CODES = Object.keys(CVS_CHAINS) as [TCvsChain, ...TCvsChain[]];
export const ZCvsChain = z.enum(CVS_CHAIN_CODES);

export const ZShipCutoffInput = z.strictObject({
  logistics_provider_id: ZId,
  /**
   * A convenience-store chain's own cut-off with this carrier (orders delivered to one of its stores take it); null or
   * absent: the carrier's cut-off for every other order.
   */
  cvs_chain: ZCvsChain.nullable().optional(),
  cutoff_time: ZClockTime,
  pickup_time: ZClockTime,
});
export const ZShipCutoff = ZShipCutoffInput.extend({
  cvs_chain: ZCvsChain.nullable(),
  provider_code: z.string(),
  provider_name: z.string(),
});
export type TShipCutoff = z.infer<typeof ZShipCutoff>;

/** Weekdays, 0 Sunday … 6 Saturday; a warehouse ships Monday to Friday unless told otherwise. */
export const DEFAULT_WORKING_DAYS = [1, 2, 3, 4, 5] as const;
export const ZWorkingDays = z.array(z.number().int().min(0).max(6)).min(1).max(7);

export const ZWarehouseShipping = z.object({
  warehouse_id: ZId,
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  cutoffs: z.array(ZShipCutoff),
  working_days: z.array(z.number().int()),
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
  /** Default: Monday to Friday. */
  working_days: ZWorkingDays.optional(),
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

// ---- the floor board (/ships-today) ----

export const ZShipsTodayRow = z.object({
  warehouse_id: ZId.nullable(),
  warehouse_code: z.string().nullable(),
  logistics_provider_id: ZId.nullable(),
  provider_code: z.string().nullable(),
  provider_name: z.string().nullable(),
  /** Not yet released to the warehouse (pending export). */
  waiting: z.number().int(),
  /** Released, not picked yet (exported). */
  to_pick: z.number().int(),
  /** Being packed (packing started). */
  to_pack: z.number().int(),
  /** Shipped today's due orders. */
  shipped: z.number().int(),
  /** Today's due orders on a closed manifest (handed over to the carrier). */
  handed_over: z.number().int(),
  /** Not shipped and past their ship-by time (from earlier days too). */
  late: z.number().int(),
  /** Today's cut-off and pick-up of this carrier at this warehouse (null: not a working day there). */
  cutoff_at: z.string().nullable(),
  pickup_at: z.string().nullable(),
});
export type TShipsTodayRow = z.infer<typeof ZShipsTodayRow>;

export const ZLateOrder = z.object({
  id: ZId,
  number: z.string(),
  platform_order_number: z.string().nullable(),
  warehouse_code: z.string().nullable(),
  provider_name: z.string().nullable(),
  status: z.string(),
  ship_by: z.string(),
});

export const ZShipsToday = z.object({
  /** The server's clock (ISO): minutes to cut-off are counted from it. */
  now: z.string(),
  /** Today in Asia/Taipei. */
  day: z.string(),
  rows: z.array(ZShipsTodayRow),
  /** The earliest late orders (50 at most). */
  late_orders: z.array(ZLateOrder),
});
export type TShipsToday = z.infer<typeof ZShipsToday>;

export const shipBoardRoutes = defineRoutes({
  getShipsToday: {
    method: 'GET',
    path: '/api/ships-today/',
    auth: 'customer',
    perm: 'orders:read',
    response: ZShipsToday,
  },
});
