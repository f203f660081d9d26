import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userRoutes as r, type TInviteUser, type TUpdateCompanyUser } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import type { TTableQuery } from '../../shared/table/list-query';

export const userKeys = {
  all: ['users'] as const,
  list: ['users', 'list'] as const,
  audit: ['users', 'audit'] as const,
};

export const fetchUsers = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listCompanyUsers, { query }, { signal });
export const fetchAudit = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listAuditTrail, { query }, { signal });

function useWrite<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useInviteUser = () => useWrite((body: TInviteUser) => apiCall(r.inviteCompanyUser, { body }));
export const useUpdateUser = () =>
  useWrite((a: { id: string; body: TUpdateCompanyUser }) =>
    apiCall(r.updateCompanyUser, { params: { id: a.id }, body: a.body }),
  );
export const useSetActive = () =>
  useWrite((a: { id: string; active: boolean }) =>
    apiCall(a.active ? r.activateCompanyUser : r.deactivateCompanyUser, { params: { id: a.id } }),
  );
export const useSendPasswordLink = () =>
  useWrite((id: string) => apiCall(r.resetCompanyUserPassword, { params: { id } }));
