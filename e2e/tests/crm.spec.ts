import { type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { ok, signIn } from '../helpers/api';
import { loginByApi, loginThroughUi } from '../helpers/session';

test.describe.configure({ timeout: 180_000 });

const SELLER_COMPANY = '示範電商股份有限公司';
/** A 1×1 PNG: the bug report's screenshot. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function sellerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginByApi(page, DEMO.customer);
  return page;
}

test('an employee lands on /crm/dashboard, finds a seller, answers its bug report; the seller sees the reply and the announcement', async ({
  browser,
}) => {
  const subject = `列印揀貨單空白 ${Date.now()}`;
  const title = `春節公告 ${Date.now()}`;

  // The seller reports a bug from /deliver.
  const seller = await sellerPage(browser);
  await seller.goto('/bug?from=/deliver');
  const form = seller.getByTestId('ticket-form');
  await expect(form.locator('#screen')).toHaveValue('/deliver');
  await form.locator('#subject').fill(subject);
  await form.locator('#body').fill('按下列印後，揀貨單是空白的。');
  await form.locator('#steps').fill('1. 開啟出庫單\n2. 按列印');
  await form.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.getByTestId('screenshot-preview')).toBeVisible();
  await seller.getByTestId('ticket-submit').click();
  await expect(seller.getByTestId('ticket-drawer')).toContainText(subject);
  await expect(seller.getByTestId('ticket-drawer').getByTestId('ticket-status-new')).toBeVisible();

  // The employee logs in and lands on the CRM dashboard, which counts the open ticket.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await loginThroughUi(staff, DEMO.employee);
  await expect(staff).toHaveURL(/\/crm\/dashboard$/);
  await expect(staff.getByTestId('crm-dashboard-title')).toBeVisible();
  await expect(staff.getByTestId('crm-week-chart')).toBeVisible();

  // Finds the seller on /crm/customer and opens it.
  await staff.goto('/crm/customer');
  await staff.getByTestId('table-search').locator('input').first().fill('示範電商');
  await staff.getByTestId('table-search').locator('input').first().press('Enter');
  await staff.getByTestId('customer-open').filter({ hasText: SELLER_COMPANY }).click();
  const drawer = staff.getByTestId('customer-drawer');
  await expect(drawer).toContainText(DEMO.customer.email);
  await expect(drawer.getByTestId('customer-active')).toBeChecked();
  await drawer.locator('.ant-drawer-close').click();

  // Answers the bug report on the board.
  await staff.goto('/crm/board');
  await staff.getByTestId('ticket-open').filter({ hasText: subject }).click();
  const ticket = staff.getByTestId('ticket-drawer');
  await expect(ticket).toContainText('1. 開啟出庫單');
  await expect(ticket).toContainText('/deliver');
  await expect(ticket.getByTestId('ticket-screenshot').locator('img')).toHaveAttribute(
    'src',
    /^data:image\/png;base64,/,
  );
  await ticket.getByTestId('ticket-reply-input').fill('已修正，請重新整理頁面後再試一次。');
  await ticket.getByTestId('ticket-reply-send').click();
  await expect(ticket.getByTestId('ticket-replies')).toContainText('已修正，請重新整理頁面後再試一次。');
  await ticket.locator('.ant-drawer-close').click();

  // Publishes an announcement to all sellers.
  await staff.getByTestId('announcement-add').click();
  await staff.getByTestId('announcement-title').fill(title);
  await staff.getByTestId('announcement-body').fill('**2/9–2/14** 暫停出貨。');
  await staff.getByTestId('announcement-save').click();
  await expect(staff.getByRole('dialog')).toBeHidden();
  await expect(staff.getByText(title)).toBeVisible();

  // The seller sees the reply on /bug …
  await seller.goto('/bug');
  await seller.getByRole('button', { name: subject }).click();
  await expect(seller.getByTestId('ticket-drawer').getByTestId('ticket-replies')).toContainText('已修正');
  await expect(seller.getByTestId('ticket-drawer').getByTestId('ticket-status-waiting')).toBeVisible();

  // … and the announcement at the top of its dashboard, and acknowledges it.
  await seller.goto('/dashboard');
  const notice = seller.getByTestId('announcement').filter({ hasText: title });
  await expect(notice).toBeVisible();
  await expect(notice.locator('strong')).toHaveText('2/9–2/14');
  await notice.getByTestId('announcement-ack').click();
  await expect(notice.getByTestId('announcement-ack')).toBeHidden();

  // The board counts the acknowledgement.
  await staff.reload();
  await expect(staff.locator('tr').filter({ hasText: title })).toContainText('1');
});

test("the CRM rack lists every seller's locations and lays out their labels; stock opens", async ({ page }) => {
  const { api, token } = await signIn(page, DEMO.customer);
  const warehouses = await ok(api.warehouseRoutes.listWarehouses({ token }));
  const code = `CRM-${Date.now() % 100000}`;
  await ok(
    api.warehouseRoutes.createStorageLocation({ body: { warehouse_id: warehouses.results[0]!.id, code }, token }),
  );

  await loginByApi(page, DEMO.employee);
  await page.goto('/crm/rack');
  const search = page.getByTestId('table-search').locator('input').first();
  await search.fill(code);
  await search.press('Enter');
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await expect(page.locator('.ant-table-row').first()).toContainText(SELLER_COMPANY);
  await page.getByTestId('rack-labels').click();
  const labels = page.getByTestId('label-document');
  await expect(labels).toContainText(code);
  await expect(labels.locator('svg').first()).toBeVisible();
  await page.goto('/crm/stock');
  await expect(page.locator('.ant-table').first()).toBeVisible();
});

test('/user-help searches the user manual before asking the staff', async ({ page }) => {
  await loginByApi(page, DEMO.customer);
  await page.goto('/user-help');
  await page.getByTestId('manual-search').locator('input').fill('入庫');
  await page.getByTestId('manual-search').locator('input').press('Enter');
  const hits = page.getByTestId('manual-hits');
  await expect(hits.locator('a').first()).toHaveAttribute('href', /^\/user-manual/);
});
