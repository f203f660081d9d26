import { describe, expect, it } from 'vitest';
import { scanOutcome, VIBRATION } from './scan-feedback';

describe('scanOutcome: what a scan handler answered', () => {
  it('refused when it answers false, throws or rejects', async () => {
    expect(await scanOutcome(false)).toBe('error');
    expect(await scanOutcome(Promise.resolve(false))).toBe('error');
    expect(await scanOutcome(Promise.reject(new Error('no such product')))).toBe('error');
  });
  it('accepted otherwise (nothing, true, a value)', async () => {
    expect(await scanOutcome(undefined)).toBe('ok');
    expect(await scanOutcome(Promise.resolve(true))).toBe('ok');
    expect(await scanOutcome(Promise.resolve(undefined))).toBe('ok');
    expect(await scanOutcome('P-1')).toBe('ok');
  });
  it('the error vibration is a long pattern, distinct from the tap of a success', () => {
    expect(VIBRATION.ok).toBe(40);
    const error = VIBRATION.error as number[];
    expect(error.reduce((a, b) => a + b, 0)).toBeGreaterThan(500);
  });
});
