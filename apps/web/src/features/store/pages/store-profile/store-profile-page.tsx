import { type TUpdateMemberProfile, ZUpdateMemberProfile } from '@wms/contracts';
import { App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMemberSession } from '../../../../shared/auth/session';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { useUpdateMemberProfile } from '../../api';

const s = ZUpdateMemberProfile.shape;

/** /store/profile: the member's name, phone and default delivery address (prefilled on every order). */
export default function StoreProfilePage() {
  const { t } = useTranslation(['store', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const member = useMemberSession();
  const save = useUpdateMemberProfile();
  const [form] = Form.useForm<TUpdateMemberProfile>();
  const { showError, clearError, formError } = useFormErrors(form);
  const p = member?.profile;
  return (
    <Card title={t('store:portal.profile')} style={{ maxWidth: 640 }}>
      {formError}
      <Form<TUpdateMemberProfile>
        form={form}
        layout="vertical"
        initialValues={{ name: p?.name, phone: p?.phone, postcode: p?.postcode, address: p?.address }}
        onFinish={async (values) => {
          clearError();
          try {
            await save.mutateAsync({
              name: values.name,
              phone: values.phone ?? '',
              postcode: values.postcode ?? '',
              address: values.address ?? '',
            });
            void message.success(t('common:messages.saved'));
          } catch (err) {
            showError(err);
          }
        }}
      >
        <Form.Item label={label('email')}>
          <Input value={p?.email} disabled />
        </Form.Item>
        <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
          <Input data-testid="profile-name" />
        </Form.Item>
        <Form.Item name="phone" label={label('phone')} rules={[zodRule('phone', s.phone.optional())]}>
          <Input />
        </Form.Item>
        <Form.Item name="postcode" label={label('postcode')} rules={[zodRule('postcode', s.postcode.optional())]}>
          <Input style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="address" label={label('address')} rules={[zodRule('address', s.address.optional())]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="profile-save">
          {t('common:actions.save')}
        </Button>
      </Form>
    </Card>
  );
}
