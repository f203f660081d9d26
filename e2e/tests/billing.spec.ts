import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { loginByApi, registerByApi } from '../helpers/session';

/**
 * Billing (issue #15) against the fake TapPay and NewebPay that global-setup starts on 127.0.0.1: the employee sets
 * the seller's contract on the CRM customer screen; the seller pays a quarter with TapPay (the sandbox stub TPDirect
 * answers the sandbox test prime; 3-D Secure through the fake bank page, back to /wait-tappay), a declined card shows
 * its reason, then pays the next quarter through NewebPay's (fake) MPG page and sees every record with a receipt.
 * Screenshots: e2e/artifacts/screenshots/billing-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `billing-${name}.png`), fullPage: true, animations: 'disabled' });

test('plans and a contract request, contract from the CRM, TapPay, a declined card, NewebPay, paid up, a partial refund', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const seller = await registerByApi(page, 'zh-TW');
  const company = seller.name.replace('Seller', 'Company');

  // The employee publishes the list prices on the CRM customer screen.
  const staff = await browser.newPage();
  await loginByApi(staff, DEMO.employee);
  await staff.goto('/crm/customer');
  await staff.getByTestId('crm-list-prices-edit').click();
  await staff.getByTestId('list-plan-quarterly').fill('標準方案');
  await staff.getByTestId('list-price-quarterly').fill('3000');
  await staff.getByTestId('list-plan-annual').fill('標準方案');
  await staff.getByTestId('list-price-annual').fill('11000');
  await staff.getByTestId('list-prices-save').click();
  await expect(staff.getByTestId('list-price-view-annual')).toContainText('NT$11,550');
  await expect(staff.getByTestId('crm-reconciliation')).toBeVisible();
  await shot(staff, 'crm-customer');

  // A new seller without a contract sees the plans with prices and requests one (a support request).
  await loginByApi(page, seller);
  await page.goto('/billing');
  await expect(page.getByTestId('plan-quarterly')).toContainText('NT$3,150');
  await expect(page.getByTestId('plan-annual')).toContainText('NT$11,550');
  await page.getByTestId('plan-request-quarterly').click();
  await page.getByTestId('plan-request-note').fill('希望本月開始');
  await page.getByTestId('plan-request-send').click();
  await expect(page.getByTestId('plan-requested')).toBeVisible();
  await shot(page, 'plans');

  // The employee sets the contract on the CRM customer screen.
  await staff.getByTestId('table-search').locator('input').first().fill(company);
  await staff.getByTestId('table-search').locator('input').first().press('Enter');
  await staff.getByTestId('customer-open').filter({ hasText: company }).click();
  const drawer = staff.getByTestId('customer-drawer');
  await drawer.getByTestId('crm-contract-edit').click();
  await drawer.getByTestId('contract-plan').fill('標準方案');
  await drawer.getByTestId('contract-price').fill('3000');
  await drawer.getByTestId('contract-save').click();
  await expect(drawer.getByTestId('crm-contract')).toContainText('NT$3,150');
  await shot(staff, 'crm-contract');

  // The seller sees the contract and what is due.
  await page.goto('/billing');
  await expect(page.getByTestId('billing-total')).toHaveText('NT$3,150');
  await expect(page.getByTestId('billing-due')).toContainText('NT$3,150');
  await shot(page, 'due');

  // A second tab opens the card page for the same quarter (it is paid in the first tab meanwhile).
  const stale = await page.context().newPage();
  await stale.goto('/tappay');
  await expect(stale.getByTestId('tappay-due')).toBeVisible();

  // TapPay: the stub card form (sandbox), 3-D Secure at the fake bank, back to /wait-tappay.
  await page.getByTestId('pay-tappay').click();
  await expect(page.getByTestId('tappay-stub')).toBeVisible();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('card-expiry').fill('12/30');
  await page.getByTestId('card-ccv').fill('123');
  await page.getByTestId('cardholder-name').fill('王小明');
  await page.getByTestId('cardholder-email').fill(seller.email);
  await page.getByTestId('cardholder-phone').fill('0912345678');
  await shot(page, 'tappay');
  await page.getByTestId('tappay-pay').click();
  await page.waitForURL(/\/wait-tappay\?payment=/);
  await expect(page.getByTestId('wait-succeeded')).toBeVisible({ timeout: 15_000 });
  await shot(page, 'wait-tappay');

  // The stale tab pays the same quarter again: refused on screen (409 PERIOD_ALREADY_PAID), nothing charged.
  await stale.getByTestId('card-number').fill('4242 4242 4242 4242');
  await stale.getByTestId('card-expiry').fill('12/30');
  await stale.getByTestId('card-ccv').fill('123');
  await stale.getByTestId('cardholder-name').fill('王小明');
  await stale.getByTestId('cardholder-email').fill(seller.email);
  await stale.getByTestId('cardholder-phone').fill('0912345678');
  await stale.getByTestId('tappay-pay').click();
  await expect(stale.getByText('已付款，不會再次扣款')).toBeVisible();
  await shot(stale, 'tappay-refused');
  await stale.close();

  // A declined card: the bank's reason is shown.
  await page.goto('/tappay');
  await page.getByTestId('card-number').fill('4000 0000 0000 0002');
  await page.getByTestId('card-expiry').fill('12/30');
  await page.getByTestId('card-ccv').fill('123');
  await page.getByTestId('cardholder-name').fill('王小明');
  await page.getByTestId('cardholder-email').fill(seller.email);
  await page.getByTestId('cardholder-phone').fill('0912345678');
  await page.getByTestId('tappay-pay').click();
  await expect(page.getByTestId('wait-failed')).toContainText('Do not honor', { timeout: 15_000 });
  await shot(page, 'declined');

  // NewebPay: our form posted to the (fake) MPG gateway, paid there, back through the ReturnURL.
  await page.goto('/billing');
  await page.getByTestId('pay-newebpay').click();
  await page.getByTestId('newebpay-go').click();
  await expect(page.locator('#amount')).toHaveText('NT$3150');
  await shot(page, 'newebpay-gateway');
  await page.locator('#pay button').click();
  await page.waitForURL(/\/wait-newebpay\?payment=/);
  await expect(page.getByTestId('wait-succeeded')).toBeVisible({ timeout: 15_000 });
  await shot(page, 'wait-newebpay');

  // Both payments and the declined card are transaction records; a receipt prints.
  await page.getByTestId('wait-back').click();
  await expect(page.getByTestId('payment-status-succeeded')).toHaveCount(2);
  await expect(page.getByTestId('payment-status-failed')).toHaveCount(1);
  await expect(page.getByText('10003 Card Error: Do not honor')).toBeVisible();
  await expect(page.getByText('TapPay').first()).toBeVisible();
  await expect(page.getByText('NewebPay').first()).toBeVisible();
  // This quarter and the next are paid: the page says until when, and the pay buttons are off with the reason.
  await expect(page.getByTestId('billing-paid-until')).toBeVisible();
  await expect(page.getByTestId('billing-nothing-due')).toBeVisible();
  await expect(page.getByTestId('pay-tappay')).toBeDisabled();
  await expect(page.getByTestId('pay-newebpay')).toBeDisabled();
  await expect(page.getByTestId('pay-tappay-reason')).toBeVisible();
  await shot(page, 'records');
  // The card page of a paid-up contract says so before anything is entered, and its pay button is off.
  await page.goto('/tappay');
  await expect(page.getByTestId('tappay-blocked')).toBeVisible();
  await expect(page.getByTestId('tappay-pay')).toBeDisabled();
  await shot(page, 'tappay-paid');
  await page.goto('/billing');
  await page.getByTestId('receipt-open').first().click();
  await expect(page.getByTestId('billing-receipt')).toContainText('NT$3,150');
  await shot(page, 'receipt');
  await page.keyboard.press('Escape');

  // The staff refund part of a payment from the CRM, with a reason; both sides see it.
  await staff.reload();
  await staff.getByTestId('customer-drawer').getByTestId('refund-open').first().click();
  await staff.getByTestId('refund-amount').fill('1000');
  await staff.getByTestId('refund-reason').fill('服務中斷補償');
  await staff.getByTestId('refund-submit').click();
  await expect(staff.getByTestId('customer-drawer').getByTestId('payment-refunded').first()).toContainText('NT$1,000');
  await shot(staff, 'crm-refund');
  await staff.close();
  await page.goto('/billing');
  await expect(page.getByTestId('payment-refunded').first()).toContainText('NT$1,000');
  await expect(page.getByTestId('payment-refunded').first()).toContainText('服務中斷補償');
  await shot(page, 'refunded');
});
