import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newSeller, ok, receipt, sellableLocations } from '../helpers/api';

/**
 * Issue #18 as a seller uses it: a product under its safety stock with a receipt on the way shows on the dashboard's
 * tiles and at the top of /purchase-advice with the quantity still to buy; the charts draw.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });

test('dashboard tiles and chart; purchase advice lists what to buy', async ({ page }) => {
  await page.goto('/user-manual');
  await page.evaluate(() => localStorage.setItem('wms.language', 'en'));
  const session = await newSeller(page, 'en');
  const { api, token } = session;
  const wh = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: 'AN1', name: 'Analysis warehouse' }, token }),
  );
  await sellableLocations(session, wh.id, ['A-01']);
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `AN-${Date.now()}`, name: 'Analysis green tea', safety_stock: 50, stocking_days: 30 },
      token,
    }),
  );
  await receipt(session, wh.id, [{ product_id: product.id, quantity: 20 }]);

  // The dashboard: one receipt pending, one product below its safety stock, the 30-day chart drawn.
  await page.goto('/dashboard');
  await expect(page.getByTestId('kpi-receipts_pending')).toContainText('1');
  await expect(page.getByTestId('kpi-below_safety')).toContainText('1');
  await expect(page.getByTestId('kpi-to_export')).toContainText('0');
  await expect(page.getByTestId('dashboard-chart').locator('canvas')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'en-dashboard.png'), fullPage: true });

  // The tile opens /purchase-advice: 50 safety − 0 available − 20 on the way = 30 to buy, flagged below safety.
  // The tile opens the list filtered to what it counts (below safety: Yes).
  await page.getByTestId('kpi-below_safety').click();
  await expect(page).toHaveURL(/\/purchase-advice\?below_safety=true$/);
  await expect(page.getByTestId('table-search')).toContainText('Yes');
  const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(row).toContainText(product.number);
  await expect(row).toContainText('Below safety');
  await expect(row.locator('td').nth(4)).toHaveText('30');
  await page.screenshot({ path: path.join(shots, 'en-purchase-advice.png'), fullPage: true });

  // "Create inbound receipt from selection": /entry opens the new receipt with the warehouse and 30 to buy.
  await row.locator('input[type=checkbox]').check();
  await page.getByTestId('advice-create-receipt').click();
  await expect(page).toHaveURL(/\/entry$/);
  const form = page.getByTestId('receipt-form');
  await expect(form.getByTestId('line-quantity')).toHaveValue('30');
  await expect(form.getByTestId('receipt-line')).toContainText(product.number);
  await expect(form.getByTestId('receipt-warehouse')).toContainText('AN1');
  await page.screenshot({ path: path.join(shots, 'en-advice-receipt.png'), fullPage: true });
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  // The receipts tile now counts 2 and opens /entry filtered to pending receipts.
  await page.goto('/dashboard');
  await expect(page.getByTestId('kpi-receipts_pending')).toContainText('2');
  await page.getByTestId('kpi-receipts_pending').click();
  await expect(page).toHaveURL(/\/entry\?status=pending$/);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(2);
  await expect(page.getByTestId('table-search')).toContainText('Pending');

  // Delivery statistics: the chart and the totals render (no shipments yet: zero).
  await page.goto('/deliver-statistics');
  await expect(page.getByTestId('stat-orders')).toContainText('0');
  await expect(page.getByTestId('deliver-chart').locator('canvas')).toBeVisible();
  // /location-stock's analysis view: the one location of the warehouse is empty.
  await page.goto('/location-stock');
  await page.getByRole('tab', { name: 'Occupancy' }).click();
  const occupancy = page.getByTestId('occupancy-table').locator('tr.ant-table-row').first();
  await expect(occupancy).toContainText('AN1');
  await expect(occupancy.locator('td').nth(3)).toHaveText('1');
  await page.screenshot({ path: path.join(shots, 'en-location-occupancy.png'), fullPage: true });
  await page.goto('/stock-age');
  await expect(page.locator('.ant-table')).toBeVisible();
  await page.goto('/product-turnover');
  await expect(page.locator('.ant-table')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'en-product-turnover.png'), fullPage: true });
});
