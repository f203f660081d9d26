import { STOCKTAKE_STATUSES, STOCKTAKE_TYPES } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  aggregateItems,
  canDo,
  countMoment,
  differenceIn,
  drawSample,
  goesToNextRound,
  MAX_COUNT_AGE_MS,
  maxRoundOf,
  roundOf,
  scopeOf,
  statusesAllowing,
  type TLineCounts,
  targetStatus,
  varianceOf,
} from '../stocktake.workflow';

const line = (lastRound: 1 | 2 | 3, counts: TLineCounts['counts'], books: TLineCounts['books']): TLineCounts => ({
  lastRound,
  counts,
  books,
});

describe('stocktake status machine', () => {
  it('runs first → review → third, one round per status', () => {
    expect(roundOf('first')).toBe(1);
    expect(roundOf('review')).toBe(2);
    expect(roundOf('third')).toBe(3);
    expect(roundOf('closed')).toBeNull();
    expect(roundOf('cancelled')).toBeNull();
    expect(targetStatus('first', 'next_round')).toBe('review');
    expect(targetStatus('review', 'next_round')).toBe('third');
    expect(() => targetStatus('third', 'next_round')).toThrow();
  });

  it('lets every open round close the case or be cancelled, and nothing happen to a closed or cancelled sheet', () => {
    for (const type of STOCKTAKE_TYPES) {
      for (const status of STOCKTAKE_STATUSES) {
        const open = status === 'first' || status === 'review' || status === 'third';
        expect(canDo(status, type, 'close'), `${type}/${status}`).toBe(open);
        expect(canDo(status, type, 'cancel')).toBe(open);
        expect(canDo(status, type, 'count')).toBe(open);
      }
    }
    expect(targetStatus('review', 'close')).toBe('closed');
    expect(targetStatus('first', 'cancel')).toBe('cancelled');
  });

  it('caps the rounds by type: first 1, review 2, third / full / random 3', () => {
    expect(maxRoundOf('first')).toBe(1);
    expect(maxRoundOf('review')).toBe(2);
    expect(maxRoundOf('third')).toBe(3);
    expect(maxRoundOf('full')).toBe(3);
    expect(maxRoundOf('random')).toBe(3);
    expect(statusesAllowing('next_round', 'first')).toEqual([]);
    expect(statusesAllowing('next_round', 'review')).toEqual(['first']);
    expect(statusesAllowing('next_round', 'full')).toEqual(['first', 'review']);
    expect(canDo('third', 'full', 'next_round')).toBe(false);
    expect(actionsFor('first', 'first')).toEqual(['edit', 'count', 'close', 'cancel']);
    expect(actionsFor('first', 'full')).toEqual(['edit', 'count', 'next_round', 'close', 'cancel']);
    expect(actionsFor('closed', 'full')).toEqual([]);
  });
});

describe('stocktake rounds pick the right lines', () => {
  it('sends a line to the review round only when its first count differs from the book', () => {
    expect(goesToNextRound(line(1, [8, null, null], [10, null, null]), 1)).toBe(true);
    expect(goesToNextRound(line(1, [10, null, null], [10, null, null]), 1)).toBe(false);
    expect(goesToNextRound(line(1, [3, null, null], [0, null, null]), 1)).toBe(true);
    // Not counted: not decided, not sent on.
    expect(goesToNextRound(line(1, [null, null, null], [null, null, null]), 1)).toBe(false);
  });

  it('sends to the third round only lines that took part in the review and still differ there', () => {
    expect(goesToNextRound(line(2, [8, 9, null], [10, 10, null]), 2)).toBe(true);
    expect(goesToNextRound(line(2, [8, 10, null], [10, 10, null]), 2)).toBe(false);
    // A line that stopped after round 1 never comes back.
    expect(goesToNextRound(line(1, [10, null, null], [10, null, null]), 2)).toBe(false);
  });

  it("posts the difference of the line's last round, each round's count judged against its own book", () => {
    expect(varianceOf(line(1, [10, null, null], [10, null, null]))).toBe(0);
    expect(varianceOf(line(1, [7, null, null], [10, null, null]))).toBe(-3);
    // Review confirmed the book: nothing to post although the first count differed.
    expect(varianceOf(line(2, [7, 10, null], [10, 10, null]))).toBe(0);
    // Stock moved between rounds (book 10 → 12); the third count still finds two missing.
    expect(varianceOf(line(3, [8, 9, 10], [10, 10, 12]))).toBe(-2);
    expect(varianceOf(line(2, [8, null, null], [10, null, null]))).toBeNull();
    expect(differenceIn(line(3, [8, 9, 10], [10, 10, 12]), 2)).toBe(-1);
  });
});

