import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { apiOf, ok, setLanguage, signIn } from '../helpers/api';

// Several screens and dialogs per test: give them room on a busy CI machine.
test.describe.configure({ timeout: 150_000 });

/** antd spaces out two-character CJK button texts ("儲 存"). */
const save = (page: Page) => page.getByRole('dialog').getByRole('button', { name: /儲\s*存|Save/ });
const modal = (page: Page) => page.getByRole('dialog');

/** The antd Select of a form field, found by its label (antd's combobox carries no accessible name). */
function selectOf(scope: ReturnType<Page['getByRole']>, label: string) {
  return scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().locator('label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.ant-select');
}

/** Log in as the demo seller with the profile language set (the profile's language wins on entering the app). */
async function loginIn(page: Page, language: 'zh-TW' | 'en') {
  const session = await signIn(page, DEMO.customer);
  await setLanguage(page, session, language);
  return session.token;
}

async function pickOption(page: Page, field: ReturnType<Page['locator']>, text: string | RegExp, type?: string) {
  await field.click();
  if (type) await page.keyboard.type(type);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

test('creates a warehouse structure through the UI: warehouse → area → shelf → generated storage locations', async ({
  page,
}) => {
  await loginIn(page, 'zh-TW');
  await page.goto('/warehouse');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  await modal(page).getByLabel('代碼').fill('E2E-WH');
  await modal(page).getByLabel('名稱').fill('E2E 倉庫');
  await save(page).click();
  await expect(page.locator('.ant-table-row').filter({ hasText: 'E2E-WH' })).toBeVisible();

  // Areas
  await page.goto('/subzone?tab=areas');
  await page.getByTestId('add-area').click();
  await pickOption(page, selectOf(modal(page), '倉庫'), 'E2E-WH');
  await modal(page).getByLabel('代碼').fill('E2E-A');
  await modal(page).getByLabel('名稱').fill('揀貨區');
  await save(page).click();
  await expect(page.locator('.ant-table-row').filter({ hasText: 'E2E-A' })).toBeVisible();

  // A shelf in that area, then its locations in one step (2 layers × 3 positions)
  await page.getByRole('tab', { name: '貨架' }).click();
  await page.getByTestId('add-shelf').click();
  await pickOption(page, selectOf(modal(page), '倉庫'), 'E2E-WH');
  await pickOption(page, selectOf(modal(page), '區域'), 'E2E-A');
  await modal(page).getByLabel('代碼').fill('E2E-S1');
  await modal(page).getByLabel('名稱').fill('一號貨架');
  await modal(page).getByLabel('層數').fill('2');
  await save(page).click();
  const shelfRow = page.locator('.ant-table-row').filter({ hasText: 'E2E-S1' });
  await expect(shelfRow).toBeVisible();
  await shelfRow.getByRole('button', { name: '產生儲位' }).click();
  await modal(page).getByLabel('每層儲位數').fill('3');
  await save(page).click();
  await expect(page.locator('.ant-message')).toContainText('已建立 6 個儲位');

  // The storage locations, coded <shelf>-<layer>-<position>
  await page.getByRole('tab', { name: '儲位' }).click();
  // Visited tabs stay in the page (hidden): work inside the active one.
  const panel = page.getByRole('tabpanel', { name: '儲位' });
  await panel.getByTestId('table-search').getByRole('textbox').fill('E2E-S1');
  await panel.getByRole('button', { name: /搜\s*尋/ }).click();
  const rows = panel.locator('.ant-table-row');
  await expect(rows).toHaveCount(6);
  await expect(rows.filter({ hasText: 'E2E-S1-02-03' })).toContainText('E2E-A');

  // Their labels print from the selection
  await rows.first().getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: '列印儲位條碼' }).click();
  await expect(page).toHaveURL(/\/rack-print\//);
  await expect(page.getByTestId('label-document').locator('.label-cell')).toHaveCount(2);
  await expect(page.getByTestId('label-document')).toContainText('E2E-S1-01-01');
  await page.screenshot({ path: 'artifacts/basics-rack-print.png' });
});

