import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  inboundRoutes as r,
  type TConfirmInboundReceipt,
  type TCreateInboundReceipt,
  type TInboundCountQuery,
  type TInboundListQuery,
  type TQuickInbound,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { invalidateStock } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

export const inboundKeys = {
  all: ['inbound'] as const,
  receipts: ['inbound', 'receipts'] as const,
  receipt: (id: string) => ['inbound', 'receipts', id] as const,
  counts: ['inbound', 'counts'] as const,
};

export const fetchReceipts = (query: TTableQuery | Partial<TInboundListQuery>, signal?: AbortSignal) =>
  apiCall(r.listReceipts, { query: query as Partial<TInboundListQuery> }, { signal });
export const fetchReceipt = (id: string) => apiCall(r.getReceipt, { params: { id } });

export function useReceipt(id: string | undefined) {
  return useQuery({ queryKey: inboundKeys.receipt(id ?? ''), enabled: !!id, queryFn: () => fetchReceipt(id!) });
}

/** Receipt writes refresh the receipts; those that post or take back stock (confirm, cancel, quick) the stock too. */
function useInboundWrite<A, R>(fn: (a: A) => Promise<R>, movesStock = false) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: inboundKeys.all }), movesStock ? invalidateStock(qc) : null]),
  });
}

export const useSaveReceipt = () =>
  useInboundWrite((a: { id?: string; body: TCreateInboundReceipt }) =>
    a.id
      ? apiCall(r.updateReceipt, { params: { id: a.id }, body: a.body })
      : apiCall(r.createReceipt, { body: a.body }),
  );
export const useDeleteReceipt = () => useInboundWrite((id: string) => apiCall(r.deleteReceipt, { params: { id } }));
export const useConfirmReceipt = () =>
  useInboundWrite(
    (a: { id: string; body: TConfirmInboundReceipt }) =>
      apiCall(r.confirmReceipt, { params: { id: a.id }, body: a.body }),
    true,
  );
export const useCancelConfirmation = () =>
  useInboundWrite((id: string) => apiCall(r.cancelConfirmation, { params: { id } }), true);
export const useQuickInbound = () => useInboundWrite((body: TQuickInbound) => apiCall(r.quickInbound, { body }), true);

export function useReceiptCounts(query: Partial<TInboundCountQuery>) {
  return useQuery({
    queryKey: [...inboundKeys.counts, query],
    queryFn: () => apiCall(r.countReceipts, { query }),
  });
}

export const usePrintData = (id: string) =>
  useQuery({
    queryKey: [...inboundKeys.receipt(id), 'print'],
    queryFn: () => apiCall(r.printReceipt, { params: { id } }),
  });
export const useQrLabel = (id: string) =>
  useQuery({
    queryKey: [...inboundKeys.receipt(id), 'qr'],
    queryFn: () => apiCall(r.receiptQrLabel, { params: { id } }),
  });
