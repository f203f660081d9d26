import { ApiOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type TApiSetting, ZCreateApiSetting } from '@wms/contracts';
import { Alert, App, Button, Empty, Form, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CrudModal } from '../../../../shared/crud/crud';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { useApiSettings, useDeleteApiSetting, useSaveApiSetting, useTestConnection } from '../../api';
import { SecretField, secretValue } from '../../components/secret-field';
import '../../i18n';

const SECRETS = ['password', 'access_token', 'refresh_token'] as const;
type TSecret = (typeof SECRETS)[number];
const SECRET_LABEL: Record<TSecret, 'fields.password' | 'fields.accessToken' | 'fields.refreshToken'> = {
  password: 'fields.password',
  access_token: 'fields.accessToken',
  refresh_token: 'fields.refreshToken',
};

interface TForm {
  name: string;
  base_url?: string;
  token_url?: string;
  user_name?: string;
  [secret: string]: unknown;
}

const s = ZCreateApiSetting.shape;

const RESULT_KINDS = new Set([
  'dns',
  'refused',
  'timeout',
  'tls',
  'reset',
  'blocked',
  'token_refused',
  'invalid_url',
  'network',
]);

/**
 * A connection test's stored outcome as the user reads it: the server keeps a code (`token`, `HTTP 200`,
 * `dns:host`…, see api-settings.service.ts `connectionFailure`); a message stored before those codes shows as is.
 */
function useTestMessage(): (message: string) => string {
  const { t } = useTranslation('integrations');
  return (message) => {
    if (message === 'token') return t('connections.result.token');
    const http = /^HTTP (\d{3})$/.exec(message);
    if (http) return t('connections.result.http', { status: http[1] });
    const [kind = '', ...rest] = message.split(':');
    if (RESULT_KINDS.has(kind))
      return t(`connections.result.${kind}` as 'connections.result.network', { detail: rest.join(':') });
    return message;
  };
}