describe('stocktake scope', () => {
  it('counts every location for a full sheet and refuses choices there', () => {
    expect(scopeOf({ type: 'full' })).toEqual({
      ok: true,
      value: { scope: 'location', pick: 'all_locations', sampleSize: null },
    });
    expect(scopeOf({ type: 'full', scope: 'product' })).toMatchObject({ ok: false, field: 'scope' });
    expect(scopeOf({ type: 'full', location_ids: ['x'] })).toMatchObject({ ok: false, field: 'location_ids' });
  });

  it('needs a sample size for random sheets, of locations or of products', () => {
    expect(scopeOf({ type: 'random' })).toMatchObject({ ok: false, field: 'sample_size', code: 'REQUIRED_FIELD' });
    expect(scopeOf({ type: 'random', scope: 'product', sample_size: 5 })).toEqual({
      ok: true,
      value: { scope: 'product', pick: 'random', sampleSize: 5 },
    });
  });

  it('needs chosen locations or products for first / review / third sheets', () => {
    expect(scopeOf({ type: 'review' })).toMatchObject({ ok: false, field: 'location_ids', code: 'REQUIRED_FIELD' });
    expect(scopeOf({ type: 'third', scope: 'product' })).toMatchObject({ ok: false, field: 'product_ids' });
    expect(scopeOf({ type: 'first', location_ids: ['a'], product_ids: ['b'] })).toMatchObject({
      ok: false,
      field: 'product_ids',
    });
    expect(scopeOf({ type: 'first', location_ids: ['a'], sample_size: 2 })).toMatchObject({
      ok: false,
      field: 'sample_size',
    });
    expect(scopeOf({ type: 'first', scope: 'product', product_ids: ['b'] })).toMatchObject({
      ok: true,
      value: { scope: 'product', pick: 'chosen' },
    });
  });

  it('draws N distinct items, or all when there are fewer', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const drawn = drawSample(items, 10);
    expect(drawn).toHaveLength(10);
    expect(new Set(drawn).size).toBe(10);
    for (const d of drawn) expect(items).toContain(d);
    expect(drawSample([1, 2, 3], 10).sort()).toEqual([1, 2, 3]);
    // The generator decides: at its top end the last item is swapped to the front each time.
    expect(drawSample([1, 2, 3, 4], 2, () => 0.999)).toEqual([4, 1]);
    expect(drawSample([1, 2, 3, 4], 2, () => 0)).toEqual([1, 2]);
  });
});

describe('count moment and scans', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const roundStart = new Date('2026-11-22T08:00:00Z');

  it('takes the scan time when it lies within the round and the last day, else refuses it', () => {
    expect(countMoment(null, now, roundStart)).toEqual(now);
    const scan = new Date('2026-11-22T09:59:00Z');
    expect(countMoment(scan, now, roundStart)).toEqual(scan);
    expect(countMoment(new Date('2026-11-22T10:00:01Z'), now, roundStart)).toBeNull();
    expect(countMoment(new Date('2026-11-22T07:59:59Z'), now, roundStart)).toBeNull();
    expect(countMoment(new Date(now.getTime() - MAX_COUNT_AGE_MS - 1), now, new Date(0))).toBeNull();
  });

  it('sums one item per scan by product and lot', () => {
    expect(
      aggregateItems([
        { product_id: 'p', quantity: 1 },
        { product_id: 'p', quantity: 1, expiry_date: null },
        { product_id: 'p', quantity: 2, expiry_date: '2027-01-01' },
        { product_id: 'q', quantity: 0 },
      ]),
    ).toEqual([
      { productId: 'p', expiryDate: null, quantity: 2 },
      { productId: 'p', expiryDate: '2027-01-01', quantity: 2 },
      { productId: 'q', expiryDate: null, quantity: 0 },
    ]);
  });
});
