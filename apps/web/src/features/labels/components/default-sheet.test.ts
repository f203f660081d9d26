import { describe, expect, it } from 'vitest';
import { defaultSheet } from './label-print-view';

const SHEETS = [
  { code: 'thermal-50x30', cells: 1 },
  { code: 'thermal-60x40', cells: 1 },
  { code: 'thermal-100x150', cells: 1 },
  { code: 'a4-45', cells: 45 },
  { code: 'a4-60', cells: 60 },
];

describe('defaultSheet: where a print screen starts, by the user’s default label format', () => {
  it('sheet: the A4 sheet of 45 for every kind', () => {
    for (const kind of ['product', 'location', 'packaging'] as const)
      expect(defaultSheet(SHEETS, 'sheet', kind)?.code).toBe('a4-45');
  });
  it('thermal: the roll that fits the kind of label', () => {
    expect(defaultSheet(SHEETS, 'thermal', 'product')?.code).toBe('thermal-50x30');
    expect(defaultSheet(SHEETS, 'thermal', 'location')?.code).toBe('thermal-60x40');
  });
  it('thermal without rolls (none offered): the A4 sheet', () => {
    expect(defaultSheet(SHEETS.slice(3), 'thermal', 'product')?.code).toBe('a4-45');
  });
});
