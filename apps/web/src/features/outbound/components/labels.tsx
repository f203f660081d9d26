import {
  ERROR_CATALOGUE,
  errorMessage,
  fieldLabel,
  ORDER_VALUE_LABELS,
  type TErrorCode,
  type TLanguage,
  type TOrderAction,
  type TOrderCategory,
  type TOrderChannel,
  type TOrderStatus,
  type TTimeSlot,
} from '@wms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Labels shared with the server (its exports and error messages use the same): field names from the contracts'
 * FIELD_LABELS, order statuses/channels/categories/time slots from ORDER_VALUE_LABELS, in the current language.
 */
export function useOrderLabels() {
  const { i18n } = useTranslation();
  const lang = (i18n.language as TLanguage) ?? 'zh-TW';
  return {
    lang,
    field: (key: string) => fieldLabel(key === 'number' ? 'order_number' : key, lang),
    status: (v: TOrderStatus) => ORDER_VALUE_LABELS.status[v]?.[lang] ?? v,
    channel: (v: TOrderChannel) => ORDER_VALUE_LABELS.channel[v]?.[lang] ?? v,
    category: (v: TOrderCategory) => ORDER_VALUE_LABELS.category[v]?.[lang] ?? v,
    slot: (v: TTimeSlot | null) => (v ? (ORDER_VALUE_LABELS.arrival_time_slot[v]?.[lang] ?? v) : ''),
  };
}

const STATUS_COLOR: Record<TOrderStatus, string> = {
  pending_export: 'gold',
  exported: 'blue',
  cancel_export: 'orange',
  online: 'purple',
  closed: 'green',
  returned: 'magenta',
  closed_returned: 'cyan',
  cancelled: 'default',
};

export function OrderStatusTag({ status }: { status: TOrderStatus }) {
  const l = useOrderLabels();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={`order-status-${status}`}>
      {l.status(status)}
    </Tag>
  );
}

/** The server's barcode SVG as an image source (an image cannot run script, unlike inserted markup). */
export function svgSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Why an order's last export failed, in the user's language (with the product and the numbers of a shortage). */
export function abnormalText(a: { code: string; params: Record<string, unknown> }, lang: TLanguage): string {
  const code = (Object.hasOwn(ERROR_CATALOGUE, a.code) ? a.code : 'INTERNAL_ERROR') as TErrorCode;
  const base = errorMessage(code, lang, a.params);
  const p = a.params;
  if (code === 'INVENTORY_SHORTAGE' && p.product_number)
    return `${base}: ${String(p.product_number)} (${String(p.requested ?? '?')} / ${String(p.available ?? 0)})`;
  if (p.value) return `${base}: ${String(p.value)}`;
  return base;
}

/** Which actions a status offers (the server's workflow decides; this only hides buttons that would get 409). */
export const ACTIONS_OF: Record<TOrderStatus, TOrderAction[]> = {
  pending_export: ['export', 'cancel'],
  exported: ['start_packing', 'request_cancel_export'],
  online: ['request_cancel_export'],
  cancel_export: ['grant_cancel_export', 'refuse_cancel_export'],
  closed: [],
  returned: [],
  closed_returned: [],
  cancelled: [],
};
