import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usageRoutes as r, type TRateCardInput, type TUsageKind } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const usageKeys = {
  all: ['usage'] as const,
  cards: (customerId: string | null) => [...usageKeys.all, 'cards', customerId ?? 'default'] as const,
  month: (customerId: string | null, month: string | null) =>
    [...usageKeys.all, 'month', customerId ?? 'me', month ?? 'now'] as const,
  events: (customerId: string | null, month: string | undefined, kind: TUsageKind | null, page: number, size: number) =>
    [...usageKeys.all, 'events', customerId ?? 'me', month, kind, page, size] as const,
};

/** CRM: the default cards and (for a seller) the seller's own. */
export function useRateCards(customerId: string | null) {
  return useQuery({
    queryKey: usageKeys.cards(customerId),
    queryFn: ({ signal }) =>
      apiCall(r.crmRateCards, { query: customerId ? { customer_id: customerId } : {} }, { signal }),
  });
}

export function useSaveRateCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: TRateCardInput }) =>
      id ? apiCall(r.crmUpdateRateCard, { params: { id }, body }) : apiCall(r.crmCreateRateCard, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...usageKeys.all, 'cards'] }),
  });
}

export function useDeleteRateCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(r.crmDeleteRateCard, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...usageKeys.all, 'cards'] }),
  });
}

/**
 * A month's usage: the seller's own (no customerId) or, for the staff, one seller's. No month: this month in Taipei
 * time, as the server says (never this browser's clock).
 */
export function useMonthUsage(customerId: string | null, month: string | null) {
  const query = month ? { month } : {};
  return useQuery({
    queryKey: usageKeys.month(customerId, month),
    queryFn: ({ signal }) =>
      customerId
        ? apiCall(r.crmUsage, { params: { id: customerId }, query }, { signal })
        : apiCall(r.usage, { query }, { signal }),
  });
}

export function useUsageEvents(
  customerId: string | null,
  month: string | undefined,
  kind: TUsageKind | null,
  page: number,
  pageSize: number,
) {
  return useQuery({
    enabled: !!kind && !!month,
    placeholderData: keepPreviousData,
    queryKey: usageKeys.events(customerId, month, kind, page, pageSize),
    queryFn: ({ signal }) => {
      const query = { month, kind: kind ?? undefined, page, page_size: pageSize };
      return customerId
        ? apiCall(r.crmUsageEvents, { params: { id: customerId }, query }, { signal })
        : apiCall(r.usageEvents, { query }, { signal });
    },
  });
}
