import { useQuery } from '@tanstack/react-query';
import { returnRoutes as r } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { readsOf, routeQuery } from '../../shared/api/route-query';
import { stockKeys } from '../../shared/api/stock-keys';
import type { TTableQuery } from '../../shared/table/list-query';

/** What a returns write refreshes: every read of the returns table (receipts, returns to suppliers, counts, prints). */
export const returnReads = readsOf(r);
/** Writes that post, reserve, release or take out stock refresh the stock screens too. */
export const returnAndStock = [...returnReads, stockKeys.all];

/** The piles a return to supplier can take: a stock view (under the stock keys), so every stock move refreshes it. */
export const supplierReturnPilesKey = [...stockKeys.piles, 'supplier-return'] as const;
export const fetchPiles = (query: TTableQuery & { warehouse_id: string }, signal?: AbortSignal) =>
  apiCall(r.listSupplierReturnPiles, { query }, { signal });

export const lookupOrder = (code: string) => apiCall(r.lookupReturnOrder, { query: { code } });

/** The print document of a customer return or of a return to a supplier. */
export function useReturnPrint(id: string, kind: 'return' | 'supplier_return') {
  return useQuery(
    kind === 'return'
      ? routeQuery(r.printReturn, { params: { id } })
      : routeQuery(r.printSupplierReturn, { params: { id } }),
  );
}
