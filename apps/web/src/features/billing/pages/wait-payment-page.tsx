import { Button, Card, Result, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePaymentResult } from '../api';
import { twd } from '../money';
import '../i18n';

/** How long the page waits for a pending payment before it says "check the records later". */
const WAIT_MS = 120_000;

/**
 * /wait-tappay and /wait-newebpay: the result of one payment, read from our server — which confirms a TapPay charge
 * with TapPay's transaction/query and has NewebPay's Notify — never from the query string the browser came back with.
 */
export default function WaitPaymentPage() {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('payment');
  const payment = usePaymentResult(id);
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const p = payment.data;
  const back = (
    <Button type="primary" onClick={() => navigate('/billing')} data-testid="wait-back">
      {t('wait.back')}
    </Button>
  );
  return (
    <div style={{ maxWidth: 640, margin: '40px auto', padding: 16 }}>
      <Card title={<Typography.Title level={3}>{t('wait.title')}</Typography.Title>}>
        {!p || p.status === 'pending' ? (
          timedOut || !id ? (
            <Result status="info" title={t('wait.stillPending')} extra={back} />
          ) : (
            <Result icon={<Spin size="large" />} title={t('wait.pending')} data-testid="wait-pending" />
          )
        ) : p.status === 'succeeded' ? (
          <Result
            status="success"
            title={t('wait.succeeded')}
            subTitle={`${p.order_number} · ${twd(p.amount)} · ${p.period_start} ～ ${p.period_end}`}
            extra={back}
            data-testid="wait-succeeded"
          />
        ) : (
          <Result
            status="error"
            title={t('wait.failed')}
            subTitle={t('wait.reason', { reason: p.failure ?? '' })}
            extra={back}
            data-testid="wait-failed"
          />
        )}
      </Card>
    </div>
  );
}
