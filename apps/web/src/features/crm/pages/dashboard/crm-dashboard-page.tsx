import { crmRoutes, type TCrmDashboard } from '@wms/contracts';
import { Card, Col, Row, Statistic, Table, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRoute } from '../../../../shared/api/route-query';
import { RevenueCard } from '../../../usage/components/revenue-card';

const TOTALS = [
  'receipts_pending',
  'orders_pending_export',
  'orders_exported',
  'orders_online',
  'open_tickets',
  'near_expiry',
  'orders_today',
  'orders_this_week',
] as const;

/** The last seven days' orders and receipts as bars (no chart library: plain boxes). */
function WeekChart({ days }: { days: TCrmDashboard['days'] }) {
  const { t } = useTranslation('crm');
  const { token } = theme.useToken();
  const max = Math.max(1, ...days.flatMap((d) => [d.orders, d.receipts]));
  return (
    <div>
      <div style={{ display: 'flex', alignItems: 'flex-end', gap: 16, height: 160 }} data-testid="crm-week-chart">
        {days.map((d) => (
          <div key={d.day} style={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
            <div style={{ display: 'flex', alignItems: 'flex-end', gap: 4, height: 130 }}>
              <div
                title={`${t('dashboard.orders')}: ${d.orders}`}
                style={{
                  width: 14,
                  height: `${(d.orders / max) * 100}%`,
                  minHeight: 2,
                  background: token.colorPrimary,
                }}
              />
              <div
                title={`${t('dashboard.receipts')}: ${d.receipts}`}
                style={{
                  width: 14,
                  height: `${(d.receipts / max) * 100}%`,
                  minHeight: 2,
                  background: token.colorSuccess,
                }}
              />
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.day.slice(5)}
            </Typography.Text>
          </div>
        ))}
      </div>
      <Typography.Text type="secondary">
        <span style={{ color: token.colorPrimary }}>■</span> {t('dashboard.orders')}{' '}
        <span style={{ color: token.colorSuccess }}>■</span> {t('dashboard.receipts')}
      </Typography.Text>
    </div>
  );
}

/** /crm/dashboard: today's and this week's workload across sellers. */
export default function CrmDashboardPage() {
  const { t } = useTranslation('crm');
  const data = useRoute(crmRoutes.dashboard, {});
  const d = data.data;
  return (
    <div style={{ display: 'grid', gap: 24 }}>
      <Typography.Title level={3} style={{ margin: 0 }} data-testid="crm-dashboard-title">
        {t('dashboard.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        {TOTALS.map((k) => (
          <Col key={k} xs={12} md={6}>
            <Card size="small">
              <Statistic title={t(`dashboard.totals.${k}`)} value={d?.totals[k] ?? 0} loading={data.isLoading} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card title={t('dashboard.week')}>{d ? <WeekChart days={d.days} /> : null}</Card>
      <RevenueCard />
      <Card title={t('dashboard.bySeller')}>
        <Table
          rowKey="customer_id"
          size="small"
          pagination={false}
          loading={data.isLoading}
          dataSource={d?.by_customer ?? []}
          locale={{ emptyText: t('dashboard.nothing') }}
          columns={[
            {
              title: t('customer.name'),
              dataIndex: 'name',
              render: (v: string, row) => <Link to={`/crm/customer?open=${row.customer_id}`}>{v}</Link>,
            },
            // Two sellers may share a name: the tax id tells them apart.
            { title: t('customer.taxId'), dataIndex: 'tax_id' },
            { title: t('dashboard.totals.receipts_pending'), dataIndex: 'receipts_pending' },
            { title: t('dashboard.totals.orders_pending_export'), dataIndex: 'orders_pending_export' },
            { title: t('dashboard.totals.orders_exported'), dataIndex: 'orders_exported' },
            { title: t('dashboard.totals.orders_online'), dataIndex: 'orders_online' },
            { title: t('dashboard.totals.open_tickets'), dataIndex: 'open_tickets' },
            { title: t('dashboard.totals.near_expiry'), dataIndex: 'near_expiry' },
            {
              title: t('dashboard.onTime'),
              key: 'on_time',
              render: (_, c) =>
                c.on_time_percent === null ? (
                  '—'
                ) : (
                  <span style={{ color: c.on_time_percent < 95 ? '#cf1322' : undefined }}>
                    {c.on_time_percent}% ({c.shipped_30d})
                  </span>
                ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
