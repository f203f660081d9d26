import { inboundRoutes } from '@wms/contracts';
import { readsOf } from '../../shared/api/route-query';
import { stockKeys } from '../../shared/api/stock-keys';

/** What a receipt write refreshes: every read of the inbound table (list, detail, counts, print pages). */
export const inboundReads = readsOf(inboundRoutes);
/** The writes that post or take back stock (confirm, cancel the confirmation, quick inbound): the stock screens too. */
export const inboundAndStock = [...inboundReads, stockKeys.all];
