import type { TListQuery } from '@wms/contracts';
import { type AnyColumn, asc, desc, ilike, or, type SQL, sql } from 'drizzle-orm';
import { sqlState } from '../../db/tx';
import { AppError } from '../../platform/errors';

/**
 * List helpers shared by the basic-settings and catalog modules (`?page=&page_size=&search=&ordering=` →
 * `{count, results}`, Django REST framework habits).
 */

/** `search` as a case-insensitive substring match over some text columns; LIKE wildcards in the term are literal. */
export function searchWhere(term: string | undefined, columns: Array<AnyColumn | SQL>): SQL | undefined {
  if (!term) return undefined;
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...columns.map((c) => ilike(c as AnyColumn, pattern)));
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
  const column = columns[key];
  if (!column) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  return [descending ? desc(column) : asc(column), asc(tieBreaker)];
}

export function pageWindow(q: Pick<TListQuery, 'page' | 'page_size'>): { limit: number; offset: number } {
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
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

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
