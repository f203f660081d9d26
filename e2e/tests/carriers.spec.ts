import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { carrierRoutes } from '@wms/contracts';
import { ecpayCheckMacValue } from '../../apps/server/src/modules/carriers/providers/ecpay';
import { E2E_PORT } from '../helpers/accounts';
import { newSeller, ok, stockedProduct } from '../helpers/api';
import { shipByTrackingScan } from '../helpers/packing';

/**
 * Consignment numbers from the carrier (issue #14) against the fake ECPay logistics host that global-setup starts on
 * 127.0.0.1: an ECPay logistics provider (carrier API "ECPay logistics") and a plain one → on /deliver-operation
 * select three orders → "get consignment numbers" → two numbers from ECPay, one "no carrier API"; the numbers are on
 * the orders. Screenshots: e2e/artifacts/screenshots/carriers-*.png.
 */
/** The fake ECPay logistics host global-setup starts (E2E_PORT + 8). */
const ECPAY_FAKE = `http://127.0.0.1:${E2E_PORT + 8}`;
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `carriers-${name}.png`), fullPage: true, animations: 'disabled' });

/** Open /deliver-operation and tick these orders' rows. */
async function selectOnDeliverOperation(page: Page, orders: Array<{ number: string }>) {
  await page.goto('/deliver-operation');
  for (const o of orders)
    await page
      .getByRole('row', { name: new RegExp(o.number) })
      .getByRole('checkbox')
      .check();
}

