import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { newSeller, stockedProduct } from '../helpers/api';
import { loginByApi } from '../helpers/session';

/**
 * Usage billing, first slice (issue #35): the staff set the default rate card on the CRM customer screen; a new seller
 * receives goods (a quick inbound confirms a receipt); /billing shows "usage this month" priced by that card, with
 * the 5 % business tax, and a line opens its events with the receipt's number. Screenshots:
 * e2e/artifacts/screenshots/usage-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `usage-${name}.png`), fullPage: true, animations: 'disabled' });

/** Today in Asia/Taipei, `YYYY-MM-DD`. */
const taipeiToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

test('staff set the default rate card; a seller’s receipt shows in its usage this month, down to the receipt', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const staff = await browser.newPage();
  await loginByApi(staff, DEMO.employee);
  await staff.goto('/crm/customer');
  const cards = staff.getByTestId('default-rate-cards');
  await cards.getByTestId('default-rate-cards-add').click();
  await staff.getByTestId('rate-card-valid-from').fill(taipeiToday());
  await staff.getByTestId('rate-card-valid-from').press('Enter');
  await staff.getByTestId('rate-receiving_receipt').fill('30');
  await staff.getByTestId('rate-receiving_unit').fill('1.5');
  await staff.getByTestId('rate-pick_order').fill('abc');
  await staff.getByTestId('rate-card-save').click();
  await expect(staff.getByText('請輸入 0 以上、最多 4 位小數的金額')).toBeVisible();
  await staff.getByTestId('rate-pick_order').fill('15');
  await staff.getByTestId('rate-pick_extra_unit').fill('3.25');
  await staff.getByTestId('rate-card-save').click();
  await expect(cards.getByRole('row', { name: new RegExp(taipeiToday()) })).toContainText('NT$15');
  await expect(cards).toContainText('含稅 NT$15.75');
  await shot(staff, 'crm-rate-cards');

  // A new seller receives 12 units: a confirmed receipt → receiving per receipt (30) + 12 × 1.5 = NT$48 before tax.
  const { api, token } = await newSeller(page, 'zh-TW');
  const stamp = `U${Date.now().toString(36).toUpperCase()}`;
  const { receipt } = await stockedProduct(api, token, stamp, 12);

  await page.goto('/billing');
  const usage = page.getByTestId('billing-usage');
  // The charge is written by the event's delivery, just after the receipt's commit.
  await expect(async () => {
    await page.reload();
    await expect(usage.getByTestId('usage-line-receiving_unit')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(usage.getByTestId('usage-totals')).toContainText('NT$48');
  // 5 % of 48 = 2.4 → NT$2 (whole TWD), total NT$50.
  await expect(usage.getByTestId('usage-total')).toHaveText('NT$50');
  await usage.getByTestId('usage-line-receiving_unit').click();
  const events = usage.getByTestId('usage-events');
  await expect(events).toContainText(receipt.number);
  await expect(events).toContainText('NT$18');
  await shot(page, 'billing');
  await events.getByRole('link', { name: receipt.number }).click();
  await expect(page).toHaveURL(new RegExp(`/entry\\?search=${receipt.number}`));
  await expect(page.getByRole('row', { name: new RegExp(receipt.number) })).toBeVisible();
});
