import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { dismissFailedLogins, pendingFailedLogins } from '../failed-logins';

/** After a sign-in: how many wrong passwords were given for the account since the previous one, and when the last. */
export function FailedLoginsNotice() {
  const [failed, setFailed] = useState(pendingFailedLogins);
  if (!failed) return null;
  return (
    <FailedLoginsAlert
      count={failed.count}
      lastAt={failed.last_at}
      onClose={() => {
        dismissFailedLogins();
        setFailed(null);
      }}
    />
  );
}

function FailedLoginsAlert({ count, lastAt, onClose }: { count: number; lastAt: string; onClose: () => void }) {
  const { t } = useTranslation('auth');
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose }}
      data-testid="failed-logins-notice"
      style={{ marginBottom: 16 }}
      title={t('failedLogins.title', { count })}
      description={t('failedLogins.body', { count, date: formatDateTime(lastAt) })}
    />
  );
}
