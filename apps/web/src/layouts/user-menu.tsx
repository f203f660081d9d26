import { KeyOutlined, LogoutOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient } from '../shared/api/query-client';
import { logoutUser, useProfile } from '../shared/auth/session';

/** Logout of spec §4: tokens cleared, back to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    await logoutUser();
    queryClient.clear();
    await navigate('/login', { replace: true });
  };
}

/** The header's user menu: profile, password, two-step login, logout. */
/** `compact`: the avatar only, without the name (a phone's header). */
export function UserMenu({
  withProfileLinks = true,
  compact = false,
}: {
  withProfileLinks?: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation('nav');
  const profile = useProfile();
  const navigate = useNavigate();
  const logout = useLogout();
  const { token } = theme.useToken();
  const links = withProfileLinks
    ? [
        { key: '/profile', icon: <UserOutlined />, label: t('screens.profile') },
        { key: '/change-password', icon: <KeyOutlined />, label: t('screens.change-password') },
        { key: '/two-factor', icon: <SafetyOutlined />, label: t('screens.two-factor') },
        { type: 'divider' as const },
      ]
    : [];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [...links, { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), danger: true }],
        onClick: ({ key }) => {
          if (key === 'logout') void logout();
          else void navigate(key);
        },
      }}
    >
      <Button type="text" data-testid="user-menu" aria-label={t('header.userMenu')}>
        {/* antd's small Avatar with an icon, drawn plainly (antd's Avatar brings Popover for its groups). */}
        <span
          aria-hidden="true"
          style={{
            boxSizing: 'border-box',
            display: 'inline-flex',
            justifyContent: 'center',
            alignItems: 'center',
            width: token.controlHeightSM,
            height: token.controlHeightSM,
            border: `${token.lineWidth}px solid transparent`,
            borderRadius: '50%',
            verticalAlign: 'middle',
            overflow: 'hidden',
            background: token.colorTextPlaceholder,
            color: token.colorTextLightSolid,
            fontSize: token.fontSize,
          }}
        >
          <UserOutlined />
        </span>
        {compact ? null : <span style={{ marginInlineStart: 8 }}>{profile?.name ?? ''}</span>}
      </Button>
    </Dropdown>
  );
}
