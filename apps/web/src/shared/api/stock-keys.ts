import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from './query-client';

/**
 * Query keys of the stock screens: product stock, product-location and location stock (piles), the stock log and
 * the expiry candidates. Every write that moves or reserves stock refreshes them all through invalidateStock.
 */
export const stockKeys = {
  all: ['stock'] as const,
  productStock: ['stock', 'product-stock'] as const,
  piles: ['stock', 'piles'] as const,
  log: ['stock', 'log'] as const,
  expiry: ['stock', 'expiry'] as const,
};

/**
 * After a write that moves or reserves stock (ship, return confirmation and its cancel, inbound confirmation and its
 * cancel, stocktake close, transfers, supplier returns, order export and cancel): the stock screens refetch.
 */
export function invalidateStock(qc: QueryClient = queryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: stockKeys.all });
}
