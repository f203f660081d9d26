import { PAGE_SIZES, type TListQuery } from '@wms/contracts';
import { type AnyColumn, asc, desc, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedRows } from '../db/client';
import { sqlState } from '../db/tx';
import { AppError } from './errors';
import { grantsToRead, settleGrants } from './request-grants';

/**
 * List helpers of every module (`?page=&page_size=&search=&ordering=` → `{count, results}`, Django REST framework
 * habits), for Drizzle queries and for raw SQL alike.
 */

/** The paging and search options of a list; `all` (exports) lifts the page to that many rows. */
export type TPageOpts = Pick<TListQuery, 'page' | 'page_size' | 'search' | 'ordering'> & { all?: number };

/** An ILIKE pattern matching `term` anywhere; LIKE wildcards in the term are literal. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `search` as a case-insensitive substring match over some text columns. */
export function searchWhere(term: string | undefined, columns: Array<AnyColumn | SQL>): SQL | undefined {
  if (!term) return undefined;
  const pattern = likePattern(term);
  return or(...columns.map((c) => ilike(c as AnyColumn, pattern)));
}

/**
 * The whitelist entry of an `?ordering=` key, or undefined. Own keys only: `constructor`, `__proto__` and the other
 * names every object inherits are not columns.
 */
export function orderColumn<T>(columns: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(columns, key) ? columns[key] : undefined;
}

/**
 * `ordering=name` or `-name`, from a whitelist (anything else is a 400 on `ordering`); ties broken by `tieBreaker`
 * so pages never overlap.
 */
export function orderingOf(
  ordering: string | undefined,
  columns: Record<string, AnyColumn | SQL>,
  fallback: string,
  tieBreaker: AnyColumn,
): SQL[] {
  const raw = ordering ?? fallback;
  const descending = raw.startsWith('-');
  const key = descending ? raw.slice(1) : raw;
  const column = orderColumn(columns, key);
  if (!column) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  return [descending ? desc(column) : asc(column), asc(tieBreaker)];
}

/** LIMIT/OFFSET of a page (or of the first `all` rows). */
export function pageWindow(q: Pick<TListQuery, 'page' | 'page_size'> & { all?: number }): {
  limit: number;
  offset: number;
} {
  if (q.all) return { limit: q.all, offset: 0 };
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
}

/**
 * A LIMIT count for SQL: a page size (one of PAGE_SIZES) as a literal, anything else (an export's row count) as a
 * parameter. A prepared statement then has at most four texts per shape, and its generic plan knows how many rows the
 * page cut gives — a parameter is costed as 10 % of the rows, and the product stock page's generic plan then scanned
 * every product and location to aggregate "1,000" rows (4.4 ms against 1.9; `preparedRows` keeps generic plans).
 */
export function limitSql(limit: number): SQL {
  return (PAGE_SIZES as readonly number[]).includes(limit) ? sql.raw(String(limit)) : sql`${limit}`;
}

/** `limit … offset …` of a page, for raw SQL. */
export function pageSql(q: Pick<TListQuery, 'page' | 'page_size'>): SQL {
  const { limit, offset } = pageWindow(q);
  return sql`limit ${limitSql(limit)} offset ${offset}`;
}

/** The most rows an Excel export writes (the list's filters narrow it). */
export const EXPORT_MAX_ROWS = 50_000;

export const countAll = sql<number>`count(*)::int`;

/**
 * Turn constraint violations into catalogue errors: a duplicate key names the field, a foreign key that still
 * points at the row means it is in use (stock, documents, children).
 */
export function constraintError(err: unknown, uniqueField = 'code'): never {
  const state = sqlState(err);
  if (state === '23505') throw new AppError('DUPLICATE_VALUE', { field: uniqueField });
  if (state === '23503') throw new AppError('IN_USE');
  throw err;
}

/** A timestamp as ISO text for JSON (null stays null). */
export const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

/** ISO-8601 UTC text of a timestamptz column in raw SQL (identical on both drivers). */
export const isoSql = (column: string): SQL =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * A list page and its count in ONE statement — one round trip, kept prepared (`preparedRows`): `page` is joined
 * laterally to the one-row `count` (a query answering `n`). `page` must give each row its place as `page_key`; the
 * rows come back in that order with `page_key` and the count taken off (a page sent by `JSON.stringify` carries
 * nothing beyond its contract). An empty page leaves only the count's row, whose `page_key` is null. On a
 * `grants: 'first-statement'` route the caller's grants come with it (`grantsToRead`) and are checked before the
 * rows are looked at.
 */
export async function countedPage<T>(ex: Executor, count: SQL, page: SQL): Promise<{ count: number; rows: T[] }> {
  const grants = grantsToRead();
  const found = await preparedRows<T & { page_count: number; page_key: unknown; page_grants?: string | null }>(
    ex,
    sql`select c.n as page_count, ${grants ? sql`c.g as page_grants,` : sql``} x.*
        from (select c0.n ${grants ? sql`, ${grants} as g` : sql``} from (${count}) c0) c
        left join lateral (${page}) x on true order by x.page_key`,
  );
  if (grants) await settleGrants(ex, found[0]?.page_grants);
  const rows = found
    .filter((r) => r.page_key !== null)
    .map(({ page_count: _c, page_key: _k, page_grants: _g, ...row }) => row as T);
  return { count: Number(found[0]?.page_count ?? 0), rows };
}
