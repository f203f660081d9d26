import type { TBillingPayment } from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<TBillingPayment['status'], string> = { pending: 'blue', succeeded: 'green', failed: 'red' };

export function PaymentStatusTag({ status }: { status: TBillingPayment['status'] }) {
  const { t } = useTranslation('billing');
  return (
    <Tag color={COLOR[status]} data-testid={`payment-status-${status}`}>
      {t(`status.${status}`)}
    </Tag>
  );
}
