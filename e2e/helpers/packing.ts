import { expect, type Page } from '@playwright/test';

/**
 * The packing station's last step as a scanner-only station does it: the tracking number is scanned (typed, then
 * Enter) and that ships the order when nothing else is asked. When the seller has packaging materials, the packaging
 * is asked first (the first one is chosen here), and the tracking number's Enter then ships.
 */
export async function shipByTrackingScan(page: Page, auth: Record<string, string>, tracking: string): Promise<void> {
  const res = await page.request.get('/api/packaging-materials/', { headers: auth });
  expect(res.status(), await res.text()).toBe(200);
  const { results } = (await res.json()) as { results: unknown[] };
  const box = page.getByTestId('pack-consignment');
  await box.fill(tracking);
  if (results.length > 0) {
    await box.press('Enter');
    // Packaging is asked before the order ships: the tracking number's Enter did not ship.
    await expect(page.getByTestId('pack-packaging-0').locator('input')).toBeFocused();
    await page.getByTestId('pack-packaging-0').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await box.focus();
  }
  await box.press('Enter');
}
