import { catalogRoutes } from '@wms/contracts';
import { queryClient } from '../../shared/api/query-client';
import { invalidateRoutes, readsOf, useRoute } from '../../shared/api/route-query';

/** What a catalogue write refreshes: every read of the catalogue table (its screens and the product pickers). */
export const catalogReads = readsOf(catalogRoutes);

export const refreshCatalog = () => invalidateRoutes(queryClient, catalogReads);

/** The product categories as select options ("code name"). */
export function useCategoryOptions() {
  return useRoute(
    catalogRoutes.listProductCategories,
    { query: { page_size: 100 } },
    { select: (d) => d.results.map((c) => ({ value: c.id, label: `${c.code} ${c.name}` })) },
  );
}
