import { useMutation, useQuery } from '@tanstack/react-query';
import type { supportRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { routeHead } from '../../shared/api/route-head';

/** Query keys of the support desk (the seller's tickets and notices, the staff's board). */
export const supportKeys = {
  all: ['support'] as const,
  tickets: ['support', 'tickets'] as const,
  ticket: (side: 'seller' | 'staff', id: string) => ['support', 'tickets', side, id] as const,
  notices: ['support', 'notices'] as const,
};

/** The dashboard's announcement routes as heads (shared/api/route-head.ts): /dashboard asks them on every visit. */
export const noticeRoutes = {
  currentNotices: routeHead<typeof supportRoutes.currentNotices>({
    method: 'GET',
    path: '/api/notices/',
    auth: 'customer',
    perm: 'self',
  }),
  acknowledgeNotice: routeHead<typeof supportRoutes.acknowledgeNotice>({
    method: 'POST',
    path: '/api/notices/:id/ack/',
    auth: 'customer',
    perm: 'self',
  }),
};

export const refreshSupport = () => queryClient.invalidateQueries({ queryKey: supportKeys.all });

export function useNotices() {
  return useQuery({ queryKey: supportKeys.notices, queryFn: () => apiCall(noticeRoutes.currentNotices, {}) });
}

export function useAcknowledge() {
  return useMutation({
    mutationFn: (id: string) => apiCall(noticeRoutes.acknowledgeNotice, { params: { id } }),
    onSuccess: refreshSupport,
  });
}
