import { useMutation, useQuery } from '@tanstack/react-query';
import {
  carrierRoutes,
  catalogRoutes,
  partnerRoutes,
  outboundRoutes as r,
  type TConsignmentItem,
  type TCreateImportForm,
  type TCreateOrder,
  type TImportRequest,
  type TOrderAction,
  type TPackScan,
  type TPickScan,
  type TPickShort,
  type TPickToteAssign,
  type TPrintOrderBy,
  type TSetConsignment,
  type TShipOrder,
  type TUpdateImportForm,
  type TUpdateOrder,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { invalidateStock } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the outbound screens; every write invalidates `all`. */
export const outboundKeys = {
  all: ['outbound'] as const,
  orders: ['outbound', 'orders'] as const,
  order: (id: string) => ['outbound', 'orders', id] as const,
  pack: (id: string) => ['outbound', 'pack', id] as const,
  pick: (id: string) => ['outbound', 'pick', id] as const,
  batches: ['outbound', 'batches'] as const,
  batch: (id: string) => ['outbound', 'batches', id] as const,
  serials: ['outbound', 'serials'] as const,
  counts: (q: object) => ['outbound', 'counts', q] as const,
  forms: ['outbound', 'forms'] as const,
  columns: ['outbound', 'columns'] as const,
  print: (id: string, orderby: string) => ['outbound', 'print', id, orderby] as const,
  lookups: ['outbound', 'lookups'] as const,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: outboundKeys.all });
/** Writes that reserve, release or ship stock refresh the stock screens too. */
const refreshWithStock = () => Promise.all([refresh(), invalidateStock()]);

export const fetchOrders = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listOrders, { query }, { signal });
export const fetchBatches = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listBatches, { query }, { signal });
export const fetchSerials = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listSerials, { query }, { signal });
export const lookupOrder = (code: string) => apiCall(r.lookupOrder, { query: { code } });

export function useOrder(id: string | null) {
  return useQuery({
    queryKey: outboundKeys.order(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getOrder, { params: { id: id! } }),
  });
}

export function useSaveOrder() {
  return useMutation({
    mutationFn: (v: { id?: string; body: TCreateOrder | TUpdateOrder }) =>
      v.id
        ? apiCall(r.updateOrder, { params: { id: v.id }, body: v.body as TUpdateOrder })
        : apiCall(r.createOrder, { body: v.body as TCreateOrder }),
    onSuccess: refresh,
  });
}

export function useTransition() {
  return useMutation({
    mutationFn: (v: { id: string; action: TOrderAction }) =>
      apiCall(r.transitionOrder, { params: { id: v.id }, body: { action: v.action } }),
    // A refused export is written on the order (its reason shows in the list): refresh either way.
    onSettled: refreshWithStock,
  });
}

export function useBulkTransition() {
  return useMutation({
    mutationFn: (v: { action: TOrderAction; ids: string[] }) => apiCall(r.bulkTransition, { body: v }),
    onSettled: refreshWithStock,
  });
}

export function useSetConsignment() {
  return useMutation({
    mutationFn: (v: { id: string; body: TSetConsignment }) =>
      apiCall(r.setConsignment, { params: { id: v.id }, body: v.body }),
    onSuccess: refresh,
  });
}

export function useSetConsignments() {
  return useMutation({
    mutationFn: (items: TConsignmentItem[]) => apiCall(r.setConsignments, { body: { items } }),
    onSuccess: refresh,
  });
}

export function useUploadConsignments() {
  return useMutation({
    mutationFn: (file_base64: string) => apiCall(r.uploadConsignments, { body: { file_base64 } }),
    onSuccess: refresh,
  });
}

/** An order's tracking history from its carrier (status callbacks), newest first. */
export function useCarrierEvents(id: string | null) {
  return useQuery({
    queryKey: [...outboundKeys.order(id ?? ''), 'carrier-events'],
    enabled: !!id,
    queryFn: () => apiCall(carrierRoutes.orderCarrierEvents, { params: { id: id! } }),
  });
}

/** Consignment numbers from the carrier's API for the selected orders: one result per order. */
export function useFetchConsignments() {
  return useMutation({
    mutationFn: (order_ids: string[]) => apiCall(carrierRoutes.fetchConsignments, { body: { order_ids } }),
    onSuccess: refresh,
  });
}

// ---- collection batches and the packing station ----

/** One collection batch with its orders (read once, e.g. to print its carrier labels). */
export function fetchBatch(id: string) {
  return apiCall(r.getBatch, { params: { id } });
}

export function useBatch(id: string | null) {
  return useQuery({
    queryKey: outboundKeys.batch(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getBatch, { params: { id: id! } }),
  });
}

export function useCreateBatch() {
  return useMutation({
    mutationFn: (v: { order_ids: string[]; remark?: string }) => apiCall(r.createBatch, { body: v }),
    onSuccess: refresh,
  });
}

