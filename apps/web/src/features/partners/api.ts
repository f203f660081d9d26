import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  partnerRoutes as r,
  type TCreateEcommercePlatform,
  type TCreateLogisticsProvider,
  type TUpdateEcommercePlatform,
  type TUpdateLogisticsProvider,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import type { TTableQuery } from '../../shared/table/list-query';

export const partnerKeys = {
  all: ['partners'] as const,
  providers: ['partners', 'providers'] as const,
  platforms: ['partners', 'platforms'] as const,
};

export const fetchProviders = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listLogisticsProviders, { query }, { signal });
export const fetchPlatforms = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listEcommercePlatforms, { query }, { signal });

function useWrite<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: partnerKeys.all }) });
}

export const useSaveProvider = () =>
  useWrite((a: { id?: string; body: TCreateLogisticsProvider | TUpdateLogisticsProvider }) =>
    a.id
      ? apiCall(r.updateLogisticsProvider, { params: { id: a.id }, body: a.body })
      : apiCall(r.createLogisticsProvider, { body: a.body as TCreateLogisticsProvider }),
  );
export const useDeleteProvider = () => useWrite((id: string) => apiCall(r.deleteLogisticsProvider, { params: { id } }));
export const useSavePlatform = () =>
  useWrite((a: { id?: string; body: TCreateEcommercePlatform | TUpdateEcommercePlatform }) =>
    a.id
      ? apiCall(r.updateEcommercePlatform, { params: { id: a.id }, body: a.body })
      : apiCall(r.createEcommercePlatform, { body: a.body as TCreateEcommercePlatform }),
  );
export const useDeletePlatform = () => useWrite((id: string) => apiCall(r.deleteEcommercePlatform, { params: { id } }));

/** Providers and platforms for the product form's selects. */
export function useProviderOptions() {
  return useQuery({
    queryKey: [...partnerKeys.providers, 'options'],
    queryFn: () => apiCall(r.listLogisticsProviders, { query: { page_size: 100 } }),
    select: (d) => d.results.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` })),
  });
}
export function usePlatformOptions() {
  return useQuery({
    queryKey: [...partnerKeys.platforms, 'options'],
    queryFn: () => apiCall(r.listEcommercePlatforms, { query: { page_size: 100 } }),
    select: (d) => d.results.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` })),
  });
}
