import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { stocktakeRoutes, type TStocktakeDetail, type TStocktakeLine } from '@wms/contracts';
import { Alert, App, Button, Descriptions, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoute } from '../../../shared/api/route-query';
import { downloadFile } from '../../../shared/download';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { useStocktakeLabels } from './labels';
import './variance-report.css';

/** The variance report of a sheet: what differs from the book (after close: what was posted), printable and exportable. */
export function VarianceReport({ sheet }: { sheet: TStocktakeDetail }) {
  const { t } = useTranslation(['stocktake', 'common']);
  const labels = useStocktakeLabels();
  const { message } = App.useApp();
  const report = useRoute(stocktakeRoutes.stocktakeReport, { params: { id: sheet.id } });
  const closed = sheet.status === 'closed';
  if (report.isError) return <Alert type="error" showIcon title={errorText(report.error)} />;
  const r = report.data;
  const onExport = async () => {
    try {
      await downloadFile(stocktakeRoutes.exportStocktakeReport, `stocktake-${sheet.number}.xlsx`, {
        params: { id: sheet.id },
      });
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const n = (v: number | null) => (v === null ? '' : v);
  return (
    <div className="stocktake-report" data-testid="variance-report">
      <Space className="no-print" style={{ marginBottom: 12 }}>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('report.print')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void onExport()} data-testid="variance-export">
          {t('report.export')}
        </Button>
      </Space>
      <h2 className="print-only">
        {r?.company_name} · {t('report.title')}
      </h2>
      <Descriptions size="small" column={{ xs: 1, md: 4 }} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('fields.number')}>{sheet.number}</Descriptions.Item>
        <Descriptions.Item label={t('fields.name')}>{sheet.name}</Descriptions.Item>
        <Descriptions.Item label={t('fields.type')}>{labels.type(sheet.type)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.status')}>{labels.status(sheet.status)}</Descriptions.Item>
        <Descriptions.Item label={t('report.lines')}>{r?.totals.lines ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('report.varianceLines')}>
          <span data-testid="variance-lines">{r?.totals.variance_lines ?? ''}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('report.unitsOver')}>{r?.totals.units_over ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('report.unitsShort')}>{r?.totals.units_short ?? ''}</Descriptions.Item>
      </Descriptions>
      <p>{closed ? t('report.closedHint') : t('report.openHint')}</p>
      <Table<TStocktakeLine>
        size="small"
        rowKey="id"
        loading={report.isFetching}
        dataSource={r?.lines ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('fields.location'), dataIndex: 'location_code' },
          { title: t('fields.product'), render: (_, l) => `${l.product_number} ${l.product_name}` },
          { title: t('fields.expiryDate'), dataIndex: 'expiry_date', render: (d: string | null) => d ?? '' },
          { title: t('lines.count1'), dataIndex: 'count_1', align: 'right', render: n },
          { title: t('lines.book1'), dataIndex: 'book_1', align: 'right', render: n },
          { title: t('lines.count2'), dataIndex: 'count_2', align: 'right', render: n },
          { title: t('lines.book2'), dataIndex: 'book_2', align: 'right', render: n },
          { title: t('lines.count3'), dataIndex: 'count_3', align: 'right', render: n },
          { title: t('lines.book3'), dataIndex: 'book_3', align: 'right', render: n },
          {
            title: closed ? t('lines.variance') : t('lines.difference'),
            align: 'right',
            render: (_, l) => <strong>{closed ? n(l.variance) : n(l.difference)}</strong>,
          },
          ...(closed
            ? [{ title: t('lines.onHandAfter'), dataIndex: 'on_hand_after', align: 'right' as const, render: n }]
            : []),
        ]}
      />
      {r ? (
        <p className="print-only">
          {t('report.printedAt')}: {formatDateTime(r.printed_at)}
        </p>
      ) : null}
    </div>
  );
}
