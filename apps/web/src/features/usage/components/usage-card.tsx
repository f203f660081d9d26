import type { TUsageEvent, TUsageKind, TUsageLine } from '@wms/contracts';
import { Card, DatePicker, Descriptions, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import { twd } from '../../billing/money';
import { useMonthUsage, useUsageEvents } from '../api';
import '../i18n';

/** Where a seller opens the document of an event. */
const DOCUMENT_PAGE: Record<TUsageEvent['source_type'], string> = {
  inbound_receipt: '/entry',
  outbound_order: '/deliver',
  return_receipt: '/return',
  storage_snapshot: '/billing',
  // A staff correction (issue #35): shown on the statement it is billed on, with its dispute.
  correction: '/billing',
};

/**
 * Usage of a month so far (this month first): one line per charge kind with its units and amount, the sum, the 5 %
 * business tax and the total; a line opens its events, each with the document (receipt, order) that caused it. The
 * seller's own (/billing), or one seller's for the staff (`customerId`, in the CRM).
 */
export function UsageCard({ customerId = null }: { customerId?: string | null }) {
  const { t } = useTranslation('usage');
  const [month, setMonth] = useState<string | null>(null);
  const [kind, setKind] = useState<TUsageKind | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const usage = useMonthUsage(customerId, month);
  const data = usage.data;
  const events = useUsageEvents(customerId, data?.month, kind, page, pageSize);
  const pick = (k: TUsageKind | null) => {
    setKind(k);
    setPage(1);
  };
  return (
    <Card
      title={t('usage.title')}
      data-testid={customerId ? 'crm-usage' : 'billing-usage'}
      extra={
        <DatePicker
          picker="month"
          allowClear={false}
          value={data ? dayjs(`${data.month}-01`) : month ? dayjs(`${month}-01`) : null}
          onChange={(d) => {
            if (d) setMonth(d.format('YYYY-MM'));
            pick(null);
          }}
          data-testid="usage-month"
        />
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('usage.hint')}</Typography.Text>
        <Table<TUsageLine>
          rowKey="kind"
          size="small"
          pagination={false}
          loading={usage.isLoading}
          dataSource={data?.lines ?? []}
          locale={{ emptyText: t('usage.none') }}
          onRow={(l) => ({ onClick: () => pick(l.kind), style: { cursor: 'pointer' } })}
          rowClassName={(l) => (l.kind === kind ? 'ant-table-row-selected' : '')}
          columns={[
            {
              title: t('usage.kind'),
              dataIndex: 'kind',
              key: 'kind',
              render: (k: TUsageKind) => (
                <Typography.Link data-testid={`usage-line-${k}`}>{t(`kinds.${k}`)}</Typography.Link>
              ),
            },
            { title: t('usage.events'), dataIndex: 'events', key: 'events', align: 'right' },
            { title: t('usage.quantity'), dataIndex: 'quantity', key: 'quantity', align: 'right' },
            {
              title: t('usage.amount'),
              dataIndex: 'amount',
              key: 'amount',
              align: 'right',
              render: (v: string) => twd(v),
            },
          ]}
        />
        {data ? (
          <Descriptions size="small" column={3} bordered data-testid="usage-totals">
            <Descriptions.Item label={t('usage.subtotal')}>{twd(data.subtotal)}</Descriptions.Item>
            {Number(data.minimum_fee) > 0 ? (
              <Descriptions.Item label={t('statements.minimumFee')}>{twd(data.minimum_fee)}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('usage.tax', { rate: Number(data.tax_rate) * 100 })}>
              {twd(data.tax)}
            </Descriptions.Item>
            <Descriptions.Item label={t('usage.total')}>
              <strong data-testid="usage-total">{twd(data.total)}</strong>
            </Descriptions.Item>
          </Descriptions>
        ) : null}
        {kind ? (
          <>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('usage.eventsOf', { kind: t(`kinds.${kind}`) })}
            </Typography.Title>
            <Table<TUsageEvent>
              rowKey="id"
              size="small"
              loading={events.isFetching}
              dataSource={events.data?.results ?? []}
              data-testid="usage-events"
              pagination={{
                current: page,
                pageSize,
                total: events.data?.count ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [10, 25, 50, 100],
                onChange: (p, s) => {
                  setPage(s === pageSize ? p : 1);
                  setPageSize(s);
                },
              }}
              columns={[
                {
                  title: t('usage.occurredAt'),
                  dataIndex: 'occurred_at',
                  key: 'occurred_at',
                  render: (v: string) => formatDateTime(v),
                },
                {
                  title: t('usage.document'),
                  key: 'document',
                  render: (_: unknown, e: TUsageEvent) => (
                    <Space size={4}>
                      <Typography.Text type="secondary">{t(`usage.sources.${e.source_type}`)}</Typography.Text>
                      {customerId ? (
                        <span>{e.document_number}</span>
                      ) : (
                        <Link to={`${DOCUMENT_PAGE[e.source_type]}?search=${encodeURIComponent(e.document_number)}`}>
                          {e.document_number}
                        </Link>
                      )}
                    </Space>
                  ),
                },
                { title: t('usage.quantity'), dataIndex: 'quantity', key: 'quantity', align: 'right' },
                {
                  title: t('usage.unitPrice'),
                  dataIndex: 'unit_price',
                  key: 'unit_price',
                  align: 'right',
                  render: (v: string) => twd(v),
                },
                {
                  title: t('usage.amount'),
                  dataIndex: 'amount',
                  key: 'amount',
                  align: 'right',
                  render: (v: string) => twd(v),
                },
              ]}
            />
          </>
        ) : null}
      </Space>
    </Card>
  );
}
