import { useMutation, useQuery } from '@tanstack/react-query';
import {
  returnRoutes as r,
  type TConfirmReturnReceipt,
  type TCreateReturnReceipt,
  type TCreateSupplierReturn,
  type TUpdateReturnReceipt,
  type TUpdateSupplierReturn,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { queryClient } from '../../shared/api/query-client';
import { invalidateStock, stockKeys } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the returns screens; every write invalidates `all`, those that move stock the stock keys too. */
export const returnKeys = {
  all: ['returns'] as const,
  receipts: ['returns', 'receipts'] as const,
  receipt: (id: string) => ['returns', 'receipts', id] as const,
  supplier: ['returns', 'supplier'] as const,
  supplierOne: (id: string) => ['returns', 'supplier', id] as const,
  /** The piles a return to supplier can take: a stock view, so every stock move refreshes it. */
  piles: [...stockKeys.piles, 'supplier-return'] as const,
  counts: (q: object) => ['returns', 'counts', q] as const,
};

const refresh = () => queryClient.invalidateQueries({ queryKey: returnKeys.all });
/** Writes that post, reserve, release or take out stock refresh the stock screens too. */
const refreshWithStock = () => Promise.all([refresh(), invalidateStock()]);

export const fetchReturns = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.listReturns, { query }, { signal });
export const fetchSupplierReturns = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listSupplierReturns, { query }, { signal });
export const fetchPiles = (query: TTableQuery & { warehouse_id: string }, signal?: AbortSignal) =>
  apiCall(r.listSupplierReturnPiles, { query }, { signal });

export function useReturn(id: string | null) {
  return useQuery({
    queryKey: returnKeys.receipt(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getReturn, { params: { id: id! } }),
  });
}

export function useSaveReturn() {
  return useMutation({
    mutationFn: (v: { id?: string; body: TCreateReturnReceipt | TUpdateReturnReceipt }) =>
      v.id
        ? apiCall(r.updateReturn, { params: { id: v.id }, body: v.body as TUpdateReturnReceipt })
        : apiCall(r.createReturn, { body: v.body as TCreateReturnReceipt }),
    onSuccess: refresh,
  });
}

export function useDeleteReturn() {
  return useMutation({ mutationFn: (id: string) => apiCall(r.deleteReturn, { params: { id } }), onSuccess: refresh });
}

export function useConfirmReturn() {
  return useMutation({
    mutationFn: (v: { id: string; body: TConfirmReturnReceipt }) =>
      apiCall(r.confirmReturn, { params: { id: v.id }, body: v.body }),
    onSuccess: refreshWithStock,
  });
}

export function useCancelReturnConfirmation() {
  return useMutation({
    mutationFn: (id: string) => apiCall(r.cancelReturnConfirmation, { params: { id } }),
    onSuccess: refreshWithStock,
  });
}

export const lookupOrder = (code: string) => apiCall(r.lookupReturnOrder, { query: { code } });

export function useReturnCounts(q: { warehouse_id?: string; date_from?: string; date_to?: string }) {
  return useQuery({ queryKey: returnKeys.counts(q), queryFn: () => apiCall(r.returnCounts, { query: q }) });
}

export function useReturnPrint(id: string, kind: 'return' | 'supplier_return') {
  return useQuery({
    queryKey: ['returns', 'print', kind, id],
    queryFn: () =>
      kind === 'return'
        ? apiCall(r.printReturn, { params: { id } })
        : apiCall(r.printSupplierReturn, { params: { id } }),
  });
}

export function useSupplierReturn(id: string | null) {
  return useQuery({
    queryKey: returnKeys.supplierOne(id ?? ''),
    enabled: !!id,
    queryFn: () => apiCall(r.getSupplierReturn, { params: { id: id! } }),
  });
}

export function useCreateSupplierReturn() {
  return useMutation({
    mutationFn: (body: TCreateSupplierReturn) => apiCall(r.createSupplierReturn, { body }),
    onSuccess: refreshWithStock,
  });
}

export function useUpdateSupplierReturn() {
  return useMutation({
    mutationFn: (v: { id: string; body: TUpdateSupplierReturn }) =>
      apiCall(r.updateSupplierReturn, { params: { id: v.id }, body: v.body }),
    onSuccess: refresh,
  });
}

export function useDispatchSupplierReturn() {
  return useMutation({
    mutationFn: (v: { id: string; consignment_number?: string }) =>
      apiCall(r.dispatchSupplierReturn, {
        params: { id: v.id },
        body: v.consignment_number ? { consignment_number: v.consignment_number } : {},
      }),
    onSuccess: refreshWithStock,
  });
}

export function useCancelSupplierReturn() {
  return useMutation({
    mutationFn: (id: string) => apiCall(r.cancelSupplierReturn, { params: { id } }),
    onSuccess: refreshWithStock,
  });
}
