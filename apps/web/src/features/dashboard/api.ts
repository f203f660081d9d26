import { useQuery } from '@tanstack/react-query';
import { analysisRoutes, authRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  build: () => [...dashboardKeys.all, 'build'] as const,
  kpis: () => [...dashboardKeys.all, 'kpis'] as const,
};

/** The server's version and build id (GET /api/build/). */
export function useServerBuild() {
  return useQuery({ queryKey: dashboardKeys.build(), queryFn: () => apiCall(authRoutes.build, {}) });
}

/** The seller's KPIs and 30 days of shipments (GET /api/dashboard/). */
export function useDashboardKpis() {
  return useQuery({
    queryKey: dashboardKeys.kpis(),
    queryFn: ({ signal }) => apiCall(analysisRoutes.dashboard, {}, { signal }),
  });
}
