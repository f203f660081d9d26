import { useMutation, useQuery } from '@tanstack/react-query';
import { crmRoutes as r, crmSupportRoutes as s, type TAnnouncementInput, type TCrmRackLabels } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the CRM area (employees, across sellers). */
export const crmKeys = {
  all: ['crm'] as const,
  dashboard: ['crm', 'dashboard'] as const,
  customers: ['crm', 'customers'] as const,
  customer: (id: string) => ['crm', 'customers', id] as const,
  announcements: ['crm', 'announcements'] as const,
  rack: ['crm', 'rack'] as const,
  stock: ['crm', 'stock'] as const,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: crmKeys.all });

export const fetchCustomers = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listCustomers, { query }, { signal });
export const fetchRack = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.rack, { query }, { signal });
export const fetchStock = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.stock, { query }, { signal });
export const fetchAnnouncements = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(s.listAnnouncements, { query }, { signal });

export function useCrmDashboard() {
  return useQuery({ queryKey: crmKeys.dashboard, queryFn: () => apiCall(r.dashboard, {}) });
}

export function useCustomer(id: string | null) {
  return useQuery({
    queryKey: crmKeys.customer(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getCustomer, { params: { id: id! } }),
  });
}

/** Every seller as select options (announcement audience, filters). */
export function useCustomerOptions() {
  return useQuery({
    queryKey: [...crmKeys.customers, 'options'],
    queryFn: () => apiCall(r.listCustomers, { query: { page_size: 100, ordering: 'name' } }),
    select: (d) => d.results.map((c) => ({ value: c.id, label: c.name })),
  });
}

export function useSetCustomerActive() {
  return useMutation({
    mutationFn: ({ id, is_active }: { id: string; is_active: boolean }) =>
      apiCall(r.setCustomerActive, { params: { id }, body: { is_active } }),
    onSuccess: refresh,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, user_id }: { id: string; user_id: string }) =>
      apiCall(r.resetUserPassword, { params: { id }, body: { user_id } }),
  });
}

export function useStockMovements(id: string | null) {
  return useQuery({
    queryKey: [...crmKeys.stock, 'movements', id],
    enabled: !!id,
    queryFn: () => apiCall(r.stockMovements, { params: { id: id! } }),
  });
}

export function useSaveAnnouncement() {
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: TAnnouncementInput }) =>
      id ? apiCall(s.updateAnnouncement, { params: { id }, body }) : apiCall(s.createAnnouncement, { body }),
    onSuccess: refresh,
  });
}

export function useDeleteAnnouncement() {
  return useMutation({
    mutationFn: (id: string) => apiCall(s.deleteAnnouncement, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useRackLabels() {
  return useMutation({ mutationFn: (body: TCrmRackLabels) => apiCall(r.rackLabels, { body }) });
}
