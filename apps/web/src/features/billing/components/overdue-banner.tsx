import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import { useBillingOverview } from '../api';
import '../i18n';

/** The main area's banner while the seller's billing is overdue (after the renewal's last retry). Nothing is blocked. */
export function OverdueBanner() {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const overview = useBillingOverview();
  const since = overview.data?.contract?.overdue_since;
  if (!since) return null;
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
