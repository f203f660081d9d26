import {
  BILLING_PERIODS,
  PAYMENT_TERMS,
  type TBillingContractInput,
  type TBillingPayment,
  ZBillingContractInput,
} from '@wms/contracts';
import { App, Button, DatePicker, Descriptions, Form, Input, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { useCrmContract, useSetContract } from '../api';
import '../i18n';
import { twd } from '../money';
import { PaymentStatusTag } from './payment-tags';
import { RefundedCell, RefundModal, refundable } from './refund-modal';

/** The CRM customer screen's contract: shown, and set by the employee (plan, price, period, start, terms). */
export function CrmContract({ customerId }: { customerId: string }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const data = useCrmContract(customerId);
  const save = useSetContract(customerId);
  const [editing, setEditing] = useState(false);
  const [refunding, setRefunding] = useState<TBillingPayment | null>(null);
  const [form] = Form.useForm();
  const c = data.data?.contract ?? null;

  const submit = async () => {
    const v = (await form.validateFields()) as Omit<TBillingContractInput, 'start_date'> & {
      start_date?: Dayjs | null;
    };
    // No date picked: the server decides the start (today in Asia/Taipei), never this browser's clock.
    const body = ZBillingContractInput.parse({ ...v, start_date: v.start_date?.format('YYYY-MM-DD') });
    try {
      await save.mutateAsync(body);
      message.success(t('contract.saved'));
      setEditing(false);
    } catch (err) {
      message.error(errorText(err));
    }
  };

  return (
    <div data-testid="crm-contract">
      <Space style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('contract.title')}
        </Typography.Title>
        <Button size="small" onClick={() => setEditing(!editing)} data-testid="crm-contract-edit">
          {t('contract.edit')}
        </Button>
      </Space>
      {editing ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            plan: c?.plan ?? '',
            price: c ? String(Number(c.price)) : '',
            tax_rate: c?.tax_rate ? String(Number(c.tax_rate)) : '0.05',
            period: c?.period ?? 'quarterly',
            start_date: c ? dayjs(c.start_date) : null,
            payment_terms: c?.payment_terms ?? '11',
            note: c?.note ?? '',
          }}
        >
          <Form.Item name="plan" label={t('contract.plan')} rules={[{ required: true }]}>
            <Input data-testid="contract-plan" />
          </Form.Item>
          <Space wrap>
            <Form.Item
              name="price"
              label={t('contract.price')}
              rules={[{ required: true, pattern: /^\d{1,12}(\.\d{1,4})?$/ }]}
            >
              <Input data-testid="contract-price" prefix="NT$" />
            </Form.Item>
            <Form.Item name="tax_rate" label={t('contract.taxRate')} rules={[{ required: true }]}>
              <Input data-testid="contract-tax-rate" />
            </Form.Item>
            <Form.Item name="period" label={t('contract.period')}>
              <Select
                style={{ width: 140 }}
                data-testid="contract-period"
                options={BILLING_PERIODS.map((p) => ({ value: p, label: t(`periods.${p}`) }))}
              />
            </Form.Item>
            <Form.Item name="start_date" label={t('contract.startDate')} extra={t('contract.startDateHint')}>
              <DatePicker data-testid="contract-start" placeholder={t('contract.startDateToday')} />
            </Form.Item>
            <Form.Item name="payment_terms" label={t('contract.terms')}>
              <Select
                style={{ width: 180 }}
                options={PAYMENT_TERMS.map((p) => ({ value: p, label: t(`terms.${p}`) }))}
              />
            </Form.Item>
          </Space>
          <Form.Item name="note" label={t('contract.note')}>
            <Input.TextArea rows={2} />
          </Form.Item>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="contract-save">
            {t('contract.save')}
          </Button>
        </Form>
      ) : c ? (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('contract.plan')}>{c.plan}</Descriptions.Item>
          <Descriptions.Item label={t('contract.total')}>
            {twd(c.total)} ({t(`periods.${c.period}`)})
          </Descriptions.Item>
          <Descriptions.Item label={t('contract.startDate')}>{c.start_date}</Descriptions.Item>
          <Descriptions.Item label={t('contract.terms')}>{t(`terms.${c.payment_terms}`)}</Descriptions.Item>
          <Descriptions.Item label={t('contract.autoRenew')}>
            {c.auto_renew ? t(`providers.${c.auto_renew}`) : t('contract.autoRenewNone')}
          </Descriptions.Item>
          {c.overdue_since ? (
            <Descriptions.Item label={t('due.overdue')}>{formatDateTime(c.overdue_since)}</Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">{t('crm.none')}</Typography.Text>
      )}
      {data.data?.payments.length ? (
        <>
          <Typography.Title level={5}>{t('crm.payments')}</Typography.Title>
          <Table<TBillingPayment>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={data.data.payments}
            columns={[
              { title: t('records.date'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
              { title: t('records.provider'), dataIndex: 'provider', render: (v: 'tappay') => t(`providers.${v}`) },
              { title: t('records.amount'), dataIndex: 'amount', render: (v: string) => twd(v) },
              {
                title: t('records.status'),
                dataIndex: 'status',
                render: (v: TBillingPayment['status']) => <PaymentStatusTag status={v} />,
              },
              { title: t('records.failure'), dataIndex: 'failure' },
              {
                title: t('records.refunded'),
                key: 'refunded',
                render: (_: unknown, p) => <RefundedCell payment={p} />,
              },
              {
                title: '',
                key: 'refund',
                render: (_: unknown, p) =>
                  p.status === 'succeeded' && refundable(p) > 0 ? (
                    <Button size="small" onClick={() => setRefunding(p)} data-testid="refund-open">
                      {t('refund.open')}
                    </Button>
                  ) : null,
              },
            ]}
          />
        </>
      ) : null}
      {refunding ? (
        <RefundModal customerId={customerId} payment={refunding} onClose={() => setRefunding(null)} />
      ) : null}
    </div>
  );
}
