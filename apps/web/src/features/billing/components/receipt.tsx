import { PrinterOutlined } from '@ant-design/icons';
import type { TBillingOverview, TBillingPayment } from '@wms/contracts';
import { Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { twd } from '../money';
import './receipt.css';

/** A printable receipt of one successful payment (the browser's print prints only the receipt). */
export function ReceiptModal({
  payment,
  company,
  onClose,
}: {
  payment: TBillingPayment | null;
  company: TBillingOverview['company'] | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const p = payment;
  const net = p ? Number(p.amount) - Number(p.tax) : 0;
  return (
    <Modal open={!!p} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      {p ? (
        <div className="billing-receipt" data-testid="billing-receipt">
          <Typography.Title level={3}>{t('receipt.title')}</Typography.Title>
          <Typography.Paragraph>{t('receipt.issuer')}</Typography.Paragraph>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('receipt.to')}>{company?.invoice_title || company?.name}</Descriptions.Item>
            <Descriptions.Item label={t('receipt.taxId')}>{company?.tax_id}</Descriptions.Item>
            <Descriptions.Item label={t('records.orderNumber')}>{p.order_number}</Descriptions.Item>
            <Descriptions.Item label={t('records.period')}>
              {t('receipt.item', { start: p.period_start, end: p.period_end })}
            </Descriptions.Item>
            <Descriptions.Item label={t('receipt.net')}>{twd(net)}</Descriptions.Item>
            <Descriptions.Item label={t('receipt.tax')}>{twd(Number(p.tax))}</Descriptions.Item>
            <Descriptions.Item label={t('receipt.total')}>{twd(Number(p.amount))}</Descriptions.Item>
            <Descriptions.Item label={t('records.provider')}>{t(`providers.${p.provider}`)}</Descriptions.Item>
            <Descriptions.Item label={t('receipt.transaction')}>{p.provider_transaction_id}</Descriptions.Item>
            {p.card_last_four ? (
              <Descriptions.Item label={t('receipt.card')}>{p.card_last_four}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('receipt.paidAt')}>
              {p.paid_at ? formatDateTime(p.paid_at) : ''}
            </Descriptions.Item>
          </Descriptions>
          <div className="billing-receipt-actions" style={{ marginTop: 16, textAlign: 'right' }}>
            <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
              {t('receipt.print')}
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
