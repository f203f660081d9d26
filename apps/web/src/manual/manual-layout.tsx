import { ArrowLeftOutlined } from '@ant-design/icons';
import { Layout, Menu, theme } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { PageLoading } from '../shared/ui/page-loading';
import { MANUAL_TOC, manualHref } from './manual-pages';

/** The user manual's frame: the table of contents of spec §2.5 beside the page. */
export function ManualLayout() {
  const { t } = useTranslation('manual');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const current = pathname.replace(/\/$/, '');
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          background: token.colorBgContainer,
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '0 24px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <span style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
          <Link to="/">
            <ArrowLeftOutlined /> {t('backToApp')}
          </Link>
          <strong>{t('title')}</strong>
        </span>
        <PreferenceControls />
      </Layout.Header>
      <Layout>
        <Layout.Sider
          width={260}
          breakpoint="md"
          collapsedWidth={0}
          style={{ background: token.colorBgContainer, overflow: 'auto' }}
          data-testid="manual-toc"
        >
          <Menu
            mode="inline"
            selectedKeys={[current]}
            defaultOpenKeys={MANUAL_TOC.map((g) => g.group)}
            items={MANUAL_TOC.map((g) => ({
              key: g.group,
              label: t(`groups.${g.group}` as never),
              type: 'group' as const,
              children: g.pages.map((p) => ({ key: manualHref(p), label: t(`pages.${p || 'index'}` as never) })),
            }))}
            onClick={({ key }) => void navigate(key)}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: 24, maxWidth: 1000 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
