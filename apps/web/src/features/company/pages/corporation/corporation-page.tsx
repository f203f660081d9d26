import { type TUpdateCompany, ZUpdateCompany } from '@wms/contracts';
import { App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { useCompany, useUpdateCompany } from '../../api';
import '../../i18n';

/** /corporation: company data (name, unified business number, invoice title and address, phone, fax, website). */
export default function CorporationPage() {
  const { t } = useTranslation(['company', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const company = useCompany();
  const update = useUpdateCompany();
  const [form] = Form.useForm<TUpdateCompany>();
  const { showError, clearError, formError } = useFormErrors(form);
  if (!company.data) return <PageLoading />;
  const s = ZUpdateCompany.shape;
  const onFinish = async (values: TUpdateCompany) => {
    clearError();
    try {
      const saved = await update.mutateAsync({ ...values, tax_id: values.tax_id ?? '' });
      form.setFieldsValue(saved);
      void message.success(t('common:messages.saved'));
    } catch (err) {
      showError(err);
    }
  };
  return (
    <Card title={t('company:title')} style={{ maxWidth: 720 }}>
      {formError}
      <Form<TUpdateCompany>
        form={form}
        layout="vertical"
        initialValues={company.data}
        onFinish={(v) => void onFinish(v)}
        data-testid="company-form"
      >
        <Form.Item name="name" label={label('company_name')} rules={[zodRule('company_name', s.name)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="tax_id"
          label={label('tax_id')}
          extra={t('company:taxIdHint')}
          rules={[zodRule('tax_id', s.tax_id.optional())]}
        >
          <Input maxLength={8} inputMode="numeric" />
        </Form.Item>
        <Form.Item name="invoice_title" label={label('invoice_title')}>
          <Input />
        </Form.Item>
        <Form.Item name="invoice_address" label={label('invoice_address')}>
          <Input />
        </Form.Item>
        <Form.Item
          name="phone"
          label={label('phone')}
          extra={t('company:phoneHint')}
          rules={[zodRule('phone', s.phone)]}
        >
          <Input inputMode="tel" />
        </Form.Item>
        <Form.Item name="fax" label={label('fax')} rules={[zodRule('fax', s.fax)]}>
          <Input inputMode="tel" />
        </Form.Item>
        <Form.Item name="website" label={label('website')} rules={[zodRule('website', s.website)]}>
          <Input inputMode="url" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common:actions.save')}
        </Button>
      </Form>
    </Card>
  );
}
