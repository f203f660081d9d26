import {
  AppstoreOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  ProjectOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Layout, Menu, theme } from 'antd';
import type { ReactNode } from 'react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { FailedLoginsNotice } from '../features/auth/components/failed-logins-notice';
import type { TCrmPath } from '../routes/route-table';
import { screenTitle } from '../routes/screen-title';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { PageLoading } from '../shared/ui/page-loading';
import { UserMenu } from './user-menu';

const CRM_MENU: Array<[TCrmPath, ReactNode]> = [
  ['/crm/dashboard', <DashboardOutlined key="d" />],
  ['/crm/customer', <TeamOutlined key="c" />],
  ['/crm/board', <ProjectOutlined key="b" />],
  ['/crm/rack', <AppstoreOutlined key="r" />],
  ['/crm/stock', <DatabaseOutlined key="s" />],
  ['/crm/statements', <FileTextOutlined key="st" />],
];

/** The employees' CRM area (spec §2.7). */
export function CrmLayout() {
  const { t } = useTranslation(['crm', 'nav']);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={220}
        breakpoint="lg"
        collapsible
        theme="dark"
        style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        data-testid="crm-menu"
      >
        <div style={{ color: '#fff', fontWeight: 600, fontSize: 18, padding: '16px 24px' }}>
          {t('crm:layout.title')}
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[pathname]}
          items={CRM_MENU.map(([path, icon]) => ({ key: path, icon, label: screenTitle(path) }))}
          onClick={({ key }) => void navigate(key)}
        />
      </Layout.Sider>
      <Layout>
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
          <span style={{ fontWeight: 600 }}>{t('crm:layout.subtitle')}</span>
          <span style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
            <PreferenceControls />
            <UserMenu withProfileLinks={false} />
          </span>
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <Suspense fallback={null}>
            <FailedLoginsNotice />
          </Suspense>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
