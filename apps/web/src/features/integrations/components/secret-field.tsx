import { Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n';

/**
 * A write-only secret of a setting: blank keeps the stored value (shown masked under the box), "clear" removes it.
 * The form holds `<name>` (the typed value) and `<name>__clear`.
 */
export function SecretField(props: { name: string; label: string; masked: string | null | undefined }) {
  const { t } = useTranslation('integrations');
  const clear = Form.useWatch(`${props.name}__clear`) as boolean | undefined;
  const hint = clear
    ? t('messages.secretCleared')
    : props.masked
      ? t('messages.secretKept', { masked: props.masked })
      : t('messages.secretNotSet');
  return (
    <Form.Item label={props.label} extra={hint} required={false}>
      <Form.Item name={props.name} noStyle>
        <Input.Password id={props.name} autoComplete="new-password" disabled={!!clear} aria-label={props.label} />
      </Form.Item>
      {props.masked ? (
        <Form.Item name={`${props.name}__clear`} valuePropName="checked" noStyle>
          <Checkbox style={{ marginTop: 4 }} data-testid={`${props.name}-clear`}>
            {t('actions.clear')}
          </Checkbox>
        </Form.Item>
      ) : null}
    </Form.Item>
  );
}

/** The API's value of a secret from the form: omitted (keep), null (clear) or the typed value. */
export function secretValue(values: Record<string, unknown>, name: string): string | null | undefined {
  if (values[`${name}__clear`]) return null;
  const typed = values[name];
  return typeof typed === 'string' && typed !== '' ? typed : undefined;
}
