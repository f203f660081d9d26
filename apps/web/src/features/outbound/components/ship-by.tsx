import type { TOrder, TOrderStatus } from '@wms/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';

/** Statuses whose order has not left yet: a ship-by time before now makes such an order late. */
const WAITING: ReadonlySet<TOrderStatus> = new Set(['pending_export', 'exported', 'cancel_export', 'online']);

/** True when the order should have left already and has not. */
export function isLate(o: Pick<TOrder, 'ship_by' | 'status'>, now: number = Date.now()): boolean {
  return !!o.ship_by && WAITING.has(o.status) && Date.parse(o.ship_by) < now;
}

/** An order's ship-by time (the carrier's pick-up on its ship day), in red with "late" once it has passed. */
export function ShipBy({ order }: { order: Pick<TOrder, 'ship_by' | 'status'> }) {
  const { t } = useTranslation('outbound');
  if (!order.ship_by) return null;
  const late = isLate(order);
  return (
    <span
      style={late ? { color: '#cf1322', fontWeight: 600 } : undefined}
      data-testid={late ? 'ship-by-late' : 'ship-by'}
    >
      {formatDateTime(order.ship_by)}
      {late ? ` ${t('ship.late')}` : ''}
    </span>
  );
}
