import { useQuery } from '@tanstack/react-query';
import { apiDocsRoutes } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const apiDocsKeys = {
  all: ['apidocs'] as const,
  document: () => [...apiDocsKeys.all, 'openapi'] as const,
};

/** The OpenAPI document (GET /api/openapi.json, any logged-in user); it changes only with a deploy. */
export function useOpenApiDocument() {
  return useQuery({
    queryKey: apiDocsKeys.document(),
    queryFn: () => apiCall(apiDocsRoutes.openapi, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
