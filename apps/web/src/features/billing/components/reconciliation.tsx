import { useQueryClient } from '@tanstack/react-query';
import type { TReconciliationItem } from '@wms/contracts';
import { App, Button, Card, DatePicker, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { DataTable } from '../../../shared/table/data-table';
import { billingKeys, fetchReconciliation, resolveReconciliation, runReconciliation } from '../api';
import { twd } from '../money';

/**
 * CRM: what the daily reconciliation found between our payment records and the gateways' (open first), each resolved
 * by the staff with a note — who and when shown here and kept in the audit log. A day can be reconciled again now.
 */
export function CrmReconciliation() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const qc = useQueryClient();
  // No day picked: the server takes yesterday in Taipei time (never this browser's clock).
  const [day, setDay] = useState<Dayjs | null>(null);
  const [running, setRunning] = useState(false);
  const [resolving, setResolving] = useState<TReconciliationItem | null>(null);
  const [note, setNote] = useState('');
  const refresh = () => qc.invalidateQueries({ queryKey: billingKeys.reconciliation() });
  const run = async () => {
    setRunning(true);
    try {
      const r = await runReconciliation(day?.format('YYYY-MM-DD'));
      message.success(t('reconcile.ran', { count: r.found }));
      await refresh();
    } catch (err) {
      message.error(errorText(err));
    } finally {
      setRunning(false);
    }
  };
  const resolve = async () => {
    if (!resolving || !note.trim()) return;
    try {
      await resolveReconciliation(resolving.id, note.trim());
      setResolving(null);
      setNote('');
      await refresh();
    } catch (err) {
      message.error(errorText(err));
    }
  };
  return (
    <Card
      size="small"
      title={t('reconcile.title')}
      style={{ marginBottom: 16 }}
      data-testid="crm-reconciliation"
      extra={
        <Space>
          <DatePicker value={day} onChange={(d) => setDay(d)} placeholder={t('reconcile.yesterday')} />
          <Button size="small" loading={running} onClick={() => void run()} data-testid="reconcile-run">
            {t('reconcile.run')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('reconcile.hint')}</Typography.Paragraph>
      <DataTable<TReconciliationItem>
        queryKey={billingKeys.reconciliation()}
        fetchPage={fetchReconciliation}
        rowKey="id"
        filters={
          <Form.Item name="status">
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('reconcile.status')}
              options={(['open', 'resolved'] as const).map((s) => ({ value: s, label: t(`reconcile.states.${s}`) }))}
            />
          </Form.Item>
        }
        columns={[
          { title: t('reconcile.day'), dataIndex: 'day' },
          { title: t('records.provider'), dataIndex: 'provider', render: (v: 'tappay') => t(`providers.${v}`) },
          {
            title: t('reconcile.kind'),
            dataIndex: 'kind',
            render: (v: TReconciliationItem['kind']) => <Tag color="orange">{t(`reconcile.kinds.${v}`)}</Tag>,
          },
          { title: t('reconcile.seller'), dataIndex: 'customer_name', render: (v: string | null) => v ?? '—' },
          { title: t('records.orderNumber'), dataIndex: 'order_number' },
          {
            title: t('reconcile.ours'),
            key: 'ours',
            render: (_: unknown, r) => `${r.our_amount ? twd(r.our_amount) : '—'} · ${r.our_status ?? '—'}`,
          },
          {
            title: t('reconcile.theirs'),
            key: 'theirs',
            render: (_: unknown, r) => `${r.their_amount ? twd(r.their_amount) : '—'} · ${r.their_status ?? '—'}`,
          },
          {
            title: t('reconcile.status'),
            key: 'status',
            render: (_: unknown, r) =>
              r.status === 'open' ? (
                <Button size="small" onClick={() => setResolving(r)} data-testid="reconcile-resolve">
                  {t('reconcile.resolve')}
                </Button>
              ) : (
                <span>
                  <Tag color="green">{t('reconcile.states.resolved')}</Tag>
                  {r.resolution} — {r.resolved_by_name ?? ''} {r.resolved_at ? formatDateTime(r.resolved_at) : ''}
                </span>
              ),
          },
        ]}
      />
      <Modal
        open={!!resolving}
        title={t('reconcile.resolveTitle', { order: resolving?.order_number ?? '' })}
        onOk={() => void resolve()}
        okButtonProps={{ disabled: !note.trim() }}
        onCancel={() => setResolving(null)}
      >
        <Input.TextArea
          rows={3}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t('reconcile.note')}
        />
      </Modal>
    </Card>
  );
}
