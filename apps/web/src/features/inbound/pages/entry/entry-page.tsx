import { PlusOutlined } from '@ant-design/icons';
import { INBOUND_CATEGORIES, INBOUND_STATUSES, inboundRoutes, type TInboundReceipt } from '@wms/contracts';
import { App, Button, Card, DatePicker, Drawer, Form, Popconfirm, Select, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { routePage, useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { inboundAndStock, inboundReads } from '../../api';
import { ReceiptFormModal, type TReceiptDraft } from '../../components/receipt-form';
import { StatusTag } from '../../components/status-tag';
import '../../i18n';

/** List filters as the form holds them → the query the server takes (planned-date range → date_from/date_to). */
export function toReceiptQuery(q: TTableQuery): TTableQuery {
  const { range, ...rest } = q as TTableQuery & { range?: [Dayjs, Dayjs] | null };
  return { ...rest, date_from: range?.[0]?.format('YYYY-MM-DD'), date_to: range?.[1]?.format('YYYY-MM-DD') };
}

/** The filter fields of the receipt list, shared with /entry-export. */
export function ReceiptFilters() {
  const { t } = useTranslation('inbound');
  return (
    <>
      <Form.Item name="status">
        <Select
          allowClear
          placeholder={t('field.status')}
          aria-label={t('field.status')}
          style={{ minWidth: 130 }}
          options={INBOUND_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="category">
        <Select
          allowClear
          placeholder={t('field.category')}
          aria-label={t('field.category')}
          style={{ minWidth: 120 }}
          options={INBOUND_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
        />
      </Form.Item>
      <Form.Item name="warehouse_id">
        <WarehouseSelect allowClear placeholder={t('field.warehouse')} aria-label={t('field.warehouse')} />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker aria-label={t('field.plannedDate')} />
      </Form.Item>
    </>
  );
}

function ReceiptDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('inbound');
  const receipt = useRoute(inboundRoutes.getReceipt, id ? { params: { id } } : null);
  const r = receipt.data;
  return (
    <Drawer open={!!id} onClose={onClose} size="large" title={r ? `${r.number}` : ''} data-testid="receipt-drawer">
      {r ? (
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={r.lines}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '#', dataIndex: 'line_no' },
            { title: t('field.product'), render: (_, l) => `${l.product_number} ${l.product_name}` },
            { title: t('field.quantity'), dataIndex: 'quantity', align: 'right' },
            { title: t('field.expiry'), dataIndex: 'expiry_date' },
            { title: t('field.accepted'), dataIndex: 'accepted_quantity', align: 'right' },
            { title: t('field.defective'), dataIndex: 'defective_quantity', align: 'right' },
            { title: t('field.good'), dataIndex: 'good_quantity', align: 'right' },
            { title: t('field.difference'), dataIndex: 'difference', align: 'right' },
            { title: t('field.location'), dataIndex: 'location_code' },
            { title: t('field.defectiveLocation'), dataIndex: 'defective_location_code' },
          ]}
        />
      ) : null}
    </Drawer>
  );
}

