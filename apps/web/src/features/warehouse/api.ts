import {
  releaseChannelRoutes,
  shipBoardRoutes,
  shipManifestRoutes,
  shipRoutes,
  shipWaveRoutes,
  warehouseRoutes,
} from '@wms/contracts';
import { queryClient } from '../../shared/api/query-client';
import { invalidateRoutes, readsOf, useRoute } from '../../shared/api/route-query';

/**
 * What a warehouse write refreshes: every read of the warehouse tables (warehouses, areas, shelves, locations and
 * their pickers) and of the ship-by tables (settings, the floor board, release channels, manifests).
 */
export const warehouseReads = readsOf(
  warehouseRoutes,
  shipRoutes,
  shipBoardRoutes,
  shipWaveRoutes,
  releaseChannelRoutes,
  shipManifestRoutes,
);

export const refreshWarehouse = () => invalidateRoutes(queryClient, warehouseReads);

/** A warehouse's areas as select options ("code name"). */
export function useAreaOptions(warehouseId: string | undefined) {
  return useRoute(
    warehouseRoutes.listAreas,
    warehouseId ? { query: { page_size: 100, warehouse_id: warehouseId } } : null,
    { select: (d) => d.results.map((a) => ({ value: a.id, label: `${a.code} ${a.name}` })) },
  );
}

/** A warehouse's shelves as select options ("code name"). */
export function useShelfOptions(warehouseId: string | undefined) {
  return useRoute(
    warehouseRoutes.listShelves,
    warehouseId ? { query: { page_size: 100, warehouse_id: warehouseId } } : null,
    { select: (d) => d.results.map((s) => ({ value: s.id, label: `${s.code} ${s.name}` })) },
  );
}

/** The floor board, refreshed every 30 seconds (also while the tab is in the background: it hangs on a wall). */
export function useShipsToday() {
  return useRoute(shipBoardRoutes.getShipsToday, {}, { refetchInterval: 30_000, refetchIntervalInBackground: true });
}

/** The active release channels for the board (open counts and next cut-offs refreshed with it). */
export function useActiveChannels() {
  return useRoute(
    releaseChannelRoutes.listReleaseChannels,
    { query: { active: 'true', page_size: 100 } },
    { refetchInterval: 30_000, refetchIntervalInBackground: true },
  );
}
