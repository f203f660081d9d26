import { useQuery } from '@tanstack/react-query';
import type { billingRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { routeHead } from '../../shared/api/route-head';

export const billingKeys = {
  all: ['billing'] as const,
  overview: () => [...billingKeys.all, 'overview'] as const,
  payments: () => [...billingKeys.all, 'payments'] as const,
  payment: (id: string) => [...billingKeys.all, 'payment', id] as const,
  crm: (customerId: string) => [...billingKeys.all, 'crm', customerId] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  crmPlans: () => [...billingKeys.all, 'crm-plans'] as const,
  reconciliation: () => [...billingKeys.all, 'reconciliation'] as const,
};

/** The overview route as a head (shared/api/route-head.ts): the main frame's overdue banner asks it on every page. */
export const overviewRoutes = {
  overview: routeHead<typeof billingRoutes.overview>({
    method: 'GET',
    path: '/api/billing/',
    auth: 'customer',
    perm: 'billing:read',
  }),
};

export function useBillingOverview(enabled = true) {
  return useQuery({
    enabled,
    queryKey: billingKeys.overview(),
    queryFn: ({ signal }) => apiCall(overviewRoutes.overview, {}, { signal }),
  });
}
