import { ZRegisterRequest } from '@wms/contracts';
import { Button, Form, Input, Result, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { withQueryClient } from '../../../../shared/api/query-provider';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { getLanguage } from '../../../../shared/preferences/preferences';
import { Panel } from '../../../../shared/ui/panel';
import { useRegister } from '../../api';

interface TRegisterForm {
  company_name: string;
  name: string;
  email: string;
  phone?: string;
}

const shape = ZRegisterRequest.shape;

/** /register: a seller's company and first user; the password is e-mailed (spec §2.1, §8). */
function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<TRegisterForm>();
  const register = useRegister();
  const { showError, clearError, formError } = useFormErrors(form);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  const onFinish = async (values: TRegisterForm) => {
    clearError();
    try {
      await register.mutateAsync({ ...values, phone: values.phone || undefined, language: getLanguage() });
      setRegisteredEmail(values.email);
    } catch (err) {
      showError(err);
    }
  };

  if (registeredEmail) {
    return (
      <Panel>
        <Result
          status="success"
          data-testid="register-success"
          title={t('register.successTitle')}
          subTitle={t('register.successBody', { email: registeredEmail })}
          extra={
            <Button type="primary" onClick={() => void navigate('/login', { state: { email: registeredEmail } })}>
              {t('register.toLogin')}
            </Button>
          }
        />
      </Panel>
    );
  }

  return (
    <Panel title={t('register.title')}>
      <Spin spinning={register.isPending} description={t('register.progress')}>
        {formError}
        <Form<TRegisterForm> form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            name="company_name"
            label={t('register.companyName')}
            rules={[zodRule('company_name', shape.company_name)]}
          >
            <Input autoComplete="organization" />
          </Form.Item>
          <Form.Item name="name" label={t('register.name')} rules={[zodRule('name', shape.name)]}>
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item name="email" label={t('register.email')} rules={[zodRule('email', shape.email)]}>
            <Input autoComplete="email" />
          </Form.Item>
          <Form.Item name="phone" label={t('register.phone')} rules={[zodRule('phone', shape.phone)]}>
            <Input autoComplete="tel" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={register.isPending}>
            {t('register.submit')}
          </Button>
        </Form>
      </Spin>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('register.hasAccount')}</Link>
      </div>
    </Panel>
  );
}

/** Uses TanStack Query, which a public page brings itself (not at the root: shared/api/query-provider.tsx). */
export default withQueryClient(RegisterPage);
