import { LABEL_FORMATS, LANGUAGES, type TLabelFormat, type TLanguage, ZUpdateProfile } from '@wms/contracts';
import { App, Button, Card, Descriptions, Form, Input, Radio, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useProfile } from '../../../../shared/auth/session';
import { formatDateTime } from '../../../../shared/format';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { setPreferences, type TTheme } from '../../../../shared/preferences/preferences';
import { useUpdateProfile } from '../../api';

interface TForm {
  name: string;
  language: TLanguage;
  theme: TTheme;
  label_format: TLabelFormat;
}

/**
 * /profile: name, language and theme (kept in the profile and this browser), the default label format of the print
 * screens (A4 sheet or thermal roll); account facts.
 */
export default function ProfilePage() {
  const { t } = useTranslation(['account', 'common']);
  const { message } = App.useApp();
  const profile = useProfile();
  const [form] = Form.useForm<TForm>();
  const update = useUpdateProfile();
  const { showError, clearError, formError } = useFormErrors(form);
  if (!profile) return null;

  const onFinish = async (values: TForm) => {
    clearError();
    try {
      const saved = await update.mutateAsync(values);
      setPreferences({ language: saved.language, theme: saved.theme });
      void message.success(t('common:messages.saved'));
    } catch (err) {
      showError(err);
    }
  };

  return (
    <div style={{ display: 'grid', gap: 24, maxWidth: 720 }}>
      <Card title={t('profile.title')}>
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('profile.email')}>{profile.email}</Descriptions.Item>
          <Descriptions.Item label={t('profile.company')}>{profile.company?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('profile.role')}>{t(`profile.roles.${profile.role}`)}</Descriptions.Item>
          <Descriptions.Item label={t('profile.twoFactor')}>
            <Tag color={profile.two_factor_enabled ? 'green' : 'default'}>
              {profile.two_factor_enabled ? t('profile.enabled') : t('profile.disabled')}
            </Tag>
            <Link to="/two-factor">{t('profile.manageTwoFactor')}</Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('profile.createdAt')}>{formatDateTime(profile.created_at)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('profile.settings')}>
        {formError}
        <Form<TForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{
            name: profile.name,
            language: profile.language,
            theme: profile.theme,
            label_format: profile.label_format,
          }}
          onFinish={onFinish}
        >
          <Form.Item
            name="name"
            label={t('profile.name')}
            rules={[zodRule('name', ZUpdateProfile.shape.name.unwrap())]}
          >
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item name="language" label={t('profile.language')}>
            <Select options={LANGUAGES.map((l) => ({ value: l, label: t(`common:language.${l}`) }))} />
          </Form.Item>
          <Form.Item name="theme" label={t('profile.theme')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'light', label: t('common:theme.light') },
                { value: 'dark', label: t('common:theme.dark') },
              ]}
            />
          </Form.Item>
          <Form.Item name="label_format" label={t('profile.labelFormat')} extra={t('profile.labelFormatHint')}>
            <Radio.Group
              optionType="button"
              data-testid="profile-label-format"
              options={LABEL_FORMATS.map((f) => ({ value: f, label: t(`profile.labelFormats.${f}`) }))}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="profile-save">
            {t('common:actions.save')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
