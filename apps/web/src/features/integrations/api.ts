import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  integrationRoutes,
  apiSettingRoutes as r,
  type TApiSettingKind,
  type TCreateApiSetting,
  type TUpdateApiSetting,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import type { TTableQuery } from '../../shared/table/list-query';

export const apiSettingKeys = {
  all: ['api-settings'] as const,
  list: (kind: TApiSettingKind) => [...apiSettingKeys.all, 'list', kind] as const,
  deliveries: (id: string) => [...apiSettingKeys.all, 'deliveries', id] as const,
  attempts: (reference: string) => [...apiSettingKeys.all, 'attempts', reference] as const,
};

/** The seller's API settings of one kind (a handful: the list is not paged). */
export function useApiSettings(kind: TApiSettingKind) {
  return useQuery({
    queryKey: apiSettingKeys.list(kind),
    queryFn: ({ signal }) => apiCall(r.listApiSettings, { query: { kind } }, { signal }),
  });
}

function useWrite<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: apiSettingKeys.all }) });
}

export const useSaveApiSetting = () =>
  useWrite((a: { id?: string; body: TCreateApiSetting | TUpdateApiSetting }) =>
    a.id
      ? apiCall(r.updateApiSetting, { params: { id: a.id }, body: a.body as TUpdateApiSetting })
      : apiCall(r.createApiSetting, { body: a.body as TCreateApiSetting }),
  );
export const useDeleteApiSetting = () => useWrite((id: string) => apiCall(r.deleteApiSetting, { params: { id } }));
export const useEnableApiSetting = () => useWrite((id: string) => apiCall(r.enableApiSetting, { params: { id } }));
export const useDisableApiSetting = () => useWrite((id: string) => apiCall(r.disableApiSetting, { params: { id } }));
export const useTestConnection = () => useWrite((id: string) => apiCall(r.testApiConnection, { params: { id } }));
export const useSendTestEvent = () => useWrite((id: string) => apiCall(r.sendTestCallback, { params: { id } }));
export const useResendDelivery = () =>
  useWrite((a: { id: string; deliveryId: string }) =>
    apiCall(r.resendCallback, { params: { id: a.id, delivery_id: a.deliveryId } }),
  );

/** The i18n key of an event type (`order.created` → `events.order_created`: dots separate i18n keys). */
export const eventKey = (type: string) => `events.${type.replace(/\./g, '_')}` as 'events.ping';

/** One page of a partner setting's callback deliveries (DataTable's fetcher). */
export const fetchDeliveries = (id: string) => (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(
    r.listCallbackDeliveries,
    {
      params: { id },
      query: {
        page: query.page,
        page_size: query.page_size,
        state: query.state as 'pending' | 'delivered' | 'failed' | undefined,
      },
    },
    { signal },
  );

/** The recorded HTTP attempts of one delivery (its id is the attempt log's reference). */
export function useDeliveryAttempts(reference: string | null) {
  return useQuery({
    enabled: !!reference,
    queryKey: apiSettingKeys.attempts(reference ?? ''),
    queryFn: ({ signal }) =>
      apiCall(
        integrationRoutes.listIntegrationAttempts,
        { query: { reference: reference ?? '', page: 1, page_size: 100 } },
        { signal },
      ),
  });
}
