import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateStock, stockKeys } from './stock-keys';

describe('invalidateStock', () => {
  it('marks every stock screen stale and leaves other caches alone', async () => {
    const qc = new QueryClient();
    const stock = [
      [...stockKeys.productStock, 'list', { page: 1 }],
      [...stockKeys.piles, 'location', 'w1', 'A-01', undefined],
      [...stockKeys.log, 'list', {}],
      [...stockKeys.expiry, 'w1', 'expired', 30, 1],
    ];
    const other = ['outbound', 'orders', 'list', {}];
    for (const key of [...stock, other]) qc.setQueryData(key, { results: [] });
    await invalidateStock(qc);
    for (const key of stock) expect(qc.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
    expect(qc.getQueryState(other)?.isInvalidated).toBe(false);
  });
});
