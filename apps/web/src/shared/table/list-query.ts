import { PAGE_SIZES, type TListQuery } from '@wms/contracts';

export { PAGE_SIZES };

/** A list query as the server takes it (`?page=&page_size=&search=&ordering=`) plus screen-specific filters. */
export type TTableQuery = TListQuery & Record<string, unknown>;

export interface TPageResult<T> {
  count: number;
  results: T[];
  /** The list counted only up to a cap: `count` is a floor, more pages may follow. */
  count_capped?: boolean;
}

/** antd's sorter → DRF `ordering` (`name`, `-name`), or undefined when unsorted. */
export function toOrdering(field: unknown, order: 'ascend' | 'descend' | null | undefined): string | undefined {
  const key = Array.isArray(field) ? field.join('__') : typeof field === 'string' ? field : undefined;
  if (!key || !order) return undefined;
  return order === 'descend' ? `-${key}` : key;
}

/** The empty state of spec §8: with a search or filter active "No information found", else "Not yet any data". */
export function emptyKind(query: TTableQuery): 'notFound' | 'noData' {
  const { page: _p, page_size: _s, ordering: _o, ...filters } = query;
  const active = Object.values(filters).some((v) => v !== undefined && v !== null && v !== '');
  return active ? 'notFound' : 'noData';
}

/** Read every page of a list (largest page size), for exports. Stops at `limit` rows. */
export async function fetchAllPages<T>(
  fetchPage: (q: TTableQuery) => Promise<TPageResult<T>>,
  query: TTableQuery,
  limit = 100_000,
): Promise<T[]> {
  const pageSize = PAGE_SIZES[PAGE_SIZES.length - 1]!;
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const res = await fetchPage({ ...query, page, page_size: pageSize });
    rows.push(...res.results);
    if (res.results.length < pageSize || (!res.count_capped && rows.length >= res.count) || rows.length >= limit) break;
  }
  return rows.slice(0, limit);
}
