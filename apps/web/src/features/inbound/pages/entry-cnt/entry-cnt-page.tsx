import { INBOUND_CATEGORIES, INBOUND_STATUSES, inboundRoutes, type TInboundCountQuery } from '@wms/contracts';
import { Card, Col, DatePicker, Form, Row, Select, Statistic, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { useRoute } from '../../../../shared/api/route-query';
import { ProductSelect } from '../../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { PAGE_SIZES } from '../../../../shared/table/list-query';
import '../../i18n';

type TForm = Omit<Partial<TInboundCountQuery>, 'date_from' | 'date_to'> & { range?: [Dayjs, Dayjs] | null };

/** /entry-cnt: receipts and units (planned, accepted, good, defective) by status, in total and per product. */
export default function EntryCntPage() {
  const { t } = useTranslation(['inbound', 'nav']);
  const [filters, setFilters] = useState<Partial<TInboundCountQuery>>({});
  const [page, setPage] = useState({ page: 1, page_size: 10 });
  const counts = useRoute(inboundRoutes.countReceipts, { query: { ...filters, ...page } });
  const data = counts.data;
  const onChange = (_: unknown, all: TForm) => {
    const { range, ...rest } = all;
    setFilters({ ...rest, date_from: range?.[0]?.format('YYYY-MM-DD'), date_to: range?.[1]?.format('YYYY-MM-DD') });
    setPage((p) => ({ ...p, page: 1 }));
  };
  const units = (key: 'receipts' | 'planned_units' | 'accepted_units' | 'good_units' | 'defective_units') => ({
    title: t(`count.${key}`),
    dataIndex: key,
    align: 'right' as const,
  });
  return (
    <Card title={screenTitle('/entry-cnt')}>
      <Form<TForm> layout="inline" style={{ rowGap: 8, marginBottom: 24 }} onValuesChange={onChange}>
        <Form.Item name="range">
          <DatePicker.RangePicker aria-label={t('field.plannedDate')} />
        </Form.Item>
        <Form.Item name="warehouse_id">
          <WarehouseSelect allowClear placeholder={t('field.warehouse')} aria-label={t('field.warehouse')} />
        </Form.Item>
        <Form.Item name="product_id">
          <ProductSelect type="single" allowClear placeholder={t('field.product')} aria-label={t('field.product')} />
        </Form.Item>
        <Form.Item name="category">
          <Select
            allowClear
            placeholder={t('field.category')}
            aria-label={t('field.category')}
            style={{ minWidth: 120 }}
            options={INBOUND_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
          />
        </Form.Item>
        <Form.Item name="status">
          <Select
            allowClear
            placeholder={t('field.status')}
            aria-label={t('field.status')}
            style={{ minWidth: 130 }}
            options={INBOUND_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
        </Form.Item>
      </Form>
      <Row gutter={[16, 16]}>
        {(['receipts', 'planned_units', 'accepted_units', 'good_units', 'defective_units'] as const).map((k) => (
          <Col key={k} xs={12} md={4}>
            <Card size="small">
              <Statistic title={t(`count.${k}`)} value={data?.total[k] ?? 0} loading={counts.isLoading} />
            </Card>
          </Col>
        ))}
      </Row>
      <Table
        style={{ marginTop: 24 }}
        rowKey="status"
        size="small"
        pagination={false}
        loading={counts.isFetching}
        dataSource={data?.by_status ?? []}
        columns={[
          {
            title: t('field.status'),
            dataIndex: 'status',
            render: (s: (typeof INBOUND_STATUSES)[number]) => t(`status.${s}`),
          },
          units('receipts'),
          units('planned_units'),
          units('accepted_units'),
          units('good_units'),
          units('defective_units'),
        ]}
      />
      <Table
        style={{ marginTop: 24 }}
        rowKey="product_id"
        size="small"
        loading={counts.isFetching}
        dataSource={data?.by_product.results ?? []}
        pagination={{
          current: page.page,
          pageSize: page.page_size,
          total: data?.by_product.count ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          onChange: (p, s) => setPage({ page: s !== page.page_size ? 1 : p, page_size: s }),
        }}
        columns={[
          { title: t('field.productNumber'), dataIndex: 'product_number' },
          { title: t('field.productName'), dataIndex: 'product_name' },
          units('receipts'),
          units('planned_units'),
          units('accepted_units'),
          units('good_units'),
          units('defective_units'),
        ]}
      />
    </Card>
  );
}
