import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import '../i18n';

/** The overdue banner itself (overdue-banner.tsx loads it when billing is overdue). */
export default function OverdueAlert({ since }: { since: string }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="billing-overdue-banner"
      style={{ marginBottom: 16 }}
      title={t('overdueBanner', { date: formatDateTime(since) })}
      action={
        <Button size="small" onClick={() => navigate('/billing')}>
          {t('overdueLink')}
        </Button>
      }
    />
  );
}
