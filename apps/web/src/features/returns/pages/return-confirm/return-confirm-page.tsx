import { RETURN_STATUSES, returnRoutes, type TReturnReceipt, type TReturnReceiptDetail } from '@wms/contracts';
import { Alert, App, Button, Card, Descriptions, Form, Popconfirm, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { routePage, useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen } from '../../../../shared/handheld/handheld';
import { ReceivingLines, type TReceivedLine } from '../../../../shared/receiving/receiving-lines';
import { DataTable } from '../../../../shared/table/data-table';
import { returnAndStock } from '../../api';
import { ReturnStatusTag, useReturnLabels } from '../../components/labels';
import '../../i18n';

/** One return receipt: its header, then its lines received with the shared ReceivingLines. */
function ConfirmPanel({ receipt }: { receipt: TReturnReceiptDetail }) {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const confirm = useRouteMutation(returnRoutes.confirmReturn, { invalidates: returnAndStock });
  const cancel = useRouteMutation(returnRoutes.cancelReturnConfirmation, { invalidates: returnAndStock });
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(receipt);
  if (shown !== receipt) {
    setShown(receipt);
    setError(null);
  }

  const onConfirm = async (lines: TReceivedLine[]) => {
    setError(null);
    try {
      await confirm.mutateAsync({ params: { id: receipt.id }, body: { lines } });
      void message.success(t('confirm.done', { number: receipt.number }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const onCancel = async () => {
    setError(null);
    try {
      await cancel.mutateAsync({ params: { id: receipt.id } });
      void message.success(t('confirm.cancelled', { number: receipt.number }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <FloorScreen>
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
          <Descriptions.Item label={t('fields.consignmentNumber')}>
            {receipt.consignment_number || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.remark')}>{receipt.remark || '—'}</Descriptions.Item>
        </Descriptions>
        {error ? (
          <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="form-error" />
        ) : null}
        <ReceivingLines
          warehouseId={receipt.warehouse_id}
          lines={receipt.lines}
          editable={receipt.actions.includes('confirm')}
          quantityTitle={t('fields.expected')}
          submitLabel={t('confirm.submit')}
          submitTestId="return-confirm-submit"
          submitting={confirm.isPending}
          onSubmit={(lines) => void onConfirm(lines)}
          onProblem={setError}
          actions={
            <>
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
            </>
          }
        />
      </Card>
    </FloorScreen>
  );
}

/** /return-confirm: accepted, defective and good quantities per line into sellable and defective locations. */
export default function ReturnConfirmPage() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const receipt = useRoute(returnRoutes.getReturn, id ? { params: { id } } : null);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {id && receipt.data ? <ConfirmPanel receipt={receipt.data} /> : null}
      {id && receipt.isError ? <Alert type="error" showIcon title={errorText(receipt.error)} /> : null}
      <DataTable<TReturnReceipt>
        {...routePage(returnRoutes.listReturns, {}, (q) => ({ ...q, status: q.status ?? 'pending' }))}
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
