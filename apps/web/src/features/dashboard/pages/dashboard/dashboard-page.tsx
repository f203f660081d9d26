import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import type { TDashboard } from '@wms/contracts';
import { Button, Card, Col, Descriptions, List, Row, Statistic, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TMainPath } from '../../../../routes/route-table';
import { screenTitle } from '../../../../routes/screen-title';
import { SCREENS } from '../../../../routes/screens';
import { useProfile } from '../../../../shared/auth/session';
import { MY_BUILD_ID } from '../../../../shared/build/build-check';
import { Chart } from '../../../../shared/chart/chart';
import { formatDateTime } from '../../../../shared/format';
import { AnnouncementsCard } from '../../../support/announcements-card';
import { useDashboardKpis, useServerBuild } from '../../api';
import '../../../analysis/i18n';

/** First steps of a new seller, in the order the flow chart shows; each links to its screen. */
const GETTING_STARTED: TMainPath[] = ['/corporation', '/warehouse', '/subzone', '/product', '/entry', '/deliver'];

/** The KPI tiles: the figure, its label and the list it opens. */
const TILES: Array<{
  key: keyof Omit<TDashboard, 'shipped'>;
  label: string;
  to: TMainPath;
  /** The list's filter, so the tile opens exactly what it counts. */
  search?: string;
  alert?: boolean;
}> = [
  { key: 'to_export', label: 'dashboard.toExport', to: '/deliver', search: 'status=pending_export' },
  { key: 'to_pack', label: 'dashboard.toPack', to: '/deliver', search: 'status=exported' },
  { key: 'to_ship', label: 'dashboard.toShip', to: '/deliver', search: 'status=online' },
  { key: 'receipts_pending', label: 'dashboard.receiptsPending', to: '/entry', search: 'status=pending' },
  {
    key: 'below_safety',
    label: 'dashboard.belowSafety',
    to: '/purchase-advice',
    search: 'below_safety=true',
    alert: true,
  },
  { key: 'near_expiry', label: 'dashboard.nearExpiry', to: '/stock-expire-transfer', alert: true },
];

/**
 * /dashboard: the seller's work queues and stock alerts (each tile opens its list), the shipments of the last 30 days,
 * then account and system. A simple vertical stack: cards (announcements) can be put at its top.
 */
export default function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'analysis', 'common', 'nav']);
  const profile = useProfile();
  const build = useServerBuild();
  const kpis = useDashboardKpis();
  const shipped = kpis.data?.shipped;
  const chart = useMemo(
    () => ({
      categories: (shipped ?? []).map((s) => s.day.slice(5)),
      series: [
        { name: t('analysis:chart.orders'), type: 'bar' as const, data: (shipped ?? []).map((s) => s.orders) },
        { name: t('analysis:chart.units'), type: 'line' as const, data: (shipped ?? []).map((s) => s.units) },
      ],
    }),
    [shipped, t],
  );
  if (!profile) return null;

  return (
    <div style={{ display: 'grid', gap: 24 }}>
      <AnnouncementsCard />
      <Typography.Title level={3} style={{ margin: 0 }} data-testid="dashboard-welcome">
        {t('welcome', { name: profile.name })}
      </Typography.Title>
      <Row gutter={[16, 16]} data-testid="dashboard-kpis">
        {TILES.map((tile) => {
          const value = kpis.data?.[tile.key];
          return (
            <Col xs={12} md={8} xl={4} key={tile.key}>
              <Link to={tile.search ? `${tile.to}?${tile.search}` : tile.to} data-testid={`kpi-${tile.key}`}>
                <Card hoverable size="small">
                  <Statistic
                    title={t(`analysis:${tile.label}` as never)}
                    value={value ?? '—'}
                    loading={kpis.isLoading}
                    valueStyle={tile.alert && value ? { color: '#cf1322' } : undefined}
                  />
                </Card>
              </Link>
            </Col>
          );
        })}
      </Row>
      <Card title={t('analysis:dashboard.shipped30')} loading={kpis.isLoading}>
        <Chart categories={chart.categories} series={chart.series} height={260} testId="dashboard-chart" />
      </Card>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={14}>
          <Card title={t('gettingStarted.title')}>
            <List
              dataSource={GETTING_STARTED}
              renderItem={(path, i) => (
                <List.Item
                  extra={
                    SCREENS[path] ? null : (
                      <Tag icon={<ClockCircleOutlined />} color="default">
                        {t('gettingStarted.soon')}
                      </Tag>
                    )
                  }
                >
                  <List.Item.Meta
                    title={
                      <Link to={path}>
                        {i + 1}. {screenTitle(path)}
                      </Link>
                    }
                    description={t(`gettingStarted.steps.${i}` as never)}
                  />
                </List.Item>
              )}
            />
            <Link to="/user-manual/flowchart">{t('gettingStarted.flowchart')}</Link>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('account.title')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('company')}>{profile.company?.name ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('account.email')}>{profile.email}</Descriptions.Item>
              <Descriptions.Item label={t('security.title')}>
                {profile.two_factor_enabled ? (
                  <>
                    <CheckCircleTwoTone twoToneColor="#52c41a" /> {t('security.on')}
                  </>
                ) : (
                  <Link to="/two-factor">
                    <Button type="link" style={{ paddingInline: 0, height: 'auto' }}>
                      {t('security.off')} · {t('security.enable')}
                    </Button>
                  </Link>
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.language')}>
                {t(`common:language.${profile.language}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.theme')}>{t(`common:theme.${profile.theme}`)}</Descriptions.Item>
              <Descriptions.Item label={t('account.since')}>{formatDateTime(profile.created_at)}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('system.title')} style={{ marginTop: 24 }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('system.version')}>{build.data?.version ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.serverBuild')}>{build.data?.build_id ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.appBuild')}>{MY_BUILD_ID}</Descriptions.Item>
            </Descriptions>
            <Link to="/user-manual/version">{t('system.history')}</Link>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
