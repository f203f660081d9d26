import type { TShipSla } from '@wms/contracts';

/**
 * The ship-by time of an order: a pure function of when the order arrived, the seller's promise, the carrier's cut-off
 * at the warehouse and the warehouse's calendar. Asia/Taipei is UTC+8 all year (no daylight saving time), so a Taipei
 * day and time are plain arithmetic on UTC instants.
 *
 * - The order makes day D when D is a working day (one of the warehouse's weekdays, not one of its holidays) and, for a
 *   same-day promise on the order's own day, it arrived before the earlier of the promise's time and the carrier's
 *   cut-off. Otherwise (and always for a next-working-day promise) D is the next working day.
 * - The ship-by time is D at the carrier's pick-up time.
 */

/** What the calculation needs of one warehouse and carrier. */
export interface TShipCalendar {
  /** Carrier's daily cut-off and pick-up (HH:MM, Taipei). */
  cutoff: { cutoff_time: string; pickup_time: string };
  /** The warehouse's holidays (YYYY-MM-DD). */
  holidays: ReadonlySet<string>;
  /** The weekdays it ships on (0 Sunday … 6 Saturday); default Monday to Friday. */
  weekdays?: ReadonlySet<number>;
}

/** Used when a warehouse has no cut-off for the order's carrier (or the order has no carrier yet). */
export const DEFAULT_CUTOFF = { cutoff_time: '12:00', pickup_time: '17:00' } as const;
/** Used when the seller set no promise: same day, limited by the carrier's cut-off only. */
export const DEFAULT_SLA: TShipSla = { kind: 'same_day', before_time: null };

const OFFSET = 8 * 3600_000;
const DAY = 86400_000;
/** How far a calendar is searched for a working day (a warehouse closed longer than this ships on that day anyway). */
const MAX_DAYS = 60;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Taipei day (YYYY-MM-DD) of a day number (days since 1970-01-01 in Taipei). */
const dayText = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

const WEEKDAYS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5]);

export function isWorkingDay(
  day: string,
  holidays: ReadonlySet<string>,
  weekdays: ReadonlySet<number> = WEEKDAYS,
): boolean {
  return weekdays.has(new Date(`${day}T00:00:00Z`).getUTCDay()) && !holidays.has(day);
}

export function computeShipBy(at: Date, sla: TShipSla, cal: TShipCalendar): Date {
  const local = at.getTime() + OFFSET;
  const today = Math.floor(local / DAY);
  const minuteOfDay = Math.floor((local - today * DAY) / 60_000);
  let limit = minutes(cal.cutoff.cutoff_time);
  if (sla.kind === 'same_day' && sla.before_time) limit = Math.min(limit, minutes(sla.before_time));
  const works = (n: number) => isWorkingDay(dayText(n), cal.holidays, cal.weekdays);
  const sameDay = sla.kind === 'same_day' && minuteOfDay < limit && works(today);
  let d = sameDay ? today : today + 1;
  if (!sameDay) for (let i = 0; i < MAX_DAYS && !works(d); i++) d++;
  return new Date(d * DAY - OFFSET + minutes(cal.cutoff.pickup_time) * 60_000);
}
