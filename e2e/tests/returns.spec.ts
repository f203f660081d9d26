import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { ok, onHand as onHandOf, setLanguage, signIn, stockIn, type TSession } from '../helpers/api';

/**
 * Returns and stocktake as a person uses them (zh-TW, the default language): a return registered and confirmed into
 * stock, and a stocktake with a variance counted by scanner through three rounds and closed. Warehouses, locations,
 * products and starting stock are set up through the API; everything the issue builds is driven through the screens.
 * Screenshots go to e2e/artifacts/screenshots/returns-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `returns-${name}.png`), fullPage: true });

/** antd spaces out two-character CJK button texts ("確 認"). */
const cjk = (text: string) => new RegExp(text.split('').join('\\s*'));

interface TWorld extends TSession {
  warehouse: { id: string; code: string };
  good: { id: string; code: string };
  bad: { id: string; code: string };
  product: { id: string; number: string; name: string };
}

async function world(page: Page, tag: string): Promise<TWorld> {
  const { api, token } = await signIn(page, DEMO.customer);
  const stamp = `${tag}${Date.now().toString(36).toUpperCase()}`;
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `E2E ${stamp}` }, token }),
  );
  const location = (code: string, kind: 'sellable' | 'defective') =>
    ok(api.warehouseRoutes.createStorageLocation({ body: { warehouse_id: warehouse.id, code, kind }, token }));
  const good = await location(`G-${stamp}`, 'sellable');
  const bad = await location(`B-${stamp}`, 'defective');
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `P-${stamp}`, name: `E2E 商品 ${stamp}` }, token }),
  );
  return { api, token, warehouse, good, bad, product };
}

/** Every location the product has a balance at, emptied ones included (none may linger). */
const onHand = (_page: Page, w: TWorld) => onHandOf(w, w.product.id, { empty: true });

/** The <input> of an antd InputNumber found by its data-testid (antd puts the attribute on the input or its wrapper). */
const numberInput = (scope: ReturnType<Page['locator']> | Page, testId: string) =>
  scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

/** Pick an option of an antd Select (optionally typing to search first). */
async function pick(page: Page, select: ReturnType<Page['locator']>, text: string | RegExp, type?: string) {
  await select.click();
  if (type) await page.keyboard.type(type);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

test('a return is registered and confirmed into stock: good units to a sellable location, defective to a defective one', async ({
  page,
}) => {
  const w = await world(page, 'R');
  await page.goto('/return');
  await page.getByTestId('return-new').click();
  const dialog = page.getByRole('dialog');
  await pick(page, dialog.getByTestId('return-warehouse'), w.warehouse.code);
  await pick(page, dialog.getByTestId('return-category'), '其他');
  await dialog.getByLabel('原訂單編號').fill('SHOPEE-E2E-1');
  await pick(page, dialog.getByTestId('return-line-product-0'), w.product.number, w.product.number);
  await numberInput(dialog, 'return-line-quantity-0').fill('3');
  await shot(page, 'new-return');
  await dialog.getByRole('button', { name: cjk('儲存') }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('.ant-table-row').filter({ hasText: 'SHOPEE-E2E-1' }).first();
  await expect(row).toContainText('待確認');
  await shot(page, 'list');

  await row.getByRole('button', { name: cjk('確認') }).click();
  await expect(page).toHaveURL(/\/return-confirm\?id=/);
  const panel = page.getByTestId('return-confirm-panel');
  await expect(panel).toBeVisible();
  await pick(page, panel.getByTestId('confirm-all-location'), w.good.code);
  await pick(page, panel.getByTestId('confirm-all-defective-location'), w.bad.code);
  await numberInput(panel, 'confirm-defective').fill('1');
  await shot(page, 'confirm');
  await panel.getByTestId('return-confirm-submit').click();
  await expect(panel.getByTestId('return-status-confirmed')).toBeVisible();
  await expect(panel).toContainText(w.good.code);
  await shot(page, 'confirmed');

  expect(await onHand(page, w)).toEqual({ [w.good.code]: 2, [w.bad.code]: 1 });

  // The printable receipt carries the number and the product as barcodes.
  const id = new URL(page.url()).searchParams.get('id');
  await page.goto(`/return-print/${id}`);
  await expect(page.getByTestId('return-print')).toContainText('退貨單');
  await expect(page.getByTestId('return-print').locator('img.barcode')).toHaveCount(2);
  await shot(page, 'print');
});

test('a stocktake with a variance is counted by scanner through three rounds and closed; the ledger takes the difference', async ({
  page,
}) => {
  const w = await world(page, 'S');
  // 10 units on the shelf to start with (quick inbound).
  await stockIn(w, w.warehouse.id, w.product.number, 10, w.good.code);
  expect(await onHand(page, w)).toEqual({ [w.good.code]: 10 });

  await page.goto('/inventory');
  await page.getByTestId('stocktake-new').click();
  const dialog = page.getByRole('dialog');
  await pick(page, dialog.getByTestId('stocktake-warehouse'), w.warehouse.code);
  await dialog.getByTestId('stocktake-name').fill('E2E 年終盤點');
  await shot(page, 'stocktake-new');
  await dialog.getByRole('button', { name: cjk('建立') }).click();
  const detail = page.getByTestId('stocktake-detail');
  await expect(detail).toBeVisible();
  await expect(detail.getByTestId('stocktake-status-first')).toBeVisible();
  await expect(detail.getByTestId('stocktake-pending')).toHaveText('2');

  /** Scan a location, then the product `times` times with a quantity, and submit (no products: an empty location). */
  const count = async (locationCode: string, quantity: number | null) => {
    const location = page.getByTestId('count-location');
    await expect(location).toBeEnabled();
    await location.fill(locationCode);
    await location.press('Enter');
    await expect(page.getByTestId('count-location-info')).toContainText(locationCode);
    if (quantity !== null) {
      await numberInput(page, 'count-quantity').fill(String(quantity));
      await page.getByTestId('count-product').fill(w.product.number);
      await page.getByTestId('count-product').press('Enter');
      await expect(page.getByTestId('count-panel').locator('.ant-table-row')).toContainText(w.product.number);
    }
    await page.getByTestId('count-submit').click();
    await expect(page.getByTestId('count-location-info')).toBeHidden();
  };
  const nextRound = async () => {
    await page.getByTestId('stocktake-next-round').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: cjk('確認') })
      .click();
  };

  // Round 1: two units missing on the shelf, the defective location is empty.
  await count(w.good.code, 8);
  await count(w.bad.code, null);
  await expect(detail.getByTestId('stocktake-pending')).toHaveText('0');
  await shot(page, 'stocktake-round1');
  await nextRound();
  await expect(detail.getByTestId('stocktake-status-review')).toBeVisible();
  await expect(detail.getByTestId('stocktake-pending')).toHaveText('1');

  // Round 2 (review): only the differing line; one unit is found again. Round 3: still 9.
  await count(w.good.code, 9);
  await nextRound();
  await expect(detail.getByTestId('stocktake-status-third')).toBeVisible();
  await count(w.good.code, 9);
  await shot(page, 'stocktake-round3');

  await page.getByRole('tab', { name: '盤差報表' }).click();
  await expect(page.getByTestId('variance-lines')).toHaveText('1');
  await page.getByTestId('stocktake-close').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: cjk('確認') })
    .click();
  await expect(detail.getByTestId('stocktake-status-closed')).toBeVisible();
  const report = page.getByTestId('variance-report');
  await expect(report.locator('.ant-table-row')).toHaveCount(1);
  await expect(report.locator('.ant-table-row')).toContainText('-1');
  await shot(page, 'stocktake-closed');

  expect(await onHand(page, w)).toEqual({ [w.good.code]: 9 });
  const log = await ok(
    w.api.stockRoutes.stockLog({ query: { product_id: w.product.id, reason: 'stocktake' }, token: w.token }),
  );
  expect(log.results.map((r) => r.quantity)).toEqual([-1]);

  // The manual page of the screen exists in the user's language.
  await page.goto('/user-manual/inventory');
  await expect(page.locator('h1').first()).toHaveText('盤點');
});

