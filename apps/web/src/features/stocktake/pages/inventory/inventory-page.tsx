import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import {
  STOCKTAKE_STATUSES,
  STOCKTAKE_TYPES,
  stocktakeRoutes,
  type TStocktake,
  type TStocktakeDetail,
  type TStocktakeLine,
  type TStocktakeLocation,
} from '@wms/contracts';
import { Alert, App, Button, Card, Descriptions, Form, Popconfirm, Select, Space, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { routePage, useRoute } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import { useStocktakeAction } from '../../api';
import { CountPanel } from '../../components/count-panel';
import { CreateStocktakeModal } from '../../components/create-stocktake';
import { StocktakeStatusTag, useStocktakeLabels } from '../../components/labels';
import { VarianceReport } from '../../components/variance-report';
import '../../i18n';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';

function SheetList({ open }: { open: (id: string) => void }) {
  const { t } = useTranslation(['stocktake', 'common']);
  const labels = useStocktakeLabels();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <DataTable<TStocktake>
        {...routePage(stocktakeRoutes.listStocktakes)}
        rowKey="id"
        excel={{ fileName: 'stocktakes' }}
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            <Form.Item name="status">
              <Select
                allowClear
                placeholder={t('fields.status')}
                style={{ width: 140 }}
                options={STOCKTAKE_STATUSES.map((s) => ({ value: s, label: labels.status(s) }))}
              />
            </Form.Item>
            <Form.Item name="type">
              <Select
                allowClear
                placeholder={t('fields.type')}
                style={{ width: 140 }}
                options={STOCKTAKE_TYPES.map((s) => ({ value: s, label: labels.type(s) }))}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('fields.warehouse')} style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="stocktake-new">
            {t('list.new')}
          </Button>
        }
        columns={[
          { title: t('fields.number'), dataIndex: 'number', key: 'number', sorter: true },
          { title: t('fields.name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: t('fields.year'), dataIndex: 'year', key: 'year', sorter: true },
          { title: t('fields.attribute'), dataIndex: 'attribute' },
          {
            title: t('fields.type'),
            dataIndex: 'type',
            key: 'type',
            sorter: true,
            render: (v: TStocktake['type']) => labels.type(v),
            exportValue: (r) => labels.type(r.type),
          },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            key: 'status',
            sorter: true,
            render: (v: TStocktake['status']) => <StocktakeStatusTag status={v} />,
            exportValue: (r) => labels.status(r.status),
          },
          { title: t('fields.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('list.locations'), dataIndex: 'location_count', align: 'right' },
          { title: t('list.pending'), dataIndex: 'pending_locations', align: 'right' },
          { title: t('list.varianceLines'), dataIndex: 'variance_lines', align: 'right' },
          {
            title: t('fields.createdAt'),
            dataIndex: 'created_at',
            key: 'created_at',
            sorter: true,
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('list.actions'),
            key: 'open',
            noExport: true,
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => open(r.id)} data-testid={`stocktake-open-${r.number}`}>
                {t('list.open')}
              </Button>
            ),
          },
        ]}
      />
      <CreateStocktakeModal
        open={creating}
        onClose={(id) => {
          setCreating(false);
          if (id) open(id);
        }}
      />
    </>
  );
}

