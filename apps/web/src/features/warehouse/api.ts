import { useMutation, useQuery } from '@tanstack/react-query';
import {
  warehouseRoutes as r,
  releaseChannelRoutes,
  shipBoardRoutes,
  shipManifestRoutes,
  shipRoutes,
  shipWaveRoutes,
  type TCreateArea,
  type TCreateReleaseChannel,
  type TCreateShelf,
  type TCreateStorageLocation,
  type TCreateWarehouse,
  type TGenerateLocations,
  type TManifestScan,
  type TReleaseWave,
  type TSaveWarehouseShipping,
  type TShipSla,
  type TUpdateArea,
  type TUpdateReleaseChannel,
  type TUpdateShelf,
  type TUpdateStorageLocation,
  type TUpdateWarehouse,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { locationKeys, warehouseKeys as warehouseResourceKeys } from '../../shared/pickers/api';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the warehouse screens; warehouses and locations are the pickers' keys (shared/pickers/api.ts). */
export const warehouseKeys = {
  all: ['warehouse'] as const,
  warehouses: warehouseResourceKeys.all,
  areas: ['warehouse', 'areas'] as const,
  shelves: ['warehouse', 'shelves'] as const,
  locations: locationKeys.all,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: warehouseKeys.all });

export const fetchWarehouses = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listWarehouses, { query }, { signal });
export const fetchAreas = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listAreas, { query }, { signal });
export const fetchShelves = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listShelves, { query }, { signal });
export const fetchLocations = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStorageLocations, { query }, { signal });

export function useAreaOptions(warehouseId: string | undefined) {
  return useQuery({
    queryKey: [...warehouseKeys.areas, 'options', warehouseId],
    enabled: !!warehouseId,
    queryFn: () => apiCall(r.listAreas, { query: { page_size: 100, warehouse_id: warehouseId } }),
    select: (d) => d.results.map((a) => ({ value: a.id, label: `${a.code} ${a.name}` })),
  });
}

export function useShelfOptions(warehouseId: string | undefined) {
  return useQuery({
    queryKey: [...warehouseKeys.shelves, 'options', warehouseId],
    enabled: !!warehouseId,
    queryFn: () => apiCall(r.listShelves, { query: { page_size: 100, warehouse_id: warehouseId } }),
    select: (d) => d.results.map((s) => ({ value: s.id, label: `${s.code} ${s.name}` })),
  });
}

const useWrite = <A>(fn: (a: A) => Promise<unknown>) => useMutation({ mutationFn: fn, onSuccess: refresh });

export const useSaveWarehouse = () =>
  useWrite((a: { id?: string; body: TCreateWarehouse | TUpdateWarehouse }) =>
    a.id
      ? apiCall(r.updateWarehouse, { params: { id: a.id }, body: a.body })
      : apiCall(r.createWarehouse, { body: a.body as TCreateWarehouse }),
  );
export const useDeleteWarehouse = () => useWrite((id: string) => apiCall(r.deleteWarehouse, { params: { id } }));

export const useSaveArea = () =>
  useWrite((a: { id?: string; body: TCreateArea | TUpdateArea }) =>
    a.id
      ? apiCall(r.updateArea, { params: { id: a.id }, body: a.body as TUpdateArea })
      : apiCall(r.createArea, { body: a.body as TCreateArea }),
  );
export const useDeleteArea = () => useWrite((id: string) => apiCall(r.deleteArea, { params: { id } }));

export const useSaveShelf = () =>
  useWrite((a: { id?: string; body: TCreateShelf | TUpdateShelf }) =>
    a.id
      ? apiCall(r.updateShelf, { params: { id: a.id }, body: a.body as TUpdateShelf })
      : apiCall(r.createShelf, { body: a.body as TCreateShelf }),
  );
export const useDeleteShelf = () => useWrite((id: string) => apiCall(r.deleteShelf, { params: { id } }));
export const useGenerateLocations = () =>
  useWrite((a: { id: string; body: Partial<TGenerateLocations> & { positions_per_layer: number } }) =>
    apiCall(r.generateShelfLocations, { params: { id: a.id }, body: a.body }),
  );

export const useSaveLocation = () =>
  useWrite((a: { id?: string; body: TCreateStorageLocation | TUpdateStorageLocation }) =>
    a.id
      ? apiCall(r.updateStorageLocation, { params: { id: a.id }, body: a.body as TUpdateStorageLocation })
      : apiCall(r.createStorageLocation, { body: a.body as TCreateStorageLocation }),
  );
