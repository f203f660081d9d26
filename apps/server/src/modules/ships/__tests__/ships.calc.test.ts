import { describe, expect, it } from 'vitest';
import { computeShipBy, isWorkingDay, type TShipCalendar } from '../ships.calc';

/** A Taipei wall-clock time as the instant it is. */
const tpe = (s: string) => new Date(`${s}:00+08:00`);
const SAME_DAY = { kind: 'same_day', before_time: null } as const;
const cal = (holidays: string[] = []): TShipCalendar => ({
  cutoff: { cutoff_time: '12:30', pickup_time: '16:00' },
  holidays: new Set(holidays),
});

// 2026-12-01 is a Tuesday; 12-04 a Friday; 12-05/06 the weekend.
describe('computeShipBy', () => {
  it('before the cut-off on a working day: that day at the pick-up time', () => {
    expect(computeShipBy(tpe('2026-12-01T10:00'), SAME_DAY, cal())).toEqual(tpe('2026-12-01T16:00'));
    expect(computeShipBy(tpe('2026-12-01T12:29'), SAME_DAY, cal())).toEqual(tpe('2026-12-01T16:00'));
  });

  it('at or after the cut-off: the next working day', () => {
    expect(computeShipBy(tpe('2026-12-01T12:30'), SAME_DAY, cal())).toEqual(tpe('2026-12-02T16:00'));
    expect(computeShipBy(tpe('2026-12-01T23:59'), SAME_DAY, cal())).toEqual(tpe('2026-12-02T16:00'));
  });

  it('a Taipei morning that is still the previous day in UTC counts as the Taipei day', () => {
    // 00:30 Taipei on Tuesday is 16:30 UTC on Monday.
    expect(computeShipBy(new Date('2026-11-30T16:30:00Z'), SAME_DAY, cal())).toEqual(tpe('2026-12-01T16:00'));
  });

  it('skips weekends: Friday after the cut-off and Saturday morning ship on Monday', () => {
    expect(computeShipBy(tpe('2026-12-04T13:00'), SAME_DAY, cal())).toEqual(tpe('2026-12-07T16:00'));
    expect(computeShipBy(tpe('2026-12-05T09:00'), SAME_DAY, cal())).toEqual(tpe('2026-12-07T16:00'));
  });

  it('skips the warehouse holidays, also on the order day itself', () => {
    const holidays = cal(['2026-12-07', '2026-12-08']);
    expect(computeShipBy(tpe('2026-12-04T13:00'), SAME_DAY, holidays)).toEqual(tpe('2026-12-09T16:00'));
    expect(computeShipBy(tpe('2026-12-07T08:00'), SAME_DAY, holidays)).toEqual(tpe('2026-12-09T16:00'));
  });

  it('a same-day promise earlier than the carrier cut-off is the limit', () => {
    const sla = { kind: 'same_day', before_time: '11:00' } as const;
    expect(computeShipBy(tpe('2026-12-01T10:59'), sla, cal())).toEqual(tpe('2026-12-01T16:00'));
    expect(computeShipBy(tpe('2026-12-01T11:30'), sla, cal())).toEqual(tpe('2026-12-02T16:00'));
    // A later promise does not stretch the carrier's cut-off.
    const late = { kind: 'same_day', before_time: '15:00' } as const;
    expect(computeShipBy(tpe('2026-12-01T13:00'), late, cal())).toEqual(tpe('2026-12-02T16:00'));
  });

  it('a next-working-day promise ships the next working day, whatever the time', () => {
    const sla = { kind: 'next_day', before_time: null } as const;
    expect(computeShipBy(tpe('2026-12-01T08:00'), sla, cal())).toEqual(tpe('2026-12-02T16:00'));
    expect(computeShipBy(tpe('2026-12-04T08:00'), sla, cal(['2026-12-07']))).toEqual(tpe('2026-12-08T16:00'));
  });

  it('a warehouse that works on Saturdays ships on Saturday', () => {
    const saturdays = { ...cal(), weekdays: new Set([1, 2, 3, 4, 5, 6]) };
    expect(computeShipBy(tpe('2026-12-04T13:00'), SAME_DAY, saturdays)).toEqual(tpe('2026-12-05T16:00'));
    expect(computeShipBy(tpe('2026-12-05T10:00'), SAME_DAY, saturdays)).toEqual(tpe('2026-12-05T16:00'));
    expect(computeShipBy(tpe('2026-12-05T13:00'), SAME_DAY, saturdays)).toEqual(tpe('2026-12-07T16:00'));
  });

  it('working days: Monday to Friday without holidays', () => {
    expect(isWorkingDay('2026-12-04', new Set())).toBe(true);
    expect(isWorkingDay('2026-12-05', new Set())).toBe(false);
    expect(isWorkingDay('2026-12-06', new Set())).toBe(false);
    expect(isWorkingDay('2026-12-07', new Set(['2026-12-07']))).toBe(false);
  });
});
