import type { TTurnoverRow } from '@wms/contracts';
import { Card, DatePicker, Form, InputNumber, Select, Space, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { formatDateTime } from '../../../../shared/format';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { analysisKeys, downloadTurnover, fetchTurnover } from '../../api';
import '../../i18n';

/** The range picker's value as the query's date_from / date_to (the server defaults to the last 30 days). */
function withPeriod(query: TTableQuery): TTableQuery {
  const { period, ...rest } = query as TTableQuery & { period?: [Dayjs | null, Dayjs | null] | null };
  return {
    ...rest,
    ...(period?.[0] ? { date_from: period[0].format('YYYY-MM-DD') } : {}),
    ...(period?.[1] ? { date_to: period[1].format('YYYY-MM-DD') } : {}),
  };
}

/** /product-turnover: units out, average stock from the ledger, turnover and days of supply; slow and dead stock. */
export default function ProductTurnoverPage() {
  const { t } = useTranslation(['analysis', 'nav']);
  return (
    <Card title={screenTitle('/product-turnover')}>
      <DataTable<TTurnoverRow>
        queryKey={analysisKeys.turnover}
        fetchPage={(q, signal) => fetchTurnover(withPeriod(q), signal)}
        rowKey="product_id"
        excel={{ fileName: 'product-turnover', download: (q) => downloadTurnover(withPeriod(q)) }}
        searchPlaceholder={t('filter.productSearch')}
        filters={
          <>
            <Form.Item name="period">
              <DatePicker.RangePicker aria-label={t('filter.period')} />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
            <Form.Item name="dead_days" label={t('filter.deadDays')} initialValue={90}>
              <InputNumber min={1} max={3650} style={{ width: 90 }} />
            </Form.Item>
            <Form.Item name="only">
              <Select
                allowClear
                placeholder={t('filter.only')}
                aria-label={t('filter.only')}
                style={{ minWidth: 120 }}
                options={[
                  { value: 'slow', label: t('filter.slow') },
                  { value: 'dead', label: t('filter.dead') },
                ]}
              />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('col.productNumber'), dataIndex: 'product_number' },
          { title: t('col.productName'), dataIndex: 'product_name' },
          { title: t('col.unitsOut'), dataIndex: 'units_out', align: 'right' },
          { title: t('col.avgStock'), dataIndex: 'avg_stock', align: 'right' },
          { title: t('col.onHand'), dataIndex: 'on_hand', align: 'right' },
          { title: t('col.turnover'), dataIndex: 'turnover', align: 'right', render: (v: number | null) => v ?? '—' },
          {
            title: t('col.daysOfSupply'),
            dataIndex: 'days_of_supply',
            align: 'right',
            render: (v: number | null) => v ?? '—',
          },
          {
            title: t('col.stockValue'),
            dataIndex: 'stock_value',
            align: 'right',
            render: (v: string | null) => v ?? '—',
          },
          {
            title: t('col.lastOut'),
            dataIndex: 'last_out_at',
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
          {
            title: t('col.flags'),
            key: 'flags',
            render: (_: unknown, r) => (
              <Space size={4}>
                {r.dead ? <Tag color="red">{t('tag.dead')}</Tag> : null}
                {r.slow ? <Tag color="orange">{t('tag.slow')}</Tag> : null}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
