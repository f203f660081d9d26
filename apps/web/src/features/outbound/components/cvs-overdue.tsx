import { carrierRoutes } from '@wms/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoute } from '../../../shared/api/route-query';

/**
 * Store-pickup parcels past their drop-off window (/deliver-operation): ECPay voids a number not dropped off by the
 * chain's deadline, so these need a new number or a drop-off today.
 */
export function CvsOverdueAlert() {
  const { t } = useTranslation(['outbound']);
  const data = useRoute(carrierRoutes.cvsOverdue, {});
  const rows = data.data?.results ?? [];
  if (!rows.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="cvs-overdue"
      title={t('cvs.overdueTitle', { count: rows.length })}
      description={rows
        .slice(0, 50)
        .map((r) =>
          t('cvs.overdueItem', {
            number: r.number,
            chain: t(`cvs.subtype.${r.subtype}`),
            consignment: r.consignment_number,
            deadline: r.deadline,
          }),
        )
        .join('；')}
    />
  );
}
