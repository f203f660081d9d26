import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n';

export interface THeaderRow {
  name?: string;
  value?: string;
}

/** Rows of the form from a setting's headers (names with masked values): the values stay blank. */
export function headerRows(masked: Record<string, string> | undefined): THeaderRow[] {
  return Object.keys(masked ?? {}).map((name) => ({ name, value: '' }));
}

/**
 * Whether the rows differ from the stored headers. The API replaces all headers at once and values are write-only,
 * so untouched rows (same names, no value typed) are not sent; once anything changes every value must be typed.
 */
export function headersChanged(rows: THeaderRow[] | undefined, stored: Record<string, string> | undefined): boolean {
  const list = (rows ?? []).filter((r) => r && (r.name?.trim() || r.value));
  const names = list.map((r) => r.name?.trim() ?? '').sort();
  const before = Object.keys(stored ?? {}).sort();
  if (names.join('\n') !== before.join('\n')) return true;
  return list.some((r) => !!r.value);
}

/** The API's `http_headers` from the rows. */
export function headersOf(rows: THeaderRow[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows ?? []) if (r?.name?.trim()) out[r.name.trim()] = r.value ?? '';
  return out;
}

/** Key/value rows of callback headers; values are typed into password boxes (masked) and never read back. */
export function HeadersEditor(props: { form: FormInstance; stored: Record<string, string> | undefined }) {
  const { t } = useTranslation('integrations');
  return (
    <Form.List name="headers">
      {(fields, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="headers-editor">
          {fields.map((field) => {
            const storedName = props.form.getFieldValue(['headers', field.name, 'name']) as string | undefined;
            const masked = storedName ? props.stored?.[storedName] : undefined;
            return (
              <Space key={field.key} align="start" style={{ width: '100%' }} wrap>
                <Form.Item
                  name={[field.name, 'name']}
                  style={{ marginBottom: 0, minWidth: 200 }}
                  rules={[
                    { required: true, pattern: /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, message: t('fields.headerName') },
                  ]}
                >
                  <Input placeholder={t('fields.headerName')} aria-label={t('fields.headerName')} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'value']}
                  style={{ marginBottom: 0, minWidth: 280 }}
                  rules={[
                    {
                      validator: async (_, value: string | undefined) => {
                        if (value) return;
                        if (headersChanged(props.form.getFieldValue('headers'), props.stored))
                          throw new Error(t('messages.headerValueRequired'));
                      },
                    },
                  ]}
                >
                  <Input.Password
                    autoComplete="new-password"
                    placeholder={masked ?? t('fields.headerValue')}
                    aria-label={t('fields.headerValue')}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('actions.removeHeader')}
                  title={t('actions.removeHeader')}
                  onClick={() => remove(field.name)}
                />
              </Space>
            );
          })}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })}>
            {t('actions.addHeader')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}
