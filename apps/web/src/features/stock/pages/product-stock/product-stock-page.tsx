import type { TProductStockRow } from '@wms/contracts';
import { Card, Form, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { stockKeys } from '../../../../shared/api/stock-keys';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchProductStock } from '../../api';
import '../../i18n';

/** /product-stock: on hand, reserved and available per product and warehouse; combination products derived. */
export default function ProductStockPage() {
  const { t } = useTranslation(['stock', 'nav']);
  const yesNo = [
    { value: 'true', label: t('filter.yes') },
    { value: 'false', label: t('filter.no') },
  ];
  return (
    <Card title={screenTitle('/product-stock')}>
      <DataTable<TProductStockRow>
        queryKey={stockKeys.productStock}
        fetchPage={fetchProductStock}
        rowKey={(r) => `${r.product_id}:${r.warehouse_id}`}
        excel={{ fileName: 'product-stock' }}
        searchPlaceholder={t('filter.productSearch')}
        filters={
          <>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
            <Form.Item name="type">
              <Select
                allowClear
                placeholder={t('filter.type')}
                aria-label={t('filter.type')}
                style={{ minWidth: 120 }}
                options={[
                  { value: 'single', label: t('type.single') },
                  { value: 'combination', label: t('type.combination') },
                ]}
              />
            </Form.Item>
            <Form.Item name="in_stock">
              <Select
                allowClear
                placeholder={t('filter.inStock')}
                aria-label={t('filter.inStock')}
                options={yesNo}
                style={{ minWidth: 120 }}
              />
            </Form.Item>
            <Form.Item name="below_safety">
              <Select
                allowClear
                placeholder={t('filter.belowSafety')}
                aria-label={t('filter.belowSafety')}
                options={yesNo}
                style={{ minWidth: 140 }}
              />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('col.productNumber'), dataIndex: 'product_number' },
          { title: t('col.productName'), dataIndex: 'product_name' },
          { title: t('col.barcode'), dataIndex: 'barcode' },
          {
            title: t('col.type'),
            dataIndex: 'type',
            render: (v: TProductStockRow['type']) =>
              v === 'combination' ? <Tag color="purple">{t('type.combination')}</Tag> : t('type.single'),
            exportValue: (r) => t(`type.${r.type}`),
          },
          { title: t('col.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('col.onHand'), dataIndex: 'on_hand', align: 'right' },
          { title: t('col.reserved'), dataIndex: 'reserved', align: 'right', render: (v: number | null) => v ?? '—' },
          {
            title: t('col.available'),
            dataIndex: 'available',
            align: 'right',
            render: (v: number, r) => (
              <span style={{ fontWeight: 600, color: v < r.safety_stock ? '#cf1322' : undefined }}>{v}</span>
            ),
          },
          {
            title: t('col.unsellable'),
            dataIndex: 'unsellable',
            align: 'right',
            render: (v: number | null) => v ?? '—',
          },
          { title: t('col.safetyStock'), dataIndex: 'safety_stock', align: 'right' },
        ]}
      />
    </Card>
  );
}
