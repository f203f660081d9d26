import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { lazyRule } from '../../../../shared/forms/lazy-rule';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { Hint, Panel } from '../../../../shared/ui/panel';
import { startSession, useLogin, useVerifyOtp } from '../../login-api';

// The rules (zod, the schemas, the error catalogue) load when a field first validates, not with the page.
const rule = (name: 'email' | 'password' | 'otp') =>
  lazyRule(async () => (await import('./login-rules')).loginRules[name]);
const RULES = { email: [rule('email')], password: [rule('password')], otp: [rule('otp')] };

interface TCredentials {
  email: string;
  password: string;
}

/** /login: e-mail and password, then the six-digit code when two-step login is on. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<TCredentials>();
  const [otpForm] = Form.useForm<{ otp: string }>();
  const [pendingUser, setPendingUser] = useState<string | null>(null);
  const login = useLogin();
  const verify = useVerifyOtp();
  const credentialErrors = useFormErrors(form);
  const otpErrors = useFormErrors(otpForm);

  const onLogin = async (values: TCredentials) => {
    credentialErrors.clearError();
    try {
      const res = await login.mutateAsync(values);
      if (res.status === 'otp') {
        setPendingUser(res.user_id);
        return;
      }
      startSession(res);
      await navigate('/', { replace: true });
    } catch (err) {
      credentialErrors.showError(err);
    }
  };

  const onVerify = async ({ otp }: { otp: string }) => {
    if (!pendingUser) return;
    otpErrors.clearError();
    try {
      startSession(await verify.mutateAsync({ user_id: pendingUser, otp }));
      await navigate('/', { replace: true });
    } catch (err) {
      otpForm.resetFields();
      otpErrors.showError(err);
    }
  };

  if (pendingUser) {
    return (
      <Panel title={t('login.otpTitle')} testId="otp-step">
        <Hint>{t('login.otpHint')}</Hint>
        {otpErrors.formError}
        <Form form={otpForm} layout="vertical" onFinish={onVerify} requiredMark={false}>
          <Form.Item name="otp" label={t('login.otp')} rules={RULES.otp}>
            <Input.OTP length={6} autoFocus formatter={(v) => v.replace(/\D/g, '')} />
          </Form.Item>
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Button type="primary" htmlType="submit" block loading={verify.isPending}>
              {t('login.otpSubmit')}
            </Button>
            <Button
              type="link"
              block
              onClick={() => {
                setPendingUser(null);
                otpForm.resetFields();
              }}
            >
              {t('login.back')}
            </Button>
          </Space>
        </Form>
      </Panel>
    );
  }

  return (
    <Panel title={t('login.title')}>
      {credentialErrors.formError}
      <Form<TCredentials> form={form} layout="vertical" onFinish={onLogin} requiredMark={false}>
        <Form.Item name="email" label={t('login.email')} rules={RULES.email}>
          <Input prefix={<MailOutlined />} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={RULES.password}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between', marginTop: 16 }}>
        <Link to="/register">{t('login.register')}</Link>
        <Link to="/format-password">{t('login.forgot')}</Link>
      </div>
    </Panel>
  );
}
