import { describe, expect, it } from 'vitest';
import { isTaiwanPostcode, normalizeTaiwanPostcode } from './outbound';

const valid = (raw: string) => isTaiwanPostcode(normalizeTaiwanPostcode(raw));

describe('Taiwan postcodes', () => {
  it('takes 3, 5 or 6 digits with one dash or space after the first three, and writes them without it', () => {
    expect(normalizeTaiwanPostcode('100')).toBe('100');
    expect(normalizeTaiwanPostcode(' 100-01 ')).toBe('10001');
    expect(normalizeTaiwanPostcode('100 012')).toBe('100012');
    expect(normalizeTaiwanPostcode('10001')).toBe('10001');
    for (const ok of ['100', '10001', '100012', '100-01', '100-012', '100 01']) expect(valid(ok), ok).toBe(true);
  });

  it('refuses dashes anywhere else instead of stripping them into a valid code', () => {
    for (const bad of ['-100', '1-0-0', '10-0', '100-', '100--01', '100-0-1', '1 00', '100-0001', '10 001'])
      expect(valid(bad), bad).toBe(false);
  });
});
