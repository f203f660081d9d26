import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { apiOf } from '../helpers/api';
import { loginByApi } from '../helpers/session';

const buildFile = path.resolve(import.meta.dirname, '../../apps/web/dist/build.json');

test("a new build on the server shows 'system needs update'; confirming reloads the app", async ({ page }) => {
  const original = readFileSync(buildFile, 'utf8');
  expect(JSON.parse(original).build_id).toBe('e2e-build-1');
  await loginByApi(page, DEMO.customer);
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-welcome')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  try {
    writeFileSync(buildFile, JSON.stringify({ build_id: 'e2e-build-2' }));
    await expect.poll(async () => (await apiOf(page.request).authRoutes.build()).json().build_id).toBe('e2e-build-2');
    // Navigating inside the app (no reload) asks the server again.
    await page.getByTestId('main-menu').getByText('帳務與安全').click();
    await page.getByTestId('main-menu').getByText('個人資料').click();
    await expect(page).toHaveURL(/\/profile$/);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('系統需要更新');
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await Promise.all([page.waitForEvent('load'), dialog.getByTestId('confirm-update').click()]);
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
    // Let the reloaded app finish entering (its token refresh) before the next reload.
    await expect(page.locator('#name')).toBeVisible();
  } finally {
    writeFileSync(buildFile, original);
  }
  await page.reload();
  await expect(page.locator('#name')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
