import { STOCK_AGE_BUCKETS, type TStockAgeRow } from '@wms/contracts';
import { Card, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import { analysisKeys, downloadStockAge, fetchStockAge } from '../../api';
import '../../i18n';

/** /stock-age: stock on hand by age since receipt (FIFO layers of the ledger), with expiry for shelf-life products. */
export default function StockAgePage() {
  const { t } = useTranslation(['analysis', 'nav']);
  return (
    <Card title={screenTitle('/stock-age')}>
      <DataTable<TStockAgeRow>
        queryKey={analysisKeys.stockAge}
        fetchPage={fetchStockAge}
        rowKey={(r) => `${r.product_id}:${r.warehouse_id}:${r.location_id ?? '-'}`}
        excel={{ fileName: 'stock-age', download: (q) => downloadStockAge(q) }}
        searchPlaceholder={t('filter.productSearch')}
        filters={
          <>
            <Form.Item name="by" initialValue="product">
              <Select
                aria-label={t('filter.by')}
                style={{ minWidth: 150 }}
                options={[
                  { value: 'product', label: t('filter.byProduct') },
                  { value: 'location', label: t('filter.byLocation') },
                ]}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('col.productNumber'), dataIndex: 'product_number' },
          { title: t('col.productName'), dataIndex: 'product_name' },
          { title: t('col.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('col.location'), dataIndex: 'location_code', render: (v: string | null) => v ?? '—' },
          { title: t('col.onHand'), dataIndex: 'on_hand', align: 'right' },
          ...STOCK_AGE_BUCKETS.map((b) => ({
            title: t(`bucket.${b}`),
            key: b,
            align: 'right' as const,
            render: (_: unknown, r: TStockAgeRow) =>
              r.buckets[b] ? (
                <span style={{ color: b === 'd365_plus' ? '#cf1322' : undefined }}>{r.buckets[b]}</span>
              ) : (
                ''
              ),
            exportValue: (r: TStockAgeRow) => r.buckets[b],
          })),
          { title: t('col.oldestDays'), dataIndex: 'oldest_days', align: 'right' },
          { title: t('col.nearestExpiry'), dataIndex: 'nearest_expiry', render: (v: string | null) => v ?? '—' },
          {
            title: t('col.sellableRule'),
            dataIndex: 'sellable_rule_months',
            align: 'right',
            render: (v: number | null) => v ?? '—',
          },
        ]}
      />
    </Card>
  );
}
