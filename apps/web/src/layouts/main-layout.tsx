import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BookOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileProtectOutlined,
  HistoryOutlined,
  ImportOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
} from '@ant-design/icons';
import { Button, Grid, Layout, Menu, type MenuProps, theme } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FailedLoginsNotice } from '../features/auth/components/failed-logins-notice';
import { OverdueBanner } from '../features/billing/components/overdue-banner';
import { i18n } from '../i18n/i18n';
import type { TMainPath } from '../routes/route-table';
import { canOpen } from '../routes/screen-permissions';
import { screenTitle } from '../routes/screen-title';
import { useProfile } from '../shared/auth/session';
import { PreferenceControls } from '../shared/preferences/preference-controls';
import { InstallAppButton } from '../shared/pwa/install-app-button';
import { PageLoading } from '../shared/ui/page-loading';
import { groupOf, MENU_GROUPS } from './menu';
import { UserMenu, useLogout } from './user-menu';

// antd Result (10 kB gzip with its illustrations) loads only when a screen is refused.
const NoPermission = lazy(() => import('./no-permission'));
// The menu's texts load with the frame's code, while the session is checked: a namespace first asked for by the first
// render would suspend it, and React shows what it waited for no sooner than 300 ms after a fallback. (The overdue
// banner loads its own texts, in its own Suspense, only when it shows.)
void i18n.loadNamespaces(['nav']);

const GROUP_ICONS: Record<string, ReactNode> = {
  basic: <SettingOutlined />,
  product: <AppstoreOutlined />,
  inbound: <ImportOutlined />,
  return: <RollbackOutlined />,
  order: <ShoppingCartOutlined />,
  stock: <DatabaseOutlined />,
  analysis: <BarChartOutlined />,
  purchase: <ShoppingOutlined />,
  account: <SafetyCertificateOutlined />,
  api: <ApiOutlined />,
  store: <ShopOutlined />,
  manual: <BookOutlined />,
  terms: <FileProtectOutlined />,
  version: <HistoryOutlined />,
};

/** The main area's frame: the menu groups of spec §2.8, a header with language, theme and user menu. */
export function MainLayout() {
  const { t } = useTranslation(['nav', 'common']);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  const { token } = theme.useToken();
  const profile = useProfile();
  const grants = profile?.grants;
  const [openKeys, setOpenKeys] = useState<string[]>(() => [groupOf(pathname) ?? 'basic']);
  // A phone or handheld (under 576 px): the menu slides away entirely (its tab opens it), the header keeps what fits.
  const narrow = Grid.useBreakpoint().sm === false;
  const [collapsed, setCollapsed] = useState(false);

  useEffect(() => {
    const g = groupOf(pathname);
    if (g) setOpenKeys((keys) => (keys.includes(g) ? keys : [...keys, g]));
  }, [pathname]);

  const label = (item: string) =>
    item.startsWith('/user-manual')
      ? t(`nav:manualLinks.${item.split('/')[2] || 'index'}` as never)
      : screenTitle(item as TMainPath);

  const items: MenuProps['items'] = [
    { key: '/dashboard', icon: <DashboardOutlined />, label: screenTitle('/dashboard') },
    // Only what the user's role opens: a group with nothing left is not shown at all.
    ...MENU_GROUPS.map((g) => ({ ...g, items: g.items.filter((item) => canOpen(item, grants)) }))
      .filter((g) => g.items.length > 0)
      .map((g) =>
        g.key === 'version'
          ? { key: g.items[0]!, icon: GROUP_ICONS[g.key], label: t(`nav:groups.${g.key}` as never) }
          : {
              key: g.key,
              icon: GROUP_ICONS[g.key],
              label: t(`nav:groups.${g.key}` as never),
              // A label cut off by the sider's width (long Japanese titles) is shown whole on hover.
              children: g.items.map((item) => ({ key: item, label: <span title={label(item)}>{label(item)}</span> })),
            },
      ),
    { key: 'logout', icon: <LogoutOutlined />, label: t('nav:groups.logout'), danger: true },
  ];

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={232}
        breakpoint="lg"
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        collapsedWidth={narrow ? 0 : 80}
        theme="dark"
        trigger={narrow ? null : undefined}
        // On a phone the open menu lies over the page (the page keeps its width) and closes on a choice.
        style={
          narrow
            ? { position: 'fixed', insetInlineStart: 0, top: 0, zIndex: 1001, height: '100vh', overflow: 'auto' }
            : { position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }
        }
        data-testid="main-menu"
      >
        <Link
          to="/dashboard"
          style={{ display: 'block', color: '#fff', fontWeight: 600, fontSize: 18, padding: '16px 24px' }}
        >
          {t('common:app.short')}
        </Link>
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={[pathname]}
          openKeys={openKeys}
          onOpenChange={setOpenKeys}
          onClick={({ key }) => {
            if (narrow) setCollapsed(true);
            if (key === 'logout') void logout();
            else void navigate(key);
          }}
        />
      </Layout.Sider>
      {narrow && !collapsed ? (
        // The rest of the page, dimmed under the open menu: a tap there closes the menu.
        <div
          aria-hidden="true"
          onClick={() => setCollapsed(true)}
          style={{ position: 'fixed', inset: 0, zIndex: 1000, background: 'rgba(0, 0, 0, 0.45)' }}
          data-testid="menu-backdrop"
        />
      ) : null}
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'center',
            padding: narrow ? '0 8px' : '0 24px',
            gap: 8,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {narrow ? (
            <Button
              type="text"
              icon={collapsed ? <MenuOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((c) => !c)}
              aria-label={t('nav:menu')}
              data-testid="menu-toggle"
            />
          ) : (
            <span style={{ fontWeight: 600 }}>{t('common:app.name')}</span>
          )}
          <span style={{ display: 'flex', gap: narrow ? 8 : 16, alignItems: 'center' }}>
            <InstallAppButton compact={narrow} />
            <PreferenceControls compact={narrow} />
            <UserMenu compact={narrow} />
          </span>
        </Layout.Header>
        <Layout.Content style={{ margin: narrow ? 8 : 24, minWidth: 0 }}>
          {/* Its own boundary: the page never waits for the banner. Only for users who may read billing (no 403s). */}
          {grants && canOpen('/billing', grants) ? (
            <Suspense fallback={null}>
              <OverdueBanner />
            </Suspense>
          ) : null}
          <Suspense fallback={null}>
            <FailedLoginsNotice />
          </Suspense>
          <Suspense fallback={<PageLoading />}>
            {profile?.password_change_required && pathname !== '/change-password' ? (
              // The password was mailed (registration): nothing else opens until the user chose their own.
              <Navigate to="/change-password" replace />
            ) : profile?.two_factor_required && !profile.two_factor_enabled && pathname !== '/two-factor' ? (
              // The company's admin requires two-step login: nothing else opens until it is on.
              <Navigate to="/two-factor" replace />
            ) : canOpen(pathname, grants) ? (
              <Outlet />
            ) : (
              <NoPermission />
            )}
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
