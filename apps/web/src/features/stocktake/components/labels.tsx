import {
  STOCKTAKE_VALUE_LABELS,
  type TLanguage,
  type TStocktakeScope,
  type TStocktakeStatus,
  type TStocktakeType,
} from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The contracts' stocktake labels in the current language (the variance export uses the same words). */
export function useStocktakeLabels() {
  const { i18n } = useTranslation();
  const lang = (i18n.language as TLanguage) ?? 'zh-TW';
  return {
    type: (v: TStocktakeType) => STOCKTAKE_VALUE_LABELS.type[v]?.[lang] ?? v,
    status: (v: TStocktakeStatus) => STOCKTAKE_VALUE_LABELS.status[v]?.[lang] ?? v,
    scope: (v: TStocktakeScope) => STOCKTAKE_VALUE_LABELS.scope[v]?.[lang] ?? v,
  };
}

const COLOR: Record<TStocktakeStatus, string> = {
  first: 'blue',
  review: 'gold',
  third: 'orange',
  closed: 'green',
  cancelled: 'default',
};

export function StocktakeStatusTag({ status }: { status: TStocktakeStatus }) {
  const l = useStocktakeLabels();
  return (
    <Tag color={COLOR[status]} data-testid={`stocktake-status-${status}`}>
      {l.status(status)}
    </Tag>
  );
}
