import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { carrierRoutes, type TCodCollectedDay } from '@wms/contracts';
import { Button, Card, Space, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../../../shared/api/client';
import { useExcelExport } from '../../../../shared/excel/use-excel-export';

/**
 * Cash collected on delivery per day (/deliver-statistics): the COD orders whose buyer picked the parcel up, by the
 * day ECPay reports it, with an Excel export. Same date range as the statistics above.
 */
export function CodCollected(props: { dateFrom?: string; dateTo?: string }) {
  const { t } = useTranslation(['analysis']);
  const { exportExcel, exporting } = useExcelExport<TCodCollectedDay>();
  const query = {
    ...(props.dateFrom ? { date_from: props.dateFrom } : {}),
    ...(props.dateTo ? { date_to: props.dateTo } : {}),
  };
  const data = useQuery({
    queryKey: ['carriers', 'cod-collected', query],
    queryFn: () => apiCall(carrierRoutes.codCollected, { query }),
  });
  const rows = data.data?.results ?? [];
  return (
    <Card
      size="small"
      title={t('cod.title')}
      data-testid="cod-collected"
      extra={
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          disabled={!rows.length}
          onClick={() =>
            void exportExcel({
              fileName: 'cod-collected',
              columns: [
                { title: t('cod.date'), value: (r) => r.date },
                { title: t('cod.orders'), value: (r) => r.orders },
                { title: t('cod.amount'), value: (r) => Number(r.amount) },
              ],
              rows,
            })
          }
        >
          {t('export')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space size="large">
          <Statistic title={t('cod.orders')} value={data.data?.total_orders ?? '—'} loading={data.isLoading} />
          <Statistic title={t('cod.amount')} value={data.data?.total_amount ?? '—'} loading={data.isLoading} />
        </Space>
        <Table<TCodCollectedDay>
          size="small"
          rowKey="date"
          loading={data.isLoading}
          dataSource={rows}
          pagination={{ pageSize: 10 }}
          locale={{ emptyText: t('cod.empty') }}
          columns={[
            { title: t('cod.date'), dataIndex: 'date' },
            { title: t('cod.orders'), dataIndex: 'orders', align: 'right' },
            { title: t('cod.amount'), dataIndex: 'amount', align: 'right' },
          ]}
        />
      </Space>
    </Card>
  );
}
