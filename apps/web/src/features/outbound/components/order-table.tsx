import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ORDER_CHANNELS,
  ORDER_STATUSES,
  outboundRoutes,
  SHIP_DUE_FILTERS,
  type TOrder,
  type TOrderColumn,
  type TOrderListQuery,
} from '@wms/contracts';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Table } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../shared/api/query-client';
import { routeKey } from '../../../shared/api/route-query';
import { userSession } from '../../../shared/auth/session';
import { errorText } from '../../../shared/forms/error-text';
import { emptyKind, PAGE_SIZES, type TTableQuery, toOrdering } from '../../../shared/table/list-query';
import { useUrlFilters } from '../../../shared/table/url-filters';
import { fetchOrders, usePlatformOptions, useProviderOptions } from '../api';
import { useOrderLabels } from './labels';
import { orderColumn } from './order-columns';

type TFilters = Partial<TOrderListQuery> & { range?: [Dayjs | null, Dayjs | null] | null };

const listKey = (query: TTableQuery) => routeKey(outboundRoutes.listOrders, { query });
const firstPage = (fromUrl: Record<string, string>): TTableQuery => ({ page: 1, page_size: PAGE_SIZES[1], ...fromUrl });

/**
 * Start loading the list's first page (as OrderTable will ask for it, with the address's filters) before the table
 * renders: a page module calls it when it loads, while the app is still checking the session. The stored access
 * token is used; were it expired, the client's refresh is the one the session check runs (single flight).
 */
export function prefetchFirstPage(urlFilters: readonly string[], fixed?: Partial<TOrderListQuery>): void {
  if (!userSession.isLoggedIn()) return;
  const params = new URLSearchParams(window.location.search);
  const fromUrl: Record<string, string> = {};
  for (const k of urlFilters) {
    const v = params.get(k);
    if (v) fromUrl[k] = v;
  }
  const full = { ...firstPage(fromUrl), ...fixed } as TTableQuery;
  void queryClient.prefetchQuery({ queryKey: listKey(full), queryFn: ({ signal }) => fetchOrders(full, signal) });
}

/**
 * The order list with the seller's columns (/customize), the filters of /deliver (status, dates, channel, platform,
 * carrier, search) and row selection for bulk actions. The shared DataTable has no selection, hence this table.
 */
