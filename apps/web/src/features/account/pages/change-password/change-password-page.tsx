import { ZChangePassword } from '@wms/contracts';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../../../layouts/user-menu';
import { useProfile } from '../../../../shared/auth/session';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { passwordRule, zodRule } from '../../../../shared/forms/zod-rule';
import { useChangePassword } from '../../api';

interface TForm {
  old_password: string;
  new_password: string;
  confirm: string;
}

/** /change-password: on success "Change successful, please log in again" and back to /login. */
export default function ChangePasswordPage() {
  const { t } = useTranslation(['account', 'common']);
  const { message } = App.useApp();
  const [form] = Form.useForm<TForm>();
  const change = useChangePassword();
  const logout = useLogout();
  const { showError, clearError, formError } = useFormErrors(form);
  const required = useProfile()?.password_change_required === true;

  const onFinish = async ({ old_password, new_password }: TForm) => {
    clearError();
    try {
      await change.mutateAsync({ old_password, new_password });
      void message.success(t('changePassword.success'));
      await logout();
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Card title={t('changePassword.title')} style={{ maxWidth: 520 }}>
      {required ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="password-change-required"
          title={t('changePassword.requiredTitle')}
          description={t('changePassword.requiredBody')}
        />
      ) : null}
      {formError}
      <Form<TForm> form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="old_password"
          label={t('changePassword.oldPassword')}
          rules={[zodRule('old_password', ZChangePassword.shape.old_password)]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={t('changePassword.newPassword')}
          rules={[passwordRule('new_password', ZChangePassword.shape.new_password)]}
          extra={t('changePassword.rule')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('changePassword.confirmPassword')}
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
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('changePassword.submit')}
        </Button>
      </Form>
    </Card>
  );
}
