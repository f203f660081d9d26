import type { TBillingPayment } from '@wms/contracts';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/forms/error-text';
import { useRefundPayment } from '../api';
import { twd } from '../money';

/** Whole TWD not refunded yet of a payment. */
export const refundable = (p: TBillingPayment) => Math.max(0, Number(p.amount) - Number(p.refunded));

/**
 * The staff's refund of one payment (CRM): an amount (empty: everything left) and a reason. The idempotency key is
 * made when the modal opens, so a double click or a retried request is the same refund, never a second one.
 */
export function RefundModal({
  customerId,
  payment,
  onClose,
}: {
  customerId: string;
  payment: TBillingPayment;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ amount?: string; reason: string }>();
  const key = useMemo(() => crypto.randomUUID(), []);
  const refund = useRefundPayment(customerId);
  const left = refundable(payment);
  const submit = async () => {
    const v = await form.validateFields();
    try {
      const r = await refund.mutateAsync({
        paymentId: payment.id,
        body: { amount: v.amount?.trim() ? v.amount.trim() : undefined, reason: v.reason, idempotency_key: key },
      });
      if (r.status === 'succeeded') message.success(t('refund.done', { amount: twd(r.amount) }));
      else if (r.status === 'failed') message.error(t('refund.refused', { answer: r.gateway_answer ?? '' }));
      else message.warning(t('refund.pending'));
      onClose();
    } catch (err) {
      message.error(errorText(err));
    }
  };
  return (
    <Modal
      open
      title={t('refund.title', { order: payment.order_number })}
      okText={t('refund.submit')}
      onOk={() => void submit()}
      confirmLoading={refund.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'refund-submit' } as Record<`data-${string}`, string>}
    >
      <Alert type="info" showIcon title={t('refund.left', { amount: twd(left), paid: twd(payment.amount) })} />
      <Form form={form} layout="vertical" style={{ marginTop: 12 }}>
        <Form.Item
          name="amount"
          label={t('refund.amount')}
          extra={t('refund.amountHint')}
          rules={[
            { pattern: /^[1-9]\d*$/, message: t('refund.amountWhole') },
            {
              validator: (_, v?: string) =>
                v && Number(v) > left
                  ? Promise.reject(new Error(t('refund.amountTooMuch', { amount: twd(left) })))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input prefix="NT$" inputMode="numeric" placeholder={String(left)} data-testid="refund-amount" />
        </Form.Item>
        <Form.Item name="reason" label={t('refund.reason')} rules={[{ required: true, whitespace: true, max: 500 }]}>
          <Input.TextArea rows={2} data-testid="refund-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What was refunded of a payment, for the transaction records (seller) and the CRM. */
export function RefundedCell({ payment }: { payment: TBillingPayment }) {
  const { t } = useTranslation('billing');
  if (!payment.refunds.length) return null;
  return (
    <span data-testid="payment-refunded">
      {Number(payment.refunded) > 0 ? twd(payment.refunded) : null}
      {payment.refunds.map((r) => (
        <div key={r.id} style={{ fontSize: 12, color: 'rgba(0,0,0,0.55)' }}>
          {twd(r.amount)} · {t(`refund.status.${r.status}`)} · {r.reason}
        </div>
      ))}
    </span>
  );
}
