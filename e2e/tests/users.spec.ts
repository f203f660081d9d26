import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiOf } from '../helpers/api';
import { readMail } from '../helpers/mail';
import { loginThroughUi, registerByApi } from '../helpers/session';

/**
 * Users and permissions end to end (issue #19): a new seller (the owner) invites a warehouse user on /users; the
 * invitation mail's set-password link is opened and a password chosen; the warehouse user logs in, sees only the
 * operations menus, is shown "no permission" on /users, and the API answers 403 PERMISSION_DENIED to their token on
 * the routes their role does not open. The owner then deactivates them and their next call is refused (401).
 * Screenshots: e2e/artifacts/screenshots/users-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `users-${name}.png`), fullPage: true });

test('the owner invites a warehouse user, who sees only the operations menus and is refused the rest', async ({
  page,
  browser,
}) => {
  const owner = await registerByApi(page, 'en');
  await loginThroughUi(page, owner);
  await expect(page).toHaveURL(/\/dashboard/);

  // Invite through the /users screen.
  await page.goto('/users');
  await expect(page.getByTestId('user-invite')).toBeVisible();
  const email = `picker${Date.now()}@example.com`;
  await page.getByTestId('user-invite').click();
  await page.getByTestId('user-name').fill('Picker Lin');
  await page.getByTestId('user-email').fill(email);
  await page.getByTestId('user-role').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Warehouse' }).click();
  await shot(page, 'invite');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await expect(page.getByText('Invited', { exact: true })).toBeVisible();
  await shot(page, 'list');

  // The invitation mail carries the set-password link.
  const mail = await readMail(email);
  const link = /https?:\/\/\S+\/format-password\?token=\S+/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeTruthy();
  const context = await browser.newContext();
  const picker = await context.newPage();
  await picker.goto(new URL(link!).pathname + new URL(link!).search);
  await picker.locator('#new_password').fill('picker-pass-1');
  await picker.locator('#confirm').fill('picker-pass-1');
  await picker.getByRole('button').filter({ hasText: /./ }).last().click();
  await expect(picker.getByTestId('reset-done')).toBeVisible();

  // The warehouse user sees the operations menus only.
  await loginThroughUi(picker, { email, password: 'picker-pass-1' });
  await expect(picker).toHaveURL(/\/dashboard/);
  const menu = picker.getByTestId('main-menu');
  for (const group of ['Inbound', 'Outbound', 'Stock', 'Returns'])
    await expect(menu.getByText(group, { exact: true })).toBeVisible();
  // The analysis group keeps its stock screen (location stock) only.
  for (const group of ['Purchase advice', 'API', 'Store ordering'])
    await expect(menu.getByText(group, { exact: true })).toHaveCount(0);
  await menu.getByText('Account', { exact: true }).click();
  await expect(menu.getByText('Two-step login', { exact: true })).toBeVisible();
  await expect(menu.getByText('Billing', { exact: true })).toHaveCount(0);
  await expect(menu.getByText('User settings', { exact: true })).toHaveCount(0);
  await shot(picker, 'warehouse-menu');

  // A screen the role does not open says so, and the API refuses it with 403.
  await picker.goto('/users');
  await expect(picker.getByTestId('no-permission')).toBeVisible();
  await shot(picker, 'no-permission');
  const session = await picker.evaluate(() => JSON.parse(localStorage.getItem('wms.session') ?? '{}'));
  const token: string = session.access;
  const api = apiOf(picker.request);
  const refused = {
    listCompanyUsers: () => api.userRoutes.listCompanyUsers({ token }),
    billingOverview: () => api.billingRoutes.overview({ token }),
    listPayments: () => api.billingRoutes.listPayments({ token }),
    purchaseAdvice: () => api.analysisRoutes.purchaseAdvice({ token }),
    listStoreProducts: () => api.storeRoutes.listStoreProducts({ token }),
  };
  for (const [route, call] of Object.entries(refused)) {
    const res = await call();
    expect(res.statusCode, route).toBe(403);
    expect(res.error().code).toBe('PERMISSION_DENIED');
  }
  expect((await api.inboundRoutes.listReceipts({ token })).statusCode).toBe(200);

  // The owner deactivates the user: the very next call with their token is refused.
  await page.reload();
  await page.getByTestId(`user-toggle-${email}`).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Deactivated', { exact: true })).toBeVisible();
  expect((await api.inboundRoutes.listReceipts({ token })).statusCode).toBe(401);
  await context.close();
});
