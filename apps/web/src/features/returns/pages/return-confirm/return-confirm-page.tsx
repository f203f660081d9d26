import { RETURN_STATUSES, type TReturnReceipt, type TReturnReceiptDetail } from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../../shared/forms/error-text';
import { LocationSelect } from '../../../../shared/pickers/location-select';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchReturns, returnKeys, useCancelReturnConfirmation, useConfirmReturn, useReturn } from '../../api';
import { ReturnStatusTag, useReturnLabels } from '../../components/labels';
import '../../i18n';

interface TLineEntry {
  accepted: number;
  defective: number;
  location_id?: string;
  defective_location_id?: string;
  expiry?: Dayjs | null;
}

function ConfirmPanel({ receipt }: { receipt: TReturnReceiptDetail }) {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const confirm = useConfirmReturn();
  const cancel = useCancelReturnConfirmation();
  const [entries, setEntries] = useState<Record<string, TLineEntry>>({});
  const [error, setError] = useState<string | null>(null);
  const editable = receipt.actions.includes('confirm');

  useEffect(() => {
    setEntries(
      Object.fromEntries(
        receipt.lines.map((l) => [
          l.id,
          {
            accepted: l.accepted_quantity ?? l.quantity,
            defective: l.defective_quantity ?? 0,
            location_id: l.location_id ?? undefined,
            defective_location_id: l.defective_location_id ?? undefined,
            expiry: l.expiry_date ? dayjs(l.expiry_date) : null,
          },
        ]),
      ),
    );
    setError(null);
  }, [receipt]);

  const patch = (id: string, p: Partial<TLineEntry>) => setEntries((m) => ({ ...m, [id]: { ...m[id]!, ...p } }));
  const setAll = (p: Partial<TLineEntry>) =>
    setEntries((m) => Object.fromEntries(Object.entries(m).map(([id, e]) => [id, { ...e, ...p }])));

  const onConfirm = async () => {
    setError(null);
    try {
      await confirm.mutateAsync({
        id: receipt.id,
        body: {
          lines: receipt.lines.map((l) => {
            const e = entries[l.id]!;
            return {
              line_id: l.id,
              accepted_quantity: e.accepted,
              defective_quantity: e.defective,
              good_quantity: e.accepted - e.defective,
              location_id: e.accepted - e.defective > 0 ? (e.location_id ?? null) : null,
              defective_location_id: e.defective > 0 ? (e.defective_location_id ?? null) : null,
              expiry_date: e.expiry ? e.expiry.format('YYYY-MM-DD') : null,
            };
          }),
        },
      });
      void message.success(t('confirm.done', { number: receipt.number }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const onCancel = async () => {
    setError(null);
    try {
      await cancel.mutateAsync(receipt.id);
      void message.success(t('confirm.cancelled', { number: receipt.number }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Card
      title={
        <Space>
          {t('confirm.title', { number: receipt.number })}
          <ReturnStatusTag status={receipt.status} />
        </Space>
      }
      data-testid="return-confirm-panel"
    >
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('fields.category')}>{labels.category(receipt.category)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.warehouse')}>{receipt.warehouse_code}</Descriptions.Item>
        <Descriptions.Item label={t('fields.plannedDate')}>{receipt.planned_date}</Descriptions.Item>
        <Descriptions.Item label={t('fields.orderNumber')}>
          {receipt.order_number || '—'}
          {receipt.order_status ? ` (${t(`orderStatuses.${receipt.order_status as 'closed'}`)})` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.consignmentNumber')}>{receipt.consignment_number || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('fields.remark')}>{receipt.remark || '—'}</Descriptions.Item>
      </Descriptions>
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="form-error" />
      ) : null}
      {editable ? (
        <Space wrap style={{ marginBottom: 12 }}>
          <span>{t('confirm.allGoodTo')}</span>
          <LocationSelect
            warehouseId={receipt.warehouse_id}
            kind="sellable"
            style={{ width: 200 }}
            onChange={(v) => setAll({ location_id: v })}
            data-testid="confirm-all-location"
          />
          <span>{t('confirm.allDefectiveTo')}</span>
          <LocationSelect
            warehouseId={receipt.warehouse_id}
            kind="defective"
            style={{ width: 200 }}
            onChange={(v) => setAll({ defective_location_id: v })}
            data-testid="confirm-all-defective-location"
          />
        </Space>
      ) : null}
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={receipt.lines}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '#', dataIndex: 'line_no', width: 48 },
          { title: t('fields.product'), render: (_, l) => `${l.product_number} ${l.product_name}` },
          { title: t('fields.expected'), dataIndex: 'quantity', align: 'right' },
          {
            title: t('fields.expiryDate'),
            render: (_, l) =>
              editable && l.has_shelf_life ? (
                <DatePicker
                  value={entries[l.id]?.expiry ?? null}
                  onChange={(d) => patch(l.id, { expiry: d })}
                  aria-label={`${t('fields.expiryDate')} ${l.line_no}`}
                />
              ) : (
                (l.expiry_date ?? '—')
              ),
          },
          {
            title: t('fields.acceptedQuantity'),
            render: (_, l) =>
              editable ? (
                <InputNumber
                  min={0}
                  precision={0}
                  value={entries[l.id]?.accepted}
                  onChange={(v) => patch(l.id, { accepted: Number(v ?? 0) })}
                  data-testid={`confirm-accepted-${l.line_no}`}
                />
              ) : (
                l.accepted_quantity
              ),
          },
          {
            title: t('fields.defectiveQuantity'),
            render: (_, l) =>
              editable ? (
                <InputNumber
                  min={0}
                  precision={0}
                  value={entries[l.id]?.defective}
                  onChange={(v) => patch(l.id, { defective: Number(v ?? 0) })}
                  data-testid={`confirm-defective-${l.line_no}`}
                />
              ) : (
                l.defective_quantity
              ),
          },
          {
            title: t('fields.goodQuantity'),
            align: 'right',
            render: (_, l) => {
              const e = entries[l.id];
              return editable && e ? e.accepted - e.defective : l.good_quantity;
            },
          },
          {
            title: t('fields.location'),
            render: (_, l) =>
              editable ? (
                <LocationSelect
                  warehouseId={receipt.warehouse_id}
                  kind="sellable"
                  style={{ width: 180 }}
                  value={entries[l.id]?.location_id}
                  onChange={(v) => patch(l.id, { location_id: v })}
                  aria-label={`${t('fields.location')} ${l.line_no}`}
                />
              ) : (
                (l.location_code ?? '—')
              ),
          },
          {
            title: t('fields.defectiveLocation'),
            render: (_, l) =>
              editable ? (
                <LocationSelect
                  warehouseId={receipt.warehouse_id}
                  kind="defective"
                  allowClear
                  style={{ width: 180 }}
                  value={entries[l.id]?.defective_location_id}
                  onChange={(v) => patch(l.id, { defective_location_id: v })}
                  aria-label={`${t('fields.defectiveLocation')} ${l.line_no}`}
                />
              ) : (
                (l.defective_location_code ?? '—')
              ),
          },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        {editable ? (
          <Button
            type="primary"
            loading={confirm.isPending}
            onClick={() => void onConfirm()}
            data-testid="return-confirm-submit"
          >
            {t('confirm.submit')}
          </Button>
        ) : null}
        {receipt.actions.includes('cancel') ? (
          <Popconfirm
            title={t('confirm.cancelConfirm')}
            okText={t('common:actions.confirm')}
            cancelText={t('common:actions.cancel')}
            onConfirm={() => onCancel()}
          >
            <Button danger loading={cancel.isPending} data-testid="return-cancel-confirmation">
              {t('confirm.cancelConfirmation')}
            </Button>
          </Popconfirm>
        ) : null}
        <Button onClick={() => window.open(`/return-print/${receipt.id}`, '_blank')}>{t('list.print')}</Button>
      </Space>
    </Card>
  );
}

/** /return-confirm: accepted, defective and good quantities per line into sellable and defective locations. */
export default function ReturnConfirmPage() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const receipt = useReturn(id);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {id && receipt.data ? <ConfirmPanel receipt={receipt.data} /> : null}
      {id && receipt.isError ? <Alert type="error" showIcon title={errorText(receipt.error)} /> : null}
      <DataTable<TReturnReceipt>
        queryKey={returnKeys.receipts}
        fetchPage={(q, signal) => fetchReturns({ ...q, status: q.status ?? 'pending' }, signal)}
        rowKey="id"
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <Form.Item name="status">
            <Select
              placeholder={labels.status('pending')}
              allowClear
              style={{ width: 160 }}
              options={RETURN_STATUSES.map((s) => ({ value: s, label: labels.status(s) }))}
            />
          </Form.Item>
        }
        columns={[
          { title: t('fields.number'), dataIndex: 'number', key: 'number', sorter: true },
          {
            title: t('fields.category'),
            dataIndex: 'category',
            render: (c: TReturnReceipt['category']) => labels.category(c),
          },
          { title: t('fields.plannedDate'), dataIndex: 'planned_date', key: 'planned_date', sorter: true },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            render: (s: TReturnReceipt['status']) => <ReturnStatusTag status={s} />,
          },
          { title: t('fields.orderNumber'), dataIndex: 'order_number' },
          { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right' },
          {
            title: t('list.actions'),
            key: 'open',
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                onClick={() => setParams({ id: r.id })}
                data-testid={`confirm-open-${r.number}`}
              >
                {r.status === 'confirmed' ? t('confirm.view') : t('list.confirm')}
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}
