import { SafetyOutlined } from '@ant-design/icons';
import { ZOtp, ZTwoFactorDisable } from '@wms/contracts';
import { Alert, App, Button, Card, Form, Input, Result, Space, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useProfile } from '../../../../shared/auth/session';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from '../../api';

/** /two-factor: set up (QR code + secret), enable with a code, disable with password and code. */
export default function TwoFactorPage() {
  const { t } = useTranslation('account');
  const profile = useProfile();
  if (!profile) return null;
  return (
    <Card
      title={t('twoFactor.title')}
      style={{ maxWidth: 640 }}
      extra={<Link to="/user-manual/2fa">{t('twoFactor.help')}</Link>}
    >
      {profile.two_factor_enabled ? <Disable /> : <Enable />}
    </Card>
  );
}

function Enable() {
  const { t } = useTranslation(['account', 'common']);
  const { message } = App.useApp();
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const [form] = Form.useForm<{ otp: string }>();
  const { showError, clearError, formError } = useFormErrors(form);

  const begin = async () => {
    clearError();
    try {
      await setup.mutateAsync();
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('twoFactor.statusDisabled')} description={t('twoFactor.intro')} />
      {formError}
      {setup.data ? (
        <>
          <Steps
            orientation="vertical"
            size="small"
            current={1}
            items={[{ title: t('twoFactor.stepScan') }, { title: t('twoFactor.stepCode') }]}
          />
          <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'center' }}>
            <img
              src={setup.data.qr_data_url}
              alt={t('twoFactor.qrAlt')}
              width={200}
              height={200}
              data-testid="two-factor-qr"
              style={{ background: '#fff', padding: 8, borderRadius: 8 }}
            />
            <div>
              <Typography.Text type="secondary">{t('twoFactor.secret')}</Typography.Text>
              <Typography.Paragraph copyable code data-testid="two-factor-secret" style={{ fontSize: 16 }}>
                {setup.data.secret}
              </Typography.Paragraph>
            </div>
          </div>
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={async ({ otp }) => {
              clearError();
              try {
                await enable.mutateAsync({ otp });
                void message.success(t('twoFactor.enabled'));
              } catch (err) {
                showError(err);
              }
            }}
          >
            <Form.Item name="otp" label={t('twoFactor.otp')} rules={[zodRule('otp', ZOtp)]}>
              <Input.OTP length={6} formatter={(v) => v.replace(/\D/g, '')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={enable.isPending} data-testid="two-factor-enable">
              {t('twoFactor.enable')}
            </Button>
          </Form>
        </>
      ) : (
        <Button type="primary" icon={<SafetyOutlined />} loading={setup.isPending} onClick={() => void begin()}>
          {t('twoFactor.setup')}
        </Button>
      )}
    </Space>
  );
}

function Disable() {
  const { t } = useTranslation(['account', 'common']);
  const { message } = App.useApp();
  const disable = useTwoFactorDisable();
  const [form] = Form.useForm<{ password: string; otp: string }>();
  const { showError, clearError, formError } = useFormErrors(form);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Result status="success" title={t('twoFactor.statusEnabled')} style={{ padding: 16 }} />
      <Typography.Title level={5}>{t('twoFactor.disableTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('twoFactor.disableHint')}</Typography.Paragraph>
      {formError}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={async (values) => {
          clearError();
          try {
            await disable.mutateAsync(values);
            form.resetFields();
            void message.success(t('twoFactor.disabled'));
          } catch (err) {
            showError(err);
          }
        }}
      >
        <Form.Item
          name="password"
          label={t('twoFactor.password')}
          rules={[zodRule('password', ZTwoFactorDisable.shape.password)]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="otp" label={t('twoFactor.otp')} rules={[zodRule('otp', ZOtp)]}>
          <Input.OTP length={6} formatter={(v) => v.replace(/\D/g, '')} />
        </Form.Item>
        <Button danger htmlType="submit" loading={disable.isPending} data-testid="two-factor-disable">
          {t('twoFactor.disable')}
        </Button>
      </Form>
    </Space>
  );
}
