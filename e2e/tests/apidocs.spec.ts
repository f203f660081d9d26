import { expect, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { apiOf } from '../helpers/api';
import { loginByApi } from '../helpers/session';

test('the API reference renders the OpenAPI document and calls the API as the logged-in user', async ({ page }) => {
  // A main-area screen: a visitor who is not logged in goes to /login, and the document itself needs a login.
  await page.goto('/api-docs');
  await expect(page).toHaveURL(/\/login/);
  expect((await apiOf(page.request).apiDocsRoutes.openapi()).statusCode).toBe(401);

  await loginByApi(page, DEMO.customer);
  await page.goto('/api-docs');
  await expect(page.getByTestId('api-docs')).toBeVisible();
  const ui = page.locator('.swagger-ui');
  await expect(ui.locator('.info .title')).toContainText('WMS API');
  await expect(ui.locator('.info .title')).toContainText('OAS 3.1');
  await page.screenshot({ path: 'artifacts/api-docs.png' });

  // Operations are grouped by route table; each names its contract route.
  await ui.locator('.opblock-tag', { hasText: /^inbound/ }).click();
  // raw-api-path: the reference shows the paths themselves (Swagger UI's data-path).
  const list = ui.locator('.opblock-get').filter({ has: page.locator('[data-path="/api/entry/"]') });
  await expect(list).toBeVisible();
  // raw-api-path: as above.
  await expect(ui.locator('[data-path="/api/entry-confirm/{id}/"]')).toBeVisible();

  // "Try it out" on the receipt list: Swagger UI sends the session's bearer token.
  await list.locator('.opblock-summary').click();
  await list.getByRole('button', { name: 'Try it out' }).click();
  await list.getByRole('button', { name: 'Execute' }).click();
  await expect(list.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
  await page.screenshot({ path: 'artifacts/api-docs-try-it-out.png', fullPage: true });
});
