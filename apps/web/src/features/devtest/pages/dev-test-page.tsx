import { Card, Form, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { screenTitle } from '../../../routes/screen-title';
import { SCREENS } from '../../../routes/screens';
import { DataTable, type TDataColumn } from '../../../shared/table/data-table';
import { pageOf, routeStatuses, type TRouteStatus } from '../route-status';

const ROWS = routeStatuses(SCREENS);
const AREAS = ['public', 'main', 'print', 'payment', 'store', 'crm'] as const;

/** /dev-test: which spec screens are finished and which are still under construction (the shared DataTable). */
export default function DevTestPage() {
  const { t, i18n } = useTranslation(['devtest', 'nav', 'common']);
  const columns: TDataColumn<TRouteStatus>[] = [
    {
      title: t('columns.path'),
      dataIndex: 'path',
      key: 'path',
      sorter: true,
      render: (path: string, row) =>
        row.area === 'main' || row.area === 'payment' ? <Link to={path}>{path}</Link> : <code>{path}</code>,
    },
    {
      title: t('columns.title'),
      key: 'title',
      render: (_: unknown, row) => screenTitle(row.path),
      exportValue: (row) => screenTitle(row.path),
    },
    {
      title: t('columns.area'),
      dataIndex: 'area',
      key: 'area',
      sorter: true,
      render: (area: TRouteStatus['area']) => t(`areas.${area}`),
      exportValue: (row) => t(`areas.${row.area}`),
    },
    {
      title: t('columns.status'),
      dataIndex: 'ready',
      key: 'ready',
      sorter: true,
      render: (ready: boolean) =>
        ready ? <Tag color="green">{t('status.ready')}</Tag> : <Tag>{t('status.pending')}</Tag>,
      exportValue: (row) => (row.ready ? t('status.ready') : t('status.pending')),
    },
  ];
  return (
    <Card title={t('title')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <DataTable<TRouteStatus>
        queryKey={['devtest', 'routes', i18n.language]}
        rowKey="path"
        columns={columns}
        fetchPage={async (query) => pageOf(ROWS, query, (r) => `${r.path} ${screenTitle(r.path)}`)}
        filters={
          <Form.Item name="area">
            <Select
              allowClear
              placeholder={t('columns.area')}
              style={{ minWidth: 160 }}
              options={AREAS.map((a) => ({ value: a, label: t(`areas.${a}`) }))}
            />
          </Form.Item>
        }
        excel={{ fileName: 'routes' }}
      />
    </Card>
  );
}
