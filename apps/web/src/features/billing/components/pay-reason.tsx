import type { TBillingOverview } from '@wms/contracts';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';

export type TPayWay = 'tappay' | 'newebpay';

/**
 * Why the seller cannot pay now with `way` (null: they can): no contract, no gateway set up, nothing due (paid until
 * …), or a payment of the due period still waiting for its outcome. The same reasons on /billing, /tappay, /newebpay.
 */
export function payBlockedReason(
  t: TFunction<'billing'>,
  data: TBillingOverview | undefined,
  way: TPayWay,
): string | null {
  if (!data?.contract) return t('blocked.noContract');
  if (!data.providers[way].enabled) return t(way === 'tappay' ? 'blocked.tappayOff' : 'blocked.newebpayOff');
  if (!data.due)
    return data.paid_through ? t('blocked.paidUntil', { date: data.paid_through }) : t('blocked.notStarted');
  if (data.in_progress)
    return t('blocked.inProgress', {
      period: `${data.in_progress.period_start} ～ ${data.in_progress.period_end}`,
      order: data.in_progress.order_number,
    });
  return null;
}

/** The reason beside a disabled pay button. */
export function PayReason({ reason, testId }: { reason: string | null; testId?: string }) {
  if (!reason) return null;
  return (
    <Typography.Text type="secondary" data-testid={testId ?? 'pay-reason'}>
      {reason}
    </Typography.Text>
  );
}
