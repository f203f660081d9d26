import { lazy, Suspense } from 'react';
import { useBillingOverview } from '../overview-api';

// antd Alert and the billing texts load only when the banner shows.
const OverdueAlert = lazy(() => import('./overdue-alert'));

/** The main area's banner while the seller's billing is overdue (after the renewal's last retry). Nothing is blocked. */
export function OverdueBanner() {
  const overview = useBillingOverview();
  const since = overview.data?.contract?.overdue_since;
  if (!since) return null;
  return (
    <Suspense fallback={null}>
      <OverdueAlert since={since} />
    </Suspense>
  );
}
