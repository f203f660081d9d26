import { DownloadOutlined } from '@ant-design/icons';
import { crmRoutes, STATEMENT_STATUSES, type TStatement, type TStatementStatus, usageRoutes } from '@wms/contracts';
import { App, Button, Card, DatePicker, Drawer, Input, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRoute } from '../../../shared/api/route-query';
import { downloadFile } from '../../../shared/download';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { twd } from '../../billing/money';
import { type TCrmStatementFilter, useCrmStatements } from '../api';
import { STATUS_COLOR, StatementDetail } from '../components/statements';
import '../i18n';

/** A seller picker over the CRM's customers (searched as typed). */
function SellerSelect({ value, onChange }: { value?: string; onChange: (id: string | undefined) => void }) {
  const { t } = useTranslation('usage');
  const [search, setSearch] = useState('');
  const found = useRoute(crmRoutes.listCustomers, { query: { search: search || undefined, page: 1, page_size: 25 } });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      placeholder={t('crmStatements.seller')}
      style={{ width: 220 }}
      loading={found.isFetching}
      options={(found.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }))}
      data-testid="crm-statements-seller"
    />
  );
}

/**
 * /crm/statements: every seller's usage statements (issue #35) — filters (month, status, seller), search (number or
 * seller name), pages, the sums of everything found (per status too) and the export of it as xlsx; a row opens the
 * statement down to its events.
 */
export default function CrmStatementsPage() {
  const { t } = useTranslation('usage');
  const { message } = App.useApp();
  const [filter, setFilter] = useState<TCrmStatementFilter>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [open, setOpen] = useState<TStatement | null>(null);
  const list = useCrmStatements(filter, page, pageSize);
  const totals = list.data?.totals;
  const set = (f: Partial<TCrmStatementFilter>) => {
    setFilter((old) => ({ ...old, ...f }));
    setPage(1);
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('crmStatements.title')}
      </Typography.Title>
      <Card size="small">
        <Space wrap>
          <DatePicker
            picker="month"
            allowClear
            placeholder={t('statements.month')}
            value={filter.month ? dayjs(`${filter.month}-01`) : null}
            onChange={(d) => set({ month: d ? d.format('YYYY-MM') : undefined })}
            data-testid="crm-statements-month"
          />
          <Select<TStatementStatus>
            allowClear
            placeholder={t('statements.status')}
            style={{ width: 140 }}
            value={filter.status}
            onChange={(v) => set({ status: v ?? undefined })}
            options={STATEMENT_STATUSES.map((s) => ({ value: s, label: t(`statements.statuses.${s}`) }))}
            data-testid="crm-statements-status"
          />
          <SellerSelect value={filter.customer_id} onChange={(id) => set({ customer_id: id })} />
          <Input.Search
            allowClear
            placeholder={t('crmStatements.search')}
            style={{ width: 260 }}
            onSearch={(v) => set({ search: v.trim() || undefined })}
            data-testid="crm-statements-search"
          />
          <Button
            icon={<DownloadOutlined />}
            data-testid="crm-statements-export"
            onClick={() =>
              downloadFile(usageRoutes.crmExportStatements, 'statements.xlsx', { query: filter }).catch((err) =>
                message.error(errorText(err)),
              )
            }
          >
            {t('crmStatements.export')}
          </Button>
        </Space>
      </Card>
      <Card size="small" data-testid="crm-statements-totals">
        <Space size="large" wrap>
          <Statistic title={t('crmStatements.count')} value={totals?.count ?? 0} />
          <Statistic title={t('crmStatements.net')} value={twd(totals?.net ?? '0')} />
          <Statistic title={t('crmStatements.tax')} value={twd(totals?.tax ?? '0')} />
          <Statistic title={t('crmStatements.total')} value={twd(totals?.total ?? '0')} />
          <Space orientation="vertical" size={2}>
            {(totals?.by_status ?? []).map((s) => (
              <span key={s.status}>
                <Tag color={STATUS_COLOR[s.status]}>{t(`statements.statuses.${s.status}`)}</Tag>
                {s.count} · {twd(s.total)}
              </span>
            ))}
          </Space>
        </Space>
      </Card>
      <Table<TStatement>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.results ?? []}
        locale={{ emptyText: t('statements.none') }}
        data-testid="crm-statements-table"
        pagination={{
          current: page,
          pageSize,
          total: list.data?.count ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 25, 50, 100],
          onChange: (p, size) => {
            setPage(size === pageSize ? p : 1);
            setPageSize(size);
          },
        }}
        columns={[
          { title: t('statements.month'), dataIndex: 'month', key: 'month' },
          {
            title: t('statements.number'),
            dataIndex: 'number',
            key: 'number',
            render: (v: string, s) => (
              <Typography.Link onClick={() => setOpen(s)} data-testid={`crm-statement-${s.number}`}>
                {v}
              </Typography.Link>
            ),
          },
          {
            title: t('crmStatements.seller'),
            dataIndex: 'customer_name',
            key: 'seller',
            render: (v: string, s) => <Link to={`/crm/customer?open=${s.customer_id}`}>{v}</Link>,
          },
          {
            title: t('statements.status'),
            dataIndex: 'status',
            key: 'status',
            render: (v: TStatement['status']) => <Tag color={STATUS_COLOR[v]}>{t(`statements.statuses.${v}`)}</Tag>,
          },
          {
            title: t('usage.subtotal'),
            dataIndex: 'subtotal',
            key: 'subtotal',
            align: 'right',
            render: (v: string) => twd(v),
          },
          {
            title: t('statements.minimumFee'),
            dataIndex: 'minimum_fee',
            key: 'minimum_fee',
            align: 'right',
            render: (v: string) => twd(v),
          },
          { title: t('usage.total'), dataIndex: 'total', key: 'total', align: 'right', render: (v: string) => twd(v) },
          {
            title: t('statements.issuedAt'),
            dataIndex: 'issued_at',
            key: 'issued_at',
            render: (v: string) => formatDateTime(v),
          },
        ]}
      />
      <Drawer
        open={!!open}
        onClose={() => setOpen(null)}
        size="large"
        title={open ? t('statements.detailTitle', { number: open.number, month: open.month }) : ''}
      >
        {open ? <StatementDetail key={open.id} statement={open} staff /> : null}
      </Drawer>
    </Space>
  );
}
