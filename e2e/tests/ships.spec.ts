import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { ok, setLanguage, signIn } from '../helpers/api';

/**
 * Ship-by promises as the warehouse sets them (issue #36, first slice): a warehouse's carrier cut-off, working days
 * and the seller's promise on /warehouse; new orders get their ship-by time, /deliver filters "due today"; the floor
 * board /ships-today counts them per carrier.
 */

test.describe.configure({ timeout: 150_000 });

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const shot = (page: Page, name: string) => {
  mkdirSync(shots, { recursive: true });
  return page.screenshot({ path: path.join(shots, `ships-${name}.png`), fullPage: true });
};
const modal = (page: Page) => page.getByRole('dialog');
const save = (page: Page) => modal(page).getByRole('button', { name: /Save/ });

// This spec reads the demo seller's screens in English; the specs after it expect the seller's zh-TW again.
test.afterEach(async ({ page }) => {
  await setLanguage(page, await signIn(page, DEMO.customer), 'zh-TW');
});

test('cut-offs and working days on /warehouse → orders due today on /deliver → the floor board', async ({ page }) => {
  const session = await signIn(page, DEMO.customer);
  const { api, token } = session;
  await setLanguage(page, session, 'en');
  const stamp = Date.now().toString(36).toUpperCase();
  const wh = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `SHP${stamp}`, name: 'Ships board' }, token }),
  );
  const carrier = await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: `C${stamp}`, name: `Carrier ${stamp}` }, token }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `SHP-${stamp}`, name: `Ship ${stamp}` }, token }),
  );

  // The warehouse's cut-offs: this carrier until 23:59, every day of the week (so the orders below are due today).
  await page.goto('/warehouse');
  await page.getByTestId(`ship-calendar-${wh.code}`).click();
  await page.getByTestId('ship-cutoff-add').click();
  await modal(page).getByTestId('ship-cutoff-carrier').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: carrier.code }).click();
  await modal(page).getByTestId('ship-cutoff-time').fill('23:59');
  await modal(page).getByTestId('ship-pickup-time').fill('23:59');
  await modal(page).getByLabel('Sat').check();
  await modal(page).getByLabel('Sun').check();
  await shot(page, 'calendar');
  await save(page).click();
  await expect(page.getByTestId(`ship-summary-${wh.code}`)).toContainText('cut-off 23:59, pick-up 23:59');

  // The seller's promise: same day, the carriers' cut-offs alone.
  await page.getByTestId('ship-sla-open').click();
  await modal(page).getByRole('radio', { name: 'Same day' }).check();
  await modal(page).getByTestId('ship-sla-before').fill('');
  await save(page).click();
  await expect(page.getByTestId('ship-sla-open')).toContainText("same day before the carrier's cut-off");
  await shot(page, 'warehouse');

  // Three new orders for that warehouse and carrier.
  const numbers: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const o = await ok(
      api.outboundRoutes.createOrder({
        body: {
          platform_order_number: `SHP-${stamp}-${i}`,
          recipient_name: '陳小華',
          recipient_phone: '0922333444',
          recipient_postcode: '40341',
          recipient_address: '台中市西區',
          warehouse_id: wh.id,
          logistics_provider_id: carrier.id,
          lines: [{ product_id: product.id, quantity: 1 }],
        },
        token,
      }),
    );
    // Today 23:59 in Taipei.
    expect(o.ship_by).toMatch(/T15:59:00\.000Z$/);
    numbers.push(o.number);
  }

  // /deliver: due today.
  await page.goto('/deliver?due=today');
  await page.getByTestId('order-search').fill(`SHP-${stamp}`);
  await page.getByTestId('order-search-submit').click();
  const rows = page.locator('.ant-table-row').filter({ hasText: `SHP-${stamp}` });
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByTestId('ship-by')).toContainText('23:59');
  await shot(page, 'deliver-due-today');

  // The floor board: the carrier's card with the three orders not released yet.
  await page.goto('/ships-today');
  const key = `${wh.code}-${carrier.code}`;
  await expect(page.getByTestId(`board-row-${key}`)).toBeVisible();
  await expect(page.getByTestId(`board-waiting-${key}`)).toHaveText('3');
  await expect(page.getByTestId(`board-late-${key}`)).toHaveText('0');
  await expect(page.getByTestId(`board-row-${key}`)).toContainText('Cut-off in');
  await shot(page, 'board');
});
