/**
 * The warehouse's calendar is Asia/Taipei (UTC+8 all year: Taiwan has no daylight saving time), so a Taipei day is
 * plain arithmetic on UTC instants. Every "today", day range and day stamp of the app goes through these.
 */

const TAIPEI_OFFSET_MS = 8 * 3600 * 1000;

/** Today's date in Asia/Taipei as YYYY-MM-DD. */
export function taipeiToday(now: Date = new Date()): string {
  return new Date(now.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);
}

/** Today's date in Asia/Taipei as YYYYMMDD (document numbers, file names). */
export function taipeiDay(now: Date = new Date()): string {
  return taipeiToday(now).replaceAll('-', '');
}

/** The UTC instant a Taipei calendar day (YYYY-MM-DD) starts at, `plusDays` later: day ranges of lists and logs. */
export function taipeiMidnight(day: string, plusDays = 0): Date {
  return new Date(Date.parse(`${day}T00:00:00+08:00`) + plusDays * 86400_000);
}

/** An ISO instant as Taipei wall-clock time `YYYY-MM-DD HH:MM` (spreadsheets); null stays null. */
export function taipeiDateTime(iso: string | null): string | null {
  if (!iso) return null;
  return new Date(Date.parse(iso) + TAIPEI_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}
