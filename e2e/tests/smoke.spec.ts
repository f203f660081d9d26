import { expect, test } from '@playwright/test';

test('the built app is served and the API answers on the same port', async ({ page, request }) => {
  const health = await request.get('/api/health/');
  expect(health.ok()).toBe(true);
  expect((await health.json()).build_id).toBe('e2e-build-1');
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
});
