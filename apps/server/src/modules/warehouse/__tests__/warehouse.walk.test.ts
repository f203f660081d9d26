import { describe, expect, it } from 'vitest';
import { renumberWalk, type TWalkLocation, walkOrder } from '../warehouse.walk';

const loc = (code: string, area: string | null, shelf: string | null, over: Partial<TWalkLocation> = {}) => {
  const m = /-(\d+)-(\d+)$/.exec(code);
  return {
    id: code,
    code,
    area_code: area,
    shelf_code: shelf,
    layer: m && shelf ? Number(m[1]) : null,
    pick_sequence: 0,
    pick_sequence_manual: false,
    ...over,
  };
};

describe('the walking order of locations', () => {
  it('goes area → shelf → layer → cell, every other shelf of an area backwards; loose locations after', () => {
    const all = [
      loc('S2-01-01', 'A', 'S2'),
      loc('S1-01-02', 'A', 'S1'),
      loc('FLOOR', 'A', null),
      loc('T1-01-01', 'B', 'T1'),
      loc('S1-01-01', 'A', 'S1'),
      loc('S2-01-02', 'A', 'S2'),
      loc('S1-02-01', 'A', 'S1'),
      loc('S3-01-01', 'A', 'S3'),
      loc('S3-01-02', 'A', 'S3'),
      loc('DOCK', null, null),
      loc('S2-02-02', 'A', 'S2'),
    ];
    expect(walkOrder(all).map((l) => l.code)).toEqual([
      'S1-01-01',
      'S1-01-02',
      'S1-02-01',
      'S2-01-02', // shelf 2 of area A: cells backwards
      'S2-01-01',
      'S2-02-02',
      'S3-01-01', // shelf 3: forwards again
      'S3-01-02',
      'FLOOR',
      'T1-01-01', // area B: its first shelf forwards
      'DOCK',
    ]);
  });

  it('numbers 10, 20, … and keeps hand-set sequences', () => {
    const all = [
      loc('S1-01-01', 'A', 'S1', { pick_sequence: 10 }),
      loc('S1-01-02', 'A', 'S1', { pick_sequence: 999, pick_sequence_manual: true }),
      loc('S1-01-03', 'A', 'S1'),
    ];
    expect(renumberWalk(all)).toEqual([{ id: 'S1-01-03', pick_sequence: 30 }]);
  });
});
