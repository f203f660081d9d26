import { CreditCardOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, Form, Input, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { getProfile } from '../../../shared/auth/session';
import { errorText } from '../../../shared/forms/error-text';
import { payStatementTapPay, useSellerStatement } from '../../usage/api';
import { payTapPay, useBillingOverview } from '../api';
import { payBlockedReason } from '../components/pay-reason';
import { createStubTPDirect, loadTapPaySdk, type TTPDirect } from '../tpdirect';
import '../i18n';
import { twd } from '../money';

const FIELDS = {
  number: { element: '#tp-card-number', placeholder: '**** **** **** ****' },
  expirationDate: { element: '#tp-card-expiry', placeholder: 'MM / YY' },
  ccv: { element: '#tp-card-ccv', placeholder: 'CCV' },
};

/**
 * /tappay: the TPDirect card form; its prime is charged by our server (pay-by-prime), 3-D Secure via payment_url.
 * `?statement=<id>`: it pays that usage statement (issue #35) instead of the contract's due period.
 */
export default function TapPayPage() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const overview = useBillingOverview();
  const [params] = useSearchParams();
  const statementId = params.get('statement');
  const statement = useSellerStatement(statementId);
  const profile = getProfile() as { name?: string; email?: string } | null;
  const [sdk, setSdk] = useState<TTPDirect | null>(null);
  const [sdkError, setSdkError] = useState(false);
  const [paying, setPaying] = useState(false);
  const [form] = Form.useForm();
  const ready = useRef(false);
  const tappay = overview.data?.providers.tappay;
  const stub = !!tappay && !tappay.app_id;

  useEffect(() => {
    if (!tappay || ready.current) return;
    ready.current = true;
    const setup = (tp: TTPDirect) => {
      if (tappay.app_id && tappay.app_key) tp.setupSDK(tappay.app_id, tappay.app_key, tappay.environment);
      tp.card.setup({ fields: FIELDS });
      setSdk(tp);
    };
    if (!tappay.app_id) setup(createStubTPDirect());
    else
      loadTapPaySdk()
        .then(setup)
        .catch(() => setSdkError(true));
  }, [tappay]);

  if (overview.isLoading || statement.isLoading) return <Spin />;
  const s = statement.data;
  const due = statementId ? null : overview.data?.due;
  const blocked = statementId
    ? !tappay?.enabled
      ? t('tappay.notConfigured')
      : s && s.status !== 'issued'
        ? t('tappay.statementNotPayable', { number: s.number })
        : null
    : payBlockedReason(t, overview.data, 'tappay');
  const amount = s ? s.pay_amount : due?.amount;

  const pay = async () => {
    const values = await form.validateFields();
    if (!sdk || (!due && !s) || blocked) return;
    setPaying(true);
    sdk.card.getPrime(async (result) => {
      if (result.status !== 0 || !result.card) {
        setPaying(false);
        message.error(t('tappay.cardInvalid'));
        return;
      }
      try {
        const cardholder = { name: values.name, email: values.email, phone: values.phone };
        const answer = s
          ? await payStatementTapPay(s.id, { prime: result.card.prime, cardholder })
          : await payTapPay({
              period_start: due!.start,
              prime: result.card.prime,
              remember: !!values.remember,
              cardholder,
            });
        // 3-D Secure: the bank's page, then back to /wait-tappay; otherwise the result at once.
        if (answer.payment_url) window.location.assign(answer.payment_url);
        else navigate(`/wait-tappay?payment=${answer.payment.id}`);
      } catch (err) {
        setPaying(false);
        message.error(errorText(err));
        // Paid (or being paid) meanwhile elsewhere: the page shows where things stand now.
        void overview.refetch();
        void statement.refetch();
      }
    });
  };

  return (
    <div style={{ maxWidth: 560, margin: '40px auto', padding: 16 }}>
      <Card title={<Typography.Title level={3}>{t('tappay.title')}</Typography.Title>}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {blocked ? <Alert type="warning" showIcon title={blocked} data-testid="tappay-blocked" /> : null}
          {stub ? <Alert type="warning" showIcon title={t('tappay.stub')} data-testid="tappay-stub" /> : null}
          {sdkError ? <Alert type="error" showIcon title={t('tappay.sdkFailed')} /> : null}
          {due ? (
            <Alert type="info" title={`${due.start} ～ ${due.end}：${twd(due.amount)}`} data-testid="tappay-due" />
          ) : null}
          {s ? (
            <Alert
              type="info"
              title={t('tappay.statement', { number: s.number, month: s.month, amount: twd(s.pay_amount) })}
              data-testid="tappay-due"
            />
          ) : null}
          <Form
            form={form}
            layout="vertical"
            initialValues={{ name: profile?.name ?? '', email: profile?.email ?? '', remember: false }}
          >
            <Form.Item label={t('tappay.cardNumber')}>
              <div id="tp-card-number">{stub ? <Input data-testid="card-number" inputMode="numeric" /> : null}</div>
            </Form.Item>
            <Space>
              <Form.Item label={t('tappay.expiry')}>
                <div id="tp-card-expiry">{stub ? <Input data-testid="card-expiry" /> : null}</div>
              </Form.Item>
              <Form.Item label={t('tappay.ccv')}>
                <div id="tp-card-ccv">{stub ? <Input data-testid="card-ccv" inputMode="numeric" /> : null}</div>
              </Form.Item>
            </Space>
            <Form.Item name="name" label={t('tappay.name')} rules={[{ required: true }]}>
              <Input data-testid="cardholder-name" />
            </Form.Item>
            <Form.Item name="email" label={t('tappay.email')} rules={[{ required: true, type: 'email' }]}>
              <Input data-testid="cardholder-email" />
            </Form.Item>
            <Form.Item name="phone" label={t('tappay.phone')} rules={[{ required: true }]}>
              <Input data-testid="cardholder-phone" />
            </Form.Item>
            {s ? null : (
              <Form.Item name="remember" valuePropName="checked">
                <Checkbox>{t('tappay.remember')}</Checkbox>
              </Form.Item>
            )}
          </Form>
          <Space>
            <Button
              type="primary"
              icon={<CreditCardOutlined />}
              loading={paying}
              disabled={!sdk || !!blocked}
              onClick={() => void pay()}
              data-testid="tappay-pay"
            >
              {t('tappay.pay', { amount: amount ? twd(amount) : '' })}
            </Button>
            <Button onClick={() => navigate('/billing')}>{t('tappay.back')}</Button>
          </Space>
        </Space>
      </Card>
    </div>
  );
}
