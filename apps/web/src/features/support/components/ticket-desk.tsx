import { UploadOutlined } from '@ant-design/icons';
import { SCREENSHOT_MAX_CHARS, type TTicket, type TTicketKind, ZCreateTicket } from '@wms/contracts';
import { App, Button, Card, Form, Image, Input, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MY_BUILD_ID } from '../../../shared/build/build-check';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { zodRule } from '../../../shared/forms/zod-rule';
import { DataTable } from '../../../shared/table/data-table';
import { fetchMyTickets, supportKeys, useCreateTicket } from '../api';
import { ManualSearch } from './manual-search';
import { TicketDrawer, TicketStatusTag } from './ticket-thread';
import '../i18n';

type TForm = { subject: string; body?: string; steps?: string; screen?: string };

/**
 * /user-help, /bug, /request: file a ticket of one kind, and follow the company's tickets of that kind with the
 * staff's answers. A bug report carries the steps, the screen the seller came from (`?from=`) and the app version.
 */
export function TicketDesk({ kind }: { kind: TTicketKind }) {
  const { t } = useTranslation(['support', 'common']);
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [form] = Form.useForm<TForm>();
  const create = useCreateTicket();
  const [open, setOpen] = useState<string | null>(null);
  const [screenshot, setScreenshot] = useState<string | null>(null);
  const s = ZCreateTicket.shape;

  /** Read the chosen image as a data URL (sent with the report; the server checks its bytes). */
  const pick = (file: File) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      if (url.length > SCREENSHOT_MAX_CHARS) void message.error(t('support:desk.bug.tooLarge'));
      else setScreenshot(url);
    };
    reader.readAsDataURL(file);
    return false;
  };

  const submit = async (values: TForm) => {
    try {
      const ticket = await create.mutateAsync({
        kind,
        subject: values.subject,
        body: values.body ?? '',
        ...(kind === 'bug'
          ? {
              steps: values.steps ?? '',
              screen: values.screen ?? '',
              app_version: MY_BUILD_ID,
              ...(screenshot ? { screenshot } : {}),
            }
          : {}),
      });
      form.resetFields();
      setScreenshot(null);
      void message.success(t('support:desk.filed'));
      setOpen(ticket.id);
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t(`support:desk.${kind}.title`)}>
        <Typography.Paragraph type="secondary">{t(`support:desk.${kind}.intro`)}</Typography.Paragraph>
        {kind === 'help' ? <ManualSearch /> : null}
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ screen: params.get('from') ?? '' }}
          style={{ maxWidth: 720 }}
          data-testid="ticket-form"
        >
          <Form.Item name="subject" label={t('support:fields.subject')} rules={[zodRule('subject', s.subject)]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="body" label={t(`support:desk.${kind}.bodyLabel`)}>
            <Input.TextArea rows={4} maxLength={10000} />
          </Form.Item>
          {kind === 'bug' ? (
            <>
              <Form.Item name="steps" label={t('support:fields.steps')}>
                <Input.TextArea rows={4} maxLength={10000} placeholder={t('support:desk.bug.stepsHint')} />
              </Form.Item>
              <Form.Item label={t('support:fields.screenshot')} extra={t('support:desk.bug.screenshotHint')}>
                <Space align="start">
                  <Upload accept="image/png,image/jpeg,image/webp" showUploadList={false} beforeUpload={pick}>
                    <Button icon={<UploadOutlined />} data-testid="screenshot-pick">
                      {t('support:desk.bug.pick')}
                    </Button>
                  </Upload>
                  {screenshot ? <Image src={screenshot} width={120} data-testid="screenshot-preview" /> : null}
                </Space>
              </Form.Item>
              <Form.Item name="screen" label={t('support:fields.screen')}>
                <Input maxLength={300} />
              </Form.Item>
              <Typography.Paragraph type="secondary">
                {t('support:fields.appVersion')}: {MY_BUILD_ID}
              </Typography.Paragraph>
            </>
          ) : null}
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="ticket-submit">
            {t('support:desk.submit')}
          </Button>
        </Form>
      </Card>
      <Card title={t('support:desk.mine')}>
        <DataTable<TTicket>
          queryKey={[...supportKeys.tickets, 'mine', kind]}
          fetchPage={(q, signal) => fetchMyTickets({ ...q, kind }, signal)}
          rowKey="id"
          columns={[
            {
              title: t('support:fields.subject'),
              dataIndex: 'subject',
              key: 'subject',
              sorter: true,
              render: (v: string, row) => (
                <Button type="link" style={{ paddingInline: 0 }} onClick={() => setOpen(row.id)}>
                  {v}
                </Button>
              ),
            },
            {
              title: t('support:fields.status'),
              dataIndex: 'status',
              key: 'status',
              sorter: true,
              render: (_: unknown, row) => <TicketStatusTag status={row.status} />,
              exportValue: (row) => t(`support:status.${row.status}`),
            },
            { title: t('support:fields.replies'), dataIndex: 'reply_count' },
            {
              title: t('support:fields.updatedAt'),
              dataIndex: 'updated_at',
              key: 'updated_at',
              sorter: true,
              render: (v: string) => formatDateTime(v),
            },
          ]}
        />
      </Card>
      <TicketDrawer side="seller" id={open} onClose={() => setOpen(null)} />
    </Space>
  );
}
