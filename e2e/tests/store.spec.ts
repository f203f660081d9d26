import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { ok, signIn, stockIn } from '../helpers/api';
import { mailCount, readMail } from '../helpers/mail';
import { shipByTrackingScan } from '../helpers/packing';
import { chooseLanguage } from '../helpers/session';

/**
 * The online store end to end (issue #16): the seller opens its store and lists two products on /store-admin, adds
 * a member on /store-member (the invitation mail carries the login link and a password), the member logs in at
 * /store/login/{short_url} and orders both products on /store/dashboard, the order appears on /deliver, the seller
 * exports and ships it at the packing station, and the member sees the consignment number on /store/deliver-list.
 * Warehouse, location, products, stock and a carrier are set up through the API. Screenshots:
 * e2e/artifacts/screenshots/store-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `store-${name}.png`), fullPage: true });

async function scan(page: Page, testId: string, code: string) {
  const box = page.getByTestId(testId);
  await expect(box).toBeFocused();
  await box.fill(code);
  await box.press('Enter');
}

test('a seller opens its store and adds a member; the member orders, the seller ships, the member sees the consignment', async ({
  page,
  browser,
}) => {
  // Two browsers (the seller and the member) and a whole order's life: ~55 s on a loaded 2-core machine.
  test.setTimeout(120_000);
  const session = await signIn(page, DEMO.customer);
  const { api, token } = session;
  const stamp = `S${Date.now().toString(36).toUpperCase()}`;
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `Store ${stamp}` }, token }),
  );
  const location = await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: warehouse.id, code: `A-${stamp}`, kind: 'sellable', pick_sequence: 1 },
      token,
    }),
  );
  const tea = await ok(
    api.catalogRoutes.createProduct({ body: { number: `TEA-${stamp}`, name: `高山茶 ${stamp}` }, token }),
  );
  const cup = await ok(
    api.catalogRoutes.createProduct({ body: { number: `CUP-${stamp}`, name: `茶杯 ${stamp}` }, token }),
  );
  for (const p of [tea, cup]) await stockIn(session, warehouse.id, p.number, 10, location.code);
  await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: `TCAT-${stamp}`, name: `黑貓宅急便 ${stamp}` }, token }),
  );

  // 1. /store-admin: name the store, open it, list both products with a selling price.
  await page.goto('/store-admin');
  const settings = page.getByTestId('store-settings');
  await expect(page.getByTestId('store-short-url')).toHaveValue(DEMO.store.shortUrl);
  await page.getByTestId('store-name-input').fill(DEMO.store.name);
  await page.getByTestId('store-open').click();
  await page.getByTestId('store-save').click();
  await expect(page.locator('.ant-message')).toContainText('商店已儲存');
  await expect(settings).toContainText(`/store/login/${DEMO.store.shortUrl}`);
  await shot(page, 'admin-settings');
  await page.getByRole('tab', { name: '上架商品' }).click();
  const products = page.getByRole('tabpanel', { name: '上架商品' });
  await products.getByRole('textbox').first().fill(stamp);
  await products.getByRole('textbox').first().press('Enter');
  for (const [p, price] of [
    [tea, '350'],
    [cup, '120.5'],
  ] as const) {
    await page.getByTestId(`list-${p.number}`).click();
    const modal = page.locator('.ant-modal').filter({ hasText: p.number });
    await modal.getByTestId('listing-switch').click();
    await expect(modal.getByTestId('listing-switch')).toHaveAttribute('aria-checked', 'true');
    await modal.getByTestId('listing-price').fill(price);
    await modal.getByRole('button', { name: /儲\s*存/ }).click();
    await expect(modal).toBeHidden();
  }
  await expect(products.locator('.ant-table-row').filter({ hasText: tea.number })).toContainText('已上架');
  await expect(products.locator('.ant-table-row').filter({ hasText: cup.number })).toContainText('120.50');
  await shot(page, 'admin-products');

  // 2. /store-member: add a member; the invitation mail brings the login link and a password.
  const memberEmail = `buyer-${stamp.toLowerCase()}@example.tw`;
  const mailsBefore = mailCount(memberEmail);
  await page.goto('/store-member');
  await page.getByTestId('member-add').click();
  const dialog = page.locator('.ant-modal');
  await dialog.getByTestId('member-name').fill('林小美');
  await dialog.getByTestId('member-email').fill(memberEmail);
  await dialog.getByLabel('電話').fill('0912345678');
  await dialog.getByLabel('郵遞區號').fill('100');
  await dialog.getByLabel('地址').fill('台北市中正區重慶南路一段 122 號');
  await dialog.getByRole('button', { name: /儲\s*存/ }).click();
  await expect(page.locator('.ant-message')).toContainText(memberEmail);
  await expect(page.locator('.ant-table-row').filter({ hasText: memberEmail })).toContainText('林小美');
  await shot(page, 'members');
  const mail = await readMail(memberEmail, mailsBefore);
  expect(mail.body).toContain(`/store/login/${DEMO.store.shortUrl}`);
  const password = /密碼：(\S+)/.exec(mail.body)?.[1] ?? '';
  expect(password.length).toBeGreaterThan(6);

  // 3. The member logs in through the short URL (a separate browser: the member session is its own).
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(`/store/login/${DEMO.store.shortUrl}`);
  await expect(member.locator('#corp')).toHaveValue(DEMO.store.shortUrl);
  await member.locator('#email').fill(memberEmail);
  await member.locator('#password').fill(password);
  await member.getByTestId('member-login-submit').click();
  await expect(member).toHaveURL(/\/store\/deliver-list$/);
  await expect(member.getByTestId('store-name')).toHaveText(DEMO.store.name);

  // 4. /store/dashboard: two products into the cart; the recipient is prefilled from the profile.
  await member.goto('/store/dashboard');
  const shop = member.getByTestId('direct-purchase');
  await expect(shop).toContainText(tea.number);
  await expect(shop.locator('.ant-table-row').filter({ hasText: tea.number })).toContainText('10');
  await expect(member.locator('#recipient_name')).toHaveValue('林小美');
  await expect(member.locator('#recipient_postcode')).toHaveValue('100');
  await member.getByTestId(`qty-${tea.number}`).fill('2');
  await member.getByTestId(`qty-${cup.number}`).fill('1');
  await expect(member.getByTestId('cart-total')).toContainText('820.50');
  await member.getByTestId('purchase-provider').click();
  await member
    .locator('.ant-select-item-option')
    .filter({ hasText: `黑貓宅急便 ${stamp}` })
    .click();
  await shot(member, 'member-cart');
  await member.getByTestId('purchase-submit').click();
  await expect(member.locator('.ant-message')).toContainText('820.50');
  const orderNumber = ((await member.locator('.ant-message').innerText()).match(/OUT\d{12}/) ?? [''])[0];
  expect(orderNumber).toMatch(/^OUT\d{12}$/);
  await expect(member.getByTestId('recent-orders')).toContainText(orderNumber);
  await shot(member, 'member-ordered');

  // 5. The order is on /deliver (pending export, channel online store); export it and ship it at the packing station.
  await page.goto('/deliver');
  await page.getByTestId('order-search').fill(orderNumber);
  await page.getByTestId('order-search-submit').click();
  const row = page.locator('.ant-table-row').filter({ hasText: orderNumber });
  await expect(row).toContainText('待轉出');
  await shot(page, 'deliver');
  await row.locator('[data-testid^="order-open-"]').click();
  await expect(page.getByTestId('order-detail')).toContainText('林小美');
  await page.getByTestId('order-action-export').click();
  await expect(page.getByTestId('order-status-exported').first()).toBeVisible();
  await page.goto('/deliver-opser');
  await chooseLanguage(page, 'English');
  await page.getByTestId('tab-packing').click();
  await scan(page, 'pack-scan-order', orderNumber);
  for (const [code, n] of [
    [tea.number, 2],
    [cup.number, 1],
  ] as const)
    for (let i = 0; i < n; i++) {
      await scan(page, 'pack-scan-item', code);
      await expect(page.getByTestId(`pack-progress-${code}`)).toHaveText(`${i + 1}/${n}`);
    }
  await expect(page.getByTestId('pack-complete')).toBeVisible();
  const consignment = `TC${Date.now()}`.slice(0, 20);
  // The tracking number's Enter ships (after the packaging, when the seller has some to choose).
  await shipByTrackingScan(page, token, consignment);
  await expect(page.getByTestId('pack-cue')).toContainText(`Order ${orderNumber} shipped`);
  await chooseLanguage(page, '繁體中文');

  // 6. The member's delivery list shows the consignment number (a tracking link for T-cat).
  await member.goto('/store/deliver-list');
  const mine = member.locator('.ant-table-row').filter({ hasText: orderNumber });
  await expect(mine).toContainText(consignment);
  await expect(mine.getByTestId('tracking-link')).toHaveAttribute('href', new RegExp(consignment));
  await expect(member.locator('.ant-table-row')).toHaveCount(1);
  await shot(member, 'member-deliver-list');

  // The seller orders from its own store too (the main area's direct-purchase menu).
  await page.goto('/direct-purchase');
  await page.getByTestId(`qty-${cup.number}`).fill('3');
  await page.locator('#recipient_name').fill('王小明');
  await page.locator('#recipient_phone').fill('0223456789');
  await page.locator('#recipient_postcode').fill('106');
  await page.locator('#recipient_address').fill('台北市大安區復興南路一段 1 號');
  await page.getByTestId('purchase-provider').click();
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: `黑貓宅急便 ${stamp}` })
    .click();
  await expect(page.getByTestId('cart-total')).toContainText('361.50');
  await shot(page, 'seller-purchase');
  await page.getByTestId('purchase-submit').click();
  await expect(page.locator('.ant-message')).toContainText('361.50');

  // The seller sees both among the store's orders: the member's with the member's name, its own as a direct purchase.
  await page.goto('/store-admin');
  await page.getByRole('tab', { name: '會員訂單' }).click();
  await expect(page.locator('.ant-table-row').filter({ hasText: orderNumber })).toContainText(memberEmail);
  await expect(page.locator('.ant-table-row').filter({ hasText: '王小明' })).toContainText('賣家直購');
  await shot(page, 'admin-orders');

  // Profile and password: a new password ends the session; the new one logs in.
  await member.goto('/store/profile');
  await member.getByTestId('profile-name').fill('林小美 Mei');
  await member.getByTestId('profile-save').click();
  await expect(member.locator('.ant-message')).toContainText('儲存');
  await shot(member, 'member-profile');
  await member.goto('/store/password');
  await member.getByTestId('old-password').fill(password);
  await member.getByTestId('new-password').fill('brand-new-pass');
  await member.getByTestId('confirm-password').fill('brand-new-pass');
  await member.getByTestId('password-save').click();
  await expect(member).toHaveURL(new RegExp(`/store/login/${DEMO.store.shortUrl}$`));
  await member.locator('#email').fill(memberEmail);
  await member.locator('#password').fill('brand-new-pass');
  await member.getByTestId('member-login-submit').click();
  await expect(member).toHaveURL(/\/store\/deliver-list$/);
  await expect(member.locator('.ant-layout-header')).toContainText('林小美 Mei');
  await memberContext.close();
});
