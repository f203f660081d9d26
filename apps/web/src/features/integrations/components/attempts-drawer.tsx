import type { TCallbackDelivery, TIntegrationAttempt } from '@wms/contracts';
import { Alert, Collapse, Descriptions, Drawer, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { eventKey, useDeliveryAttempts } from '../api';
import '../i18n';

function statusTag(a: Pick<TIntegrationAttempt, 'status' | 'error'>) {
  if (a.status === null) return <Tag color="red">{a.error ?? '—'}</Tag>;
  return <Tag color={a.status >= 200 && a.status < 300 ? 'green' : 'red'}>{a.status}</Tag>;
}

function Pre({ text }: { text: string | null }) {
  if (!text) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 240, overflow: 'auto' }}>
      {text}
    </pre>
  );
}

/** The recorded HTTP attempts of one callback delivery (secrets masked by the server), oldest first. */
export function AttemptsDrawer(props: { delivery: TCallbackDelivery | null; onClose: () => void }) {
  const { t } = useTranslation('integrations');
  const d = props.delivery;
  const attempts = useDeliveryAttempts(d?.id ?? null);
  const rows = [...(attempts.data?.results ?? [])].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.attempt - b.attempt,
  );
  const eventLabel = d ? t(eventKey(d.event_type), { defaultValue: d.event_type }) : '';
  return (
    <Drawer
      open={d !== null}
      onClose={props.onClose}
      size={720}
      title={t('callbacks.drawerTitle', { event: eventLabel })}
      destroyOnHidden
    >
      {d ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="attempts-drawer">
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label={t('callbacks.deliveryId')}>
              <Typography.Text copyable>{d.id}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('callbacks.eventId')}>
              <Typography.Text copyable>{d.event_id}</Typography.Text>
            </Descriptions.Item>
            {d.order_number ? (
              <Descriptions.Item label={t('callbacks.orderNumber')}>{d.order_number}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('callbacks.deliveryState')}>
              {t(`callbacks.states.${d.state}`)}
              {d.delivered_at ? ` · ${formatDateTime(d.delivered_at)}` : ''}
            </Descriptions.Item>
            {d.next_attempt_at ? (
              <Descriptions.Item label={t('callbacks.nextRetry')}>
                {formatDateTime(d.next_attempt_at)}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {attempts.isError ? <Alert type="error" showIcon title={errorText(attempts.error)} /> : null}
          {attempts.isLoading ? <Spin /> : null}
          {attempts.data && rows.length === 0 ? <Empty description={t('callbacks.noAttempts')} /> : null}
          {rows.length ? (
            <Collapse
              data-testid="attempts-list"
              defaultActiveKey={[String(rows.at(-1)?.id)]}
              items={rows.map((a, i) => ({
                key: String(a.id),
                label: (
                  <Space wrap>
                    <strong>{t('callbacks.attempt', { n: i + 1 })}</strong>
                    <span>{formatDateTime(a.created_at)}</span>
                    {statusTag(a)}
                    <span>{t('callbacks.ms', { ms: a.duration_ms })}</span>
                  </Space>
                ),
                children: (
                  <Descriptions size="small" column={1} bordered>
                    <Descriptions.Item label={t('callbacks.request')}>
                      <Typography.Text code>{`${a.method} ${a.url}`}</Typography.Text>
                    </Descriptions.Item>
                    <Descriptions.Item label={t('callbacks.requestHeaders')}>
                      <Pre
                        text={
                          a.request_headers
                            ? Object.entries(a.request_headers)
                                .map(([k, v]) => `${k}: ${v}`)
                                .join('\n')
                            : null
                        }
                      />
                    </Descriptions.Item>
                    <Descriptions.Item label={t('callbacks.requestBody')}>
                      <Pre text={a.request_body} />
                    </Descriptions.Item>
                    {a.error ? (
                      <Descriptions.Item label={t('callbacks.lastError')}>
                        <Pre text={a.error} />
                      </Descriptions.Item>
                    ) : null}
                    <Descriptions.Item label={t('callbacks.responseBody')}>
                      <Pre text={a.response_body} />
                    </Descriptions.Item>
                  </Descriptions>
                ),
              }))}
            />
          ) : null}
        </Space>
      ) : null}
    </Drawer>
  );
}
