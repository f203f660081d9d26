import { useQuery } from '@tanstack/react-query';
import {
  carrierRoutes,
  catalogRoutes,
  partnerRoutes,
  outboundRoutes as r,
  type TImportRequest,
  type TPackScan,
  type TPickScan,
  type TPickShort,
  type TPickToteAssign,
  type TPrintOrderBy,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { invalidateRoutes, readsOf, routeQuery, useRoute } from '../../shared/api/route-query';
import { stockKeys } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

/**
 * What an outbound write refreshes: every read of the outbound table, an order's carrier tracking, and the rows the
 * order screens pick from (platforms, carriers, packaging).
 */
export const outboundReads = [
  ...readsOf(r),
  carrierRoutes.orderCarrierEvents,
  partnerRoutes.listEcommercePlatforms,
  partnerRoutes.listLogisticsProviders,
  catalogRoutes.listPackagingMaterials,
];
/** Writes that reserve, release or ship stock refresh the stock screens too. */
export const outboundAndStock = [...outboundReads, stockKeys.all];

const refreshWithStock = () => invalidateRoutes(queryClient, outboundAndStock);

/** After a transition (refused or not: a refused export is written on the order, its reason shows in the list). */
export { refreshWithStock as refreshOutboundWithStock };

export const fetchOrders = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listOrders, { query }, { signal });
export const fetchBatches = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listBatches, { query }, { signal });
export const lookupOrder = (code: string) => apiCall(r.lookupOrder, { query: { code } });

// ---- collection batches and the packing station ----

/** One collection batch with its orders (read once, e.g. to print its carrier labels). */
export function fetchBatch(id: string) {
  return apiCall(r.getBatch, { params: { id } });
}

export const packView = (id: string) => apiCall(r.packView, { params: { id } });
export const packScan = (id: string, body: TPackScan) => apiCall(r.packScan, { params: { id }, body });
// ---- the handheld pick walk (/deliver-pick) ----

export const pickView = (id: string) => apiCall(r.pickView, { params: { id } });
export const pickScan = (id: string, body: TPickScan) => apiCall(r.pickScan, { params: { id }, body });
export const pickShort = (id: string, body: TPickShort) => apiCall(r.pickShort, { params: { id }, body });
export const pickTote = (id: string, body: TPickToteAssign) => apiCall(r.pickTote, { params: { id }, body });

export const packReset = (id: string) => apiCall(r.packReset, { params: { id } });

// ---- prints, counts, settings ----

/** Print data of a batch or an order (`id`), or of a selection (`ids`, comma separated). */
export function usePrintData(id: string, orderby: TPrintOrderBy, ids?: string) {
  return useQuery(
    ids
      ? routeQuery(r.printSelection, { query: { ids, orderby } })
      : routeQuery(r.printData, { params: { id }, query: { orderby } }),
  );
}

/** The seller's order-list columns (/customize), read by the list and the settings screen. */
export function useColumnSettings() {
  return useRoute(r.getColumnSettings, {});
}

export const inspectFile = (file_base64: string, header_row: number) =>
  apiCall(r.inspectImportFile, { body: { file_base64, header_row } });

/** Queue an order import; the dialog follows its job (shared/jobs). */
export const importOrders = (body: TImportRequest) => apiCall(r.importOrders, { body });
/** After an import: new orders, and stock reserved when they were exported at once. */
export const refreshAfterImport = () => refreshWithStock();

// ---- other modules' rows for selects ----

export { usePlatformOptions, useProviderOptions } from '../partners/api';
