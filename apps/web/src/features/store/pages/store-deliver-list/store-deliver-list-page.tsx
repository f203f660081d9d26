import type { TStoreOrder } from '@wms/contracts';
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { DataTable } from '../../../../shared/table/data-table';
import { OrderStatusTag } from '../../../outbound/components/labels';
import { fetchMemberOrders, storeKeys } from '../../api';

/** /store/deliver-list: the member's own orders with status, consignment number and tracking link. */
export default function StoreDeliverListPage() {
  const { t } = useTranslation('store');
  const label = useFieldLabel();
  return (
    <Card title={t('portal.deliverList')}>
      <DataTable<TStoreOrder>
        queryKey={storeKeys.memberOrders}
        fetchPage={fetchMemberOrders}
        rowKey="id"
        searchPlaceholder={t('portal.searchOrders')}
        // A new member lands here (spec §2.6): with no order yet, the way to the order form is the first thing shown.
        emptyAction={
          <Link to="/store/dashboard">
            <Button type="primary" data-testid="store-first-order">
              {t('portal.firstOrder')}
            </Button>
          </Link>
        }
        columns={[
          { title: label('order_number'), dataIndex: 'number' },
          { title: label('created_at'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
          // What a member looks for first: where the parcel is (state, carrier, consignment number).
          { title: label('status'), dataIndex: 'status', render: (v) => <OrderStatusTag status={v} /> },
          { title: t('portal.delivery'), dataIndex: 'logistics_provider' },
          {
            title: label('consignment_number'),
            dataIndex: 'consignment_number',
            render: (v: string | null, o) =>
              v ? (
                o.tracking_url ? (
                  <a href={o.tracking_url} target="_blank" rel="noreferrer" data-testid="tracking-link">
                    {v}
                  </a>
                ) : (
                  <span data-testid="consignment">{v}</span>
                )
              ) : (
                ''
              ),
          },
          {
            title: t('orders.items'),
            key: 'lines',
            exportValue: (o) => o.lines.map((l) => `${l.product_number}×${l.quantity}`).join(', '),
            render: (_, o) => o.lines.map((l) => `${l.product_name} × ${l.quantity}`).join(', '),
          },
          { title: label('recipient_name'), dataIndex: 'recipient_name' },
          { title: label('total_amount'), dataIndex: 'total_amount', align: 'right' },
        ]}
      />
    </Card>
  );
}