/** /entry: inbound receipts — create, edit, delete, confirm (in /entry-confirm), cancel a confirmation, print. */
export default function EntryPage() {
  const { t, i18n } = useTranslation(['inbound', 'nav', 'common']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  // /purchase-advice hands over a draft (warehouse and lines) in the navigation state: the form opens with it.
  const location = useLocation();
  const [draft] = useState(() => (location.state as { receiptDraft?: TReceiptDraft } | null)?.receiptDraft ?? null);
  const [editing, setEditing] = useState<TInboundReceipt | 'new' | null>(draft ? 'new' : null);
  useEffect(() => {
    if (draft) void navigate(location.pathname + location.search, { replace: true, state: null });
  }, [draft, navigate, location.pathname, location.search]);
  const [viewing, setViewing] = useState<string | null>(null);
  const editingId = editing && editing !== 'new' ? editing.id : undefined;
  const detail = useRoute(inboundRoutes.getReceipt, editingId ? { params: { id: editingId } } : null);
  const remove = useRouteMutation(inboundRoutes.deleteReceipt, { invalidates: inboundReads });
  const cancel = useRouteMutation(inboundRoutes.cancelConfirmation, { invalidates: inboundAndStock });
  const act = (p: Promise<unknown>, ok: string) =>
    p.then(() => void message.success(ok)).catch((err) => void message.error(errorText(err)));
  return (
    <Card title={screenTitle('/entry')}>
      <DataTable<TInboundReceipt>
        {...routePage(inboundRoutes.listReceipts, {}, toReceiptQuery)}
        rowKey="id"
        excel={{ fileName: 'inbound-receipts' }}
        searchPlaceholder={t('list.search')}
        filters={<ReceiptFilters />}
        urlFilters={['status', 'category', 'warehouse_id', 'search']}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="new-receipt">
            {t('list.new')}
          </Button>
        }
        columns={[
          {
            title: t('field.number'),
            dataIndex: 'number',
            key: 'number',
            sorter: true,
            render: (n: string, r) => (
              <Button type="link" size="small" onClick={() => setViewing(r.id)} style={{ padding: 0 }}>
                {n}
              </Button>
            ),
            exportValue: (r) => r.number,
          },
          {
            title: t('field.category'),
            dataIndex: 'category',
            render: (c: TInboundReceipt['category']) => t(`category.${c}`),
            exportValue: (r) => t(`category.${r.category}`),
          },
          { title: t('field.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('field.plannedDate'), dataIndex: 'planned_date', key: 'planned_date', sorter: true },
          {
            title: t('field.status'),
            dataIndex: 'status',
            key: 'status',
            sorter: true,
            render: (s: TInboundReceipt['status']) => <StatusTag status={s} />,
            exportValue: (r) => t(`status.${r.status}`),
          },
          { title: t('field.lines'), dataIndex: 'line_count', align: 'right' },
          { title: t('field.quantity'), dataIndex: 'total_quantity', align: 'right' },
          { title: t('field.accepted'), dataIndex: 'total_accepted', align: 'right' },
          { title: t('field.good'), dataIndex: 'total_good', align: 'right' },
          { title: t('field.defective'), dataIndex: 'total_defective', align: 'right' },
          { title: t('field.remark'), dataIndex: 'remark' },
          {
            title: t('field.createdAt'),
            dataIndex: 'created_at',
            key: 'created_at',
            sorter: true,
            render: (v: string) => formatDateTime(v, i18n.language),
            exportValue: (r) => formatDateTime(r.created_at, i18n.language),
          },
          {
            title: t('list.actions'),
            key: 'actions',
            noExport: true,
            render: (_, r) => (
              <Space size={4} wrap>
                {r.status !== 'confirmed' ? (
                  <Button size="small" onClick={() => setEditing(r)}>
                    {t('list.edit')}
                  </Button>
                ) : null}
                {r.status !== 'confirmed' ? (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => void navigate(`/entry-confirm?id=${r.id}`)}
                    data-testid="go-confirm"
                  >
                    {t('list.confirm')}
                  </Button>
                ) : null}
                {r.status === 'pending' ? (
                  <Popconfirm
                    title={t('list.deleteAsk', { number: r.number })}
                    onConfirm={() => act(remove.mutateAsync({ params: { id: r.id } }), t('list.deleted'))}
                  >
                    <Button size="small" danger>
                      {t('list.delete')}
                    </Button>
                  </Popconfirm>
                ) : null}
                {r.status === 'confirmed' ? (
                  <Popconfirm
                    title={t('list.cancelAsk', { number: r.number })}
                    onConfirm={() => act(cancel.mutateAsync({ params: { id: r.id } }), t('list.cancelled'))}
                  >
                    <Button size="small">{t('list.cancelConfirmation')}</Button>
                  </Popconfirm>
                ) : null}
                <Button size="small" href={`/entry-print/${r.id}`} target="_blank">
                  {t('list.print')}
                </Button>
                <Button size="small" href={`/entry-qrcode/${r.id}`} target="_blank">
                  {t('list.qr')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing === 'new' || (editing && detail.data) ? (
        <ReceiptFormModal
          open
          receipt={editing === 'new' ? null : detail.data}
          draft={editing === 'new' ? draft : null}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ReceiptDrawer id={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
