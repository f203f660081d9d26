import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  build: () => [...dashboardKeys.all, 'build'] as const,
};

/** The server's version and build id (GET /api/build/). */
export function useServerBuild() {
  return useQuery({ queryKey: dashboardKeys.build(), queryFn: () => apiCall(authRoutes.build, {}) });
}
