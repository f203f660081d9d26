import { describe, expect, it } from 'vitest';
import { pageOf, routeStatuses } from '../../features/devtest/route-status';
import { SCREENS } from '../../routes/screens';
import { emptyKind, fetchAllPages, PAGE_SIZES, toOrdering } from './list-query';

describe('list query helpers', () => {
  it('offers the page sizes of spec §9', () => {
    expect([...PAGE_SIZES]).toEqual([10, 25, 50, 100]);
  });

  it('turns antd sorting into DRF ordering', () => {
    expect(toOrdering('name', 'ascend')).toBe('name');
    expect(toOrdering('name', 'descend')).toBe('-name');
    expect(toOrdering(['product', 'code'], 'ascend')).toBe('product__code');
    expect(toOrdering('name', null)).toBeUndefined();
  });

  it('says "no information found" only when a search or filter is active', () => {
    expect(emptyKind({ page: 1, page_size: 10 })).toBe('noData');
    expect(emptyKind({ page: 2, page_size: 25, ordering: '-name' })).toBe('noData');
    expect(emptyKind({ page: 1, page_size: 10, search: 'x' })).toBe('notFound');
    expect(emptyKind({ page: 1, page_size: 10, area: 'main' })).toBe('notFound');
  });

  it('reads every page for an export', async () => {
    const rows = routeStatuses(SCREENS);
    const pages: number[] = [];
    const all = await fetchAllPages(
      async (q) => {
        pages.push(q.page);
        return pageOf(rows, q, (r) => r.path);
      },
      { page: 3, page_size: 10 },
    );
    expect(all).toEqual(rows);
    expect(pages).toEqual([1]);
    const many = Array.from({ length: 230 }, (_, i) => ({ i }));
    pages.length = 0;
    const got = await fetchAllPages(
      async (q) => {
        pages.push(q.page);
        return pageOf(many, q, () => '');
      },
      { page: 1, page_size: 10 },
    );
    expect(got).toHaveLength(230);
    expect(pages).toEqual([1, 2, 3]);
  });

  it('reads past a capped count (the count is a floor then) until a page comes back short', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ i }));
    const pages: number[] = [];
    const got = await fetchAllPages(
      async (q) => {
        pages.push(q.page);
        return { ...pageOf(many, q, () => ''), count: 100, count_capped: true };
      },
      { page: 1, page_size: 10 },
    );
    expect(got).toHaveLength(250);
    expect(pages).toEqual([1, 2, 3]);
  });

  it('pages, searches, filters and orders an in-memory list like the server contract', () => {
    const rows = routeStatuses(SCREENS);
    const main = pageOf(rows, { page: 1, page_size: 10, area: 'main', ordering: '-path' }, (r) => r.path);
    expect(main.count).toBe(rows.filter((r) => r.area === 'main').length);
    expect(main.results).toHaveLength(10);
    expect(main.results[0]!.path >= main.results[1]!.path).toBe(true);
    expect(
      pageOf(rows, { page: 1, page_size: 10, search: 'TWO-FACTOR' }, (r) => r.path).results.map((r) => r.path),
    ).toEqual(['/two-factor']);
  });
});
