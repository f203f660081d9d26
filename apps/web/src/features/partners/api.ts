import { partnerRoutes } from '@wms/contracts';
import { readsOf, useRoute } from '../../shared/api/route-query';

/** What a carrier or platform write refreshes: every read of the partners table (its screens and the selects). */
export const partnerReads = readsOf(partnerRoutes);

const asOptions = (d: { results: Array<{ id: string; code: string; name: string }> }) =>
  d.results.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }));

/** The carriers as select options ("code name"): the product form, the order screens, ship-by settings. */
export function useProviderOptions() {
  return useRoute(
    partnerRoutes.listLogisticsProviders,
    { query: { page_size: 100 } },
    { select: asOptions, staleTime: 60_000 },
  );
}

/** The e-commerce platforms as select options ("code name"). */
export function usePlatformOptions() {
  return useRoute(
    partnerRoutes.listEcommercePlatforms,
    { query: { page_size: 100 } },
    { select: asOptions, staleTime: 60_000 },
  );
}
