import { expect, test } from '@playwright/test';
import { apiOf } from '../helpers/api';

test('the built app is served and the API answers on the same port', async ({ page, request }) => {
  const health = await apiOf(request).authRoutes.health();
  expect(health.statusCode).toBe(200);
  expect(health.json().build_id).toBe('e2e-build-1');
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
});
