import { DownloadOutlined } from '@ant-design/icons';
import { DELIVER_DIMENSIONS, DELIVER_PERIODS, type TDeliverStatsQuery, type TDeliverStatsRow } from '@wms/contracts';
import { App, Button, Card, Col, DatePicker, Row, Select, Space, Statistic, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { Chart, type TChartSeries } from '../../../../shared/chart/chart';
import { errorText } from '../../../../shared/forms/error-text';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { downloadDeliverStatistics, useDeliverStatistics } from '../../api';
import '../../i18n';
import { CodCollected } from './cod-collected';

type TPeriod = (typeof DELIVER_PERIODS)[number];
type TDimension = (typeof DELIVER_DIMENSIONS)[number];

/** /deliver-statistics: shipped orders, lines and units per day/week/month, split by a dimension; chart and table. */
export default function DeliverStatisticsPage() {
  const { t } = useTranslation(['analysis', 'nav']);
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [period, setPeriod] = useState<TPeriod>('day');
  const [dimension, setDimension] = useState<TDimension>('none');
  const [warehouseId, setWarehouseId] = useState<string | undefined>();
  const query: Partial<TDeliverStatsQuery> = {
    period,
    dimension,
    ...(warehouseId ? { warehouse_id: warehouseId } : {}),
    ...(range?.[0] ? { date_from: range[0].format('YYYY-MM-DD') } : {}),
    ...(range?.[1] ? { date_to: range[1].format('YYYY-MM-DD') } : {}),
  };
  const stats = useDeliverStatistics(query);
  const rows = useMemo(() => stats.data?.rows ?? [], [stats.data]);
  const total = stats.data?.total;
  const keyLabel = useCallback(
    (k: string | null) => (dimension === 'none' ? t('total') : (k ?? t('none'))),
    [dimension, t],
  );

  const chart = useMemo(() => {
    const periods = [...new Set(rows.map((r) => r.period))];
    const keys = [...new Set(rows.map((r) => r.key))];
    const series: TChartSeries[] = keys.map((k) => ({
      name: keyLabel(k),
      type: 'bar',
      stack: 'orders',
      data: periods.map((p) => rows.find((r) => r.period === p && r.key === k)?.orders ?? 0),
    }));
    return { periods, series };
  }, [rows, keyLabel]);

  const onExport = async () => {
    try {
      await downloadDeliverStatistics(query);
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Card
      title={screenTitle('/deliver-statistics')}
      extra={
        <Button icon={<DownloadOutlined />} onClick={onExport}>
          {t('export')}
        </Button>
      }
    >
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Space wrap>
          <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} aria-label={t('filter.period')} />
          <Select<TPeriod>
            value={period}
            onChange={setPeriod}
            aria-label={t('filter.groupBy')}
            style={{ width: 100 }}
            options={DELIVER_PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
          />
          <Select<TDimension>
            value={dimension}
            onChange={setDimension}
            aria-label={t('filter.dimension')}
            style={{ width: 150 }}
            options={DELIVER_DIMENSIONS.map((d) => ({ value: d, label: t(`dimension.${d}`) }))}
          />
          <WarehouseSelect
            allowClear
            value={warehouseId}
            onChange={(v: string | undefined) => setWarehouseId(v)}
            placeholder={t('filter.warehouse')}
            aria-label={t('filter.warehouse')}
          />
        </Space>
        <Row gutter={[16, 16]}>
          {(
            [
              ['orders', t('col.orders')],
              ['lines', t('col.lines')],
              ['units', t('col.units')],
              ['cod_orders', t('col.codOrders')],
              ['cod_amount', t('col.codAmount')],
              ['avg_hours_to_ship', t('col.avgHours')],
            ] as const
          ).map(([k, label]) => (
            <Col xs={12} md={4} key={k}>
              <Statistic title={label} value={total?.[k] ?? '—'} loading={stats.isLoading} data-testid={`stat-${k}`} />
            </Col>
          ))}
        </Row>
        <Chart categories={chart.periods} series={chart.series} testId="deliver-chart" />
        <Table<TDeliverStatsRow>
          size="small"
          loading={stats.isLoading}
          rowKey={(r) => `${r.period}:${r.key ?? '-'}`}
          dataSource={rows}
          pagination={{ pageSize: 25 }}
          data-testid="deliver-table"
          columns={[
            { title: t('col.period'), dataIndex: 'period' },
            { title: t(`dimension.${dimension}`), key: 'key', render: (_, r) => keyLabel(r.key) },
            { title: t('col.orders'), dataIndex: 'orders', align: 'right' },
            { title: t('col.lines'), dataIndex: 'lines', align: 'right' },
            { title: t('col.units'), dataIndex: 'units', align: 'right' },
            { title: t('col.codOrders'), dataIndex: 'cod_orders', align: 'right' },
            { title: t('col.codAmount'), dataIndex: 'cod_amount', align: 'right' },
            {
              title: t('col.avgHours'),
              dataIndex: 'avg_hours_to_ship',
              align: 'right',
              render: (v: number | null) => v ?? '—',
            },
          ]}
        />
        <CodCollected dateFrom={query.date_from} dateTo={query.date_to} />
      </Space>
    </Card>
  );
}
