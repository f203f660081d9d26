import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { partnerRoutes } from '@wms/contracts';
import type { TRouteClient } from '@wms/contracts/client';
import { DEMO } from '../helpers/accounts';
import { apiOf, ok } from '../helpers/api';
import { shipByTrackingScan } from '../helpers/packing';
import { chooseLanguage, loginByApi } from '../helpers/session';

/**
 * Outbound as a person does it (zh-TW, then the packing station in English): import an order file, export the
 * order (stock reserved), put it in a collection batch and print the pick list (its barcode decodes), pack it with
 * scans — a wrong item and an extra unit are refused —, confirm, and see it closed with the stock reduced. The
 * warehouse, location, product and starting stock are set up through the API. Screenshots:
 * e2e/artifacts/screenshots/outbound-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `outbound-${name}.png`), fullPage: true });

/** Type a code into a scanner box and press Enter, as a keyboard-wedge scanner does. */
async function scan(page: Page, testId: string, code: string) {
  const box = page.getByTestId(testId);
  await expect(box).toBeFocused();
  await box.fill(code);
  await box.press('Enter');
}

test('an imported order is exported, batched, packed with scans and shipped; the stock goes down', async ({ page }) => {
  const session = await loginByApi(page, DEMO.customer);
  const token = session.access;
  const api = apiOf(page.request);
  const stamp = `O${Date.now().toString(36).toUpperCase()}`;
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `E2E ${stamp}` }, token }),
  );
  const location = await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: warehouse.id, code: `A-${stamp}`, kind: 'sellable', pick_sequence: 1 },
      token,
    }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `P-${stamp}`, name: `E2E 出貨商品 ${stamp}`, barcode: `BC-${stamp}` },
      token,
    }),
  );
  const other = await ok(
    api.catalogRoutes.createProduct({ body: { number: `X-${stamp}`, name: `E2E 其他商品 ${stamp}` }, token }),
  );
  await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: warehouse.id, code: product.number, quantity: 10, location_code: location.code },
      token,
    }),
  );
  const onHand = async () => {
    const body = await ok(
      api.stockRoutes.productLocation({ query: { product_id: product.id, page_size: 100 }, token }),
    );
    return Object.fromEntries(body.results.map((r) => [r.location_code, r.on_hand]));
  };
  expect(await onHand()).toEqual({ [location.code]: 10 });

  // 1. Import: a CSV with our template's Traditional Chinese headers; two rows of one platform order.
  const po = `SH-${stamp}`;
  const csv = [
    '平台訂單編號,收件人姓名,收件人電話,收件人郵遞區號,收件人地址,出貨倉庫,商品編號,數量',
    `${po},王小明,0912-345-678,100,台北市中正區重慶南路一段 122 號,${warehouse.code},${product.number},2`,
    `${po},王小明,0912-345-678,100,台北市中正區重慶南路一段 122 號,${warehouse.code},${product.barcode},1`,
  ].join('\n');
  await page.goto('/deliver');
  await page.getByTestId('order-import').click();
  const dialog = page.getByRole('dialog');
  // No channel chosen: the file cannot be chosen until the suggested (template) mapping is confirmed (issue #22, 3).
  await expect(dialog.getByTestId('import-no-platform')).toBeVisible();
  await expect(dialog.getByTestId('import-choose')).toBeDisabled();
  await dialog.getByTestId('import-use-suggested').check();
  await expect(dialog.getByTestId('import-choose')).toBeEnabled();
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'orders.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(dialog.getByTestId('import-done')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('import-done')).toContainText('新增 1 張訂單');
  await shot(page, 'import');
  await dialog.locator('.ant-modal-close').click();

  // 2. The order is pending export; open it and export it: stock is reserved at the location.
  await page.getByTestId('order-search').fill(po);
  await page.getByTestId('order-search-submit').click();
  const row = page.locator('.ant-table-row').filter({ hasText: po });
  await expect(row).toContainText('待轉出');
  await shot(page, 'list');
  await page.getByTestId(`order-open-${po}`).click();
  const drawer = page.getByTestId('order-detail');
  await expect(drawer).toContainText('王小明');
  await page.getByTestId('order-action-export').click();
  await expect(page.getByTestId('order-allocations')).toContainText(location.code);
  await expect(page.getByTestId('order-status-exported').first()).toBeVisible();
  await shot(page, 'exported');
  const orderNumber = (await page.locator('.ant-drawer-title').innerText()).replace(/^訂單\s*/, '').trim();
  expect(orderNumber).toMatch(/^OUT\d{12}$/);

  // 3. Collection batch and its pick list (walking order; the batch barcode decodes).
  await page.goto('/deliver-opser');
  const unbatched = page.getByTestId('unbatched-orders');
  await unbatched.locator('.ant-table-row').filter({ hasText: orderNumber }).locator('input[type=checkbox]').check();
  await page.getByTestId('batch-create').click();
  await expect(page.locator('.ant-message')).toContainText('已建立集貨單');
  const batchNumber = ((await page.locator('.ant-message').innerText()).match(/CB\d{12}/) ?? [''])[0];
  await shot(page, 'batch');
  const batch = (await ok(api.outboundRoutes.listBatches({ query: { search: batchNumber }, token }))).results[0]!;
  await page.goto(`/deliver-print-pick/${batch.id}`);
  await expect(page).toHaveURL(/paper=A5/);
  const pick = page.getByTestId('pick-list');
  await expect(pick.getByTestId('pick-row')).toHaveCount(1);
  await expect(pick.getByTestId('pick-row')).toContainText(location.code);
  await expect(pick.getByTestId('pick-row')).toContainText('3');
  await shot(page, 'pick-list');
  // Printed as Chromium prints it (A5 PDF), rasterised at 300 dpi: the batch number's barcode decodes.
  const pdf = path.join(shots, 'outbound-pick-list.pdf');
  await page.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true });
  const png = path.join(shots, 'outbound-pick-list-300dpi');
  const raster = spawnSync('pdftoppm', ['-r', '300', '-png', '-singlefile', pdf, png], { encoding: 'utf8' });
  expect(raster.status, raster.stderr).toBe(0);
  const decoded = spawnSync('zbarimg', ['-q', '--raw', `${png}.png`], { encoding: 'utf8' });
  expect(decoded.stdout.split('\n')).toContain(batchNumber);
  await page.goto(`/deliver-print-doc/${batch.id}/location`);
  await expect(page.getByTestId('order-sheet')).toHaveCount(1);
  await expect(page.getByTestId('order-sheet')).toContainText('台北市中正區');
  await shot(page, 'delivery-document');

  // 4. The packing station, in English, by scanner only.
  await page.goto('/deliver-opser');
  await chooseLanguage(page, 'English');
  await page.getByTestId('tab-packing').click();
  await scan(page, 'pack-scan-order', orderNumber);
  await expect(page.getByTestId('pack-order-number')).toHaveText(orderNumber);
  const cue = page.getByTestId('pack-cue');
  await scan(page, 'pack-scan-item', other.number);
  await expect(cue).toHaveAttribute('data-cue', 'refused');
  await expect(cue).toContainText('not in the order');
  await shot(page, 'pack-refused');
  for (let i = 0; i < 3; i++) {
    await scan(page, 'pack-scan-item', i === 1 ? product.barcode! : product.number);
    await expect(page.getByTestId(`pack-progress-${product.number}`)).toHaveText(`${i + 1}/3`);
    await expect(cue).toHaveAttribute('data-cue', 'ok');
  }
  await expect(page.getByTestId('pack-complete')).toBeVisible();
  // The box is full: the scan box is disabled, and the server refuses an extra unit too.
  const extra = await api.outboundRoutes.packScan({
    params: { id: (await lookup(api, token, orderNumber)).id },
    body: { barcode: product.number },
    token,
  });
  expect(extra.statusCode).toBe(409);
  expect(extra.error().code).toBe('PACK_ITEM_COMPLETE');
  await expect(page.getByTestId('pack-consignment')).toBeFocused();
  await page.getByTestId('pack-consignment').fill(`TC${stamp}`);
  await shot(page, 'pack-complete');
  // The tracking number's Enter (a scanner's) ships when nothing else is asked: no second key per parcel.
  await shipByTrackingScan(page, token, `TC${stamp}`);
  await expect(cue).toContainText(`Order ${orderNumber} shipped (closed)`);
  await expect(page.getByTestId('pack-scan-order')).toBeFocused();
  await shot(page, 'pack-shipped');

  // 5. Closed, and the stock left the location.
  const shipped = await lookup(api, token, orderNumber);
  expect(shipped).toMatchObject({ status: 'closed', consignment_number: `TC${stamp}` });
  expect(await onHand()).toEqual({ [location.code]: 7 });
  await page.goto('/deliver');
  await page.getByTestId('order-search').fill(po);
  await page.getByTestId('order-search-submit').click();
  await expect(page.locator('.ant-table-row').filter({ hasText: po })).toContainText('Closed');
  await shot(page, 'closed');
  await chooseLanguage(page, '繁體中文');
});

