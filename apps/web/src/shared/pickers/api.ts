import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogRoutes, type TLocationKind, warehouseRoutes } from '@wms/contracts';
import { useEffect, useState } from 'react';
import { apiCall } from '../api/client';

/**
 * Query keys of the resources the pickers read, one factory per resource. Each sits under the keys of the screens
 * that edit the resource (features/warehouse, features/catalog), so a save there refreshes every picker too.
 */
export const warehouseKeys = {
  all: ['warehouse', 'warehouses'] as const,
  options: () => [...warehouseKeys.all, 'options'] as const,
};

export const locationKeys = {
  all: ['warehouse', 'locations'] as const,
  options: (q: { warehouseId: string | undefined; kind?: TLocationKind; activeOnly: boolean; search: string }) =>
    [...locationKeys.all, 'options', q] as const,
};

export const productKeys = {
  all: ['catalog', 'products'] as const,
  search: (q: { search: string; type?: 'single'; status?: 'active' }) => [...productKeys.all, 'search', q] as const,
};

/** Every warehouse of the seller (one cached list for all screens). */
export function useWarehouses() {
  return useQuery({
    queryKey: warehouseKeys.options(),
    queryFn: () => apiCall(warehouseRoutes.listWarehouses, { query: { page_size: 100 } }),
    select: (d) => d.results,
    staleTime: 60_000,
  });
}

/** The warehouses as select options ("code name"); the same cache entry as useWarehouses. */
export function useWarehouseOptions() {
  return useQuery({
    queryKey: warehouseKeys.options(),
    queryFn: () => apiCall(warehouseRoutes.listWarehouses, { query: { page_size: 100 } }),
    select: (d) => d.results.map((w) => ({ value: w.id, label: `${w.code} ${w.name}` })),
    staleTime: 60_000,
  });
}

/**
 * Storage locations of a warehouse in code order (optionally of one kind, matching a search), 100 at most: the
 * pickers search the server for the rest.
 */
export function useLocations(
  warehouseId: string | undefined,
  opts: { kind?: TLocationKind; activeOnly?: boolean; search?: string } = {},
) {
  const q = { warehouseId, kind: opts.kind, activeOnly: opts.activeOnly ?? true, search: opts.search ?? '' };
  return useQuery({
    queryKey: locationKeys.options(q),
    enabled: !!warehouseId,
    // While a new search loads, keep showing the last list of the same warehouse and kind (never another's).
    placeholderData: (previous, previousQuery) => {
      const was = previousQuery?.queryKey[3] as typeof q | undefined;
      return was && was.warehouseId === q.warehouseId && was.kind === q.kind && was.activeOnly === q.activeOnly
        ? previous
        : undefined;
    },
    queryFn: () =>
      apiCall(warehouseRoutes.listStorageLocations, {
        query: {
          warehouse_id: warehouseId,
          kind: q.kind,
          is_active: q.activeOnly ? 'true' : undefined,
          search: q.search || undefined,
          page_size: 100,
          ordering: 'code',
        },
      }),
    select: (d) => d.results,
  });
}

/** Products matching a search (number, name or barcode), 25 at most; `enabled` holds the first request back. */
export function useProductSearch(q: { search: string; type?: 'single'; status?: 'active' }, enabled = true) {
  return useQuery({
    queryKey: productKeys.search(q),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      apiCall(catalogRoutes.listProducts, {
        query: { search: q.search || undefined, type: q.type, status: q.status, page_size: 25 },
      }),
    select: (d) => d.results,
  });
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