test('get consignment numbers from ECPay for selected orders on /deliver-operation', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { api, token } = await newSeller(page, 'zh-TW');
  const stamp = `C${Date.now().toString(36).toUpperCase()}`;
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `P-${stamp}`, name: `商品 ${stamp}` }, token }),
  );
  // The ECPay provider through its form: the sender is required with a carrier API and checked by ECPay's rules
  // (the company's full name is refused, naming the rule), then saved with a sender ECPay takes.
  await page.goto('/express-provider');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('代碼', { exact: true }).fill('ECPAY');
  await dialog.getByLabel('名稱', { exact: true }).fill('綠界宅配');
  await dialog.getByLabel('商店代號', { exact: true }).fill('2000132');
  await dialog.getByLabel('HashKey', { exact: true }).fill('5294y06JbISpM5x9');
  await dialog.getByLabel('HashIV', { exact: true }).fill('v77hoKGq4kWxNNIS');
  await dialog
    .locator('.ant-form-item')
    .filter({ has: page.locator('label', { hasText: /^物流 API$/ }) })
    .locator('.ant-select')
    .click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '綠界物流' }).click();
  await dialog.getByLabel('寄件人姓名', { exact: true }).fill('示範電商股份有限公司');
  await dialog.getByLabel('寄件人電話', { exact: true }).fill('02-2720-8889');
  await dialog.getByLabel('寄件人郵遞區號', { exact: true }).fill('110');
  await dialog.getByLabel('寄件人地址', { exact: true }).fill('臺北市信義區市府路1號');
  await dialog.getByRole('button', { name: /儲\s*存/ }).click();
  await expect(dialog.getByText('寄件人姓名不符合綠界規則：須為 2～5 個中文字或 4～10 個英文字母')).toBeVisible();
  await shot(page, 'provider-sender-rule');
  await dialog.getByLabel('寄件人姓名', { exact: true }).fill('示範倉庫');
  await dialog.getByRole('button', { name: /儲\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const listed = await ok(api.partnerRoutes.listLogisticsProviders({ query: { search: 'ECPAY' }, token }));
  const ecpay = listed.results[0]!;
  expect(ecpay).toMatchObject({ code: 'ECPAY', sender_name: '示範倉庫' });
  const plain = await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: 'HAND', name: '手動物流' }, token }),
  );
  const mk = (providerId: string) =>
    ok(
      api.outboundRoutes.createOrder({
        body: {
          recipient_name: '王小明',
          recipient_mobile: '0912345678',
          recipient_postcode: '100',
          recipient_address: '台北市中正區重慶南路一段122號',
          logistics_provider_id: providerId,
          lines: [{ product_id: product.id, quantity: 1 }],
        },
        token,
      }),
    );
  const orders = [await mk(ecpay.id), await mk(ecpay.id), await mk(plain.id)];

  await page.goto('/express-provider');
  await expect(page.getByRole('cell', { name: '綠界物流' })).toBeVisible();
  await shot(page, 'providers');

  await selectOnDeliverOperation(page, orders);
  await page.getByTestId('carrier-fetch').click();
  const results = page.getByTestId('carrier-results');
  await expect(results).toBeVisible();
  await expect(results.getByTestId('carrier-outcome-created')).toHaveCount(2);
  await expect(results.getByTestId('carrier-outcome-no_carrier')).toHaveCount(1);
  await expect(results).toContainText('取得 2 筆，略過 1 筆，失敗 0 筆');
  await shot(page, 'results');

  const numbers: string[] = [];
  for (const o of orders.slice(0, 2)) {
    const n = (await ok(api.outboundRoutes.getOrder({ params: { id: o.id }, token }))).consignment_number!;
    expect(n).toMatch(/^90\d+23$/);
    numbers.push(n);
  }

  // ECPay reports the parcel's progress (signed with the merchant's hash key and IV): the order drawer shows it.
  const notice: Record<string, string> = {
    MerchantID: '2000132',
    MerchantTradeNo: orders[0]!.number,
    RtnCode: '3024',
    RtnMsg: '貨件已至物流中心',
    AllPayLogisticsID: '1000000',
    BookingNote: numbers[0]!,
    UpdateStatusDate: '2026/11/24 17:10:00',
  };
  notice.CheckMacValue = ecpayCheckMacValue(notice, '5294y06JbISpM5x9', 'v77hoKGq4kWxNNIS');
  // Form-encoded as ECPay sends it (the typed client sends JSON): the contract's path, posted by hand.
  const ack = await page.request.post(carrierRoutes.ecpayLogisticsNotify.path, { form: notice });
  expect(await ack.text()).toBe('1|OK');
  await page.keyboard.press('Escape');
  await page.goto('/deliver');
  await page.getByTestId(`order-open-${orders[0]!.number}`).click();
  await expect(page.getByTestId('order-carrier-events')).toContainText('貨件已至物流中心');
  await page.getByTestId('order-carrier-events').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'carriers-tracking.png'), animations: 'disabled' });

  // ECPay labels: "print carrier labels" on the three orders → the two ECPay ones are offered as ECPay's print page
  // (a signed form posted to a new tab by the user's click), the plain one is named as having no label.
  await page.keyboard.press('Escape');
  await selectOnDeliverOperation(page, orders);
  await page.getByTestId('carrier-labels').click();
  const open = page.getByTestId('ecpay-labels-open');
  await expect(open).toHaveText('開啟綠界標籤');
  await expect(page.getByText('2 筆訂單的標籤在綠界')).toBeVisible();
  await expect(page.getByText(`1 筆訂單沒有物流商標籤：${orders[2]!.number}`)).toBeVisible();
  await shot(page, 'ecpay-labels-notice');
  const [labels] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await labels.waitForLoadState();
  expect(labels.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/helper\/printTradeDocument$/);
  await expect(labels.locator('.label')).toHaveCount(2);
  for (const n of numbers) await expect(labels.locator('.booking-note', { hasText: n })).toBeVisible();
  await expect(labels.locator('.receiver').first()).toHaveText('王小明');
  await labels.screenshot({ path: path.join(shots, 'carriers-ecpay-labels.png'), fullPage: true });
  await labels.close();
});