test('creates a combination product through the UI and sees its components', async ({ page }) => {
  const access = await loginIn(page, 'zh-TW');
  await page.goto('/product');
  for (const [number, name] of [
    ['E2E-CUP', '馬克杯'],
    ['E2E-SAUCER', '杯盤'],
  ] as const) {
    await page.getByTestId('add-product').click();
    await modal(page).getByLabel('商品編號').fill(number);
    await modal(page).getByLabel('名稱', { exact: true }).fill(name);
    await save(page).click();
    await expect(page.locator('.ant-table-row').filter({ hasText: number })).toBeVisible();
  }

  await page.getByTestId('add-product').click();
  await modal(page).getByLabel('商品編號').fill('E2E-SET');
  await modal(page).getByLabel('名稱', { exact: true }).fill('杯組');
  await modal(page).getByLabel('國際條碼').fill('4006381333932');
  await pickOption(page, selectOf(modal(page), '商品類型'), '組合商品');
  // A wrong check digit is refused under its field, in the user's language
  await save(page).click();
  await expect(modal(page)).toContainText('國際條碼格式不正確');
  await modal(page).getByLabel('國際條碼').fill('4006381333931');

  await modal(page).getByTestId('add-component').click();
  await modal(page).getByTestId('add-component').click();
  const pickers = modal(page).getByLabel('組件商品');
  await pickOption(page, pickers.nth(0), 'E2E-CUP', 'E2E-CUP');
  await pickOption(page, pickers.nth(1), 'E2E-SAUCER', 'E2E-SAUCER');
  await modal(page).getByLabel('數量').nth(0).fill('2');
  await page.screenshot({ path: 'artifacts/basics-combination-form.png' });
  await save(page).click();

  const row = page.locator('.ant-table-row').filter({ hasText: 'E2E-SET' });
  await expect(row).toContainText('組合商品');
  const kit = await ok(apiOf(page.request).catalogRoutes.lookupProduct({ query: { code: 'E2E-SET' }, token: access }));
  expect(kit.type).toBe('combination');
  expect(kit.barcode).toBe('4006381333931');
  expect(kit.components.map((c) => `${c.number}*${c.quantity}`).sort()).toEqual(['E2E-CUP*2', 'E2E-SAUCER*1']);

  // A component in use cannot be deleted (IN_USE), but the error is shown, not swallowed
  const cup = page.locator('.ant-table-row').filter({ hasText: 'E2E-CUP' });
  await cup.getByRole('button', { name: '刪除' }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /確\s*認/ })
    .click();
  await expect(page.locator('.ant-message')).toContainText('資料已被使用，無法刪除');
  await page.screenshot({ path: 'artifacts/basics-products.png' });
});

test('the product screens speak English too, and the print preview lays out an A4 sheet', async ({ page }) => {
  const access = await loginIn(page, 'en');
  await page.goto('/product-print');
  await expect(page.getByText('Choose the products to print')).toBeVisible();
  const row = page.locator('.ant-table-row').filter({ hasText: 'E2E-SET' });
  await row.getByRole('checkbox').check();
  await row.getByLabel('Copies').fill('3');
  await page.getByRole('button', { name: 'Print preview' }).click();
  await expect(page).toHaveURL(/\/product-print-preview\//);
  await expect(page.getByTestId('label-total')).toHaveText('3 labels, 1 page(s)');
  await expect(page.getByTestId('label-document').locator('.label-cell svg')).toHaveCount(3);
  await page.screenshot({ path: 'artifacts/basics-print-preview.png' });
  // Leave the shared demo seller in the default language for the other specs.
  await apiOf(page.request).authRoutes.updateProfile({ body: { language: 'zh-TW' }, token: access });
});
