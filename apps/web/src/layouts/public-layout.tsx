import { Layout, theme } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { PageLoading } from '../shared/ui/page-loading';

/** Frame of the public pages (login, register, forgot password, member login): centred card, language and theme. */
export function PublicLayout() {
  const { t } = useTranslation('common');
  const { token } = theme.useToken();
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
        <span style={{ fontWeight: 600, fontSize: 18 }}>{t('app.name')}</span>
        <PreferenceControls />
      </Layout.Header>
      <Layout.Content style={{ display: 'flex', justifyContent: 'center', padding: '48px 16px' }}>
        <div style={{ width: '100%', maxWidth: 440 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </div>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center' }}>
        <Link to="/user-manual">{t('links.manual')}</Link>
      </Layout.Footer>
    </Layout>
  );
}