export function useStartPicking() {
  return useMutation({
    mutationFn: (id: string) => apiCall(r.startBatchPicking, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useRemoveFromBatch() {
  return useMutation({
    mutationFn: (v: { id: string; order_ids: string[] }) =>
      apiCall(r.removeBatchOrders, { params: { id: v.id }, body: { order_ids: v.order_ids } }),
    onSuccess: refresh,
  });
}

export const packView = (id: string) => apiCall(r.packView, { params: { id } });
export const packScan = (id: string, body: TPackScan) => apiCall(r.packScan, { params: { id }, body });
// ---- the handheld pick walk (/deliver-pick) ----

export const pickView = (id: string) => apiCall(r.pickView, { params: { id } });
export const pickScan = (id: string, body: TPickScan) => apiCall(r.pickScan, { params: { id }, body });
export const pickShort = (id: string, body: TPickShort) => apiCall(r.pickShort, { params: { id }, body });
export const pickTote = (id: string, body: TPickToteAssign) => apiCall(r.pickTote, { params: { id }, body });

export const packReset = (id: string) => apiCall(r.packReset, { params: { id } });

export function useShipOrder() {
  return useMutation({
    mutationFn: (v: { id: string; body: TShipOrder }) => apiCall(r.shipOrder, { params: { id: v.id }, body: v.body }),
    onSuccess: refreshWithStock,
  });
}

// ---- prints, counts, settings ----

/** Print data of a batch or an order (`id`), or of a selection (`ids`, comma separated). */
export function usePrintData(id: string, orderby: TPrintOrderBy, ids?: string) {
  return useQuery({
    queryKey: outboundKeys.print(ids ? `ids:${ids}` : id, orderby),
    queryFn: () =>
      ids
        ? apiCall(r.printSelection, { query: { ids, orderby } })
        : apiCall(r.printData, { params: { id }, query: { orderby } }),
  });
}

export function useOrderCounts(q: {
  date_field: 'created_at' | 'shipping_date' | 'closed_at';
  date_from?: string;
  date_to?: string;
}) {
  return useQuery({ queryKey: outboundKeys.counts(q), queryFn: () => apiCall(r.orderCounts, { query: q }) });
}

export function useColumnSettings() {
  return useQuery({ queryKey: outboundKeys.columns, queryFn: () => apiCall(r.getColumnSettings, {}) });
}

export function useSaveColumns() {
  return useMutation({
    mutationFn: (body: { screen: 'deliver_list' | 'deliver_export'; columns: string[] }) =>
      apiCall(r.saveColumnSettings, { body: body as never }),
    onSuccess: refresh,
  });
}

export function useImportForms() {
  return useQuery({
    queryKey: outboundKeys.forms,
    queryFn: () => apiCall(r.listImportForms, { query: { page_size: 100 } }),
  });
}

export function useSaveImportForm() {
  return useMutation({
    mutationFn: (v: { id?: string; body: TCreateImportForm | TUpdateImportForm }) =>
      v.id
        ? apiCall(r.updateImportForm, { params: { id: v.id }, body: v.body })
        : apiCall(r.createImportForm, { body: v.body as TCreateImportForm }),
    onSuccess: refresh,
  });
}

export function useDeleteImportForm() {
  return useMutation({
    mutationFn: (id: string) => apiCall(r.deleteImportForm, { params: { id } }),
    onSuccess: refresh,
  });
}

export const inspectFile = (file_base64: string, header_row: number) =>
  apiCall(r.inspectImportFile, { body: { file_base64, header_row } });

/** Queue an order import; the dialog follows its job (shared/jobs). */
export const importOrders = (body: TImportRequest) => apiCall(r.importOrders, { body });
/** After an import: new orders, and stock reserved when they were exported at once. */
export const refreshAfterImport = () => refreshWithStock();

// ---- other modules' rows for selects ----

export function usePlatformOptions() {
  return useQuery({
    queryKey: [...outboundKeys.lookups, 'platforms'],
    queryFn: () => apiCall(partnerRoutes.listEcommercePlatforms, { query: { page_size: 100 } }),
    select: (d) => d.results.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` })),
    staleTime: 60_000,
  });
}

export function useProviderOptions() {
  return useQuery({
    queryKey: [...outboundKeys.lookups, 'providers'],
    queryFn: () => apiCall(partnerRoutes.listLogisticsProviders, { query: { page_size: 100 } }),
    select: (d) => d.results.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` })),
    staleTime: 60_000,
  });
}

export function usePackagingOptions() {
  return useQuery({
    queryKey: [...outboundKeys.lookups, 'packaging'],
    queryFn: () => apiCall(catalogRoutes.listPackagingMaterials, { query: { page_size: 100 } }),
    select: (d) => d.results,
  });
}
