import { outboundRoutes, type TOrderSerial } from '@wms/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { routePage } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { DataTable } from '../../../../shared/table/data-table';
import { useOrderLabels } from '../../components/labels';
import '../../i18n';

/** /deliver-imei: which order shipped an IMEI/serial, and which IMEIs an order shipped (search by either). */
export default function DeliverImeiPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  return (
    <DataTable<TOrderSerial>
      {...routePage(outboundRoutes.listSerials)}
      rowKey="id"
      excel={{ fileName: 'imei' }}
      searchPlaceholder={t('imei.searchPlaceholder')}
      filters={
        <Form.Item name="serial">
          <Input allowClear placeholder={t('imei.exact')} style={{ width: 220 }} data-testid="imei-serial" />
        </Form.Item>
      }
      columns={[
        { title: l.field('serial'), dataIndex: 'serial', key: 'serial', sorter: true },
        { title: l.field('order_number'), dataIndex: 'order_number', key: 'order_number', sorter: true },
        { title: l.field('platform_order_number'), dataIndex: 'platform_order_number' },
        { title: l.field('consignment_number'), dataIndex: 'consignment_number' },
        { title: l.field('product'), dataIndex: 'product_number' },
        { title: l.field('product_name'), dataIndex: 'product_name' },
        {
          title: t('imei.shippedAt'),
          dataIndex: 'shipped_at',
          render: (v: string | null) => (v ? formatDateTime(v) : t('imei.notShipped')),
          exportValue: (r) => (r.shipped_at ? formatDateTime(r.shipped_at) : ''),
        },
        {
          title: t('imei.returnedAt'),
          dataIndex: 'returned_at',
          render: (v: string | null) => (v ? formatDateTime(v) : ''),
          exportValue: (r) => (r.returned_at ? formatDateTime(r.returned_at) : ''),
        },
        {
          title: l.field('created_at'),
          dataIndex: 'created_at',
          key: 'created_at',
          sorter: true,
          render: (v: string) => formatDateTime(v),
        },
      ]}
    />
  );
}
