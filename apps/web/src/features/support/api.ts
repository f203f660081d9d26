import { useMutation, useQuery } from '@tanstack/react-query';
import {
  crmSupportRoutes as crm,
  supportRoutes as r,
  type TCreateTicket,
  type TTicketReplyInput,
  type TTicketStatus,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import type { TTableQuery } from '../../shared/table/list-query';
import { refreshSupport as refresh, supportKeys } from './notices-api';

export { supportKeys, useAcknowledge, useNotices } from './notices-api';

export const fetchMyTickets = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listTickets, { query }, { signal });
export const fetchAllTickets = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(crm.listTickets, { query }, { signal });

export function useTicket(side: 'seller' | 'staff', id: string | null) {
  return useQuery({
    queryKey: supportKeys.ticket(side, id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(side === 'seller' ? r.getTicket : crm.getTicket, { params: { id: id! } }),
  });
}

export function useCreateTicket() {
  return useMutation({ mutationFn: (body: TCreateTicket) => apiCall(r.createTicket, { body }), onSuccess: refresh });
}

export function useReply(side: 'seller' | 'staff') {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TTicketReplyInput }) =>
      apiCall(side === 'seller' ? r.replyTicket : crm.replyTicket, { params: { id }, body }),
    onSuccess: refresh,
  });
}

export function useSetTicketStatus() {
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: TTicketStatus }) =>
      apiCall(crm.setTicketStatus, { params: { id }, body: { status } }),
    onSuccess: refresh,
  });
}
