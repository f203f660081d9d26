import { useMutation, useQuery } from '@tanstack/react-query';
import {
  stocktakeRoutes as r,
  type TCreateStocktake,
  type TSubmitStocktakeCount,
  type TUpdateStocktake,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { invalidateStock } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of /inventory; every write invalidates `all`. */
export const stocktakeKeys = {
  all: ['stocktake'] as const,
  list: ['stocktake', 'list'] as const,
  sheet: (id: string) => ['stocktake', 'sheet', id] as const,
  locations: (id: string) => ['stocktake', 'sheet', id, 'locations'] as const,
  lines: (id: string) => ['stocktake', 'sheet', id, 'lines'] as const,
  report: (id: string) => ['stocktake', 'sheet', id, 'report'] as const,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: stocktakeKeys.all });

export const fetchStocktakes = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStocktakes, { query }, { signal });
export const fetchSheetLocations = (id: string) => (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStocktakeLocations, { params: { id }, query }, { signal });
export const fetchSheetLines =
  (id: string, extra: Record<string, unknown> = {}) =>
  (query: TTableQuery, signal?: AbortSignal) =>
    apiCall(r.listStocktakeLines, { params: { id }, query: { ...query, ...extra } }, { signal });

export function useStocktake(id: string | null) {
  return useQuery({
    queryKey: stocktakeKeys.sheet(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getStocktake, { params: { id: id! } }),
  });
}

export function useStocktakeReport(id: string, enabled: boolean) {
  return useQuery({
    queryKey: stocktakeKeys.report(id),
    enabled,
    queryFn: () => apiCall(r.stocktakeReport, { params: { id } }),
  });
}

export function useCreateStocktake() {
  return useMutation({
    mutationFn: (body: TCreateStocktake) => apiCall(r.createStocktake, { body }),
    onSuccess: refresh,
  });
}

export function useUpdateStocktake() {
  return useMutation({
    mutationFn: (v: { id: string; body: TUpdateStocktake }) =>
      apiCall(r.updateStocktake, { params: { id: v.id }, body: v.body }),
    onSuccess: refresh,
  });
}

export function useStocktakeAction() {
  return useMutation({
    mutationFn: (v: { id: string; action: 'next_round' | 'close' | 'cancel' }) => {
      const route =
        v.action === 'next_round' ? r.nextStocktakeRound : v.action === 'close' ? r.closeStocktake : r.cancelStocktake;
      return apiCall(route, { params: { id: v.id } });
    },
    // Closing books the differences into stock.
    onSuccess: (_, v) => Promise.all([refresh(), v.action === 'close' ? invalidateStock() : null]),
  });
}

export const scanLocation = (id: string, code: string) =>
  apiCall(r.scanStocktakeLocation, { params: { id }, query: { code } });
export const scanProduct = (id: string, code: string) =>
  apiCall(r.scanStocktakeProduct, { params: { id }, query: { code } });

export function useSubmitCount() {
  return useMutation({
    mutationFn: (v: { id: string; body: TSubmitStocktakeCount }) =>
      apiCall(r.submitStocktakeCount, { params: { id: v.id }, body: v.body }),
    onSuccess: refresh,
  });
}
