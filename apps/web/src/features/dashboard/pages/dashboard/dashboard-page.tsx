import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import type { TDashboard } from '@wms/contracts';
import { Button, Col, Descriptions, Row, theme } from 'antd';
import { type CSSProperties, lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TMainPath } from '../../../../routes/route-table';
import { screenTitle } from '../../../../routes/screen-title';
import { SCREENS } from '../../../../routes/screens';
import { useProfile } from '../../../../shared/auth/session';
import { MY_BUILD_ID } from '../../../../shared/build/build-check';
import { Chart } from '../../../../shared/chart/chart';
import { formatDateTime } from '../../../../shared/format';
import { Panel } from '../../../../shared/ui/panel';
import Placeholder from '../../../../shared/ui/placeholder';
import { AnnouncementsCard } from '../../../support/announcements-card';
import { useDashboardKpis, useServerBuild } from '../../api';
import '../../../analysis/i18n';

// Only a screen still under construction shows it.
const Tag = lazy(() => import('antd/es/tag'));

/** First steps of a new seller, in the order the flow chart shows; each links to its screen. */
const GETTING_STARTED: Array<{ path: TMainPath; done: keyof TDashboard['setup'] }> = [
  { path: '/corporation', done: 'company' },
  { path: '/warehouse', done: 'warehouse' },
  { path: '/subzone', done: 'location' },
  { path: '/product', done: 'product' },
  { path: '/entry', done: 'receipt' },
  { path: '/deliver', done: 'order' },
];

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
 * then account and system. A simple vertical stack: cards (announcements) can be put at its top. The first screen
 * after login: plain boxes with antd's look (shared/ui/panel.tsx) instead of antd's Card, List and Statistic, which
 * bring Tabs, Pagination and Select with them.
 */
export default function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'analysis', 'common', 'nav']);
  const { token } = theme.useToken();
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
      <h3
        style={{
          margin: 0,
          color: token.colorTextHeading,
          fontWeight: token.fontWeightStrong,
          fontSize: token.fontSizeHeading3,
          lineHeight: token.lineHeightHeading3,
        }}
        data-testid="dashboard-welcome"
      >
        {t('welcome', { name: profile.name })}
      </h3>
      <Row gutter={[16, 16]} data-testid="dashboard-kpis">
        {TILES.map((tile) => {
          const value = kpis.data?.[tile.key];
          return (
            <Col xs={12} md={8} xl={4} key={tile.key}>
              <Link to={tile.search ? `${tile.to}?${tile.search}` : tile.to} data-testid={`kpi-${tile.key}`}>
                <Panel hoverable size="small">
                  <div style={{ paddingBottom: token.marginXXS, color: token.colorTextDescription }}>
                    {t(`analysis:${tile.label}` as never)}
                  </div>
                  {kpis.isLoading ? (
                    <div style={{ paddingTop: token.padding }}>
                      <Placeholder rows={[100]} />
                    </div>
                  ) : (
                    <div
                      style={{
                        color: tile.alert && value ? '#cf1322' : token.colorTextHeading,
                        fontSize: token.fontSizeHeading3,
                      }}
                    >
                      {/* antd Statistic's grouping: 12,345 */}
                      {value === undefined ? '—' : value.toLocaleString('en-US')}
                    </div>
                  )}
                </Panel>
              </Link>
            </Col>
          );
        })}
      </Row>
      <Panel title={t('analysis:dashboard.onTime')}>
        <div data-testid="dashboard-on-time" style={{ display: 'flex', alignItems: 'baseline', gap: 16 }}>
          <span
            style={{
              fontSize: token.fontSizeHeading2,
              color:
                kpis.data?.on_time.percent != null && kpis.data.on_time.percent < 95 ? '#cf1322' : token.colorSuccess,
            }}
          >
            {kpis.data?.on_time.percent != null ? `${kpis.data.on_time.percent}%` : '—'}
          </span>
          <span style={{ color: token.colorTextDescription }}>
            {kpis.data && kpis.data.on_time.shipped > 0
              ? t('analysis:dashboard.onTimeDetail', kpis.data.on_time)
              : t('analysis:dashboard.onTimeNone')}
          </span>
        </div>
      </Panel>
      <Panel title={t('analysis:dashboard.shipped30')}>
        {kpis.isLoading ? (
          <Placeholder />
        ) : (
          <Chart categories={chart.categories} series={chart.series} height={260} testId="dashboard-chart" />
        )}
      </Panel>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={14}>
          <Panel title={t('gettingStarted.title')}>
            <ol
              style={
                {
                  margin: 0,
                  padding: 0,
                  listStyle: 'none',
                  '--wms-list-title': token.colorText,
                  '--wms-list-title-hover': token.colorPrimary,
                } as CSSProperties
              }
            >
              {GETTING_STARTED.map(({ path, done }, i) => (
                <li
                  key={path}
                  data-testid={`getting-started-${done}`}
                  data-done={kpis.data?.setup[done] ? 'true' : 'false'}
                  style={{
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'space-between',
                    padding: `${token.paddingContentVertical}px 0`,
                    borderBottom:
                      i < GETTING_STARTED.length - 1 ? `${token.lineWidth}px solid ${token.colorSplit}` : undefined,
                  }}
                >
                  <div style={{ flex: 1 }}>
                    <h4
                      className="wms-list-title"
                      style={{ margin: `0 0 ${token.marginXXS}px`, fontSize: token.fontSize }}
                    >
                      <Link to={path}>
                        {i + 1}. {screenTitle(path)}
                      </Link>
                    </h4>
                    <div style={{ color: token.colorTextDescription }}>{t(`gettingStarted.steps.${i}` as never)}</div>
                  </div>
                  {kpis.data?.setup[done] ? (
                    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                      <CheckCircleTwoTone twoToneColor={token.colorSuccess} aria-hidden />
                      <span style={{ color: token.colorSuccess }}>{t('gettingStarted.done')}</span>
                    </span>
                  ) : null}
                  {SCREENS[path] ? null : (
                    <Suspense fallback={null}>
                      <Tag icon={<ClockCircleOutlined />} color="default">
                        {t('gettingStarted.soon')}
                      </Tag>
                    </Suspense>
                  )}
                </li>
              ))}
            </ol>
            <Link to="/user-manual/flowchart">{t('gettingStarted.flowchart')}</Link>
          </Panel>
        </Col>
        <Col xs={24} lg={10}>
          <Panel title={t('account.title')}>
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
          </Panel>
          <Panel title={t('system.title')} style={{ marginTop: 24 }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('system.version')}>{build.data?.version ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.serverBuild')}>{build.data?.build_id ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.appBuild')}>{MY_BUILD_ID}</Descriptions.Item>
            </Descriptions>
            <Link to="/user-manual/version">{t('system.history')}</Link>
          </Panel>
        </Col>
      </Row>
    </div>
  );
}