test('T-cat numbers with their labels on /deliver-opser; one PDF of the selected orders', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { api, token } = await newSeller(page, 'zh-TW');
  const stamp = `T${Date.now().toString(36).toUpperCase()}`;
  // Stock to export the orders with (export reserves it).
  const { product } = await stockedProduct(api, token, stamp);
  // T-cat: contract customer id in "merchant id", its token in "hash key" (the fake's credentials).
  const provider = (code: string, name: string, hashKey: string) =>
    ok(
      api.partnerRoutes.createLogisticsProvider({
        body: { code, name, merchant_id: '8048503301', hash_key: hashKey, carrier_type: 'tcat' },
        token,
      }),
    );
  const tcat = await provider('TCAT', '黑貓宅急便', 'a8fz6xj9');
  const wrong = await provider('TCAT-OLD', '黑貓（舊授權碼）', 'expired1');
  const mk = (providerId: string) =>
    ok(
      api.outboundRoutes.createOrder({
        body: {
          recipient_name: '王小明',
          recipient_mobile: '0912345678',
          recipient_postcode: '100',
          recipient_address: '台北市中正區重慶南路一段122號',
          sender_name: '測試倉',
          sender_phone: '03-5712121',
          sender_address: '新竹市東區光復路二段101號',
          logistics_provider_id: providerId,
          lines: [{ product_id: product.id, quantity: 1 }],
        },
        token,
      }),
    );
  const orders = [await mk(tcat.id), await mk(tcat.id), await mk(wrong.id)];

  // The provider form says which field takes T-cat's customer id and token.
  await page.goto('/express-provider');
  await page.getByRole('button', { name: /新增/ }).click();
  await expect(page.getByText('「商店代號」填契客代號、「HashKey」填契客授權碼')).toBeVisible();
  await shot(page, 'tcat-provider-form');
  await page.keyboard.press('Escape');
  // /deliver-opser lists exported orders that are not in a batch yet.
  const exported = await ok(
    api.outboundRoutes.bulkTransition({ body: { ids: orders.map((o) => o.id), action: 'export' }, token }),
  );
  expect(exported.failed, JSON.stringify(exported)).toBe(0);

  await page.goto('/deliver-opser');
  for (const o of orders)
    await page
      .getByRole('row', { name: new RegExp(o.number) })
      .getByRole('checkbox')
      .check();
  await page.getByTestId('carrier-fetch').click();
  const results = page.getByTestId('carrier-results');
  await expect(results).toBeVisible();
  await expect(results.getByTestId('carrier-outcome-created')).toHaveCount(2);
  await expect(results.getByTestId('carrier-outcome-failed')).toHaveCount(1);
  await expect(results).toContainText('物流商拒絕建立託運單：契客代號或授權碼錯誤');
  await expect(results).toContainText('取得 2 筆，略過 0 筆，失敗 1 筆');
  await shot(page, 'tcat-results');

  // Print from the results: one PDF of the two labels opens in a new tab.
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('dialog').getByTestId('carrier-labels').click(),
  ]);
  expect(tab.url()).toMatch(/^blob:/);
  await expect(page.getByText('已開啟 2 張標籤的 PDF')).toBeVisible();
  await tab.close();

  // The same from the batch screen's selection (the failed order has no label: named in the warning).
  await page.keyboard.press('Escape');
  const pdf = await api.carrierRoutes.printLabels({ body: { order_ids: orders.map((o) => o.id) }, token });
  expect(pdf.statusCode).toBe(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  expect(Buffer.from(pdf.rawPayload).subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.headers['x-labels-pages']).toBe('2');
  expect(decodeURIComponent(String(pdf.headers['x-labels-missing-orders'] ?? ''))).toBe(orders[2]!.number);
  await page.getByTestId('carrier-labels').first().click();
  await expect(page.getByText(`1 筆訂單沒有物流商標籤：${orders[2]!.number}`)).toBeVisible();
  await shot(page, 'tcat-labels');

  // The batch screen: the three orders in a collection batch, "Print → carrier labels" prints the batch's labels.
  await page.getByTestId('batch-create').click();
  const batchPrint = page.locator('[data-testid^="batch-print-"]').first();
  await expect(batchPrint).toBeVisible();
  await batchPrint.hover();
  const [batchTab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('menuitem', { name: '列印物流標籤' }).click(),
  ]);
  expect(batchTab.url()).toMatch(/^blob:/);
  await expect(page.getByText(`已開啟 2 張標籤的 PDF；1 筆訂單沒有物流商標籤`).first()).toBeVisible();
  await shot(page, 'tcat-batch');
  await batchTab.close();
});

