import { DownloadOutlined } from '@ant-design/icons';
import { STOCK_REASONS, stockRoutes, type TStockMovementRow } from '@wms/contracts';
import { App, Button, Card, DatePicker, Form, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { stockKeys } from '../../../../shared/api/stock-keys';
import { downloadFile } from '../../../../shared/download';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { ProductSelect } from '../../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { fetchStockLog } from '../../api';
import { ReasonTag, SignedQuantity } from '../../components/stock-tags';
import '../../i18n';

/** Form values → the stock-log query (date range → date_from/date_to). */
function toLogQuery(q: TTableQuery): TTableQuery {
  const { range, ...rest } = q as TTableQuery & { range?: [Dayjs, Dayjs] | null };
  return {
    ...rest,
    date_from: range?.[0]?.format('YYYY-MM-DD'),
    date_to: range?.[1]?.format('YYYY-MM-DD'),
    search: undefined,
    document_number: q.search || undefined,
  };
}

/** /stock-log: the stock ledger, newest first, filtered by product, location, reason, document and dates. */
export default function StockLogPage() {
  const { t, i18n } = useTranslation(['stock', 'nav']);
  const { message } = App.useApp();
  const [last, setLast] = useState<TTableQuery>({ page: 1, page_size: 10 });
  const [capped, setCapped] = useState(false);
  return (
    <Card
      title={screenTitle('/stock-log')}
      extra={
        <Button
          icon={<DownloadOutlined />}
          onClick={() =>
            downloadFile(stockRoutes.exportStockLog, 'stock-log.xlsx', { query: toLogQuery(last) }).catch(
              (e) => void message.error(errorText(e)),
            )
          }
        >
          {t('log.export')}
        </Button>
      }
    >
      {capped ? <Typography.Paragraph type="warning">{t('log.capped')}</Typography.Paragraph> : null}
      <DataTable<TStockMovementRow>
        queryKey={stockKeys.log}
        fetchPage={async (q, signal) => {
          setLast(q);
          const res = await fetchStockLog(toLogQuery(q), signal);
          setCapped(res.count_capped);
          return res;
        }}
        rowKey="id"
        searchPlaceholder={t('filter.documentNumber')}
        filters={
          <>
            <Form.Item name="product_id">
              <ProductSelect
                type="single"
                allowClear
                placeholder={t('filter.product')}
                aria-label={t('filter.product')}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
            <Form.Item name="reason">
              <Select
                allowClear
                placeholder={t('filter.reason')}
                aria-label={t('filter.reason')}
                style={{ minWidth: 140 }}
                options={STOCK_REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) }))}
              />
            </Form.Item>
            <Form.Item name="range">
              <DatePicker.RangePicker aria-label={t('filter.dateRange')} />
            </Form.Item>
          </>
        }
        columns={[
          {
            title: t('col.time'),
            dataIndex: 'created_at',
            // Time and product stay in view when the table scrolls sideways (narrow screens, long Japanese titles).
            fixed: 'left',
            width: 150,
            render: (v: string) => formatDateTime(v, i18n.language),
            exportValue: (r) => formatDateTime(r.created_at, i18n.language),
          },
          { title: t('col.productNumber'), dataIndex: 'product_number', fixed: 'left', width: 140 },
          { title: t('col.productName'), dataIndex: 'product_name' },
          { title: t('col.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('col.location'), dataIndex: 'location_code' },
          { title: t('col.expiry'), dataIndex: 'expiry_date' },
          {
            title: t('col.quantity'),
            dataIndex: 'quantity',
            align: 'right',
            render: (v: number) => <SignedQuantity value={v} />,
          },
          { title: t('col.onHandAfter'), dataIndex: 'on_hand_after', align: 'right' },
          {
            title: t('col.reason'),
            dataIndex: 'reason',
            render: (r: TStockMovementRow['reason']) => <ReasonTag reason={r} />,
            exportValue: (r) => t(`reason.${r.reason}`),
          },
          { title: t('col.document'), dataIndex: 'document_number' },
          { title: t('col.user'), dataIndex: 'user_name' },
          { title: t('col.note'), dataIndex: 'note' },
        ]}
      />
    </Card>
  );
}
