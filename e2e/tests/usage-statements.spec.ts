import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { usageRoutes } from '@wms/contracts';
import { DEMO } from '../helpers/accounts';
import { crmCustomer, exportedOrder, newSeller, ok, packAndShip, signIn, stockedProduct } from '../helpers/api';

/**
 * Statements (issue #35): a seller with its own rate card receives goods and ships an order; the staff issue the
 * month's statement on the CRM customer screen (this e2e server lets the running month be issued:
 * USAGE_ISSUE_OPEN_MONTH); the seller opens the statement on /billing, a line, and the event's order. Screenshots:
 * e2e/artifacts/screenshots/usage-statements-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `usage-statements-${name}.png`), fullPage: true, animations: 'disabled' });

/** This month in Asia/Taipei, `YYYY-MM`. */
const taipeiMonth = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 7);

test('staff issue a statement; the seller opens a line down to the order', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { api, token, seller } = await newSeller(page, 'zh-TW');
  const company = seller.name.replace('Seller', 'Company');
  const staff = await browser.newPage();
  const staffSession = await signIn(staff, DEMO.employee);
  const customer = await crmCustomer(staffSession, company);
  await ok(
    staffSession.api.usageRoutes.crmCreateRateCard({
      body: {
        customer_id: customer.id,
        valid_from: `${taipeiMonth()}-01`,
        rates: { receiving_receipt: '30', receiving_unit: '1.5', pick_order: '15', pick_extra_unit: '3.25' },
      },
      token: staffSession.token,
    }),
  );

  // The seller's work: a receipt of 12 units, then an order of 2 shipped (through the API: the screens have their specs).
  const stamp = `S${Date.now().toString(36).toUpperCase()}`;
  const { product } = await stockedProduct(api, token, stamp, 12, { barcode: `B${stamp}` });
  const order = await exportedOrder(
    { api, token },
    {
      recipient_name: '王小明',
      recipient_phone: '0912-345-678',
      recipient_postcode: '100',
      recipient_address: '台北市中正區重慶南路一段 122 號',
      lines: [{ product_id: product.id, quantity: 2 }],
    },
  );
  await packAndShip({ api, token }, order.id, {
    barcode: `B${stamp}`,
    units: 2,
    consignment: { consignment_number: `9${Date.now().toString().slice(-11)}`, piece_count: 1 },
  });
  // The charges are written by the events' delivery, just after the commits.
  await expect(async () => {
    const usage = await ok(api.usageRoutes.usage({ token }));
    expect(usage.lines.map((l) => l.kind)).toContain('pick_order');
  }).toPass({ timeout: 20_000 });

  // The staff issue the month's statement on the CRM customer screen.
  await staff.goto('/crm/customer');
  await staff.getByTestId('table-search').locator('input').first().fill(company);
  await staff.getByTestId('table-search').locator('input').first().press('Enter');
  await staff.getByTestId('customer-open').filter({ hasText: company }).click();
  const drawer = staff.getByTestId('customer-drawer');
  const card = drawer.getByTestId('crm-statements');
  await card.getByTestId('statement-month').click();
  await card.getByTestId('statement-month').fill(taipeiMonth());
  await card.getByTestId('statement-month').press('Enter');
  await card.getByTestId('statement-issue').click();
  const issued = staff.waitForResponse(
    (r) => r.url().includes(usageRoutes.crmIssueStatement.path) && r.request().method() === 'POST',
  );
  await staff.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  const answer = await issued;
  expect(answer.status(), await answer.text()).toBe(201);
  const statement = (await answer.json()) as { number: string };
  const detail = staff.getByTestId('statement-detail');
  await expect(detail).toBeVisible();
  // 30 + 12 × 1.5 + 15 + 3.25 = 66.25; tax 5 % → NT$3; total NT$69.25.
  await expect(detail.getByTestId('statement-totals')).toContainText('NT$66.25');
  await expect(detail.getByTestId('statement-total')).toHaveText('NT$69.25');
  await detail.getByTestId('statement-line-pick_order').click();
  await expect(detail.getByTestId('statement-events')).toContainText(order.number);
  await shot(staff, 'crm-detail');

  // Every seller's statements: found by the seller's name, with the sums; the dashboard's revenue per seller.
  await staff.goto('/crm/statements');
  await staff.getByTestId('crm-statements-search').locator('input').fill(company);
  await staff.getByTestId('crm-statements-search').locator('input').press('Enter');
  await expect(staff.getByTestId(`crm-statement-${statement.number}`)).toBeVisible();
  await expect(staff.getByTestId('crm-statements-totals')).toContainText('NT$69.25');
  await shot(staff, 'crm-all');
  await staff.goto('/crm/dashboard');
  await expect(staff.getByTestId('crm-revenue')).toContainText(company);
  await shot(staff, 'crm-revenue');

  // The seller opens the statement on /billing, the pick & pack line, and the order.
  await page.goto('/billing');
  const list = page.getByTestId('billing-statements');
  await expect(list).toContainText('已開立');
  await list.getByTestId(`statement-${statement.number}`).click();
  const mine = page.getByTestId('statement-detail');
  await expect(mine.getByTestId('statement-total')).toHaveText('NT$69.25');
  await mine.getByTestId('statement-line-pick_order').click();
  await expect(mine.getByTestId('statement-events')).toContainText(order.number);
  await shot(page, 'seller-detail');
  await mine.getByTestId('statement-event-document').first().click();
  await expect(page).toHaveURL(new RegExp(`/deliver\\?search=${order.number}`));
  await expect(page.getByRole('row', { name: new RegExp(order.number) })).toBeVisible();

  // The seller pays the statement by card (TapPay, the sandbox stub card form); it is then paid.
  await page.goto('/billing');
  await page.getByTestId('billing-statements').getByTestId(`statement-${statement.number}`).click();
  await page.getByTestId('statement-detail').getByTestId('statement-pay-card').click();
  await expect(page.getByTestId('tappay-due')).toContainText(statement.number);
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('card-expiry').fill('12/30');
  await page.getByTestId('card-ccv').fill('123');
  await page.getByTestId('cardholder-name').fill('王小明');
  await page.getByTestId('cardholder-email').fill(seller.email);
  await page.getByTestId('cardholder-phone').fill('0912345678');
  await shot(page, 'seller-pay-card');
  await page.getByTestId('tappay-pay').click();
  await expect(page.getByTestId('wait-succeeded')).toBeVisible({ timeout: 15_000 });
  await page.goto('/billing');
  await expect(page.getByTestId('billing-statements')).toContainText('已付款');
  await page.getByTestId('billing-statements').getByTestId(`statement-${statement.number}`).click();
  await expect(page.getByTestId('statement-detail')).toContainText('TapPay');
  await expect(page.getByTestId('statement-pay-card')).toHaveCount(0);
  await shot(page, 'seller-paid');

  // The seller disputes the pick & pack line; the staff answer with a correction on the next statement.
  await page.getByTestId('statement-dispute-pick_order').click();
  await page.getByTestId('dispute-reason').fill('這筆訂單只有 1 件');
  await page.getByTestId('dispute-send').click();
  await expect(page.getByTestId('statement-disputes')).toContainText('處理中');
  await shot(page, 'seller-dispute');
  await staff.goto('/crm/statements');
  await staff.getByTestId('crm-statements-search').locator('input').fill(statement.number);
  await staff.getByTestId('crm-statements-search').locator('input').press('Enter');
  await staff.getByTestId(`crm-statement-${statement.number}`).click();
  await staff.getByTestId('dispute-correct').click();
  await staff.getByTestId('correct-event').click();
  await staff.locator('.ant-select-item-option').first().click();
  await staff.getByTestId('correct-amount').fill('-3.25');
  await staff.getByTestId('correct-reason').fill('Only one unit was packed');
  await shot(staff, 'crm-correct');
  await staff.getByTestId('correct-save').click();
  await expect(staff.getByTestId('statement-disputes')).toContainText('已更正');
  await shot(staff, 'crm-corrected');
});