test('a 7-ELEVEN store chosen on ECPay map → number → its C2C label → status notices move it to picked up', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const { api, token } = await newSeller(page, 'zh-TW');
  const stamp = `S${Date.now().toString(36).toUpperCase()}`;
  // Stock to ship: a warehouse, a pick location and ten units there.
  const { product, warehouse, location } = await stockedProduct(api, token, stamp);
  const ecpay = await ok(
    api.partnerRoutes.createLogisticsProvider({
      body: {
        code: 'ECPAY-CVS',
        name: '綠界超商',
        merchant_id: '2000132',
        hash_key: '5294y06JbISpM5x9',
        hash_iv: 'v77hoKGq4kWxNNIS',
        carrier_type: 'ecpay',
        sender_name: '示範倉庫',
        sender_phone: '0911222333',
        sender_postcode: '110',
        sender_address: '臺北市信義區市府路1號',
      },
      token,
    }),
  );
  const mk = (extra: { cod?: boolean; cod_amount?: string } = {}) =>
    ok(
      api.outboundRoutes.createOrder({
        body: {
          recipient_name: '王小明',
          recipient_mobile: '0912345678',
          recipient_postcode: '100',
          recipient_address: '台北市中正區重慶南路一段122號',
          logistics_provider_id: ecpay.id,
          warehouse_id: warehouse.id,
          lines: [{ product_id: product.id, quantity: 1 }],
          ...extra,
        },
        token,
      }),
    );
  // Every seller here shares the fake's stage merchant, where a MerchantTradeNo (our order number) is taken once: the
  // first test's seller used this day's first two numbers.
  await mk();
  await mk();
  // Paid at the store on pickup: NT$450 cash on delivery.
  const order = await mk({ cod: true, cod_amount: '450.00' });

  // The order drawer → ECPay's map (7-ELEVEN store-to-store is the default) → the buyer picks a store → back here.
  await page.goto('/deliver');
  await page.getByTestId(`order-open-${order.number}`).click();
  const box = page.getByTestId('order-cvs-store');
  await expect(box).toContainText('宅配（未指定取貨門市）');
  await box.getByTestId('cvs-open-map').click();
  await page.waitForURL(/\/Express\/map$/);
  await shot(page, 'cvs-map');
  await page.locator('button[data-store-id="991182"]').click();
  await page.waitForURL(/\/deliver\?order=/);
  await expect(page.getByTestId('cvs-store-id')).toHaveText('991182');
  await expect(page.getByTestId('cvs-store-name')).toHaveText('新竹園區門市');
  await expect(page.getByTestId('order-cvs-store')).toContainText('7-ELEVEN 交貨便（C2C）');
  await page.getByTestId('order-cvs-store').scrollIntoViewIfNeeded();
  await shot(page, 'cvs-store-on-order');

  // Export (stock reserved at the location), from the same drawer.
  await page.getByTestId('order-action-export').click();
  await expect(page.getByTestId('order-status-exported').first()).toBeVisible();
  await page.keyboard.press('Escape');

  // Number from ECPay on /deliver-operation.
  await selectOnDeliverOperation(page, [order]);
  await page.getByTestId('carrier-fetch').click();
  await expect(page.getByTestId('carrier-results').getByTestId('carrier-outcome-created')).toHaveCount(1);
  const number = (await ok(api.outboundRoutes.getOrder({ params: { id: order.id }, token }))).consignment_number!;
  expect(number).toMatch(/^C\d+4321$/);
  await page.keyboard.press('Escape');

  // Pick: a collection batch and its pick list.
  await page.goto('/deliver-opser');
  await page
    .getByTestId('unbatched-orders')
    .locator('.ant-table-row')
    .filter({ hasText: order.number })
    .locator('input[type=checkbox]')
    .check();
  await page.getByTestId('batch-create').click();
  await expect(page.locator('.ant-message')).toContainText('已建立集貨單');
  const batchNumber = ((await page.locator('.ant-message').innerText()).match(/CB\d{12}/) ?? [''])[0];
  const batch = (await ok(api.outboundRoutes.listBatches({ query: { search: batchNumber }, token }))).results[0]!;
  await page.goto(`/deliver-print-pick/${batch.id}`);
  await expect(page.getByTestId('pick-list').getByTestId('pick-row')).toContainText(location.code);

  // Pack at the station by scans; the number from ECPay is already on the order.
  await page.goto('/deliver-opser');
  await page.getByTestId('tab-packing').click();
  const scan = async (testId: string, code: string) => {
    const input = page.getByTestId(testId);
    await expect(input).toBeFocused();
    await input.fill(code);
    await input.press('Enter');
  };
  await scan('pack-scan-order', order.number);
  await scan('pack-scan-item', `P-${stamp}`);
  await expect(page.getByTestId('pack-complete')).toBeVisible();
  await expect(page.getByTestId('pack-consignment')).toHaveValue(number);

  // The carrier label from the station: 7-ELEVEN's own C2C print page, printed to PDF, rasterised, its barcode read.
  await page.getByTestId('carrier-labels').click();
  const open = page.getByTestId('ecpay-labels-open');
  await expect(open).toHaveText(`開啟7-ELEVEN 交貨便（C2C）寄件單（${order.number}）`);
  const [label] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await label.waitForLoadState();
  expect(label.url()).toMatch(/\/Express\/PrintUniMartC2COrderInfo$/);
  await expect(label.locator('.payment-no')).toHaveText(number);
  await expect(label.locator('.store')).toHaveText('991182');
  await expect(label.locator('.collection')).toHaveText('450');
  await label.screenshot({ path: path.join(shots, 'carriers-cvs-label.png'), fullPage: true });
  const pdf = path.join(shots, 'carriers-cvs-label.pdf');
  await label.pdf({ path: pdf, printBackground: true });
  const png = path.join(shots, 'carriers-cvs-label-300dpi');
  const raster = spawnSync('pdftoppm', ['-r', '300', '-png', '-singlefile', pdf, png], { encoding: 'utf8' });
  expect(raster.status, raster.stderr).toBe(0);
  const decoded = spawnSync('zbarimg', ['-q', '--raw', `${png}.png`], { encoding: 'utf8' });
  expect(decoded.stdout.split('\n').filter(Boolean)).toEqual([number]);
  await label.close();

  // Ship: the number's Enter at the station.
  await page.keyboard.press('Escape');
  await shipByTrackingScan(page, token, number);
  await expect(page.getByTestId('pack-cue')).toContainText(order.number);
  expect((await ok(api.outboundRoutes.getOrder({ params: { id: order.id }, token }))).status).toBe('closed');

  // ECPay (the fake) posts the parcel's statuses to our ServerReplyURL, signed: dropped off, accepted, at the store,
  // picked up (7-ELEVEN C2C's codes from ECPay's status workbook).
  const forms = await ok(api.carrierRoutes.ecpayLabelForms({ body: { order_ids: [order.id] }, token }));
  const logisticsId = String(forms.forms[0]!.fields.AllPayLogisticsID);
  const sent = await page.request.post(`${ECPAY_FAKE}/_fake/send-status`, { form: { AllPayLogisticsID: logisticsId } });
  expect(((await sent.json()) as { answers: string[] }).answers).toEqual(['1|OK', '1|OK', '1|OK', '1|OK']);
  await page.goto('/deliver');
  await page.getByTestId('order-search').fill(order.number);
  await page.getByTestId('order-search-submit').click();
  await page.getByTestId(`order-open-${order.number}`).click();
  const events = page.getByTestId('order-carrier-events');
  for (const kind of ['已到門市寄件', '物流中心已驗收', '已到店', '已取件']) await expect(events).toContainText(kind);
  await expect(events).toContainText('買家已到店取貨');
  await expect(page.getByTestId('order-cvs-store')).toContainText('新竹園區門市');
  await page.getByTestId('order-cvs-store').scrollIntoViewIfNeeded();
  await shot(page, 'cvs-order-store-and-tracking');
  await events.scrollIntoViewIfNeeded();
  await shot(page, 'cvs-tracking');

  // The cash the store collected, on the day the buyer picked the parcel up.
  await page.keyboard.press('Escape');
  await page.goto('/deliver-statistics');
  const cod = page.getByTestId('cod-collected');
  await expect(cod.getByRole('row', { name: /2026-11-28/ })).toContainText('450.00');
  await cod.scrollIntoViewIfNeeded();
  await shot(page, 'cod-collected');
});
