import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { loginByApi } from '../helpers/session';

test('the shared DataTable pages, sorts, searches, shows empty states and exports Excel', async ({ page }) => {
  await loginByApi(page, DEMO.customer);
  await page.goto('/dev-test');
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10);
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(/共 \d+ 筆/);

  // Page sizes of spec §9.
  await page.locator('.ant-pagination-options .ant-select').click();
  const sizes = await page.locator('.ant-select-item-option').allInnerTexts();
  expect(sizes.map((s) => Number.parseInt(s, 10))).toEqual([10, 25, 50, 100]);
  await page.locator('.ant-select-item-option').filter({ hasText: '25' }).click();
  await expect(rows).toHaveCount(25);

  // Sort by path, descending on the second click.
  await page.locator('.ant-table-thead th').filter({ hasText: '路徑' }).click();
  await page.locator('.ant-table-thead th').filter({ hasText: '路徑' }).click();
  const firstPaths = await rows.locator('td').first().allInnerTexts();
  expect([...firstPaths].sort().reverse()).toEqual(firstPaths);

  // Search.
  await page.getByTestId('table-search').getByRole('textbox').fill('two-factor');
  await page.getByRole('button', { name: '搜尋' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('/two-factor');

  // Empty states: a search that finds nothing, and (no search) nothing at all would be "Not yet any data".
  await page.getByTestId('table-search').getByRole('textbox').fill('zzz-nothing');
  await page.getByRole('button', { name: '搜尋' }).click();
  await expect(page.getByTestId('table-empty').locator('.ant-empty-description')).toHaveText('查無資料');

  // Export the whole result (all pages) of an empty search.
  await page.getByRole('button', { name: '重設' }).click();
  await expect(rows).toHaveCount(25);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: '匯出 Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('routes.xlsx');
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  const text = bytes.toString('utf8');
  expect(text).toContain('xl/worksheets/sheet1.xml');
  expect(text).toContain('/store/login/:short_url');
  expect(text).toContain('/crm/404');
});
