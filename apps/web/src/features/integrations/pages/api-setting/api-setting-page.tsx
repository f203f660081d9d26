import {
  ApiOutlined,
  BookOutlined,
  DeleteOutlined,
  EditOutlined,
  HistoryOutlined,
  KeyOutlined,
  PlusOutlined,
  SendOutlined,
  StopOutlined,
} from '@ant-design/icons';
import {
  API_SCOPES,
  CALLBACK_EVENTS,
  type TApiKeyIssued,
  type TApiScope,
  type TApiSetting,
  type TCallbackEvent,
  ZCreateApiSetting,
} from '@wms/contracts';
import {
  App,
  Button,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CrudModal } from '../../../../shared/crud/crud';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { zodRule } from '../../../../shared/forms/zod-rule';
import {
  eventKey,
  useApiSettings,
  useDeleteApiSetting,
  useDisableApiSetting,
  useEnableApiSetting,
  useSaveApiSetting,
  useSendTestEvent,
} from '../../api';
import { HeadersEditor, headerRows, headersChanged, headersOf, type THeaderRow } from '../../components/headers-editor';
import { KeyIssuedModal } from '../../components/key-issued-modal';
import '../../i18n';

interface TForm {
  name: string;
  callback_url?: string;
  headers?: THeaderRow[];
  order_callback_enabled: boolean;
  callback_events: TCallbackEvent[];
  connection_id?: string | null;
  rate_limit_per_minute?: number | null;
  scope: TApiScope;
}

const s = ZCreateApiSetting.shape;

