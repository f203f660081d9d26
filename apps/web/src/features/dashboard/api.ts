import { useQuery } from '@tanstack/react-query';
import type { analysisRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { routeHead } from '../../shared/api/route-head';
import { bootRoutes } from '../../shared/auth/auth-routes';

/** The dashboard's own route, as a head without its zod schemas (the dashboard is the first screen after login). */
export const dashboardRoutes = {
  dashboard: routeHead<typeof analysisRoutes.dashboard>({
    method: 'GET',
    path: '/api/dashboard/',
    auth: 'customer',
    perm: 'self',
  }),
};

export const dashboardKeys = {
  all: ['dashboard'] as const,
  build: () => [...dashboardKeys.all, 'build'] as const,
  kpis: () => [...dashboardKeys.all, 'kpis'] as const,
};

/** The server's version and build id (GET /api/build/). */
export function useServerBuild() {
  return useQuery({ queryKey: dashboardKeys.build(), queryFn: () => apiCall(bootRoutes.build, {}) });
}

/** The seller's KPIs and 30 days of shipments (GET /api/dashboard/). */
export function useDashboardKpis() {
  return useQuery({
    queryKey: dashboardKeys.kpis(),
    queryFn: ({ signal }) => apiCall(dashboardRoutes.dashboard, {}, { signal }),
  });
}
