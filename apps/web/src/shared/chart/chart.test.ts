import { describe, expect, it } from 'vitest';
import { barSlots, chartMax, niceTicks, type TChartSeries } from './chart';

describe('chart scale and bar layout', () => {
  it('ticks from 0 past the maximum in round whole steps', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(9)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
    for (const max of [1, 7, 33, 480, 99_999]) {
      const t = niceTicks(max);
      expect(t[0]).toBe(0);
      expect(t.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(12);
      expect(t.every((v) => Number.isInteger(v))).toBe(true);
    }
  });

  it('stacks bars that share a stack, gives other bars their own slot, and reaches the tallest pile or point', () => {
    const series: TChartSeries[] = [
      { name: 'shopee', type: 'bar', stack: 'orders', data: [3, 1] },
      { name: 'store', type: 'bar', stack: 'orders', data: [4, 2] },
      { name: 'units', type: 'bar', data: [5, 9] },
      { name: 'hours', type: 'line', data: [11, 2] },
    ];
    expect(barSlots(series)).toEqual([
      { key: 'stack:orders', members: [0, 1] },
      { key: 'own:2', members: [2] },
    ]);
    expect(chartMax(series, 2)).toBe(11);
    expect(chartMax(series.slice(0, 3), 2)).toBe(9);
    expect(chartMax(series.slice(0, 2), 2)).toBe(7);
  });
});
