import { crmRoutes, crmSupportRoutes } from '@wms/contracts';
import { readsOf, useRoute } from '../../shared/api/route-query';

/** What a CRM write refreshes: every read of the CRM tables (dashboard, sellers, announcements, rack, stock). */
export const crmReads = readsOf(crmRoutes, crmSupportRoutes);

/** Every seller as select options (announcement audience, filters). */
export function useCustomerOptions() {
  return useRoute(
    crmRoutes.listCustomers,
    { query: { page_size: 100, ordering: 'name' } },
    { select: (d) => d.results.map((c) => ({ value: c.id, label: c.name })) },
  );
}