function SheetDetail({ sheet, back }: { sheet: TStocktakeDetail; back: () => void }) {
  const { t } = useTranslation(['stocktake', 'common']);
  const labels = useStocktakeLabels();
  const { message } = App.useApp();
  const action = useStocktakeAction();
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<string>(sheet.actions.includes('count') ? 'count' : 'report');
  const run = async (a: 'next_round' | 'close' | 'cancel') => {
    setError(null);
    try {
      const after = await action.mutateAsync({ id: sheet.id, action: a });
      void message.success(t(`actions.done.${a}`, { number: after.number }));
      if (a !== 'next_round') setTab('report');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const n = (v: number | null) => (v === null ? '' : v);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        className="card-head-wrap"
        title={
          <Space wrap>
            <Button icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('detail.back')} />
            {sheet.number} {sheet.name}
            <StocktakeStatusTag status={sheet.status} />
          </Space>
        }
        extra={
          <Space wrap className="no-print">
            {sheet.actions.includes('next_round') ? (
              <Popconfirm
                title={t('actions.nextRoundConfirm')}
                okText={t('common:actions.confirm')}
                cancelText={t('common:actions.cancel')}
                onConfirm={() => run('next_round')}
              >
                <Button type="primary" loading={action.isPending} data-testid="stocktake-next-round">
                  {t('actions.nextRound')}
                </Button>
              </Popconfirm>
            ) : null}
            {sheet.actions.includes('close') ? (
              <Popconfirm
                title={t('actions.closeConfirm')}
                okText={t('common:actions.confirm')}
                cancelText={t('common:actions.cancel')}
                onConfirm={() => run('close')}
              >
                <Button danger type="primary" loading={action.isPending} data-testid="stocktake-close">
                  {t('actions.close')}
                </Button>
              </Popconfirm>
            ) : null}
            {sheet.actions.includes('cancel') ? (
              <Popconfirm
                title={t('actions.cancelConfirm')}
                okText={t('common:actions.confirm')}
                cancelText={t('common:actions.cancel')}
                onConfirm={() => run('cancel')}
              >
                <Button loading={action.isPending}>{t('actions.cancel')}</Button>
              </Popconfirm>
            ) : null}
          </Space>
        }
        data-testid="stocktake-detail"
      >
        {error ? (
          <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="stocktake-error" />
        ) : null}
        <Descriptions size="small" column={{ xs: 1, md: 4 }}>
          <Descriptions.Item label={t('fields.type')}>{labels.type(sheet.type)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.scope')}>{labels.scope(sheet.scope)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.year')}>{sheet.year}</Descriptions.Item>
          <Descriptions.Item label={t('fields.attribute')}>{sheet.attribute || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.warehouse')}>
            {sheet.warehouse_code} {sheet.warehouse_name}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.round')}>
            <span data-testid="stocktake-round">
              {sheet.round ? t('detail.roundOf', { round: sheet.round, max: sheet.max_round }) : '—'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('list.locations')}>{sheet.location_count}</Descriptions.Item>
          <Descriptions.Item label={t('list.pending')}>
            <span data-testid="stocktake-pending">{sheet.pending_locations}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.lines')}>{sheet.line_count}</Descriptions.Item>
          <Descriptions.Item label={t('list.varianceLines')}>{sheet.variance_lines}</Descriptions.Item>
          {sheet.closed_at ? (
            <Descriptions.Item label={t('detail.closedAt')}>{formatDateTime(sheet.closed_at)}</Descriptions.Item>
          ) : null}
        </Descriptions>
      </Card>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          ...(sheet.actions.includes('count')
            ? [
                {
                  key: 'count',
                  label: t('detail.tabs.count'),
                  children: <CountPanel key={sheet.status} sheet={sheet} />,
                },
              ]
            : []),
          {
            key: 'locations',
            label: t('detail.tabs.locations'),
            children: (
              <DataTable<TStocktakeLocation>
                {...routePage(stocktakeRoutes.listStocktakeLocations, { params: { id: sheet.id } })}
                rowKey="location_id"
                filters={
                  <Form.Item name="pending">
                    <Select
                      allowClear
                      placeholder={t('locations.filter')}
                      style={{ width: 160 }}
                      options={[
                        { value: 'true', label: t('locations.pending') },
                        { value: 'false', label: t('locations.done') },
                      ]}
                    />
                  </Form.Item>
                }
                columns={[
                  { title: t('fields.location'), dataIndex: 'location_code' },
                  { title: t('fields.name'), dataIndex: 'location_name' },
                  { title: t('locations.linesInRound'), dataIndex: 'lines_in_round', align: 'right' },
                  {
                    title: t('locations.state'),
                    render: (_, l) =>
                      l.pending ? (
                        <Tag color="orange">{t('locations.pending')}</Tag>
                      ) : (
                        <Tag color="green">{t('locations.done')}</Tag>
                      ),
                  },
                  ...([1, 2, 3] as const).map((r) => ({
                    title: t(`locations.counted${r}`),
                    dataIndex: `counted_${r}_at`,
                    render: (v: string | null) => (v ? formatDateTime(v) : ''),
                  })),
                ]}
              />
            ),
          },
          {
            key: 'lines',
            label: t('detail.tabs.lines'),
            children: (
              <DataTable<TStocktakeLine>
                {...routePage(stocktakeRoutes.listStocktakeLines, { params: { id: sheet.id } })}
                rowKey="id"
                excel={{ fileName: `stocktake-lines-${sheet.number}` }}
                filters={
                  <>
                    <Form.Item name="round">
                      <Select
                        allowClear
                        placeholder={t('lines.round')}
                        style={{ width: 140 }}
                        options={[1, 2, 3].map((r) => ({ value: r, label: t('detail.roundN', { round: r }) }))}
                      />
                    </Form.Item>
                    <Form.Item name="differing">
                      <Select
                        allowClear
                        placeholder={t('lines.differing')}
                        style={{ width: 160 }}
                        options={[
                          { value: 'true', label: t('lines.onlyDiffering') },
                          { value: 'false', label: t('lines.onlyMatching') },
                        ]}
                      />
                    </Form.Item>
                  </>
                }
                columns={[
                  { title: t('fields.location'), dataIndex: 'location_code' },
                  { title: t('fields.productNumber'), dataIndex: 'product_number' },
                  { title: t('fields.productName'), dataIndex: 'product_name' },
                  { title: t('fields.expiryDate'), dataIndex: 'expiry_date' },
                  { title: t('lines.lastRound'), dataIndex: 'last_round', align: 'right' },
                  { title: t('lines.count1'), dataIndex: 'count_1', align: 'right', render: n },
                  { title: t('lines.book1'), dataIndex: 'book_1', align: 'right', render: n },
                  { title: t('lines.count2'), dataIndex: 'count_2', align: 'right', render: n },
                  { title: t('lines.book2'), dataIndex: 'book_2', align: 'right', render: n },
                  { title: t('lines.count3'), dataIndex: 'count_3', align: 'right', render: n },
                  { title: t('lines.book3'), dataIndex: 'book_3', align: 'right', render: n },
                  { title: t('lines.difference'), dataIndex: 'difference', align: 'right', render: n },
                  { title: t('lines.variance'), dataIndex: 'variance', align: 'right', render: n },
                ]}
              />
            ),
          },
          { key: 'report', label: t('detail.tabs.report'), children: <VarianceReport sheet={sheet} /> },
        ]}
      />
    </Space>
  );
}

/** /inventory: stocktake sheets in up to three rounds — create, count by scanner, recount, close, variance report. */
export default function InventoryPage() {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const sheet = useRoute(stocktakeRoutes.getStocktake, id ? { params: { id } } : null);
  if (id && sheet.isError) return <Alert type="error" showIcon title={errorText(sheet.error)} />;
  if (id && sheet.data) return <SheetDetail key={sheet.data.id} sheet={sheet.data} back={() => setParams({})} />;
  if (id) return null;
  return <SheetList open={(sheetId) => setParams({ id: sheetId })} />;
}
