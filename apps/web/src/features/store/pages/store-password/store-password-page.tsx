import { ZPassword } from '@wms/contracts';
import { App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logoutMember, useMemberSession } from '../../../../shared/auth/session';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { useChangeMemberPassword } from '../../api';

interface TForm {
  old_password: string;
  new_password: string;
  confirm: string;
}

/** /store/password: the member's own password; afterwards every session ends ("Change successful, please log in again"). */
export default function StorePasswordPage() {
  const { t } = useTranslation('store');
  const label = useFieldLabel();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const member = useMemberSession();
  const change = useChangeMemberPassword();
  const [form] = Form.useForm<TForm>();
  const { showError, clearError, formError } = useFormErrors(form);
  return (
    <Card title={t('portal.password')} style={{ maxWidth: 480 }}>
      {formError}
      <Form<TForm>
        form={form}
        layout="vertical"
        onFinish={async ({ old_password, new_password }) => {
          clearError();
          try {
            await change.mutateAsync({ old_password, new_password });
            void message.success(t('portal.passwordChanged'));
            const shortUrl = member?.profile.store.short_url;
            await logoutMember();
            await navigate(shortUrl ? `/store/login/${shortUrl}` : '/store/404', { replace: true });
          } catch (err) {
            showError(err);
          }
        }}
      >
        <Form.Item
          name="old_password"
          label={label('old_password')}
          rules={[zodRule('old_password', ZPassword.min(1))]}
        >
          <Input.Password autoComplete="current-password" data-testid="old-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={label('new_password')}
          rules={[zodRule('new_password', ZPassword, { tooShort: 'PASSWORD_TOO_SHORT' })]}
        >
          <Input.Password autoComplete="new-password" data-testid="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('portal.confirmPassword')}
          dependencies={['new_password']}
          rules={[
            {
              validator: async (_r, v: string) => {
                if (v !== form.getFieldValue('new_password')) throw new Error(t('portal.passwordMismatch'));
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="confirm-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="password-save">
          {t('portal.changePassword')}
        </Button>
      </Form>
    </Card>
  );
}
