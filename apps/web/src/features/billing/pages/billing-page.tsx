import { CreditCardOutlined, WalletOutlined } from '@ant-design/icons';
import { billingRoutes, type TBillingOverview, type TBillingPayment } from '@wms/contracts';
import { Alert, App, Button, Card, Descriptions, Form, Popconfirm, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { downloadFile } from '../../../shared/download';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { DataTable } from '../../../shared/table/data-table';
import { billingKeys, fetchPayments, useBillingOverview, useStopAutoRenew } from '../api';
import { PayReason, payBlockedReason } from '../components/pay-reason';
import { PaymentStatusTag } from '../components/payment-tags';
import { PlansCard } from '../components/plans';
import { ReceiptModal } from '../components/receipt';
import { RefundedCell } from '../components/refund-modal';
import '../i18n';
import { StatementsCard } from '../../usage/components/statements';
import { UsageCard } from '../../usage/components/usage-card';
import { twd } from '../money';

function ContractCard({ data }: { data: TBillingOverview }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const stop = useStopAutoRenew();
  const c = data.contract!;
  const renew =
    c.auto_renew === 'tappay'
      ? t('contract.autoRenewTappay', { last4: c.card_last_four ?? '' })
      : c.auto_renew === 'newebpay'
        ? t('contract.autoRenewNewebpay')
        : t('contract.autoRenewNone');
  return (
    <Card title={t('contract.title')} data-testid="billing-contract">
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
        <Descriptions.Item label={t('contract.plan')}>{c.plan}</Descriptions.Item>
        <Descriptions.Item label={t('contract.period')}>{t(`periods.${c.period}`)}</Descriptions.Item>
        <Descriptions.Item label={t('contract.price')}>{twd(Number(c.price))}</Descriptions.Item>
        <Descriptions.Item label={t('contract.tax')}>
          {twd(c.tax)} ({Number(c.tax_rate) * 100}%)
        </Descriptions.Item>
        <Descriptions.Item label={t('contract.total')}>
          <strong data-testid="billing-total">{twd(c.total)}</strong>
        </Descriptions.Item>
        <Descriptions.Item label={t('contract.terms')}>{t(`terms.${c.payment_terms}`)}</Descriptions.Item>
        <Descriptions.Item label={t('contract.startDate')}>{c.start_date}</Descriptions.Item>
        <Descriptions.Item label={t('contract.currentPeriod')}>
          {data.current_period ? `${data.current_period.start} ～ ${data.current_period.end}` : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('contract.paidThrough')}>{data.paid_through ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('contract.autoRenew')}>
          <Space wrap>
            <span data-testid="billing-auto-renew">{renew}</span>
            {c.auto_renew ? (
              <Popconfirm
                title={t('contract.stopAutoRenewConfirm')}
                onConfirm={() => stop.mutateAsync().catch((err) => message.error(errorText(err)))}
              >
                <Button size="small" loading={stop.isPending}>
                  {t('contract.stopAutoRenew')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        </Descriptions.Item>
        {c.note ? <Descriptions.Item label={t('contract.note')}>{c.note}</Descriptions.Item> : null}
      </Descriptions>
    </Card>
  );
}

function DueCard({ data }: { data: TBillingOverview }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const due = data.due;
  const tappayReason = payBlockedReason(t, data, 'tappay');
  const newebpayReason = payBlockedReason(t, data, 'newebpay');
  const paidUntil = data.paid_through ? (
    <Typography.Text strong data-testid="billing-paid-until">
      {t('due.paidUntil', { date: data.paid_through })}
    </Typography.Text>
  ) : null;
  const text = due
    ? t('due.amount', {
        start: due.start,
        end: due.end,
        amount: twd(due.amount),
        tax: twd(due.tax),
        date: due.due_date,
      })
    : null;
  return (
    <Card title={t('due.title')} data-testid="billing-due">
      <Space orientation="vertical" style={{ width: '100%' }}>
        {paidUntil}
        {due ? (
          <Alert
            type={due.overdue ? 'warning' : 'info'}
            showIcon
            title={due.overdue ? `${t('due.overdue')}：${text}` : text}
            data-testid="billing-next-period"
          />
        ) : (
          <Alert type="success" showIcon title={t('due.nothing')} data-testid="billing-nothing-due" />
        )}
        {data.in_progress ? (
          <Alert
            type="info"
            showIcon
            data-testid="billing-in-progress"
            title={t('blocked.inProgress', {
              period: `${data.in_progress.period_start} ～ ${data.in_progress.period_end}`,
              order: data.in_progress.order_number,
            })}
          />
        ) : null}
        <Space wrap align="center">
          <Button
            type="primary"
            icon={<CreditCardOutlined />}
            disabled={!!tappayReason}
            onClick={() => navigate('/tappay')}
            data-testid="pay-tappay"
          >
            {t('due.payTappay')}
          </Button>
          <PayReason reason={tappayReason} testId="pay-tappay-reason" />
        </Space>
        <Space wrap align="center">
          <Button
            icon={<WalletOutlined />}
            disabled={!!newebpayReason}
            onClick={() => navigate('/newebpay')}
            data-testid="pay-newebpay"
          >
            {t('due.payNewebpay')}
          </Button>
          <Button
            disabled={!!newebpayReason}
            onClick={() => navigate('/newebpay?periodic=1')}
            data-testid="pay-newebpay-periodic"
          >
            {t('due.payNewebpayPeriodic')}
          </Button>
          <PayReason reason={newebpayReason} testId="pay-newebpay-reason" />
        </Space>
      </Space>
    </Card>
  );
}

/** /billing: the seller's contract, what is due and when, and every transaction record (Excel, receipts). */
export default function BillingPage() {
  const { t } = useTranslation('billing');
  const overview = useBillingOverview();
  const [receipt, setReceipt] = useState<TBillingPayment | null>(null);
  if (overview.isLoading) return <Spin />;
  const data = overview.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('title')}</Typography.Title>
      {data && !data.providers.tappay.enabled && !data.providers.newebpay.enabled ? (
        <Alert type="warning" showIcon title={t('blocked.noProvider')} data-testid="billing-no-provider" />
      ) : null}
      {data?.contract ? (
        <>
          <ContractCard data={data} />
          <DueCard data={data} />
        </>
      ) : (
        <PlansCard />
      )}
      <UsageCard />
      <StatementsCard />
      <Card title={t('records.title')}>
        <DataTable<TBillingPayment>
          queryKey={billingKeys.payments()}
          fetchPage={fetchPayments}
          rowKey="id"
          excel={{
            fileName: 'billing-records.xlsx',
            download: (query) =>
              downloadFile(billingRoutes.exportPayments, 'billing-records.xlsx', { query: query as never }),
          }}
          filters={
            <Form.Item name="status">
              <Select
                allowClear
                style={{ width: 140 }}
                placeholder={t('records.status')}
                options={(['pending', 'succeeded', 'failed'] as const).map((s) => ({
                  value: s,
                  label: t(`status.${s}`),
                }))}
              />
            </Form.Item>
          }
          columns={[
            {
              title: t('records.date'),
              dataIndex: 'created_at',
              key: 'created_at',
              sorter: true,
              render: (v: string) => formatDateTime(v),
            },
            { title: t('records.orderNumber'), dataIndex: 'order_number' },
            {
              title: t('records.provider'),
              dataIndex: 'provider',
              render: (v: string) => t(`providers.${v as 'tappay'}`),
            },
            { title: t('records.kind'), dataIndex: 'kind', render: (v: string) => t(`kinds.${v as 'checkout'}`) },
            {
              title: t('records.period'),
              dataIndex: 'period_start',
              render: (_: string, r) => (r.kind === 'credit' ? '—' : `${r.period_start} ～ ${r.period_end}`),
            },
            {
              title: t('records.amount'),
              dataIndex: 'amount',
              key: 'amount',
              sorter: true,
              render: (v: string) => twd(v),
            },
            {
              title: t('records.status'),
              dataIndex: 'status',
              render: (v: TBillingPayment['status']) => <PaymentStatusTag status={v} />,
            },
            { title: t('records.failure'), dataIndex: 'failure', render: (v: string | null) => v ?? '' },
            {
              title: t('records.refunded'),
              key: 'refunded',
              noExport: true,
              render: (_: unknown, r) => <RefundedCell payment={r} />,
            },
            {
              title: t('records.receipt'),
              key: 'receipt',
              noExport: true,
              render: (_: unknown, r) =>
                r.status === 'succeeded' ? (
                  <Button size="small" onClick={() => setReceipt(r)} data-testid="receipt-open">
                    {t('records.receipt')}
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>
      <ReceiptModal payment={receipt} company={data?.company} onClose={() => setReceipt(null)} />
    </Space>
  );
}
