import type { TOrder, TOrderColumn } from '@wms/contracts';
import type { ColumnType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../shared/format';
import { abnormalText, OrderStatusTag, type useOrderLabels } from './labels';

/** Columns of the list that the server can sort by (`ordering`). */
const SORTABLE = new Set<TOrderColumn>([
  'number',
  'platform_order_number',
  'consignment_number',
  'status',
  'shipping_date',
  'recipient_name',
  'created_at',
  'closed_at',
]);

/** One table column per /customize column key, rendered the way the exports write it. */
export function orderColumn(
  key: TOrderColumn,
  l: ReturnType<typeof useOrderLabels>,
  t: TFunction<['outbound', 'common']>,
): ColumnType<TOrder> {
  const base: ColumnType<TOrder> = { key, title: l.field(key), sorter: SORTABLE.has(key) };
  const yesNo = (v: boolean) => (v ? t('values.yes') : t('values.no'));
  switch (key) {
    case 'status':
      return {
        ...base,
        render: (_, o) => (
          <>
            <OrderStatusTag status={o.status} />
            {o.abnormal ? (
              <div style={{ color: '#d4380d', fontSize: 12 }} data-testid="order-abnormal">
                {abnormalText(o.abnormal, l.lang)}
              </div>
            ) : null}
          </>
        ),
      };
    case 'category':
      return { ...base, render: (_, o) => l.category(o.category) };
    case 'channel':
      return { ...base, render: (_, o) => l.channel(o.channel) };
    case 'arrival_time_slot':
      return { ...base, render: (_, o) => l.slot(o.arrival_time_slot) };
    case 'platform':
      return { ...base, render: (_, o) => o.platform_code ?? '' };
    case 'warehouse':
      return { ...base, render: (_, o) => o.warehouse_code ?? '' };
    case 'logistics_provider':
      return { ...base, render: (_, o) => o.logistics_provider_name ?? o.logistics_provider_code ?? '' };
    case 'batch':
      return { ...base, render: (_, o) => o.batch_number ?? '' };
    case 'is_cross_border':
      return { ...base, render: (_, o) => yesNo(o.is_cross_border) };
    case 'cod':
      return { ...base, render: (_, o) => yesNo(o.cod) };
    case 'created_at':
    case 'exported_at':
    case 'closed_at':
      return { ...base, render: (_, o) => (o[key] ? formatDateTime(o[key]) : '') };
    case 'line_count':
    case 'unit_count':
    case 'piece_count':
      return { ...base, dataIndex: key, align: 'right' };
    default:
      return { ...base, dataIndex: key };
  }
}
