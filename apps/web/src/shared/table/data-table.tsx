import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Space, Table } from 'antd';
import type { ColumnType, TablePaginationConfig, TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExcelExport } from '../excel/use-excel-export';
import type { TCell } from '../excel/xlsx';
import { errorText } from '../forms/error-text';
import { emptyKind, fetchAllPages, PAGE_SIZES, type TPageResult, type TTableQuery, toOrdering } from './list-query';
import { useUrlFilters } from './url-filters';

export interface TDataColumn<T> extends ColumnType<T> {
  /** Column value in the Excel export (default: the `dataIndex` value). */
  exportValue?: (row: T) => TCell;
  /** Leave the column out of the export (e.g. action buttons). */
  noExport?: boolean;
}

export interface TDataTableProps<T> {
  /** Query key prefix (`routePage(route)` gives it with fetchPage, under routeKey(route)); the list query is appended. */
  queryKey: readonly unknown[];
  fetchPage: (query: TTableQuery, signal?: AbortSignal) => Promise<TPageResult<T>>;
  columns: TDataColumn<T>[];
  rowKey: string | ((row: T) => string);
  /** Extra search-form fields (antd Form.Item); their values become query parameters. */
  filters?: ReactNode;
  searchPlaceholder?: string;
  /**
   * Show the "export Excel" button: every row of the current search, in the visible columns; or, with `download`, the
   * server's export of the current search (lists that have an import use it: their export is the import's file).
   */
  excel?: { fileName: string; download?: (query: TTableQuery) => Promise<void> };
  toolbar?: ReactNode;
  initialPageSize?: (typeof PAGE_SIZES)[number];
  /** Hide the keyword box (lists the server cannot search; their filters still show). */
  noSearch?: boolean;
  /** Filters that may come from the address (`?below_safety=true`): they fill the form and the first query. */
  urlFilters?: readonly string[];
  /** Row selection (antd's), for lists with actions on chosen rows. */
  rowSelection?: TableProps<T>['rowSelection'];
  /** What to do first when the list has no rows at all (not when a search found none): a start card's action. */
  emptyAction?: ReactNode;
}

function cellValue<T>(row: T, col: TDataColumn<T>): TCell {
  if (col.exportValue) return col.exportValue(row);
  // dataIndex is a deep recursive type over T in antd: read it as unknown, or tsc explodes on generic T.
  const index: unknown = col.dataIndex;
  const path: unknown[] = Array.isArray(index) ? index : index === undefined ? [] : [index];
  let v: unknown = row;
  for (const key of path) v = (v as Record<string, unknown> | null)?.[key as string];
  return v === undefined || v === null || typeof v === 'object' ? '' : (v as TCell);
}

/**
 * The list widget of every screen: server-side paging (10/25/50/100), sorting (`ordering`), a search form,
 * the empty states of spec §8 and an Excel export of the whole result.
 */
export function DataTable<T extends object>(props: TDataTableProps<T>) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const fromUrl = useUrlFilters(props.urlFilters);
  const [query, setQuery] = useState<TTableQuery>({
    page: 1,
    page_size: props.initialPageSize ?? PAGE_SIZES[0],
    ...fromUrl,
  });
  const { exportExcel, exporting } = useExcelExport<T>();
  const [downloading, setDownloading] = useState(false);

  const list = useQuery({
    queryKey: [...props.queryKey, 'list', query],
    queryFn: ({ signal }) => props.fetchPage(query, signal),
    placeholderData: keepPreviousData,
  });

  const onChange = (pagination: TablePaginationConfig, _f: unknown, sorter: SorterResult<T> | SorterResult<T>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const ordering = toOrdering(s?.column?.key ?? s?.field, s?.order);
    const pageSize = pagination.pageSize ?? query.page_size;
    setQuery((q) => ({
      ...q,
      page: pageSize !== q.page_size || ordering !== q.ordering ? 1 : (pagination.current ?? 1),
      page_size: pageSize,
      ordering,
    }));
  };

  const onSearch = (values: Record<string, unknown>) => {
    const search = typeof values.search === 'string' && values.search.trim() ? values.search.trim() : undefined;
    setQuery((q) => ({ page: 1, page_size: q.page_size, ordering: q.ordering, ...values, search }));
  };

  const onExport = async () => {
    if (!props.excel) return;
    const { download } = props.excel;
    if (download) {
      setDownloading(true);
      try {
        await download(query);
      } catch (err) {
        void message.error(errorText(err));
      } finally {
        setDownloading(false);
      }
      return;
    }
    try {
      const rows = await fetchAllPages((q) => props.fetchPage(q), query);
      const columns = props.columns
        .filter((c) => !c.noExport)
        .map((c) => ({
          title: typeof c.title === 'string' ? c.title : String(c.key ?? ''),
          value: (r: T) => cellValue(r, c),
        }));
      await exportExcel({ fileName: props.excel.fileName, columns, rows });
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const empty = emptyKind(query);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Form
        form={form}
        layout="inline"
        onFinish={onSearch}
        initialValues={fromUrl}
        data-testid="table-search"
        style={{ rowGap: 8 }}
      >
        {props.noSearch ? null : (
          <Form.Item name="search">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={props.searchPlaceholder ?? t('table.searchPlaceholder')}
              aria-label={t('table.search')}
            />
          </Form.Item>
        )}
        {props.filters}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {t('actions.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch({});
              }}
            >
              {t('actions.reset')}
            </Button>
          </Space>
        </Form.Item>
        <Form.Item style={{ marginInlineStart: 'auto' }}>
          <Space>
            {props.toolbar}
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('actions.refresh')} />
            {props.excel ? (
              <Button icon={<DownloadOutlined />} loading={exporting || downloading} onClick={() => void onExport()}>
                {t('table.export')}
              </Button>
            ) : null}
          </Space>
        </Form.Item>
      </Form>
      <Table<T>
        rowKey={props.rowKey}
        columns={props.columns}
        dataSource={list.data?.results ?? []}
        loading={list.isFetching}
        onChange={onChange}
        rowSelection={props.rowSelection}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: list.isError ? (
            <Empty description={errorText(list.error)} />
          ) : (
            <Empty
              data-testid="table-empty"
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={empty === 'notFound' ? t('states.notFound') : t('states.noData')}
            >
              {empty === 'notFound' ? null : props.emptyAction}
            </Empty>
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.page_size,
          total: pageTotal(list.data, query),
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) =>
            list.data?.count_capped
              ? t('table.totalCapped', { count: list.data.count })
              : t('table.total', { count: total }),
        }}
      />
    </Space>
  );
}

/**
 * The total the pager is given: the count, or — when the server counted only up to a cap — enough to offer the next
 * page while the current one is full (the pages go on past the cap).
 */
function pageTotal<T>(data: TPageResult<T> | undefined, query: TTableQuery): number {
  if (!data) return 0;
  if (!data.count_capped) return data.count;
  const full = data.results.length === query.page_size;
  return Math.max(data.count, (query.page - 1) * query.page_size + data.results.length + (full ? 1 : 0));
}
