import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { E2E_PORT } from '../helpers/accounts';
import { newSeller, ok, packAndShip, stockedProduct, theOrder } from '../helpers/api';
import { chooseLanguage } from '../helpers/session';

/**
 * The Shopee module end to end (issue #14) against the fake Shopee that global-setup starts on 127.0.0.1 (its
 * authorisation page sends the browser straight back with a code for shop 880001): connect the shop on
 * /module-shopee-create → the first sync brings two orders in and keeps the one with an unknown SKU as abnormal →
 * the orders are on /deliver → export, consignment number, pack, ship → "sync now" → the tracking number reached the
 * fake Shopee (ship_order). Screenshots: e2e/artifacts/screenshots/shopee-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `shopee-${name}.png`), fullPage: true, animations: 'disabled' });
const FAKE = `http://127.0.0.1:${E2E_PORT + 7}`;
const SHOP = 880001;

const order = (sn: string, sku: string, quantity = 1) => ({
  order_sn: sn,
  order_status: 'READY_TO_SHIP',
  update_time: Math.floor(Date.now() / 1000) - 60,
  total_amount: 300,
  cod: false,
  recipient_address: {
    name: '王小明',
    phone: '0912345678',
    zipcode: '100',
    city: '台北市',
    district: '中正區',
    full_address: '台北市中正區重慶南路一段122號',
  },
  item_list: [{ item_sku: sku, model_sku: '', model_quantity_purchased: quantity, model_discounted_price: 150 }],
});

test('connect a shop → orders flow in → export, pack, ship → the tracking number reaches Shopee', async ({ page }) => {
  test.setTimeout(240_000);
  const session = await newSeller(page, 'zh-TW');
  const { api, token } = session;
  const stamp = `S${Date.now().toString(36).toUpperCase()}`;
  const { product } = await stockedProduct(api, token, stamp, 10, { name: `蝦皮商品 ${stamp}` });
  const sns = [`${stamp}A`, `${stamp}B`];
  const fake = await page.request.post(`${FAKE}/__fake/orders`, {
    data: {
      shop_id: SHOP,
      orders: [
        order(sns[0]!, product.number, 2),
        order(sns[1]!, product.number),
        order(`${stamp}X`, 'NO-SUCH-SKU'),
        // A 7-ELEVEN order: Shopee arranges it and masks the buyer.
        { ...order(`${stamp}7`, product.number), logistics_channel_id: 30005 },
      ],
    },
  });
  expect(fake.ok()).toBe(true);

  await page.goto('/module-shopee-create');
  const screen = page.getByTestId('shopee-page');
  await expect(screen.getByTestId('table-empty')).toBeVisible();
  await shot(page, 'empty');
  await screen.getByTestId('shopee-connect').click();
  // Shopee's page (the fake authorises at once) sends the browser back here with code and shop_id.
  await page.waitForURL(/\/module-shopee-create$/);
  const row = page.locator('.ant-table-row').filter({ hasText: String(SHOP) });
  await expect(row.getByTestId('shopee-state')).toContainText('已連結');
  // The first sync made the three orders (a scheduled sync at the quarter hour may have run since: it skips them).
  await expect(row.getByTestId('shopee-last-sync')).toContainText(/新增 3|略過 3/, { timeout: 20_000 });
  await expect(row).toContainText('異常 1');
  await shot(page, 'connected');
  await row.getByRole('button', { name: '1' }).click();
  const drawer = page.getByTestId('shopee-orders');
  await expect(drawer).toContainText(`${stamp}X`);
  await expect(drawer).toContainText('NO-SUCH-SKU');
  await shot(page, 'abnormal');
  // Every order with its channel: the 7-ELEVEN one is Shopee logistics.
  await drawer.getByText('全部', { exact: true }).click();
  const sevenRow = drawer.locator('.ant-table-row').filter({ hasText: `${stamp}7` });
  await expect(sevenRow).toContainText('7-ELEVEN');
  await expect(sevenRow.getByTestId('shopee-platform-logistics')).toContainText('蝦皮物流');
  await shot(page, 'channels');
  await page.keyboard.press('Escape');
  // The seller chooses how Shopee-arranged parcels leave (set through the API; the row shows it).
  const shops = await ok(api.shopeeRoutes.listShopeeShops({ token }));
  const shopRef = shops.results[0]!.id;
  await ok(api.shopeeRoutes.setShopeeShipMode({ params: { id: shopRef }, body: { ship_mode: 'pickup' }, token }));
  await page.reload();
  await expect(row.getByTestId('shopee-ship-mode')).toContainText('上門收件');
  await shot(page, 'ship-mode');

  // The two orders are on /deliver.
  await page.goto('/deliver');
  for (const sn of sns) await expect(page.getByText(sn)).toBeVisible();
  await shot(page, 'deliver');

  // Export, consignment number, pack, ship (through the API: the screens have their own specs).
  const first = await theOrder(session, sns[0]!);
  await ok(api.outboundRoutes.transitionOrder({ params: { id: first.id }, body: { action: 'export' }, token }));
  await packAndShip(session, first.id, {
    barcode: product.number,
    units: 2,
    consignment: { consignment_number: `9${Date.now().toString().slice(-11)}` },
  });

  // "Sync now": the run ends by sending shipped orders' tracking numbers back.
  await page.goto('/module-shopee-create');
  await row.getByTestId('shopee-sync').click();
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`${FAKE}/__fake/orders?shop_id=${SHOP}`);
        const all = (await res.json()) as { orders: Array<{ order_sn: string; tracking_number?: string }> };
        return all.orders.find((o) => o.order_sn === sns[0])?.tracking_number ?? null;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^9\d{11}$/);

  await chooseLanguage(page, 'English');
  await expect(row.getByTestId('shopee-state')).toContainText('Connected');
  await shot(page, 'connected-en');

  // The seller revokes the authorisation in Shopee: the next sync shows "authorise again" with Shopee's own message,
  // and syncing stops until the seller does.
  expect((await page.request.post(`${FAKE}/__fake/revoke?shop_id=${SHOP}`)).ok()).toBe(true);
  await row.getByTestId('shopee-sync').click();
  await expect(row.getByTestId('shopee-state')).toContainText('Authorise again', { timeout: 20_000 });
  await expect(row.getByTestId('shopee-last-error')).toContainText('Invalid refresh_token.');
  await page.reload();
  await expect(row.getByTestId('shopee-reauthorize')).toBeVisible();
  await expect(row.getByTestId('shopee-sync')).toBeDisabled();
  await expect(row.getByTestId('shopee-reauthorize-action')).toBeEnabled();
  await shot(page, 'reauthorize-en');
});