function lookup(api: TRouteClient, token: string, code: string) {
  return ok(api.outboundRoutes.lookupOrder({ query: { code }, token }));
}

test('consignment numbers by scanner, IMEI query, counts, order customization, upload forms and exports', async ({
  page,
}) => {
  const session = await loginByApi(page, DEMO.customer);
  const token = session.access;
  const api = apiOf(page.request);
  const stamp = `Q${Date.now().toString(36).toUpperCase()}`;
  const warehouses = await ok(api.warehouseRoutes.listWarehouses({ query: { page_size: 100 }, token }));
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `Q-${stamp}`, name: `E2E ${stamp}` }, token }),
  );
  const order = await ok(
    api.outboundRoutes.createOrder({
      body: {
        platform_order_number: `PO-${stamp}`,
        recipient_name: '陳小華',
        recipient_phone: '0922333444',
        recipient_postcode: '40341',
        recipient_address: '台中市西區',
        warehouse_id: warehouses.results[0]!.id,
        lines: [{ product_id: product.id, quantity: 1 }],
      },
      token,
    }),
  );

  // Consignment numbers: scan the order, then its consignment label.
  await page.goto('/deliver-operation');
  await scan(page, 'op-scan-order', order.number);
  await scan(page, 'op-scan-consignment', `HCT${stamp}`);
  await expect(page.getByTestId('op-cue')).toContainText(`HCT${stamp}`);
  await expect(page.getByTestId('op-scan-order')).toBeFocused();
  // The same number for another order is refused.
  const second = await ok(
    api.outboundRoutes.createOrder({
      body: {
        recipient_name: '林一',
        recipient_phone: '0911111111',
        recipient_postcode: '106',
        recipient_address: '台北市大安區',
        warehouse_id: warehouses.results[0]!.id,
        lines: [{ product_id: product.id, quantity: 1 }],
      },
      token,
    }),
  );
  await scan(page, 'op-scan-order', second.number);
  await scan(page, 'op-scan-consignment', `HCT${stamp}`);
  await expect(page.getByTestId('op-cue')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('op-cue')).toContainText('託運單號已存在');
  await shot(page, 'consignment');
  expect((await lookup(api, token, `HCT${stamp}`)).id).toBe(order.id);

  await page.goto('/deliver-cnt');
  await expect(page.getByTestId('cnt-total')).not.toContainText(/^0$/);
  await shot(page, 'counts');

  await page.goto('/deliver-imei');
  await expect(page.getByTestId('imei-serial')).toBeVisible();
  await shot(page, 'imei');

  // Order customization: the list shows the third-party number column after saving it.
  await page.goto('/customize');
  await page.getByTestId('customize-deliver_list').getByText('第三方單號').click();
  await page.getByTestId('customize-save-deliver_list').click();
  await expect(page.locator('.ant-message')).toContainText('儲存成功');
  await shot(page, 'customize');
  await page.goto('/deliver');
  await expect(page.locator('.ant-table-thead')).toContainText('第三方單號');

  // A custom upload form, built from a sample file's headers.
  await page.goto('/deliver-customize-form');
  await page.getByTestId('form-new').click();
  const editor = page.getByRole('dialog');
  await editor.getByTestId('form-name').fill(`Form ${stamp}`);
  await editor.locator('input[type=file]').setInputFiles({
    name: 'sample.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      '訂單編號,收件者姓名,收件者電話,收件地址,郵遞區號,商品選項貨號,主商品貨號,數量\nA1,甲,0912345678,台北,100,見選項,SKU1,1\n',
    ),
  });
  await expect(editor.getByTestId('map-product')).toContainText('主商品貨號');
  await shot(page, 'upload-form');
  await editor.locator('.ant-modal-footer .ant-btn-primary').click();
  await expect(editor).toBeHidden();
  await expect(page.locator('.ant-table-row').filter({ hasText: `Form ${stamp}` })).toBeVisible();

  // Exports: the T-cat upload format downloads as an .xlsx.
  await page.goto('/deliver-export');
  await page.getByTestId('export-format').getByText('黑貓宅急便').click();
  await shot(page, 'export');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  expect(download.suggestedFilename()).toBe('orders-tcat.xlsx');
});

test('a seller without any channel is told to create one at /ecommerce-channel first', async ({ page }) => {
  await loginByApi(page, DEMO.customer);
  // A new seller's platform list: empty (the demo seller has channels, so the list is answered empty here).
  await page.route(
    (url) => url.pathname === partnerRoutes.listEcommercePlatforms.path,
    (route) =>
      route.request().method() === 'GET' ? route.fulfill({ json: { count: 0, results: [] } }) : route.fallback(),
  );
  await page.goto('/deliver');
  await page.getByTestId('order-import').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('import-no-platforms')).toContainText('尚未建立任何電商平台');
  await shot(page, 'import-no-platforms');
  await dialog.getByTestId('import-create-platform').click();
  await expect(page).toHaveURL(/\/ecommerce-channel$/);
});
