import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { lazyRule } from '../../../../shared/forms/lazy-rule';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { Panel } from '../../../../shared/ui/panel';
import { startSession, useLogin } from '../../login-api';

// The rules (zod, the schemas, the error catalogue) load when a field first validates, not with the page.
const rule = (name: 'email' | 'password') => lazyRule(async () => (await import('./login-rules')).loginRules[name]);
const RULES = { email: [rule('email')], password: [rule('password')] };
// The second step (two-step login) loads when a login asks for it. Input and Password come on their own (not antd's
// Input with TextArea, Search and OTP attached).
const OtpStep = lazy(() => import('./otp-step'));

interface TCredentials {
  email: string;
  password: string;
}

/** /login: e-mail and password, then the six-digit code when two-step login is on. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<TCredentials>();
  // Coming from /register: the e-mail just registered is filled in, and the password (from the mail) is next.
  const state = useLocation().state as { email?: unknown } | null;
  const knownEmail = typeof state?.email === 'string' ? state.email : undefined;
  const [pendingUser, setPendingUser] = useState<string | null>(null);
  const login = useLogin();
  const credentialErrors = useFormErrors(form);

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

  if (pendingUser) {
    return (
      <Suspense fallback={<PageLoading />}>
        <OtpStep userId={pendingUser} onBack={() => setPendingUser(null)} />
      </Suspense>
    );
  }

  return (
    <Panel title={t('login.title')}>
      {credentialErrors.formError}
      <Form<TCredentials>
        form={form}
        layout="vertical"
        onFinish={onLogin}
        requiredMark={false}
        initialValues={knownEmail ? { email: knownEmail } : undefined}
      >
        <Form.Item name="email" label={t('login.email')} rules={RULES.email}>
          <Input prefix={<MailOutlined />} autoComplete="username" autoFocus={!knownEmail} />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={RULES.password}>
          <Password prefix={<LockOutlined />} autoComplete="current-password" autoFocus={!!knownEmail} />
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
