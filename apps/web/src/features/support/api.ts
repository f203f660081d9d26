import { useMutation, useQuery } from '@tanstack/react-query';
import {
  crmSupportRoutes as crm,
  supportRoutes as r,
  type TCreateTicket,
  type TTicketReplyInput,
  type TTicketStatus,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the support desk (the seller's tickets and notices, the staff's board). */
export const supportKeys = {
  all: ['support'] as const,
  tickets: ['support', 'tickets'] as const,
  ticket: (side: 'seller' | 'staff', id: string) => ['support', 'tickets', side, id] as const,
  notices: ['support', 'notices'] as const,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: supportKeys.all });

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

export function useNotices() {
  return useQuery({ queryKey: supportKeys.notices, queryFn: () => apiCall(r.currentNotices, {}) });
}

export function useAcknowledge() {
  return useMutation({
    mutationFn: (id: string) => apiCall(r.acknowledgeNotice, { params: { id } }),
    onSuccess: refresh,
  });
}
