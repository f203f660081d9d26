import { Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lazyRule } from '../../../../shared/forms/lazy-rule';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { Hint, Panel } from '../../../../shared/ui/panel';
import { startSession, useVerifyOtp } from '../../login-api';

const OTP_RULES = [lazyRule(async () => (await import('./login-rules')).loginRules.otp)];

/** The login's second step (two-step login on): the six-digit code. Loaded only when a login asks for it. */
export default function OtpStep({ userId, onBack }: { userId: string; onBack: () => void }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [otpForm] = Form.useForm<{ otp: string }>();
  const verify = useVerifyOtp();
  const otpErrors = useFormErrors(otpForm);

  const onVerify = async ({ otp }: { otp: string }) => {
    otpErrors.clearError();
    try {
      startSession(await verify.mutateAsync({ user_id: userId, otp }));
      await navigate('/', { replace: true });
    } catch (err) {
      otpForm.resetFields();
      otpErrors.showError(err);
    }
  };

  return (
    <Panel title={t('login.otpTitle')} testId="otp-step">
      <Hint>{t('login.otpHint')}</Hint>
      {otpErrors.formError}
      <Form form={otpForm} layout="vertical" onFinish={onVerify} requiredMark={false}>
        <Form.Item name="otp" label={t('login.otp')} rules={OTP_RULES}>
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
              onBack();
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
