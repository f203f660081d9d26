import { LockOutlined, MailOutlined, ShopOutlined } from '@ant-design/icons';
import { ZMemberLoginRequest } from '@wms/contracts';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { withQueryClient } from '../../../../shared/api/query-provider';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { Panel } from '../../../../shared/ui/panel';
import { useMemberLogin } from '../../api';

interface TForm {
  corp: string;
  email: string;
  password: string;
}

const shape = ZMemberLoginRequest.shape;

/** /store/login/{short_url}: a member logs in to one online store (corporation, e-mail, password). */
function MemberLoginPage() {
  const { t } = useTranslation('store');
  const { short_url: shortUrl = '' } = useParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<TForm>();
  const login = useMemberLogin();
  const { showError, clearError, formError } = useFormErrors(form);

  return (
    <Panel title={t('login.title')}>
      {formError}
      <Form<TForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ corp: shortUrl }}
        onFinish={async (values) => {
          clearError();
          try {
            await login.mutateAsync(values);
            await navigate('/store', { replace: true });
          } catch (err) {
            showError(err);
          }
        }}
      >
        <Form.Item name="corp" label={t('login.corp')} rules={[zodRule('corp', shape.corp)]}>
          <Input prefix={<ShopOutlined />} />
        </Form.Item>
        <Form.Item name="email" label={t('login.email')} rules={[zodRule('email', shape.email)]}>
          <Input prefix={<MailOutlined />} autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[zodRule('password', shape.password)]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="member-login-submit">
          {t('login.submit')}
        </Button>
      </Form>
    </Panel>
  );
}

/** Uses TanStack Query, which a public page brings itself (not at the root: shared/api/query-provider.tsx). */
export default withQueryClient(MemberLoginPage);
