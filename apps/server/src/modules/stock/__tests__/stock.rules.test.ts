import { describe, expect, it } from 'vitest';
import { taipeiToday } from '../../../platform/calendar';
import {
  addMonths,
  compareStockKeys,
  isExpiredOn,
  isSellableOn,
  kitQuantity,
  planPicks,
  sellableUntil,
  type TCandidate,
} from '../stock.rules';

const cand = (over: Partial<TCandidate>): TCandidate => ({
  balanceId: 'b',
  productId: 'p',
  locationId: 'l',
  locationCode: 'A-01',
  pickSequence: 0,
  warehouseId: 'w',
  expiryDate: null,
  receivedAt: '2026-01-01T00:00:00.000000Z',
  free: 1,
  ...over,
});

describe('stock rules', () => {
  it('subtracts months like PostgreSQL (clamped to the end of the month)', () => {
    expect(addMonths('2027-03-31', -1)).toBe('2027-02-28');
    expect(addMonths('2028-03-31', -1)).toBe('2028-02-29');
    expect(addMonths('2027-01-15', -2)).toBe('2026-11-15');
    expect(addMonths('2026-12-31', 2)).toBe('2027-02-28');
  });

  it('applies the sellable-date rule: sellable before expiry minus the rule months', () => {
    expect(sellableUntil('2027-06-30', 2)).toBe('2027-04-30');
    expect(sellableUntil('2027-06-30', null)).toBe('2027-06-30');
    expect(sellableUntil(null, 3)).toBeNull();
    expect(isSellableOn('2027-06-30', 2, '2027-04-29')).toBe(true);
    expect(isSellableOn('2027-06-30', 2, '2027-04-30')).toBe(false);
    expect(isSellableOn('2027-06-30', null, '2027-06-29')).toBe(true);
    expect(isSellableOn(null, 2, '2099-01-01')).toBe(true);
    expect(isExpiredOn('2027-06-30', '2027-06-30')).toBe(true);
    expect(isExpiredOn('2027-06-30', '2027-06-29')).toBe(false);
  });

  it('orders FEFO by expiry (none last), then FIFO by arrival, walking order and code', () => {
    const list = [
      cand({ balanceId: 'late', expiryDate: '2027-09-01', receivedAt: '2025-01-01T00:00:00Z' }),
      cand({ balanceId: 'none', expiryDate: null, receivedAt: '2024-01-01T00:00:00Z' }),
      cand({ balanceId: 'soon-new', expiryDate: '2027-02-01', receivedAt: '2026-05-01T00:00:00Z' }),
      cand({ balanceId: 'soon-old', expiryDate: '2027-02-01', receivedAt: '2026-04-01T00:00:00Z' }),
    ];
    const { picks } = planPicks(list, 4, true);
    expect(picks.map((p) => p.candidate.balanceId)).toEqual(['soon-old', 'soon-new', 'late', 'none']);
    const fifo = planPicks(
      [
        cand({ balanceId: 'b2', receivedAt: '2026-02-01T00:00:00Z', pickSequence: 1 }),
        cand({ balanceId: 'b1', receivedAt: '2026-02-01T00:00:00Z', pickSequence: 0, locationCode: 'Z' }),
        cand({ balanceId: 'b0', receivedAt: '2026-01-01T00:00:00Z', pickSequence: 9 }),
      ],
      3,
      false,
    );
    expect(fifo.picks.map((p) => p.candidate.balanceId)).toEqual(['b0', 'b1', 'b2']);
  });

  it('plans picks across piles and reports the shortfall', () => {
    const list = [
      cand({ balanceId: 'a', free: 2 }),
      cand({ balanceId: 'b', free: 3, receivedAt: '2026-02-01T00:00:00Z' }),
    ];
    const first = planPicks(list, 4, false);
    expect(first.picks.map((p) => [p.candidate.balanceId, p.quantity])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    expect(first.shortfall).toBe(0);
    // The same list now has 1 free unit left.
    expect(planPicks(list, 3, false).shortfall).toBe(2);
  });

  it('computes combination quantities as the min over components of floor(x / per kit)', () => {
    expect(
      kitQuantity([
        { perKit: 2, quantity: 9 },
        { perKit: 3, quantity: 10 },
      ]),
    ).toBe(3);
    expect(kitQuantity([{ perKit: 1, quantity: 0 }])).toBe(0);
    expect(kitQuantity([])).toBe(0);
  });

  it('orders keys product, location, expiry with no expiry first', () => {
    const k = (p: string, l: string, e: string | null) => ({ productId: p, locationId: l, expiryDate: e });
    const sorted = [k('b', 'a', null), k('a', 'b', '2027-01-01'), k('a', 'b', null), k('a', 'a', '2028-01-01')].sort(
      compareStockKeys,
    );
    expect(sorted).toEqual([
      k('a', 'a', '2028-01-01'),
      k('a', 'b', null),
      k('a', 'b', '2027-01-01'),
      k('b', 'a', null),
    ]);
  });

  it('knows the Taipei calendar day', () => {
    expect(taipeiToday(new Date('2026-11-21T16:30:00Z'))).toBe('2026-11-22');
    expect(taipeiToday(new Date('2026-11-21T15:30:00Z'))).toBe('2026-11-21');
  });
});