export function OrderTable(props: {
  columns: TOrderColumn[];
  /** Fixed filters (e.g. only exported orders without a batch). */
  fixed?: Partial<TOrderListQuery>;
  /** Extra columns at the end (actions). */
  extra?: Array<import('antd/es/table').ColumnType<TOrder>>;
  selected?: string[];
  onSelect?: (ids: string[], rows: TOrder[]) => void;
  toolbar?: ReactNode;
  showFilters?: boolean;
  testId?: string;
  /** Filters that may come from the address (`/deliver?status=pending_export`). */
  urlFilters?: readonly string[];
  /** Offer the ship-by filter (due today / late). */
  dueFilter?: boolean;
}) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const platforms = usePlatformOptions();
  const providers = useProviderOptions();
  const [form] = Form.useForm<TFilters>();
  const fromUrl = useUrlFilters(props.urlFilters);
  const [query, setQuery] = useState<TTableQuery>(() => firstPage(fromUrl));
  const full = { ...query, ...props.fixed } as TTableQuery;
  const list = useQuery({
    queryKey: listKey(full),
    queryFn: ({ signal }) => fetchOrders(full, signal),
    placeholderData: keepPreviousData,
  });

  const onSearch = (v: TFilters) => {
    const { range, ...rest } = v;
    const clean = Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined && x !== null && x !== ''));
    setQuery((q) => ({
      page: 1,
      page_size: q.page_size,
      ordering: q.ordering,
      ...clean,
      date_from: range?.[0]?.format('YYYY-MM-DD'),
      date_to: range?.[1]?.format('YYYY-MM-DD'),
    }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={props.testId}>
      <Form<TFilters>
        form={form}
        layout="inline"
        onFinish={onSearch}
        initialValues={fromUrl as TFilters}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="search">
          <Input
            allowClear
            placeholder={t('list.searchPlaceholder')}
            style={{ width: 280 }}
            data-testid="order-search"
          />
        </Form.Item>
        {props.showFilters !== false ? (
          <>
            <Form.Item name="status">
              <Select
                allowClear
                placeholder={l.field('status')}
                style={{ width: 140 }}
                options={ORDER_STATUSES.map((s) => ({ value: s, label: l.status(s) }))}
                data-testid="order-filter-status"
              />
            </Form.Item>
            <Form.Item name="date_field" initialValue="created_at">
              <Select
                style={{ width: 130 }}
                options={(['created_at', 'shipping_date', 'closed_at'] as const).map((f) => ({
                  value: f,
                  label: l.field(f),
                }))}
              />
            </Form.Item>
            <Form.Item name="range">
              <DatePicker.RangePicker />
            </Form.Item>
            <Form.Item name="channel">
              <Select
                allowClear
                placeholder={l.field('channel')}
                style={{ width: 140 }}
                options={ORDER_CHANNELS.map((c) => ({ value: c, label: l.channel(c) }))}
              />
            </Form.Item>
            <Form.Item name="platform_id">
              <Select
                allowClear
                placeholder={l.field('platform')}
                style={{ width: 160 }}
                options={platforms.data ?? []}
              />
            </Form.Item>
            <Form.Item name="logistics_provider_id">
              <Select
                allowClear
                placeholder={l.field('logistics_provider')}
                style={{ width: 160 }}
                options={providers.data ?? []}
              />
            </Form.Item>
            {props.dueFilter ? (
              <Form.Item name="due">
                <Select
                  allowClear
                  placeholder={t('ship.due')}
                  style={{ width: 140 }}
                  options={SHIP_DUE_FILTERS.map((d) => ({ value: d, label: t(`ship.dueFilter.${d}`) }))}
                  data-testid="order-filter-due"
                />
              </Form.Item>
            ) : null}
            <Form.Item name="abnormal">
              <Select
                allowClear
                placeholder={t('list.abnormal')}
                style={{ width: 130 }}
                options={[
                  { value: 'true', label: t('list.onlyAbnormal') },
                  { value: 'false', label: t('list.noAbnormal') },
                ]}
              />
            </Form.Item>
          </>
        ) : null}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="order-search-submit">
              {t('common:actions.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch({});
              }}
            >
              {t('common:actions.reset')}
            </Button>
          </Space>
        </Form.Item>
        {props.toolbar ? (
          <Form.Item style={{ marginInlineStart: 'auto', maxWidth: '100%' }}>{props.toolbar}</Form.Item>
        ) : null}
      </Form>
      <Table<TOrder>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.results ?? []}
        columns={[...props.columns.map((c) => orderColumn(c, l, t)), ...(props.extra ?? [])]}
        scroll={{ x: 'max-content' }}
        rowSelection={
          props.onSelect
            ? {
                selectedRowKeys: props.selected ?? [],
                onChange: (keys, rows) => props.onSelect?.(keys as string[], rows),
                preserveSelectedRowKeys: true,
              }
            : undefined
        }
        onChange={(p, _f, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<TOrder> | undefined;
          const ordering = toOrdering(s?.column?.key, s?.order);
          const size = p.pageSize ?? query.page_size;
          setQuery((q) => ({
            ...q,
            page: size !== q.page_size || ordering !== q.ordering ? 1 : (p.current ?? 1),
            page_size: size,
            ordering,
          }));
        }}
        locale={{
          emptyText: list.isError ? (
            <Empty description={errorText(list.error)} />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={emptyKind(query) === 'notFound' ? t('common:states.notFound') : t('common:states.noData')}
            />
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.page_size,
          total: list.data?.count ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          // A seller with very many orders gets "more than 10,000": the server stops counting there (the pager then
          // reaches the first 10,000; filters or the other sort order reach the rest).
          showTotal: (total) =>
            list.data?.count_capped ? (
              <span title={t('list.cappedHint', { total: total.toLocaleString() })} data-testid="order-total-capped">
                {t('list.totalCapped', { total: total.toLocaleString() })}
              </span>
            ) : (
              t('common:table.total', { count: total })
            ),
        }}
      />
    </Space>
  );
}
