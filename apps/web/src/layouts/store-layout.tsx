import { LogoutOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, theme } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { STORE_MEMBER_PATHS } from '../routes/route-table';
import { screenTitle } from '../routes/screen-title';
import { logoutMember, useMemberSession } from '../shared/auth/session';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { PageLoading } from '../shared/ui/page-loading';

/** The store-member portal's frame: the store's name, its four pages, language, theme and logout. */
export function StoreLayout() {
  const { t } = useTranslation(['store', 'nav']);
  const member = useMemberSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const shortUrl = member?.profile.store.short_url;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          background: token.colorBgContainer,
          display: 'flex',
          alignItems: 'center',
          gap: 24,
          padding: '0 24px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <span style={{ fontWeight: 600, fontSize: 18, whiteSpace: 'nowrap' }} data-testid="store-name">
          {member?.profile.store.name}
        </span>
        <Menu
          mode="horizontal"
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          selectedKeys={[pathname]}
          items={STORE_MEMBER_PATHS.map((p) => ({ key: p, label: screenTitle(p) }))}
          onClick={({ key }) => void navigate(key)}
        />
        <PreferenceControls />
        <span>{member?.profile.name}</span>
        <Button
          icon={<LogoutOutlined />}
          onClick={async () => {
            await logoutMember();
            await navigate(shortUrl ? `/store/login/${shortUrl}` : '/store/404', { replace: true });
          }}
        >
          {t('store:layout.logout')}
        </Button>
      </Layout.Header>
      <Layout.Content style={{ margin: 24 }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
