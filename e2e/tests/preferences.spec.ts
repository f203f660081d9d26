import { expect, test } from '@playwright/test';
import { authRoutes } from '@wms/contracts';
import { apiOf, ok } from '../helpers/api';
import { chooseLanguage, loginByApi, loginThroughUi, registerByApi, storedSession } from '../helpers/session';

test('language and theme chosen before login are kept across a reload', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant-TW');
  await chooseLanguage(page, 'English');
  await page.getByTestId('theme-switch').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('login-submit')).toHaveText('Log in');
  const bg = await page.getByTestId('public-layout').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(bg).not.toBe('rgb(245, 245, 245)');
});

test('a logged-in user’s language and theme are saved in the profile and follow them to a new browser', async ({
  page,
  browser,
}) => {
  const user = await registerByApi(page);
  await loginByApi(page, user);
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-welcome')).toContainText('歡迎回來');

  const saved = () =>
    page.waitForResponse((r) => r.url().endsWith(authRoutes.updateProfile.path) && r.request().method() === 'PATCH');
  let patch = saved();
  await chooseLanguage(page, '日本語');
  expect((await (await patch).json()).language).toBe('ja');
  patch = saved();
  await page.getByTestId('theme-switch').click();
  expect((await (await patch).json()).theme).toBe('dark');
  await expect(page.getByTestId('dashboard-welcome')).toContainText('おかえりなさい');

  await page.reload();
  await expect(page.getByTestId('dashboard-welcome')).toContainText('おかえりなさい');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');

  // The server has them too.
  const session = await storedSession(page);
  const profile = await ok(apiOf(page.request).authRoutes.profile({ token: session!.access }));
  expect(profile).toMatchObject({ language: 'ja', theme: 'dark' });

  // A fresh browser (nothing in localStorage) gets them from the profile on login.
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await loginThroughUi(fresh, user);
  await expect(fresh.getByTestId('dashboard-welcome')).toContainText('おかえりなさい');
  await expect(fresh.locator('html')).toHaveAttribute('data-theme', 'dark');
  await other.close();
});
