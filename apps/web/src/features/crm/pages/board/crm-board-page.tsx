import { DeleteOutlined, EditOutlined, PlusOutlined, PushpinFilled } from '@ant-design/icons';
import { crmSupportRoutes, type TAnnouncement, TICKET_KINDS, TICKET_STATUSES, type TTicket } from '@wms/contracts';
import { App, Button, Card, DatePicker, Form, Input, Modal, Popconfirm, Radio, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchAllTickets, supportKeys } from '../../../support/api';
import { TicketDrawer, TicketStatusTag } from '../../../support/components/ticket-thread';
import { crmReads, useCustomerOptions } from '../../api';

type TForm = {
  title: string;
  body?: string;
  audience: 'all' | 'chosen';
  customer_ids?: string[];
  window?: [Dayjs | null, Dayjs | null];
  pinned?: boolean;
};

function AnnouncementModal({ editing, onClose }: { editing: TAnnouncement | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('crm');
  const { message } = App.useApp();
  const [form] = Form.useForm<TForm>();
  const save = useSaveRoute(crmSupportRoutes.createAnnouncement, crmSupportRoutes.updateAnnouncement, {
    invalidates: crmReads,
  });
  const customers = useCustomerOptions();
  const audience = Form.useWatch('audience', form);
  const current = editing && editing !== 'new' ? editing : null;
  const submit = async (v: TForm) => {
    try {
      await save.mutateAsync({
        id: current?.id,
        body: {
          title: v.title,
          body: v.body ?? '',
          audience: v.audience,
          customer_ids: v.audience === 'chosen' ? (v.customer_ids ?? []) : [],
          starts_at: (v.window?.[0] ?? dayjs()).toISOString(),
          ends_at: v.window?.[1] ? v.window[1].toISOString() : null,
          pinned: !!v.pinned,
        },
      });
      void message.success(t('board.saved'));
      onClose();
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  return (
    <Modal
      open={editing !== null}
      title={current ? t('board.edit') : t('board.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={720}
      okButtonProps={{ 'data-testid': 'announcement-save' } as Record<`data-${string}`, string>}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={
          current
            ? {
                ...current,
                window: [dayjs(current.starts_at), current.ends_at ? dayjs(current.ends_at) : null],
              }
            : { audience: 'all', pinned: false }
        }
      >
        <Form.Item
          name="title"
          label={t('board.titleField')}
          rules={[{ required: true, whitespace: true, message: t('board.titleRequired') }]}
        >
          <Input maxLength={200} data-testid="announcement-title" />
        </Form.Item>
        <Form.Item name="body" label={t('board.body')} extra={t('board.bodyHint')}>
          <Input.TextArea rows={6} maxLength={20000} data-testid="announcement-body" />
        </Form.Item>
        <Form.Item name="audience" label={t('board.audience')}>
          <Radio.Group
            options={[
              { value: 'all', label: t('board.allSellers') },
              { value: 'chosen', label: t('board.chosenSellers') },
            ]}
          />
        </Form.Item>
        {audience === 'chosen' ? (
          <Form.Item
            name="customer_ids"
            label={t('board.sellers')}
            rules={[{ required: true, message: t('board.sellersRequired') }]}
          >
            <Select mode="multiple" optionFilterProp="label" options={customers.data ?? []} />
          </Form.Item>
        ) : null}
        <Form.Item name="window" label={t('board.window')}>
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item name="pinned" label={t('board.pinned')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** /crm/board: the operator's announcements to sellers, and the support queue below. */
export default function CrmBoardPage() {
  const { t } = useTranslation(['crm', 'support']);
  const { message } = App.useApp();
  const [editing, setEditing] = useState<TAnnouncement | 'new' | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const remove = useRouteMutation(crmSupportRoutes.deleteAnnouncement, { invalidates: crmReads });
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('crm:board.announcements')}>
        <DataTable<TAnnouncement>
          {...routePage(crmSupportRoutes.listAnnouncements)}
          rowKey="id"
          toolbar={
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="announcement-add"
            >
              {t('crm:board.add')}
            </Button>
          }
          columns={[
            {
              title: t('crm:board.titleField'),
              dataIndex: 'title',
              render: (v: string, r) => (
                <Space>
                  {r.pinned ? <PushpinFilled style={{ color: '#fa541c' }} /> : null}
                  {v}
                </Space>
              ),
            },
            {
              title: t('crm:board.audience'),
              key: 'audience',
              render: (_: unknown, r) =>
                r.audience === 'all'
                  ? t('crm:board.allSellers')
                  : t('crm:board.chosenCount', { count: r.customer_ids.length }),
            },
            {
              title: t('crm:board.window'),
              key: 'window',
              render: (_: unknown, r) =>
                `${formatDateTime(r.starts_at)} – ${r.ends_at ? formatDateTime(r.ends_at) : ''}`,
            },
            { title: t('crm:board.acks'), dataIndex: 'ack_count' },
            {
              key: 'actions',
              noExport: true,
              render: (_: unknown, r) => (
                <Space>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => setEditing(r)}
                    aria-label={t('crm:board.edit')}
                  />
                  <Popconfirm
                    title={t('crm:board.deleteConfirm')}
                    onConfirm={() =>
                      remove.mutateAsync({ params: { id: r.id } }).catch((err) => message.error(errorText(err)))
                    }
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('crm:board.delete')} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('crm:board.queue')}>
        <DataTable<TTicket>
          queryKey={[...supportKeys.tickets, 'all']}
          fetchPage={fetchAllTickets}
          rowKey="id"
          searchPlaceholder={t('crm:board.ticketSearch')}
          excel={{ fileName: 'tickets' }}
          filters={
            <>
              <Form.Item name="status">
                <Select
                  allowClear
                  placeholder={t('support:fields.status')}
                  style={{ width: 170 }}
                  options={TICKET_STATUSES.map((s) => ({ value: s, label: t(`support:status.${s}`) }))}
                />
              </Form.Item>
              <Form.Item name="kind">
                <Select
                  allowClear
                  placeholder={t('support:fields.kind')}
                  style={{ width: 150 }}
                  options={TICKET_KINDS.map((k) => ({ value: k, label: t(`support:kind.${k}`) }))}
                />
              </Form.Item>
            </>
          }
          columns={[
            {
              title: t('support:fields.subject'),
              dataIndex: 'subject',
              key: 'subject',
              sorter: true,
              render: (v: string, r) => (
                <Button
                  type="link"
                  style={{ paddingInline: 0 }}
                  onClick={() => setOpen(r.id)}
                  data-testid="ticket-open"
                >
                  {v}
                </Button>
              ),
            },
            { title: t('support:fields.customer'), dataIndex: 'customer_name', key: 'customer_name', sorter: true },
            {
              title: t('support:fields.kind'),
              dataIndex: 'kind',
              key: 'kind',
              sorter: true,
              render: (v: TTicket['kind']) => t(`support:kind.${v}`),
            },
            {
              title: t('support:fields.status'),
              dataIndex: 'status',
              key: 'status',
              sorter: true,
              render: (_: unknown, r) => <TicketStatusTag status={r.status} />,
              exportValue: (r) => t(`support:status.${r.status}`),
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
      <AnnouncementModal editing={editing} onClose={() => setEditing(null)} />
      <TicketDrawer side="staff" id={open} onClose={() => setOpen(null)} />
    </Space>
  );
}