/** /module-api-setup: the seller's partner API settings: keys (shown once), callbacks, limits. */
export default function ApiSettingPage() {
  const { t } = useTranslation(['integrations', 'common']);
  const { message } = App.useApp();
  const list = useApiSettings('partner');
  const connections = useApiSettings('connection');
  const save = useSaveApiSetting();
  const remove = useDeleteApiSetting();
  const enable = useEnableApiSetting();
  const disable = useDisableApiSetting();
  const sendTest = useSendTestEvent();
  const [editing, setEditing] = useState<TApiSetting | 'new' | null>(null);
  const [issued, setIssued] = useState<TApiKeyIssued | null>(null);
  const current = editing && editing !== 'new' ? editing : null;
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('state.never'));

  const run = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) void message.success(done);
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const onEnable = (setting: TApiSetting) => {
    const hide = message.loading(t('setup.creating'), 0);
    void run(async () => setIssued(await enable.mutateAsync(setting.id))).finally(hide);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="api-setting-page">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 860 }}>
          {t('setup.intro')}
        </Typography.Paragraph>
        <Space wrap>
          <Link to="/partner-api-docs" data-testid="api-reference-link">
            <Button icon={<BookOutlined />}>{t('actions.reference')}</Button>
          </Link>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="api-add">
            {t('actions.add')}
          </Button>
        </Space>
      </Space>
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
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('setup.empty')} data-testid="table-empty">
              <Typography.Text type="secondary">{t('setup.emptyHint')}</Typography.Text>
            </Empty>
          ),
        }}
        columns={[
          { title: t('fields.name'), dataIndex: 'name', key: 'name' },
          {
            title: t('fields.enabled'),
            dataIndex: 'enabled',
            render: (v: boolean) => (
              <Tag color={v ? 'green' : 'default'} data-testid="api-state">
                {v ? t('state.enabled') : t('state.disabled')}
              </Tag>
            ),
          },
          {
            title: t('fields.keyPrefix'),
            dataIndex: 'key_prefix',
            render: (v: string | null) => (v ? <Typography.Text code>{`${v}…`}</Typography.Text> : '—'),
          },
          {
            title: t('fields.keyIssuedAt'),
            dataIndex: 'key_issued_at',
            render: (v: string | null) => (v ? when(v) : '—'),
          },
          { title: t('fields.lastUsedAt'), dataIndex: 'last_used_at', render: when },
          {
            title: t('fields.callbackUrl'),
            dataIndex: 'callback_url',
            render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }}>{v}</Typography.Text> : '—'),
          },
          {
            title: t('fields.orderCallback'),
            dataIndex: 'order_callback_enabled',
            render: (v: boolean) => <Tag color={v ? 'blue' : 'default'}>{v ? t('state.on') : t('state.off')}</Tag>,
          },
          {
            title: t('fields.scope'),
            dataIndex: 'scope',
            render: (v: TApiScope) => (
              <Tag color={v === 'full' ? 'red' : v === 'orders' ? 'gold' : 'green'} data-testid="api-scope">
                {t(`scope.${v}`)}
              </Tag>
            ),
          },
          { title: t('fields.rateLimit'), dataIndex: 'rate_limit_per_minute' },
          {
            title: t('fields.actions'),
            key: 'actions',
            render: (_, row) => (
              <Space size="small" wrap>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                  {t('actions.edit')}
                </Button>
                {row.enabled ? (
                  <Popconfirm
                    title={t('confirm.disable', { name: row.name })}
                    okText={t('common:actions.confirm')}
                    cancelText={t('common:actions.cancel')}
                    onConfirm={() => run(() => disable.mutateAsync(row.id), t('messages.disabled'))}
                  >
                    <Button size="small" icon={<StopOutlined />} data-testid="api-disable">
                      {t('actions.disable')}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button
                    size="small"
                    type="primary"
                    icon={<KeyOutlined />}
                    loading={enable.isPending && enable.variables === row.id}
                    onClick={() => onEnable(row)}
                    data-testid="api-enable"
                  >
                    {t('actions.enable')}
                  </Button>
                )}
                <Button
                  size="small"
                  icon={<SendOutlined />}
                  disabled={!row.enabled || !row.callback_url}
                  title={
                    !row.callback_url ? t('setup.needCallbackUrl') : !row.enabled ? t('setup.needEnabled') : undefined
                  }
                  loading={sendTest.isPending && sendTest.variables === row.id}
                  onClick={() => void run(() => sendTest.mutateAsync(row.id), t('messages.testQueued'))}
                  data-testid="api-send-test"
                >
                  {t('actions.sendTest')}
                </Button>
                <Link to={`/gd-api-callback?setting=${row.id}`}>
                  <Button size="small" icon={<HistoryOutlined />}>
                    {t('actions.deliveries')}
                  </Button>
                </Link>
                <Popconfirm
                  title={t('confirm.delete', { name: row.name })}
                  okText={t('common:actions.confirm')}
                  cancelText={t('common:actions.cancel')}
                  onConfirm={() => run(() => remove.mutateAsync(row.id), t('messages.deleted'))}
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
        width={720}
        title={editing === 'new' ? t('setup.addTitle') : t('setup.editTitle')}
        initialValues={
          current
            ? {
                name: current.name,
                callback_url: current.callback_url ?? '',
                headers: headerRows(current.http_headers),
                order_callback_enabled: current.order_callback_enabled,
                callback_events: current.callback_events,
                connection_id: current.connection_id,
                rate_limit_per_minute: current.rate_limit_per_minute,
                scope: current.scope,
              }
            : {
                order_callback_enabled: false,
                callback_events: [...CALLBACK_EVENTS],
                headers: [],
                connection_id: null,
                scope: 'read',
              }
        }
        onClose={() => setEditing(null)}
        onSubmit={(v) => {
          const body = {
            name: v.name,
            callback_url: v.callback_url?.trim() || null,
            order_callback_enabled: v.order_callback_enabled,
            callback_events: v.callback_events ?? [],
            connection_id: v.connection_id ?? null,
            scope: v.scope,
            ...(v.rate_limit_per_minute ? { rate_limit_per_minute: v.rate_limit_per_minute } : {}),
            ...(headersChanged(v.headers, current?.http_headers) ? { http_headers: headersOf(v.headers) } : {}),
          };
          return save.mutateAsync(current ? { id: current.id, body } : { body: { ...body, kind: 'partner' } });
        }}
      >
        {(form) => (
          <>
            <Form.Item name="name" label={t('fields.name')} rules={[zodRule('name', s.name)]}>
              <Input autoFocus />
            </Form.Item>
            <Form.Item name="scope" label={t('fields.scope')} extra={t('setup.scopeHint')}>
              <Radio.Group
                data-testid="api-scope-select"
                options={API_SCOPES.map((v) => ({ value: v, label: t(`scope.${v}`) }))}
              />
            </Form.Item>
            <Form.Item
              name="callback_url"
              label={t('fields.callbackUrl')}
              extra={t('setup.callbackUrlHint')}
              rules={[zodRule('callback_url', s.callback_url)]}
            >
              <Input placeholder={t('placeholders.callbackUrl')} inputMode="url" />
            </Form.Item>
            <Form.Item label={t('fields.httpHeaders')} extra={t('setup.headersHint')}>
              <HeadersEditor form={form} stored={current?.http_headers} />
            </Form.Item>
            <Form.Item name="order_callback_enabled" label={t('fields.orderCallback')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="callback_events" label={t('fields.callbackEvents')} extra={t('setup.eventsHint')}>
              <Checkbox.Group options={CALLBACK_EVENTS.map((e) => ({ value: e, label: t(eventKey(e)) }))} />
            </Form.Item>
            <Form.Item
              name="connection_id"
              label={t('fields.connection')}
              extra={
                <>
                  {t('setup.connectionHint')} <Link to="/gd-api-setup">{t('setup.manageConnections')}</Link>
                </>
              }
            >
              <Select
                loading={connections.isLoading}
                options={[
                  { value: null, label: t('setup.noConnection') },
                  ...(connections.data ?? []).map((c) => ({ value: c.id, label: c.name })),
                ]}
              />
            </Form.Item>
            <Form.Item
              name="rate_limit_per_minute"
              label={t('fields.rateLimit')}
              extra={t('setup.rateLimitHint')}
              rules={[zodRule('rate_limit_per_minute', s.rate_limit_per_minute)]}
            >
              <InputNumber min={1} max={6000} placeholder="120" style={{ width: 160 }} />
            </Form.Item>
          </>
        )}
      </CrudModal>
      <KeyIssuedModal issued={issued} onClose={() => setIssued(null)} />
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        <ApiOutlined /> <Link to="/api-docs">{t('actions.openApi')}</Link> ·{' '}
        <Link to="/user-manual/api-setting">{t('common:links.manual')}</Link>
      </Typography.Paragraph>
    </Space>
  );
}
