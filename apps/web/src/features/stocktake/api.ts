import { useMutation, useQueryClient } from '@tanstack/react-query';
import { stocktakeRoutes as r } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { invalidateRoutes, readsOf } from '../../shared/api/route-query';
import { stockKeys } from '../../shared/api/stock-keys';

/** What a stocktake write refreshes: every read of the stocktake table (sheets, their locations, lines, report). */
export const stocktakeReads = readsOf(r);

/** Next round, close or cancel a sheet (one route each); closing books the differences into stock. */
export function useStocktakeAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; action: 'next_round' | 'close' | 'cancel' }) => {
      const route =
        v.action === 'next_round' ? r.nextStocktakeRound : v.action === 'close' ? r.closeStocktake : r.cancelStocktake;
      return apiCall(route, { params: { id: v.id } });
    },
    onSuccess: (_, v) =>
      invalidateRoutes(qc, v.action === 'close' ? [...stocktakeReads, stockKeys.all] : stocktakeReads),
  });
}

export const scanLocation = (id: string, code: string) =>
  apiCall(r.scanStocktakeLocation, { params: { id }, query: { code } });
export const scanProduct = (id: string, code: string) =>
  apiCall(r.scanStocktakeProduct, { params: { id }, query: { code } });
