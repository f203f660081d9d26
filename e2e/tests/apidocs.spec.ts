import { expect, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { loginByApi } from '../helpers/session';

test('the API reference renders the OpenAPI document and calls the API as the logged-in user', async ({ page }) => {
  // A main-area screen: a visitor who is not logged in goes to /login, and the document itself needs a login.
  await page.goto('/api-docs');
  await expect(page).toHaveURL(/\/login/);
  // Kept as written (here and the data-path selectors below): this test is about the reference document and the
  // paths it shows, not a call of a contract route.
  expect((await page.request.get('/api/openapi.json')).status()).toBe(401);

  await loginByApi(page, DEMO.customer);
  await page.goto('/api-docs');
  await expect(page.getByTestId('api-docs')).toBeVisible();
  const ui = page.locator('.swagger-ui');
  await expect(ui.locator('.info .title')).toContainText('WMS API');
  await expect(ui.locator('.info .title')).toContainText('OAS 3.1');
  await page.screenshot({ path: 'artifacts/api-docs.png' });

  // Operations are grouped by route table; each names its contract route.
  await ui.locator('.opblock-tag', { hasText: /^inbound/ }).click();
  const list = ui.locator('.opblock-get').filter({ has: page.locator('[data-path="/api/entry/"]') });
  await expect(list).toBeVisible();
  await expect(ui.locator('[data-path="/api/entry-confirm/{id}/"]')).toBeVisible();

  // "Try it out" on the receipt list: Swagger UI sends the session's bearer token.
  await list.locator('.opblock-summary').click();
  await list.getByRole('button', { name: 'Try it out' }).click();
  await list.getByRole('button', { name: 'Execute' }).click();
  await expect(list.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
  await page.screenshot({ path: 'artifacts/api-docs-try-it-out.png', fullPage: true });
});