/** The outcome of a connection test (the last one is stored on the setting). */
function TestResult({ setting }: { setting: TApiSetting }) {
  const { t } = useTranslation('integrations');
  const text = useTestMessage();
  if (!setting.last_test_at) return <Typography.Text type="secondary">{t('connections.notTested')}</Typography.Text>;
  return (
    <Space size={4} orientation="vertical" data-testid="connection-test-result">
      <Space size={4}>
        <Tag color={setting.last_test_ok ? 'green' : 'red'}>
          {setting.last_test_ok ? t('connections.ok') : t('connections.failed')}
        </Tag>
        <Typography.Text type="secondary">{formatDateTime(setting.last_test_at)}</Typography.Text>
      </Space>
      {setting.last_test_message ? (
        <Typography.Text ellipsis={{ tooltip: text(setting.last_test_message) }} style={{ maxWidth: 280 }}>
          {text(setting.last_test_message)}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** /gd-api-setup: outgoing connections to the seller's own system (credentials encrypted, shown masked). */
export default function ConnectionPage() {
  const { t } = useTranslation(['integrations', 'common', 'nav']);
  const { message } = App.useApp();
  const list = useApiSettings('connection');
  const save = useSaveApiSetting();
  const remove = useDeleteApiSetting();
  const test = useTestConnection();
  const testText = useTestMessage();
  const [editing, setEditing] = useState<TApiSetting | 'new' | null>(null);
  const [lastResult, setLastResult] = useState<{ id: string; ok: boolean; message: string } | null>(null);
  const current = editing && editing !== 'new' ? editing : null;
  const masked = (v: string | null) => v ?? '—';

  const onTest = async (row: TApiSetting) => {
    try {
      const res = await test.mutateAsync(row.id);
      setLastResult({ id: row.id, ok: res.ok, message: res.message });
      if (res.ok) void message.success(t('messages.testOk', { message: testText(res.message) }));
      else void message.error(t('messages.testFailed', { message: testText(res.message) }));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="connection-page">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 860 }}>
          {t('connections.intro')}
        </Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="connection-add">
          {t('actions.add')}
        </Button>
      </Space>
      {lastResult ? (
        <Alert
          type={lastResult.ok ? 'success' : 'error'}
          showIcon
          closable={{ onClose: () => setLastResult(null) }}
          data-testid="connection-test-alert"
          title={t('connections.testResultLine', {
            result: lastResult.ok ? t('connections.ok') : t('connections.failed'),
            message: testText(lastResult.message),
          })}
        />
      ) : null}
      <Table<TApiSetting>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: list.isError ? (
            <Empty description={errorText(list.error)} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('connections.empty')} data-testid="table-empty">
              <Typography.Text type="secondary">{t('connections.emptyHint')}</Typography.Text>
            </Empty>
          ),
        }}
        columns={[
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.baseUrl'), dataIndex: 'base_url', render: (v: string | null) => v ?? '—' },
          { title: t('fields.tokenUrl'), dataIndex: 'token_url', render: (v: string | null) => v ?? '—' },
          { title: t('fields.userName'), dataIndex: 'user_name', render: (v: string | null) => v ?? '—' },
          { title: t('fields.password'), dataIndex: 'password', render: masked },
          { title: t('fields.accessToken'), dataIndex: 'access_token', render: masked },
          { title: t('fields.refreshToken'), dataIndex: 'refresh_token', render: masked },
          {
            title: t('fields.tokenExpiresAt'),
            dataIndex: 'token_expires_at',
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
          { title: t('fields.lastTest'), key: 'last_test', render: (_, row) => <TestResult setting={row} /> },
          {
            title: t('fields.actions'),
            key: 'actions',
            render: (_, row) => (
              <Space size="small" wrap>
                <Button
                  size="small"
                  type="primary"
                  icon={<ApiOutlined />}
                  loading={test.isPending && test.variables === row.id}
                  onClick={() => void onTest(row)}
                  data-testid="connection-test"
                >
                  {t('actions.test')}
                </Button>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                  {t('actions.edit')}
                </Button>
                <Popconfirm
                  title={t('confirm.deleteConnection', { name: row.name })}
                  okText={t('common:actions.confirm')}
                  cancelText={t('common:actions.cancel')}
                  onConfirm={async () => {
                    try {
                      await remove.mutateAsync(row.id);
                      void message.success(t('messages.deleted'));
                    } catch (err) {
                      void message.error(errorText(err));
                    }
                  }}
                >
                  <Button size="small" danger icon={<DeleteOutlined />}>
                    {t('actions.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        width={640}
        title={editing === 'new' ? t('connections.addTitle') : t('connections.editTitle')}
        initialValues={
          current
            ? {
                name: current.name,
                base_url: current.base_url ?? '',
                token_url: current.token_url ?? '',
                user_name: current.user_name ?? '',
              }
            : {}
        }
        onClose={() => setEditing(null)}
        onSubmit={(v) => {
          const secrets: Partial<Record<TSecret, string | null>> = {};
          for (const name of SECRETS) {
            const value = secretValue(v, name);
            if (value !== undefined) secrets[name] = value;
          }
          const body = {
            name: v.name,
            base_url: v.base_url?.trim() || null,
            token_url: v.token_url?.trim() || null,
            user_name: v.user_name?.trim() || null,
            ...secrets,
          };
          return save.mutateAsync(current ? { id: current.id, body } : { body: { ...body, kind: 'connection' } });
        }}
      >
        {() => (
          <>
            <Form.Item name="name" label={t('fields.name')} rules={[zodRule('name', s.name)]}>
              <Input autoFocus />
            </Form.Item>
            <Form.Item
              name="token_url"
              label={t('fields.tokenUrl')}
              extra={t('connections.tokenUrlHint')}
              rules={[zodRule('token_url', s.token_url)]}
            >
              <Input placeholder={t('placeholders.tokenUrl')} inputMode="url" />
            </Form.Item>
            <Form.Item
              name="base_url"
              label={t('fields.baseUrl')}
              extra={t('connections.baseUrlHint')}
              rules={[zodRule('base_url', s.base_url)]}
            >
              <Input placeholder={t('placeholders.baseUrl')} inputMode="url" />
            </Form.Item>
            <Form.Item name="user_name" label={t('fields.userName')} rules={[zodRule('user_name', s.user_name)]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Typography.Paragraph type="secondary">{t('connections.secretsHint')}</Typography.Paragraph>
            {SECRETS.map((name) => (
              <SecretField key={name} name={name} label={t(SECRET_LABEL[name])} masked={current?.[name]} />
            ))}
          </>
        )}
      </CrudModal>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        <Link to="/module-api-setup">{t('nav:screens.module-api-setup' as never)}</Link> ·{' '}
        <Link to="/user-manual/gd-api-setup">{t('common:links.manual')}</Link>
      </Typography.Paragraph>
    </Space>
  );
}
