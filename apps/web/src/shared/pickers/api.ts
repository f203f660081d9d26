import { keepPreviousData } from '@tanstack/react-query';
import { catalogRoutes, type TLocationKind, warehouseRoutes } from '@wms/contracts';
import { useEffect, useState } from 'react';
import { apiCall, type TCallInput } from '../api/client';
import { useRoute } from '../api/route-query';

const WAREHOUSES = { query: { page_size: 100 } } as const;

/**
 * Every warehouse of the seller (one cached list for all screens). The pickers read the routes the settings screens
 * edit (features/warehouse, features/catalog), under the same route keys, so a save there refreshes every picker too.
 */
export function useWarehouses() {
  return useRoute(warehouseRoutes.listWarehouses, WAREHOUSES, { select: (d) => d.results, staleTime: 60_000 });
}

/** The warehouses as select options ("code name"); the same cache entry as useWarehouses. */
export function useWarehouseOptions() {
  return useRoute(warehouseRoutes.listWarehouses, WAREHOUSES, {
    select: (d) => d.results.map((w) => ({ value: w.id, label: `${w.code} ${w.name}` })),
    staleTime: 60_000,
  });
}

type TLocationQuery = Partial<TCallInput<typeof warehouseRoutes.listStorageLocations>['query']>;

/**
 * Storage locations of a warehouse in code order (optionally of one kind, matching a search), 100 at most: the
 * pickers search the server for the rest.
 */
export function useLocations(
  warehouseId: string | undefined,
  opts: { kind?: TLocationKind; activeOnly?: boolean; search?: string } = {},
) {
  const query: TLocationQuery = {
    warehouse_id: warehouseId,
    kind: opts.kind,
    is_active: (opts.activeOnly ?? true) ? 'true' : undefined,
    search: opts.search || undefined,
    page_size: 100,
    ordering: 'code',
  };
  return useRoute(warehouseRoutes.listStorageLocations, warehouseId ? { query } : null, {
    // While a new search loads, keep showing the last list of the same warehouse and kind (never another's).
    placeholderData: (previous, previousQuery) => {
      const was = (previousQuery?.queryKey[1] as { query?: TLocationQuery } | undefined)?.query;
      return was &&
        was.warehouse_id === query.warehouse_id &&
        was.kind === query.kind &&
        was.is_active === query.is_active
        ? previous
        : undefined;
    },
    select: (d) => d.results,
  });
}

/** Products matching a search (number, name or barcode), 25 at most; `enabled` holds the first request back. */
export function useProductSearch(q: { search: string; type?: 'single'; status?: 'active' }, enabled = true) {
  return useRoute(
    catalogRoutes.listProducts,
    { query: { search: q.search || undefined, type: q.type, status: q.status, page_size: 25 } },
    { enabled, placeholderData: keepPreviousData, select: (d) => d.results },
  );
}

/** A scanned product code (number or barcode) → the product, or an ApiError NOT_FOUND. */
export const lookupProduct = (code: string) => apiCall(catalogRoutes.lookupProduct, { query: { code } });

/** A scanned location code → the matching locations (one per warehouse that has the code, or the one in `warehouseId`). */
export async function lookupLocations(code: string, warehouseId?: string) {
  const res = await apiCall(warehouseRoutes.listStorageLocations, {
    query: { code, warehouse_id: warehouseId, page_size: 10 },
  });
  return res.results;
}

/** `value`, once it has stopped changing for `ms` (what the pickers send to the server while the user types). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
