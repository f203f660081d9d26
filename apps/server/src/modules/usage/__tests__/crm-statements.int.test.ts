import type { TStatement } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiToday } from '../../../platform/calendar';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

/**
 * The CRM's statements page of every seller (issue #35): filters (month, status, seller), search (number or seller
 * name), pages, the sums of everything found, the xlsx export; and the dashboard's revenue per seller per month.
 * Statements here carry only a minimum monthly fee (no work needed): seller A 500 a month, seller B 1,200.
 */

let ctx: TTestContext;
let staff: string;
const tag = Math.random().toString(36).slice(2, 7);
let a: { customerId: string; token: string };
let b: { customerId: string; token: string };

const thisMonth = taipeiToday().slice(0, 7);
const monthsBack = (n: number) => {
  const [y, m] = thisMonth.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - n, 1)).toISOString().slice(0, 7);
};
const M1 = monthsBack(1);
const M2 = monthsBack(2);

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await ctx.newEmployee()).token;
  a = await ctx.newCustomer({ name: `Alpha 倉儲 ${tag}` });
  b = await ctx.newCustomer({ name: `Beta 商行 ${tag}` });
  for (const [c, min] of [
    [a, '500'],
    [b, '1200'],
  ] as const) {
    const res = await ctx.api.usageRoutes.crmCreateRateCard({
      body: { customer_id: c.customerId, valid_from: `${M2}-01`, rates: { minimum_monthly: min } },
      token: staff,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => ctx?.close());

async function issue(customerId: string, month: string): Promise<TStatement> {
  const res = await ctx.api.usageRoutes.crmIssueStatement({ body: { customer_id: customerId, month }, token: staff });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe(`the CRM's statements of every seller (${TEST_ENGINE})`, () => {
  let aM1: TStatement;
  let aM2: TStatement;
  let bM1: TStatement;

  it('filters, search, pages and the sums of everything found', async () => {
    aM1 = await issue(a.customerId, M1);
    aM2 = await issue(a.customerId, M2);
    bM1 = await issue(b.customerId, M1);
    expect([aM1.total, bM1.total]).toEqual(['525', '1260']);
    expect(
      (await ctx.api.usageRoutes.crmPayStatement({ params: { id: bM1.id }, body: {}, token: staff })).statusCode,
    ).toBe(200);

    const list = async (query: Record<string, string | number>) => {
      const res = await ctx.api.usageRoutes.crmStatements({ query: { search: tag, ...query }, token: staff });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await list({});
    expect(all.count).toBe(3);
    expect(all.totals).toMatchObject({ count: 3, net: '2200', tax: '110', total: '2310' });
    expect(all.totals.by_status.sort((x, y) => x.status.localeCompare(y.status))).toEqual([
      { status: 'issued', count: 2, net: '1000', tax: '50', total: '1050' },
      { status: 'paid', count: 1, net: '1200', tax: '60', total: '1260' },
    ]);
    // Newest month first, then by seller.
    expect(all.results.map((s) => s.number)).toEqual([aM1.number, bM1.number, aM2.number]);

    const paged = await list({ page: 2, page_size: 10 });
    expect(paged.results).toHaveLength(0);
    expect(paged.totals.count).toBe(3);

    expect((await list({ month: M1 })).results.map((s) => s.id)).toEqual([aM1.id, bM1.id]);
    expect((await list({ status: 'paid' })).results.map((s) => s.id)).toEqual([bM1.id]);
    expect((await list({ customer_id: a.customerId })).totals).toMatchObject({ count: 2, total: '1050' });
    // Search: the seller's name (any case) or the statement's number.
    const byName = await ctx.api.usageRoutes.crmStatements({ query: { search: `beta 商行 ${tag}` }, token: staff });
    expect(byName.json().results.map((s) => s.id)).toEqual([bM1.id]);
    const byNumber = await ctx.api.usageRoutes.crmStatements({
      query: { search: aM2.number, customer_id: a.customerId },
      token: staff,
    });
    expect(byNumber.json().results.map((s) => s.id)).toEqual([aM2.id]);
  });

  it('exports what the filters find as xlsx, headers in the user language', async () => {
    const res = await ctx.api.usageRoutes.crmExportStatements({ query: { search: tag }, token: staff, lang: 'zh-TW' });
    expect(res.statusCode, res.body).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
    expect(values(1).slice(0, 4)).toEqual(['月份', '帳單編號', '客戶', '狀態']);
    const rows = [2, 3, 4].map(values);
    expect(rows.map((r) => [r[1], r[3], r[7]])).toEqual([
      [aM1.number, '已開立', 525],
      [bM1.number, '已付款', 1260],
      [aM2.number, '已開立', 525],
    ]);
    expect(sheet.getRow(5).values ?? []).toHaveLength(0);
    // A seller cannot reach the CRM's list.
    const seller = await ctx.api.usageRoutes.crmStatements({ query: {}, token: a.token });
    expect(seller.statusCode).toBe(403);
  });

  it('the dashboard figure: revenue per seller per month, before tax, void statements left out', async () => {
    const voided = await ctx.api.usageRoutes.crmVoidStatement({
      params: { id: aM2.id },
      body: { reason: 'wrong card' },
      token: staff,
    });
    expect(voided.statusCode).toBe(200);
    const res = await ctx.api.usageRoutes.crmRevenue({ query: { months: 3 }, token: staff });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.months).toEqual([M2, M1, thisMonth]);
    const mine = r.sellers.filter((s) => s.customer_name.endsWith(tag));
    expect(mine.map((s) => [s.customer_name, s.net, s.months.map((m) => [m.net, m.paid])])).toEqual([
      [
        `Alpha 倉儲 ${tag}`,
        '500',
        [
          ['0', '0'],
          ['500', '0'],
          ['0', '0'],
        ],
      ],
      [
        `Beta 商行 ${tag}`,
        '1200',
        [
          ['0', '0'],
          ['1200', '1200'],
          ['0', '0'],
        ],
      ],
    ]);
    expect(r.totals.find((t) => t.month === M1)).toEqual({ month: M1, net: '1700', paid: '1200' });
    expect((await ctx.api.usageRoutes.crmRevenue({ query: {}, token: a.token })).statusCode).toBe(403);
  });
});
