/**
 * Ship-by promises (issue #36): per warehouse and carrier the daily cut-off and pick-up time (Asia/Taipei, on the
 * warehouse's working weekdays — Monday to Friday unless set — without its holidays), per seller the promise to buyers ("same day if ordered before HH:MM" or
 * "next working day"), the ship-by time every new order gets from them, and the floor board of the day (/ships-today).
 * Owns ship_cutoffs, warehouse_holidays, warehouse_ship_days, seller_ship_slas, ship_manifests and ship_manifest_parcels
 * (the handover scan); reads warehouses and logistics_providers next to them, and outbound_orders (read only) for the
 * board, the manifests and the on-time rate. Waves are outbound's (`outbound.waves.ts`).
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs). Order creation (outbound) calls `loadShipRules` once per batch in its transaction,
 * then `shipByOf` per order.
 */

export { computeShipBy, DEFAULT_CUTOFF, DEFAULT_SLA, isWorkingDay, type TShipCalendar } from './ships.calc';
export {
  loadShipRules,
  NO_SHIPMENTS,
  nextCutoffAt,
  ON_TIME_DAYS,
  onTimeRates,
  shipByOf,
  type TOnTime,
  type TShipRules,
} from './ships.service';
