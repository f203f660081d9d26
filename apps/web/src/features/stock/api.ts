import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  stockRoutes as r,
  type TExpiryTransferRequest,
  type TStockMultiTransferRequest,
  type TStockTransferRequest,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { invalidateStock } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

export const fetchProductStock = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.productStock, { query }, { signal });
export const fetchProductLocations = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.productLocation, { query }, { signal });
export const fetchLocationStock = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.locationStock, { query }, { signal });
export const fetchStockLog = (query: TTableQuery, signal?: AbortSignal) => apiCall(r.stockLog, { query }, { signal });
export const fetchExpiryCandidates = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.expiryCandidates, { query }, { signal });

function useStockWrite<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateStock(qc) });
}

export const useTransfer = () => useStockWrite((body: TStockTransferRequest) => apiCall(r.transfer, { body }));
export const useMultiTransfer = () =>
  useStockWrite((body: TStockMultiTransferRequest) => apiCall(r.multiTransfer, { body }));
export const useExpiryTransfer = () =>
  useStockWrite((body: TExpiryTransferRequest) => apiCall(r.expiryTransfer, { body }));

/** Piles of one product (optionally in one location), for choosing what to move. */
export const fetchPiles = (query: { product_id?: string; location_id?: string; warehouse_id?: string }) =>
  apiCall(r.productLocation, { query: { ...query, page_size: 100 } });
