import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { newSeller, ok } from '../helpers/api';

/**
 * Issue #5 as a warehouse clerk does it: create a receipt, confirm it into a location with the scanner flow, see
 * the stock, transfer part of it by scanning, and find both movements in the stock log. A fresh seller with one
 * warehouse, three locations and one product (made through the API: those screens belong to other issues).
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });

async function setUpSeller(page: Page, opts: { shelfLife?: boolean } = {}) {
  const { api, token } = await newSeller(page, 'en');
  const wh = await ok(api.warehouseRoutes.createWarehouse({ body: { code: 'E2E', name: 'E2E warehouse' }, token }));
  for (const [code, kind] of [
    ['A-01-01', 'sellable'],
    ['A-01-02', 'sellable'],
    ['BAD-01', 'defective'],
    ['EXP-01', 'expired'],
  ] as const)
    await ok(api.warehouseRoutes.createStorageLocation({ body: { warehouse_id: wh.id, code, kind }, token }));
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: {
        number: `E2E-${Date.now()}`,
        name: 'E2E oolong tea',
        barcode: '4710000000097',
        ...(opts.shelfLife ? { shelf_life_months: 6, sellable_rule_months: 1 } : {}),
      },
      token,
    }),
  );
  return { product };
}

async function scan(page: Page, testId: string, code: string) {
  const box = page.getByTestId(testId);
  await box.fill(code);
  await box.press('Enter');
}

test('receive, confirm into a location, see the stock, transfer it, see the movement log', async ({ page }) => {
  await page.goto('/user-manual');
  await page.evaluate(() => localStorage.setItem('wms.language', 'en'));
  const { product } = await setUpSeller(page);

  // 1. A receipt with one line of 10.
  await page.goto('/entry');
  await page.getByTestId('new-receipt').click();
  const form = page.getByTestId('receipt-form');
  await expect(form.getByTestId('receipt-warehouse')).toContainText('E2E');
  await form.getByTestId('line-product').click();
  await page.keyboard.type(product.number);
  await page.locator('.ant-select-item-option').filter({ hasText: product.number }).click();
  await form.getByTestId('line-quantity').fill('10');
  await page.getByRole('button', { name: 'Save' }).click();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(row).toContainText('Pending confirmation');
  const number = (await row.locator('td').first().innerText()).trim();
  expect(number).toMatch(/^IN\d{12}$/);

  // 2. Confirm at the dock: 10 accepted, 1 defective; the scanner's Enter walks accepted → defective → location.
  await row.getByTestId('go-confirm').click();
  await expect(page).toHaveURL(/\/entry-confirm\?id=/);
  const accepted = page.getByTestId('confirm-accepted').first();
  await expect(accepted).toHaveValue('10');
  await accepted.press('Enter');
  await expect(page.getByTestId('confirm-defective').first()).toBeFocused();
  await page.getByTestId('confirm-defective').first().fill('1');
  await page.getByTestId('confirm-defective').first().press('Enter');
  await expect(page.getByTestId('confirm-location').first()).toBeFocused();
  await expect(page.getByTestId('confirm-good').first()).toHaveText('9');
  await page.getByRole('combobox', { name: 'Defective location' }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'BAD-01' }).click();
  await scan(page, 'confirm-location', 'A-01-01');
  await expect(page.getByTestId('confirm-submit')).toBeFocused();
  await page.screenshot({ path: path.join(shots, 'en-entry-confirm.png'), fullPage: true });
  await page.getByTestId('confirm-submit').click();
  await expect(page.getByTestId('receipt-status').first()).toHaveText('Confirmed');
  await page.screenshot({ path: path.join(shots, 'en-entry-confirm-done.png'), fullPage: true });

  // 3. The stock: 10 on hand (1 of it defective), 9 available.
  await page.goto('/product-stock');
  const stock = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: product.number });
  await expect(stock).toHaveCount(1);
  const cells = await stock.locator('td').allInnerTexts();
  expect(cells.slice(5, 9)).toEqual(['10', '0', '9', '1']);

  // 4. Transfer 4 from A-01-01 to A-01-02 by scanning.
  await page.goto('/stock-transfer');
  await scan(page, 'transfer-product', product.number);
  await expect(page.getByTestId('transfer-product-name')).toContainText(product.number);
  await scan(page, 'transfer-from', 'A-01-01');
  await expect(page.getByTestId('transfer-quantity')).toBeFocused();
  await page.getByTestId('transfer-quantity').fill('4');
  await page.getByTestId('transfer-quantity').press('Enter');
  await expect(page.getByTestId('transfer-to')).toBeFocused();
  await scan(page, 'transfer-to', 'A-01-02');
  await expect(page.locator('.ant-message')).toContainText(/Transferred 4 units \(TR\d{12}\)/);
  const tr = /TR\d{12}/.exec(await page.locator('.ant-message').innerText())![0];

  // 5. Where it lies now.
  await page.goto('/location-stock');
  await scan(page, 'location-scan', 'A-01-02');
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(1);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toContainText(product.number);

  // 6. The movement log: the receipt's two rows and the transfer's two.
  await page.goto('/stock-log');
  const log = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(log).toHaveCount(4);
  await expect(log.filter({ hasText: tr })).toHaveCount(2);
  await expect(log.filter({ hasText: tr }).filter({ hasText: 'A-01-02' })).toContainText('+4');
  await expect(log.filter({ hasText: tr }).filter({ hasText: 'A-01-01' })).toContainText('-4');
  await expect(log.filter({ hasText: number })).toHaveCount(2);
  await page.getByTestId('table-search').getByRole('textbox', { name: 'Keyword' }).fill(tr);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(log).toHaveCount(2);
  await page.screenshot({ path: path.join(shots, 'en-stock-log.png'), fullPage: true });

  // 7. The A4 print carries the receipt number as a barcode.
  await page.goto('/entry');
  await page.getByTestId('table-search').getByRole('textbox', { name: 'Keyword' }).fill(number);
  await page.getByRole('button', { name: 'Search' }).click();
  const printHref = await page.getByRole('link', { name: 'Print' }).first().getAttribute('href');
  await page.goto(printHref!);
  await expect(page.getByTestId('entry-print')).toContainText(number);
  await expect(page.getByTestId('entry-print').locator('svg').first()).toBeVisible();
});

test('quick inbound of a shelf-life lot, multi-line transfer, and moving unsellable lots to the expiry location', async ({
  page,
}) => {
  await page.goto('/user-manual');
  await page.evaluate(() => localStorage.setItem('wms.language', 'en'));
  const { product } = await setUpSeller(page, { shelfLife: true });
  // Expiring in 10 days with a one-month sellable rule: already past its sellable-until date.
  const soon = new Date(Date.now() + 10 * 86400_000 + 8 * 3600_000).toISOString().slice(0, 10);

  // Quick inbound: scan product, quantity, expiry, scan location.
  await page.goto('/entry-quick');
  await scan(page, 'quick-product', product.number);
  await expect(page.getByTestId('quick-quantity')).toBeFocused();
  await page.getByTestId('quick-quantity').fill('6');
  await page.getByRole('textbox', { name: 'Expiry date' }).fill(soon);
  await page.getByRole('textbox', { name: 'Expiry date' }).press('Enter');
  await scan(page, 'quick-location', 'A-01-01');
  await expect(page.locator('.ant-message')).toContainText(/Received: IN\d{12}/);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText(soon);
  await expect(page.getByTestId('quick-product')).toBeFocused();

  // Multi-line transfer: 2 to A-01-02 and 1 to BAD-01 in one document.
  await page.goto('/stock-multi-transfer');
  await scan(page, 'multi-product', product.number);
  await page.getByTestId('multi-add-pile').first().click();
  await page.getByTestId('multi-add-pile').first().click();
  const lines = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(lines).toHaveCount(2);
  for (const [i, qty, to] of [
    [0, '2', 'A-01-02'],
    [1, '1', 'BAD-01'],
  ] as const) {
    await lines.nth(i).getByRole('spinbutton').fill(qty);
    await lines.nth(i).getByRole('combobox').fill(to);
    await lines.nth(i).getByRole('combobox').press('Enter');
    await expect(lines.nth(i)).toContainText(to);
  }
  await page.getByTestId('multi-submit').click();
  await expect(page.locator('.ant-message')).toContainText(/Transferred 3 units \(TR\d{12}\)/);

  // Expiry transfer: every pile of the lot is past its sellable date (A-01-01, A-01-02 and the defective one in BAD-01).
  await page.goto('/stock-expire-transfer');
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(3);
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await page.getByRole('combobox', { name: 'Expiry location' }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'EXP-01' }).click();
  await page.getByTestId('expiry-submit').click();
  await expect(page.locator('.ant-message')).toContainText(/Moved 6 units \(TR\d{12}\); 0 reserved units stayed/);
  await expect(page.locator('.ant-table-tbody')).toContainText('No lots to move');

  await page.goto('/product-location');
  const piles = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(piles).toHaveCount(1);
  await expect(piles.first()).toContainText('EXP-01');
  await expect(piles.first()).toContainText('Not for sale');
});
