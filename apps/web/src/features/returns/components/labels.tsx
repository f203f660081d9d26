import type { TLanguage } from '@wms/contracts';
import {
  RETURN_VALUE_LABELS,
  type TReturnCategory,
  type TReturnStatus,
  type TSupplierReturnReason,
  type TSupplierReturnStatus,
} from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The contracts' labels of the returns enumerations in the current language (the server's exports use the same). */
export function useReturnLabels() {
  const { i18n } = useTranslation();
  const lang = (i18n.language as TLanguage) ?? 'zh-TW';
  return {
    category: (v: TReturnCategory) => RETURN_VALUE_LABELS.category[v]?.[lang] ?? v,
    status: (v: TReturnStatus) => RETURN_VALUE_LABELS.status[v]?.[lang] ?? v,
    supplierStatus: (v: TSupplierReturnStatus) => RETURN_VALUE_LABELS.supplier_status[v]?.[lang] ?? v,
    reason: (v: TSupplierReturnReason) => RETURN_VALUE_LABELS.reason[v]?.[lang] ?? v,
  };
}

const STATUS_COLOR: Record<string, string> = {
  pending: 'gold',
  confirmed: 'green',
  cancelled: 'default',
  reserved: 'blue',
  dispatched: 'green',
};

export function ReturnStatusTag({ status }: { status: TReturnStatus }) {
  const l = useReturnLabels();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={`return-status-${status}`}>
      {l.status(status)}
    </Tag>
  );
}

export function SupplierStatusTag({ status }: { status: TSupplierReturnStatus }) {
  const l = useReturnLabels();
  return <Tag color={STATUS_COLOR[status]}>{l.supplierStatus(status)}</Tag>;
}
