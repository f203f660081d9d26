import type { TInboundStatus } from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n';

const COLOR: Record<TInboundStatus, string> = { pending: 'gold', confirmed: 'green', cancelled: 'default' };

/** A receipt's status of spec §4: pending confirmation, confirmed, cancelled confirmation. */
export function StatusTag({ status }: { status: TInboundStatus }) {
  const { t } = useTranslation('inbound');
  return (
    <Tag color={COLOR[status]} data-testid="receipt-status">
      {t(`status.${status}`)}
    </Tag>
  );
}