test('in English: a return to supplier is reserved and dispatched; counts, export and the manual read in the language', async ({
  page,
}) => {
  const w = await world(page, 'E');
  await stockIn(w, w.warehouse.id, w.product.number, 5, w.good.code);
  await setLanguage(page, w, 'en');
  try {
    await page.goto('/return?tab=supplier');
    await page.getByRole('button', { name: 'New return to supplier' }).click();
    const dialog = page.getByRole('dialog');
    await pick(
      page,
      dialog.locator('.ant-form-item').filter({ hasText: 'Warehouse' }).locator('.ant-select'),
      w.warehouse.code,
    );
    await dialog.getByLabel('Supplier', { exact: true }).fill('Acme Supply');
    await dialog.getByLabel(`Quantity ${w.product.number} ${w.good.code}`).fill('2');
    await shot(page, 'en-supplier-new');
    await dialog.getByRole('button', { name: 'Create and reserve stock' }).click();
    await expect(dialog).toBeHidden();
    const row = page.locator('.ant-table-row').filter({ hasText: 'Acme Supply' }).first();
    await expect(row).toContainText('Reserved');
    expect(
      (await ok(w.api.stockRoutes.productLocation({ query: { product_id: w.product.id }, token: w.token }))).results[0],
    ).toMatchObject({ on_hand: 5, reserved: 2 });
    await row.getByRole('button', { name: 'Dispatch' }).click();
    await page.getByRole('dialog').getByPlaceholder('Consignment number').fill('HCT-E2E-1');
    await page.getByRole('dialog').getByRole('button', { name: 'Dispatch' }).click();
    await expect(row).toContainText('Dispatched');
    await expect(row).toContainText('HCT-E2E-1');
    await shot(page, 'en-supplier-list');
    expect(await onHand(page, w)).toEqual({ [w.good.code]: 3 });

    await page.goto('/return-cnt');
    await expect(page.getByText('Returns to supplier')).toBeVisible();
    await shot(page, 'en-counts');
    await page.goto('/return-export');
    await expect(page.getByTestId('return-export-download')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByTestId('return-export-download').click();
    expect((await download).suggestedFilename()).toBe('returns.xlsx');
    await shot(page, 'en-export');
    await page.goto('/inventory');
    await expect(page.getByTestId('stocktake-new')).toBeVisible();
    await shot(page, 'en-inventory');
    for (const manual of ['return', 'return-confirm', 'return-export', 'return-cnt', 'inventory']) {
      await page.goto(`/user-manual/${manual}`);
      await expect(page.locator('h1').first()).not.toHaveText('');
      await expect(page.getByText('not yet available in your language')).toHaveCount(0);
    }
    await shot(page, 'en-manual-inventory');
  } finally {
    await w.api.authRoutes.updateProfile({ body: { language: 'zh-TW' }, token: w.token });
  }
});
