import { returnRoutes, type TReturnCounts } from '@wms/contracts';
import { Card, Col, DatePicker, Row, Space, Statistic, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoute } from '../../../../shared/api/route-query';
import { useReturnLabels } from '../../components/labels';
import '../../i18n';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';

/** /return-cnt: receipts by status and category, what came back per product, return-to-supplier orders. */
export default function ReturnCountsPage() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [warehouseId, setWarehouseId] = useState<string | undefined>();
  const counts = useRoute(returnRoutes.returnCounts, {
    query: {
      warehouse_id: warehouseId,
      date_from: range?.[0]?.format('YYYY-MM-DD'),
      date_to: range?.[1]?.format('YYYY-MM-DD'),
    },
  });
  const data = counts.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} aria-label={t('export.period')} />
        <WarehouseSelect
          allowClear
          placeholder={t('fields.warehouse')}
          style={{ width: 220 }}
          value={warehouseId}
          onChange={setWarehouseId}
        />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={6}>
          <Card loading={counts.isLoading}>
            <Statistic title={t('counts.total')} value={data?.total ?? 0} data-testid="return-count-total" />
          </Card>
        </Col>
        {(data?.by_status ?? []).map((s) => (
          <Col xs={12} md={6} key={s.status}>
            <Card loading={counts.isLoading}>
              <Statistic title={labels.status(s.status)} value={s.count} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('counts.byCategory')} loading={counts.isLoading}>
            <Table<TReturnCounts['by_category'][number]>
              size="small"
              rowKey="category"
              pagination={false}
              dataSource={data?.by_category ?? []}
              columns={[
                { title: t('fields.category'), dataIndex: 'category', render: (c) => labels.category(c) },
                { title: t('counts.receipts'), dataIndex: 'count', align: 'right' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('counts.supplier')} loading={counts.isLoading}>
            <Table<TReturnCounts['supplier_returns'][number]>
              size="small"
              rowKey="status"
              pagination={false}
              dataSource={data?.supplier_returns ?? []}
              columns={[
                { title: t('fields.status'), dataIndex: 'status', render: (s) => labels.supplierStatus(s) },
                { title: t('counts.orders'), dataIndex: 'count', align: 'right' },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card title={t('counts.products')} loading={counts.isLoading}>
        <Table<TReturnCounts['products'][number]>
          size="small"
          rowKey="product_id"
          dataSource={data?.products ?? []}
          pagination={{ pageSize: 25 }}
          columns={[
            { title: t('fields.productNumber'), dataIndex: 'product_number' },
            { title: t('fields.productName'), dataIndex: 'product_name' },
            { title: t('counts.receipts'), dataIndex: 'receipts', align: 'right' },
            { title: t('fields.acceptedQuantity'), dataIndex: 'accepted_quantity', align: 'right' },
            { title: t('fields.goodQuantity'), dataIndex: 'good_quantity', align: 'right' },
            { title: t('fields.defectiveQuantity'), dataIndex: 'defective_quantity', align: 'right' },
          ]}
        />
      </Card>
    </Space>
  );
}
