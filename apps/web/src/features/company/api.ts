import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyRoutes, type TUpdateCompany } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const companyKeys = { all: ['company'] as const };

export function useCompany() {
  return useQuery({ queryKey: companyKeys.all, queryFn: () => apiCall(companyRoutes.getCompany, {}) });
}

export function useUpdateCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateCompany) => apiCall(companyRoutes.updateCompany, { body }),
    onSuccess: (data) => qc.setQueryData(companyKeys.all, data),
  });
}
