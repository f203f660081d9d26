import type { TLotState, TStockReason } from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n';

const STATE_COLOR: Record<TLotState, string> = {
  sellable: 'green',
  unsellable: 'orange',
  expired: 'red',
  blocked: 'default',
};

/** A pile's state for selling (sellable, past its sellable date, expired, in a non-selling location). */
export function LotStateTag({ state }: { state: TLotState }) {
  const { t } = useTranslation('stock');
  return <Tag color={STATE_COLOR[state]}>{t(`state.${state}`)}</Tag>;
}

export function ReasonTag({ reason }: { reason: TStockReason }) {
  const { t } = useTranslation('stock');
  return <Tag>{t(`reason.${reason}`)}</Tag>;
}

/** A signed quantity: green when stock came in, red when it went out. */
export function SignedQuantity({ value }: { value: number }) {
  return (
    <span style={{ color: value > 0 ? '#389e0d' : '#cf1322', fontWeight: 500 }}>{value > 0 ? `+${value}` : value}</span>
  );
}
