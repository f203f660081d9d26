import type { TRevenue } from '@wms/contracts';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { twd } from '../../billing/money';
import { useRevenue } from '../api';
import '../i18n';

type TRow = TRevenue['sellers'][number];

/**
 * The CRM dashboard's revenue per seller per month (issue #35): what the statements that are not void bill before
 * tax, a column per month (the last six), and all sellers' sum in the last row.
 */
export function RevenueCard() {
  const { t } = useTranslation('usage');
  const data = useRevenue(6);
  const r = data.data;
  const total: TRow | null = r
    ? { customer_id: 'total', customer_name: t('revenue.all'), net: '', months: r.totals }
    : null;
  return (
    <Card title={t('revenue.title')} data-testid="crm-revenue">
      <Table<TRow>
        rowKey="customer_id"
        size="small"
        pagination={false}
        loading={data.isLoading}
        scroll={{ x: true }}
        dataSource={r ? [...r.sellers, ...(r.sellers.length ? [total!] : [])] : []}
        locale={{ emptyText: t('revenue.none') }}
        columns={[
          {
            title: t('crmStatements.seller'),
            dataIndex: 'customer_name',
            key: 'seller',
            render: (v: string, row) =>
              row.customer_id === 'total' ? (
                <strong>{v}</strong>
              ) : (
                <Link to={`/crm/customer?open=${row.customer_id}`}>{v}</Link>
              ),
          },
          ...(r?.months ?? []).map((m, i) => ({
            title: m,
            key: m,
            align: 'right' as const,
            render: (_: unknown, row: TRow) => {
              const cell = row.months[i];
              if (!cell || cell.net === '0') return '—';
              return (
                <span title={`${t('revenue.paid')}: ${twd(cell.paid)}`}>
                  {row.customer_id === 'total' ? <strong>{twd(cell.net)}</strong> : twd(cell.net)}
                </span>
              );
            },
          })),
        ]}
      />
    </Card>
  );
}
