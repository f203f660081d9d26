import { expect, type Page } from '@playwright/test';
import { apiOf, ok } from './api';

/**
 * The packing station's last step as a scanner-only station does it: the tracking number is scanned (typed, then
 * Enter) and that ships the order when nothing else is asked. When the seller has packaging materials, the packaging
 * is asked first (the first one is chosen here), and the tracking number's Enter then ships.
 */
export async function shipByTrackingScan(page: Page, token: string, tracking: string): Promise<void> {
  const { results } = await ok(apiOf(page.request).catalogRoutes.listPackagingMaterials({ token }));
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
