import { outboundRoutes, type TOrderStatus } from '@wms/contracts';
import { Card, Col, DatePicker, Row, Select, Space, Statistic, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoute } from '../../../../shared/api/route-query';
import { useOrderLabels } from '../../components/labels';
import '../../i18n';

type TRow = { key: string | null; label: string | null; count: number };

/** /deliver-cnt: how many orders, by status, by day, by channel and by carrier, for a period. */
export default function DeliverCountsPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [dateField, setDateField] = useState<'created_at' | 'shipping_date' | 'closed_at'>('created_at');
  const counts = useRoute(outboundRoutes.orderCounts, {
    query: {
      date_field: dateField,
      date_from: range?.[0]?.format('YYYY-MM-DD'),
      date_to: range?.[1]?.format('YYYY-MM-DD'),
    },
  });
  const d = counts.data;
  const table = (title: string, rows: TRow[], label: (r: TRow) => string, testId: string) => (
    <Card title={title} loading={counts.isLoading} size="small">
      <Table<TRow>
        size="small"
        rowKey={(r) => r.key ?? '-'}
        pagination={false}
        dataSource={rows}
        data-testid={testId}
        columns={[
          { title: title, key: 'key', render: (_, r) => label(r) },
          { title: t('cnt.count'), dataIndex: 'count', align: 'right' },
        ]}
      />
    </Card>
  );
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <Select
          value={dateField}
          onChange={setDateField}
          style={{ width: 140 }}
          options={(['created_at', 'shipping_date', 'closed_at'] as const).map((f) => ({
            value: f,
            label: l.field(f),
          }))}
        />
        <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={6}>
          <Card loading={counts.isLoading}>
            <Statistic title={t('cnt.total')} value={d?.total ?? 0} data-testid="cnt-total" />
          </Card>
        </Col>
        {(d?.by_status ?? []).map((s) => (
          <Col xs={12} md={6} key={s.key}>
            <Card loading={counts.isLoading}>
              <Statistic title={l.status(s.key as TOrderStatus)} value={s.count} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          {table(t('cnt.byDate'), d?.by_date ?? [], (r) => r.key ?? t('cnt.none'), 'cnt-by-date')}
        </Col>
        <Col xs={24} md={8}>
          {table(
            t('cnt.byChannel'),
            d?.by_channel ?? [],
            (r) =>
              r.label
                ? `${r.key} ${r.label}`
                : r.key
                  ? l.channel(r.key as Parameters<typeof l.channel>[0])
                  : t('cnt.none'),
            'cnt-by-channel',
          )}
        </Col>
        <Col xs={24} md={8}>
          {table(
            t('cnt.byCarrier'),
            d?.by_carrier ?? [],
            (r) => (r.key ? `${r.key} ${r.label ?? ''}` : t('cnt.none')),
            'cnt-by-carrier',
          )}
        </Col>
      </Row>
    </Space>
  );
}
