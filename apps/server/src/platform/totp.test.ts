import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, totp, verifyTotp } from './totp';

// RFC 6238 appendix B, SHA-1 key "12345678901234567890"; our codes are 6 digits (last 6 of the 8-digit vectors).
const secret = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('at %i s gives %s', (seconds, code) => {
    expect(totp(secret, seconds * 1000)).toBe(code);
  });

  it('matches RFC 4226 HOTP vectors', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('round-trips base32', () => {
    const buf = Buffer.from([0, 1, 2, 250, 255, 17, 9]);
    expect(base32Decode(base32Encode(buf))).toEqual(buf);
  });

  it('accepts ±1 step, refuses ±2 and a used step', () => {
    const now = 1_700_000_000_000;
    const prev = totp(secret, now - 30_000);
    const next = totp(secret, now + 30_000);
    const far = totp(secret, now - 60_000);
    const step = Math.floor(now / 30_000);
    expect(verifyTotp(secret, prev, null, now)).toBe(step - 1);
    expect(verifyTotp(secret, next, null, now)).toBe(step + 1);
    expect(verifyTotp(secret, far, null, now)).toBeNull();
    expect(verifyTotp(secret, totp(secret, now), step, now)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', null, now)).toBeNull();
  });
});
