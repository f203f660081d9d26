import { ZForgotPasswordRequest, ZPassword } from '@wms/contracts';
import { Button, Form, Input, Result, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { withQueryClient } from '../../../../shared/api/query-provider';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { passwordRule, zodRule } from '../../../../shared/forms/zod-rule';
import { getLanguage } from '../../../../shared/preferences/preferences';
import { Hint, Panel } from '../../../../shared/ui/panel';
import { useForgotPassword, useResetPassword } from '../../api';

/** /format-password: ask for a reset link; with `?token=` (the mailed link) choose the new password. */
function FormatPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetPassword token={token} /> : <RequestReset />;
}

function RequestReset() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<{ email: string }>();
  const forgot = useForgotPassword();
  const { showError, clearError, formError } = useFormErrors(form);
  const [sent, setSent] = useState(false);

  if (sent) {
    return (
      <Panel>
        <Result
          status="success"
          data-testid="reset-sent"
          title={t('formatPassword.sentTitle')}
          subTitle={t('formatPassword.sentBody')}
          extra={<Link to="/login">{t('formatPassword.toLogin')}</Link>}
        />
      </Panel>
    );
  }
  return (
    <Panel title={t('formatPassword.title')}>
      <Spin spinning={forgot.isPending} description={t('formatPassword.progress')}>
        <Hint>{t('formatPassword.hint')}</Hint>
        {formError}
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async (values) => {
            clearError();
            try {
              await forgot.mutateAsync({ email: values.email, language: getLanguage() });
              setSent(true);
            } catch (err) {
              showError(err);
            }
          }}
        >
          <Form.Item
            name="email"
            label={t('formatPassword.email')}
            rules={[zodRule('email', ZForgotPasswordRequest.shape.email)]}
          >
            <Input autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={forgot.isPending}>
            {t('formatPassword.submit')}
          </Button>
        </Form>
      </Spin>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('formatPassword.toLogin')}</Link>
      </div>
    </Panel>
  );
}

function ResetPassword({ token }: { token: string }) {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const [form] = Form.useForm<{ new_password: string; confirm: string }>();
  const reset = useResetPassword();
  const { showError, clearError, formError } = useFormErrors(form);
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <Panel>
        <Result
          status="success"
          data-testid="reset-done"
          title={t('formatPassword.resetDone')}
          extra={
            <Button type="primary" onClick={() => void navigate('/login')}>
              {t('formatPassword.toLogin')}
            </Button>
          }
        />
      </Panel>
    );
  }
  return (
    <Panel title={t('formatPassword.resetTitle')}>
      <Spin spinning={reset.isPending} description={t('formatPassword.progress')}>
        {formError}
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async (values) => {
            clearError();
            try {
              await reset.mutateAsync({ token, new_password: values.new_password });
              setDone(true);
            } catch (err) {
              showError(err);
            }
          }}
        >
          <Form.Item
            name="new_password"
            label={t('formatPassword.newPassword')}
            rules={[passwordRule('new_password', ZPassword)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('formatPassword.confirmPassword')}
            dependencies={['new_password']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_r, value) => {
                  if (value !== getFieldValue('new_password')) throw new Error(t('common:validation.confirmMismatch'));
                },
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={reset.isPending}>
            {t('formatPassword.resetSubmit')}
          </Button>
        </Form>
      </Spin>
    </Panel>
  );
}

/** Uses TanStack Query, which a public page brings itself (not at the root: shared/api/query-provider.tsx). */
export default withQueryClient(FormatPasswordPage);
