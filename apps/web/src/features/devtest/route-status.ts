import {
  CRM_PATHS,
  MAIN_PATHS,
  PAYMENT_PATHS,
  PRINT_PATHS,
  PUBLIC_PATHS,
  STORE_MEMBER_PATHS,
  STORE_PUBLIC_PATHS,
  type TScreenPath,
} from '../../routes/route-table';
import type { TScreenMap } from '../../routes/screens';
import type { TPageResult, TTableQuery } from '../../shared/table/list-query';

export type TArea = 'public' | 'main' | 'print' | 'payment' | 'store' | 'crm';
export interface TRouteStatus {
  path: TScreenPath;
  area: TArea;
  ready: boolean;
}

const AREAS: Array<[TArea, readonly TScreenPath[]]> = [
  ['public', PUBLIC_PATHS],
  ['main', MAIN_PATHS],
  ['print', PRINT_PATHS],
  ['payment', PAYMENT_PATHS],
  ['store', [...STORE_PUBLIC_PATHS, ...STORE_MEMBER_PATHS]],
  ['crm', CRM_PATHS],
];

export function routeStatuses(screens: TScreenMap): TRouteStatus[] {
  return AREAS.flatMap(([area, paths]) => paths.map((path) => ({ path, area, ready: Boolean(screens[path]) })));
}

/** The list contract (search, ordering, paging) over an in-memory list, as a server list would answer it. */
export function pageOf<T extends object>(rows: T[], query: TTableQuery, text: (row: T) => string): TPageResult<T> {
  const search = query.search?.toLowerCase();
  let found = search ? rows.filter((r) => text(r).toLowerCase().includes(search)) : rows;
  for (const [key, value] of Object.entries(query)) {
    if (['page', 'page_size', 'search', 'ordering'].includes(key) || value === undefined || value === '') continue;
    found = found.filter((r) => String((r as Record<string, unknown>)[key]) === String(value));
  }
  if (query.ordering) {
    const desc = query.ordering.startsWith('-');
    const key = query.ordering.replace(/^-/, '');
    found = [...found].sort((a, b) => {
      const x = String((a as Record<string, unknown>)[key]);
      const y = String((b as Record<string, unknown>)[key]);
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
    });
  }
  const start = (query.page - 1) * query.page_size;
  return { count: found.length, results: found.slice(start, start + query.page_size) };
}
