import { WalletOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Radio, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../../shared/forms/error-text';
import { postForm } from '../../../shared/forms/post-form';
import { payNewebPay, useBillingOverview } from '../api';
import { payBlockedReason } from '../components/pay-reason';
import '../i18n';
import { twd } from '../money';

/** /newebpay: our server builds the MPG (or periodic) form — TradeInfo AES, TradeSha — and the browser posts it. */
export default function NewebPayPage() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const overview = useBillingOverview();
  const [periodic, setPeriodic] = useState(params.get('periodic') === '1');
  const [redirecting, setRedirecting] = useState(false);
  const [busy, setBusy] = useState(false);

  if (overview.isLoading) return <Spin />;
  const due = overview.data?.due;
  const blocked = payBlockedReason(t, overview.data, 'newebpay');
  const go = async () => {
    if (!due || blocked) return;
    setBusy(true);
    try {
      const form = await payNewebPay({ period_start: due.start, periodic });
      setRedirecting(true);
      postForm(form, '_self');
    } catch (err) {
      setBusy(false);
      message.error(errorText(err));
      // Paid (or being paid) meanwhile elsewhere: the page shows where things stand now.
      void overview.refetch();
    }
  };
  return (
    <div style={{ maxWidth: 560, margin: '40px auto', padding: 16 }}>
      <Card title={<Typography.Title level={3}>{t('newebpay.title')}</Typography.Title>}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {blocked ? <Alert type="warning" showIcon title={blocked} data-testid="newebpay-blocked" /> : null}
          {due ? <Alert type="info" title={`${due.start} ～ ${due.end}：${twd(due.amount)}`} /> : null}
          <Radio.Group value={periodic} onChange={(e) => setPeriodic(e.target.value as boolean)}>
            <Space orientation="vertical">
              <Radio value={false}>{t('newebpay.once')}</Radio>
              <Radio value={true}>{t('newebpay.periodic')}</Radio>
            </Space>
          </Radio.Group>
          {redirecting ? <Alert type="info" showIcon title={t('newebpay.redirecting')} /> : null}
          <Space>
            <Button
              type="primary"
              icon={<WalletOutlined />}
              loading={busy}
              disabled={!!blocked}
              onClick={() => void go()}
              data-testid="newebpay-go"
            >
              {t('newebpay.go', { amount: due ? twd(due.amount) : '' })}
            </Button>
            <Button onClick={() => navigate('/billing')}>{t('tappay.back')}</Button>
          </Space>
        </Space>
      </Card>
    </div>
  );
}
