import { HistoryOutlined, RedoOutlined, SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { CALLBACK_DELIVERY_STATES, type TCallbackDelivery } from '@wms/contracts';
import { App, Button, Empty, Form, Popconfirm, Select, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import {
  apiSettingKeys,
  eventKey,
  fetchDeliveries,
  useApiSettings,
  useResendDelivery,
  useSendTestEvent,
} from '../../api';
import { AttemptsDrawer } from '../../components/attempts-drawer';
import '../../i18n';

const STATE_COLOR = { pending: 'gold', delivered: 'green', failed: 'red' } as const;
/** Deliveries change on their own (retries): the list refreshes while the screen is visible. */
const REFRESH_MS = 5000;

/** /gd-api-callback: the callback deliveries of one partner setting, their attempts, send again, send a test. */
export default function CallbackPage() {
  const { t } = useTranslation(['integrations', 'common']);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const settings = useApiSettings('partner');
  const [params, setParams] = useSearchParams();
  const [drawer, setDrawer] = useState<TCallbackDelivery | null>(null);
  const resend = useResendDelivery();
  const sendTest = useSendTestEvent();
  const withUrl = (settings.data ?? []).filter((s) => s.callback_url);
  const chosen = params.get('setting');
  const setting = withUrl.find((s) => s.id === chosen) ?? withUrl[0] ?? null;

  useEffect(() => {
    if (!setting) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible')
        void qc.invalidateQueries({ queryKey: apiSettingKeys.deliveries(setting.id) });
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [qc, setting]);

  if (settings.isLoading) return <Spin />;
  if (settings.isError) return <Empty description={errorText(settings.error)} />;
  if (!setting)
    return (
      <Empty description={t('callbacks.noSettings')} data-testid="callbacks-no-settings">
        <Link to="/module-api-setup">
          <Button type="primary">{t('callbacks.goSetup')}</Button>
        </Link>
      </Empty>
    );

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      void message.success(done);
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const eventLabel = (type: string) => t(eventKey(type), { defaultValue: type });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="callback-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 900 }}>
        {t('callbacks.intro')}
      </Typography.Paragraph>
      <Space wrap>
        <span id="callback-setting-label">{t('callbacks.setting')}</span>
        <Select
          aria-labelledby="callback-setting-label"
          style={{ minWidth: 280 }}
          value={setting.id}
          onChange={(id: string) => setParams({ setting: id })}
          options={withUrl.map((s) => ({ value: s.id, label: `${s.name} — ${s.callback_url}` }))}
          data-testid="callback-setting"
        />
        <Tag color={setting.enabled ? 'green' : 'default'}>
          {setting.enabled ? t('state.enabled') : t('state.disabled')}
        </Tag>
      </Space>
      <DataTable<TCallbackDelivery>
        key={setting.id}
        queryKey={apiSettingKeys.deliveries(setting.id)}
        fetchPage={fetchDeliveries(setting.id)}
        rowKey="id"
        noSearch
        initialPageSize={25}
        excel={{ fileName: 'callback-deliveries' }}
        filters={
          <Form.Item name="state" label={t('callbacks.filterState')}>
            <Select
              allowClear
              placeholder={t('callbacks.allStates')}
              style={{ minWidth: 160 }}
              options={CALLBACK_DELIVERY_STATES.map((s) => ({ value: s, label: t(`callbacks.states.${s}`) }))}
              data-testid="callback-state-filter"
            />
          </Form.Item>
        }
        toolbar={
          <Button
            icon={<SendOutlined />}
            disabled={!setting.enabled}
            title={!setting.enabled ? t('setup.needEnabled') : undefined}
            loading={sendTest.isPending}
            onClick={() => void run(() => sendTest.mutateAsync(setting.id), t('messages.testQueued'))}
            data-testid="callback-send-test"
          >
            {t('actions.sendTest')}
          </Button>
        }
        columns={[
          {
            title: t('callbacks.time'),
            dataIndex: 'created_at',
            render: (v: string) => formatDateTime(v),
            exportValue: (r) => formatDateTime(r.created_at),
          },
          {
            title: t('callbacks.eventType'),
            dataIndex: 'event_type',
            render: (v: string) => eventLabel(v),
            exportValue: (r) => r.event_type,
          },
          { title: t('callbacks.orderNumber'), dataIndex: 'order_number', render: (v: string | null) => v ?? '—' },
          {
            title: t('callbacks.deliveryState'),
            dataIndex: 'state',
            render: (v: TCallbackDelivery['state']) => (
              <Tag color={STATE_COLOR[v]} data-testid="delivery-state">
                {t(`callbacks.states.${v}`)}
              </Tag>
            ),
            exportValue: (r) => t(`callbacks.states.${r.state}`),
          },
          { title: t('callbacks.attempts'), dataIndex: 'attempts', align: 'right' },
          {
            title: t('callbacks.lastStatus'),
            dataIndex: 'last_status',
            render: (v: number | null, r) =>
              v === null ? (
                r.last_error ? (
                  <Typography.Text type="danger" ellipsis={{ tooltip: r.last_error }} style={{ maxWidth: 160 }}>
                    {r.last_error}
                  </Typography.Text>
                ) : (
                  '—'
                )
              ) : (
                <Tag color={v >= 200 && v < 300 ? 'green' : 'red'}>{v}</Tag>
              ),
          },
          {
            title: t('callbacks.latency'),
            dataIndex: 'last_duration_ms',
            align: 'right',
            render: (v: number | null) => (v === null ? '—' : t('callbacks.ms', { ms: v })),
          },
          {
            title: t('callbacks.response'),
            dataIndex: 'last_response',
            render: (v: string | null) =>
              v ? (
                <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>
                  {v}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          {
            title: t('callbacks.nextRetry'),
            dataIndex: 'next_attempt_at',
            render: (v: string | null, r) => (v && r.state === 'pending' ? formatDateTime(v) : '—'),
            exportValue: (r) => (r.next_attempt_at ? formatDateTime(r.next_attempt_at) : ''),
          },
          {
            title: t('fields.actions'),
            key: 'actions',
            noExport: true,
            render: (_, row) => (
              <Space size="small">
                <Button
                  size="small"
                  icon={<HistoryOutlined />}
                  onClick={() => setDrawer(row)}
                  data-testid="delivery-attempts"
                >
                  {t('actions.attempts')}
                </Button>
                <Popconfirm
                  title={t('confirm.resend')}
                  okText={t('common:actions.confirm')}
                  cancelText={t('common:actions.cancel')}
                  onConfirm={() =>
                    run(() => resend.mutateAsync({ id: setting.id, deliveryId: row.id }), t('messages.resent'))
                  }
                >
                  <Button
                    size="small"
                    icon={<RedoOutlined />}
                    disabled={!setting.enabled}
                    data-testid="delivery-resend"
                  >
                    {t('actions.resend')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <AttemptsDrawer delivery={drawer} onClose={() => setDrawer(null)} />
    </Space>
  );
}
