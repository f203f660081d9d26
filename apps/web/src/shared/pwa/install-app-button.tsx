import { DownloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { hasInstallOffer, install, subscribeInstallOffer } from './pwa';

/** "Install app" in the header, only while the browser offers it (not once installed, not where it cannot). */
export function InstallAppButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('common');
  const offered = useSyncExternalStore(subscribeInstallOffer, hasInstallOffer);
  if (!offered) return null;
  return (
    <Tooltip title={t('pwa.installHint')}>
      <Button
        icon={<DownloadOutlined />}
        aria-label={t('pwa.install')}
        onClick={() => void install()}
        data-testid="install-app"
      >
        {compact ? null : t('pwa.install')}
      </Button>
    </Tooltip>
  );
}
