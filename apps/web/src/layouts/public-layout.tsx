import { theme } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { PageLoading } from '../shared/ui/page-loading';

/**
 * Frame of the public pages (login, register, forgot password, member login): centred card, language and theme.
 * Plain elements with antd's layout tokens (antd Layout was 3.6 kB gzip of what /login loads).
 */
export function PublicLayout() {
  const { t } = useTranslation('common');
  const { token } = theme.useToken();
  return (
    <div
      data-testid="public-layout"
      style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: token.colorBgLayout }}
    >
      <header
        style={{
          background: token.colorBgContainer,
          height: 64,
          flex: '0 0 auto',
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '0 24px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <span style={{ fontWeight: 600, fontSize: 18 }}>{t('app.name')}</span>
        <PreferenceControls />
      </header>
      <main style={{ flex: '1 1 auto', display: 'flex', justifyContent: 'center', padding: '48px 16px' }}>
        <div style={{ width: '100%', maxWidth: 440 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <footer style={{ textAlign: 'center', padding: '24px 50px', color: token.colorText, fontSize: token.fontSize }}>
        <Link to="/user-manual">{t('links.manual')}</Link>
      </footer>
    </div>
  );
}
