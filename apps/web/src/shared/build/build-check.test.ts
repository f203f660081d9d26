import { describe, expect, it } from 'vitest';
import { isOutdated } from './build-check';

describe("'system needs update'", () => {
  it('asks for an update only when the server runs another real build', () => {
    expect(isOutdated('b2', 'b1')).toBe(true);
    expect(isOutdated('b1', 'b1')).toBe(false);
    expect(isOutdated(undefined, 'b1')).toBe(false);
    expect(isOutdated('dev', 'b1')).toBe(false);
    expect(isOutdated('b2', 'dev')).toBe(false);
  });
});
