import type { TCrmRackRow } from '@wms/contracts';
import { Form, Input, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../../shared/table/data-table';
import { crmKeys, fetchRack, useCustomerOptions } from '../../api';

/** /crm/rack: storage locations of every seller (filter by building = warehouse code), with their occupancy. */
export default function CrmRackPage() {
  const { t } = useTranslation('crm');
  const customers = useCustomerOptions();
  return (
    <DataTable<TCrmRackRow>
      queryKey={crmKeys.rack}
      fetchPage={fetchRack}
      rowKey="id"
      searchPlaceholder={t('rack.search')}
      excel={{ fileName: 'rack' }}
      filters={
        <>
          <Form.Item name="warehouse">
            <Input allowClear placeholder={t('rack.warehouse')} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="customer_id">
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('customer.name')}
              style={{ width: 180 }}
              options={customers.data ?? []}
            />
          </Form.Item>
          <Form.Item name="state">
            <Select
              allowClear
              placeholder={t('rack.state')}
              style={{ width: 120 }}
              options={[
                { value: 'empty', label: t('rack.empty') },
                { value: 'in_use', label: t('rack.inUse') },
              ]}
            />
          </Form.Item>
        </>
      }
      columns={[
        { title: t('rack.location'), dataIndex: 'code', key: 'code', sorter: true },
        { title: t('rack.warehouse'), dataIndex: 'warehouse_code', key: 'warehouse_code', sorter: true },
        { title: t('rack.shelf'), dataIndex: 'shelf_code' },
        { title: t('customer.name'), dataIndex: 'customer_name', key: 'customer_name', sorter: true },
        {
          title: t('rack.state'),
          key: 'state',
          render: (_: unknown, r) =>
            r.on_hand > 0 ? <Tag color="blue">{t('rack.inUse')}</Tag> : <Tag>{t('rack.empty')}</Tag>,
          exportValue: (r) => (r.on_hand > 0 ? t('rack.inUse') : t('rack.empty')),
        },
        { title: t('rack.units'), dataIndex: 'on_hand', key: 'on_hand', sorter: true },
        { title: t('rack.products'), dataIndex: 'products' },
        { title: t('rack.cells'), dataIndex: 'cells' },
      ]}
    />
  );
}
