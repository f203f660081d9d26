import { useQuery } from '@tanstack/react-query';
import { analysisRoutes as r, type TDeliverStatsQuery } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { downloadFile } from '../../shared/download';
import type { TTableQuery } from '../../shared/table/list-query';

export const analysisKeys = {
  all: ['analysis'] as const,
  purchaseAdvice: ['analysis', 'purchase-advice'] as const,
  turnover: ['analysis', 'turnover'] as const,
  stockAge: ['analysis', 'stock-age'] as const,
  deliver: (q: Partial<TDeliverStatsQuery>) => ['analysis', 'deliver', q] as const,
  dashboard: ['analysis', 'dashboard'] as const,
};

type TQuery = Record<string, unknown>;

export const fetchPurchaseAdvice = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.purchaseAdvice, { query }, { signal });
export const fetchTurnover = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.productTurnover, { query }, { signal });
export const fetchStockAge = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.stockAge, { query }, { signal });

export const downloadPurchaseAdvice = (query: TQuery) =>
  downloadFile(r.exportPurchaseAdvice, 'purchase-advice.xlsx', { query } as never);
export const downloadTurnover = (query: TQuery) =>
  downloadFile(r.exportProductTurnover, 'product-turnover.xlsx', { query } as never);
export const downloadStockAge = (query: TQuery) => downloadFile(r.exportStockAge, 'stock-age.xlsx', { query } as never);
export const downloadDeliverStatistics = (query: Partial<TDeliverStatsQuery>) =>
  downloadFile(r.exportDeliverStatistics, 'deliver-statistics.xlsx', { query } as never);

export function useDeliverStatistics(query: Partial<TDeliverStatsQuery>) {
  return useQuery({
    queryKey: analysisKeys.deliver(query),
    queryFn: ({ signal }) => apiCall(r.deliverStatistics, { query } as never, { signal }),
  });
}