export const useRenumberWalk = () =>
  useMutation({
    mutationFn: (a: { id: string; reset_manual: boolean }) =>
      apiCall(r.renumberWalk, { params: { id: a.id }, body: { reset_manual: a.reset_manual } }),
    onSuccess: refresh,
  });
export const useDeleteLocations = () =>
  useWrite((ids: string[]) => apiCall(r.bulkDeleteStorageLocations, { body: { ids } }));

export { refresh as refreshWarehouse };

// ---- ship-by promises: the seller's promise, each warehouse's cut-offs per carrier and holidays ----
export const shipKeys = { settings: ['warehouse', 'ship-settings'] as const };

export function useShipSettings() {
  return useQuery({ queryKey: shipKeys.settings, queryFn: () => apiCall(shipRoutes.getShipSettings, {}) });
}
export const useSaveShipSla = () => useWrite((body: TShipSla) => apiCall(shipRoutes.saveShipSla, { body }));
export const useSaveWarehouseShipping = () =>
  useWrite((a: { id: string; body: TSaveWarehouseShipping }) =>
    apiCall(shipRoutes.saveWarehouseShipping, { params: { id: a.id }, body: a.body }),
  );

/** The floor board, refreshed every 30 seconds (also while the tab is in the background: it hangs on a wall). */
export function useShipsToday() {
  return useQuery({
    queryKey: [...shipKeys.settings, 'today'],
    queryFn: ({ signal }) => apiCall(shipBoardRoutes.getShipsToday, {}, { signal }),
    refetchInterval: 30_000,
    refetchIntervalInBackground: true,
  });
}

/** "Release next wave": one collection batch for one picker (the board refreshes with it). */
export const useReleaseWave = () =>
  useMutation({
    mutationFn: (body: TReleaseWave) => apiCall(shipWaveRoutes.releaseWave, { body }),
    onSuccess: refresh,
  });

// ---- saved release channels: named wave rules per warehouse ----
export const channelKeys = { all: [...shipKeys.settings, 'channels'] as const };
export const fetchReleaseChannels = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(releaseChannelRoutes.listReleaseChannels, { query }, { signal });
/** The active channels for the board (open counts and next cut-offs refreshed with it). */
export function useActiveChannels() {
  return useQuery({
    queryKey: [...channelKeys.all, 'active'],
    queryFn: ({ signal }) =>
      apiCall(releaseChannelRoutes.listReleaseChannels, { query: { active: 'true', page_size: 100 } }, { signal }),
    refetchInterval: 30_000,
    refetchIntervalInBackground: true,
  });
}
export const useSaveReleaseChannel = () =>
  useWrite((a: { id?: string; body: TCreateReleaseChannel | TUpdateReleaseChannel }) =>
    a.id
      ? apiCall(releaseChannelRoutes.updateReleaseChannel, { params: { id: a.id }, body: a.body })
      : apiCall(releaseChannelRoutes.createReleaseChannel, { body: a.body as TCreateReleaseChannel }),
  );
export const useDeleteReleaseChannel = () =>
  useWrite((id: string) => apiCall(releaseChannelRoutes.deleteReleaseChannel, { params: { id } }));
/** "Release next wave" on a channel: one batch by its saved rules. */
export const useReleaseChannelWave = () =>
  useMutation({
    mutationFn: (id: string) => apiCall(releaseChannelRoutes.releaseChannelWave, { params: { id } }),
    onSuccess: refresh,
  });

// ---- the handover scan: a carrier's manifest ----
export const manifestKeys = { all: [...shipKeys.settings, 'manifests'] as const };

export function useManifests(warehouseId: string | undefined, providerId: string | undefined) {
  return useQuery({
    queryKey: [...manifestKeys.all, warehouseId, providerId],
    enabled: !!warehouseId && !!providerId,
    queryFn: () =>
      apiCall(shipManifestRoutes.listManifests, {
        query: { warehouse_id: warehouseId!, logistics_provider_id: providerId! },
      }),
  });
}
export function useManifest(id: string) {
  return useQuery({
    queryKey: [...manifestKeys.all, 'one', id],
    queryFn: () => apiCall(shipManifestRoutes.getManifest, { params: { id } }),
  });
}
export const useScanParcel = () =>
  useMutation({
    mutationFn: (body: TManifestScan) => apiCall(shipManifestRoutes.scanManifest, { body }),
    onSuccess: refresh,
  });
export const useCloseManifest = () =>
  useMutation({
    mutationFn: (id: string) => apiCall(shipManifestRoutes.closeManifest, { params: { id } }),
    onSuccess: refresh,
  });
