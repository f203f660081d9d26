import { TICKET_STATUSES, type TTicketDetail, type TTicketStatus } from '@wms/contracts';
import { App, Button, Descriptions, Drawer, Form, Image, Input, List, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { useReply, useSetTicketStatus, useTicket } from '../api';
import '../i18n';

export const STATUS_COLOR: Record<TTicketStatus, string> = {
  new: 'red',
  in_progress: 'blue',
  waiting: 'gold',
  done: 'green',
};

export function TicketStatusTag({ status }: { status: TTicketStatus }) {
  const { t } = useTranslation('support');
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={`ticket-status-${status}`}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** One ticket with its thread and the answer box: the seller's view, or the staff's (with the status). */
export function TicketDrawer({
  side,
  id,
  onClose,
}: {
  side: 'seller' | 'staff';
  id: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['support', 'common']);
  const { message } = App.useApp();
  const ticket = useTicket(side, id);
  const reply = useReply(side);
  const setStatus = useSetTicketStatus();
  const [form] = Form.useForm<{ body: string; status?: TTicketStatus }>();
  const d: TTicketDetail | undefined = ticket.data;

  const send = async (values: { body: string; status?: TTicketStatus }) => {
    try {
      await reply.mutateAsync({ id: id!, body: values });
      form.resetFields();
      void message.success(t('support:thread.sent'));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Drawer open={!!id} onClose={onClose} size="large" title={d?.subject} destroyOnHidden data-testid="ticket-drawer">
      {d ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('support:fields.status')}>
              {side === 'staff' ? (
                <Select<TTicketStatus>
                  value={d.status}
                  style={{ width: 200 }}
                  data-testid="ticket-status-select"
                  options={TICKET_STATUSES.map((s) => ({ value: s, label: t(`support:status.${s}`) }))}
                  onChange={(status) =>
                    setStatus.mutateAsync({ id: d.id, status }).catch((err) => message.error(errorText(err)))
                  }
                />
              ) : (
                <TicketStatusTag status={d.status} />
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('support:fields.kind')}>{t(`support:kind.${d.kind}`)}</Descriptions.Item>
            {side === 'staff' ? (
              <Descriptions.Item label={t('support:fields.customer')}>{d.customer_name}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('support:fields.author')}>
              {d.created_by_name} · {formatDateTime(d.created_at)}
            </Descriptions.Item>
            {d.screen ? <Descriptions.Item label={t('support:fields.screen')}>{d.screen}</Descriptions.Item> : null}
            {d.app_version ? (
              <Descriptions.Item label={t('support:fields.appVersion')}>{d.app_version}</Descriptions.Item>
            ) : null}
          </Descriptions>
          {d.body ? <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{d.body}</Typography.Paragraph> : null}
          {d.steps ? (
            <>
              <Typography.Text strong>{t('support:fields.steps')}</Typography.Text>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{d.steps}</Typography.Paragraph>
            </>
          ) : null}
          {d.screenshot ? (
            <Image src={d.screenshot} style={{ maxWidth: '100%', maxHeight: 360 }} data-testid="ticket-screenshot" />
          ) : null}
          <List
            header={<Typography.Text strong>{t('support:thread.title')}</Typography.Text>}
            dataSource={d.replies}
            locale={{ emptyText: t('support:thread.empty') }}
            data-testid="ticket-replies"
            renderItem={(r) => (
              <List.Item>
                <List.Item.Meta
                  title={
                    <Space>
                      <Tag color={r.side === 'staff' ? 'geekblue' : 'default'}>{t(`support:side.${r.side}`)}</Tag>
                      {r.author_name}
                      <Typography.Text type="secondary">{formatDateTime(r.created_at)}</Typography.Text>
                    </Space>
                  }
                  description={<span style={{ whiteSpace: 'pre-wrap' }}>{r.body}</span>}
                />
              </List.Item>
            )}
          />
          <Form form={form} layout="vertical" onFinish={send}>
            <Form.Item
              name="body"
              label={t('support:thread.reply')}
              rules={[{ required: true, whitespace: true, message: t('support:thread.replyRequired') }]}
            >
              <Input.TextArea rows={4} maxLength={10000} data-testid="ticket-reply-input" />
            </Form.Item>
            {side === 'staff' ? (
              <Form.Item name="status" label={t('support:thread.statusAfter')} initialValue="waiting">
                <Select options={TICKET_STATUSES.map((s) => ({ value: s, label: t(`support:status.${s}`) }))} />
              </Form.Item>
            ) : null}
            <Button type="primary" htmlType="submit" loading={reply.isPending} data-testid="ticket-reply-send">
              {t('support:thread.send')}
            </Button>
          </Form>
        </Space>
      ) : null}
    </Drawer>
  );
}
