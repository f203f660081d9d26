import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { loginByApi, registerByApi } from '../helpers/session';

/**
 * /database-clean end to end (issue #19): a seller with a confirmed receipt, a cancelled order and a pending receipt
 * previews the purge, exports the orders to Excel, confirms by typing the company name, follows the job's progress,
 * and sees the counts drop; the pending receipt, the stock and the stock log are untouched. The e2e server runs with
 * RETENTION_AGE_SCALE=0 (global-setup.ts): "older than N months" means "finished before now".
 * Screenshots: e2e/artifacts/screenshots/retention-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `retention-${name}.png`), fullPage: true });

test('purge preview → export → confirm by company name → job progress → counts drop, stock untouched', async ({
  page,
}) => {
  const seller = await registerByApi(page, 'en');
  const { access } = await loginByApi(page, seller);
  const headers = { authorization: `Bearer ${access}` };
  const call = async (method: 'GET' | 'POST', url: string, data?: unknown) => {
    const res = await page.request.fetch(url, { method, headers, ...(data === undefined ? {} : { data }) });
    expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const company = (await call('GET', '/api/profile/')).company.name as string;
  const wh = await call('POST', '/api/warehouses/', { code: 'E2E', name: 'E2E warehouse' });
  await call('POST', '/api/storage-locations/', { warehouse_id: wh.id, code: 'A-01-01', kind: 'sellable' });
  const product = await call('POST', '/api/products/', { number: `RET-${Date.now()}`, name: 'Retention tea' });
  const receipt = await call('POST', '/api/entry-quick/', {
    warehouse_id: wh.id,
    code: product.number,
    quantity: 8,
    location_code: 'A-01-01',
  });
  expect(receipt.status).toBe('confirmed');
  const pending = await call('POST', '/api/entry/', {
    warehouse_id: wh.id,
    planned_date: '2026-12-01',
    lines: [{ product_id: product.id, quantity: 3 }],
  });
  const order = await call('POST', '/api/outbound-orders/', {
    recipient_name: 'Retention recipient',
    recipient_mobile: '0912345678',
    recipient_postcode: '100',
    recipient_address: 'Taipei',
    warehouse_id: wh.id,
    lines: [{ product_id: product.id, quantity: 1 }],
  });
  await call('POST', `/api/outbound-orders/${order.id}/transition/`, { action: 'cancel' });
  const logBefore = (await call('GET', '/api/stock-log/?page_size=100')).count as number;
  expect(logBefore).toBeGreaterThan(0);

  await page.goto('/database-clean');
  await expect(page.getByTestId('retention-count-inbound_receipts')).toHaveText('1');
  await expect(page.getByTestId('retention-count-outbound_orders')).toHaveText('1');
  await shot(page, 'preview');

  // Export what would be purged first.
  const download = page.waitForEvent('download');
  await page.getByTestId('retention-export-outbound_orders').click();
  expect((await download).suggestedFilename()).toBe('purge-outbound_orders.xlsx');

  // Only documents (the job and attempt logs of the new seller stay out of this run).
  await page.getByTestId('retention-kinds').getByText('Job logs', { exact: false }).click();
  await page.getByTestId('retention-kinds').getByText('Outside-call logs', { exact: false }).click();
  await page.getByTestId('retention-purge').click();
  const ok = page.getByTestId('retention-confirm-ok');
  await expect(ok).toBeDisabled();
  await page.getByTestId('retention-confirm-name').fill('Not my company');
  await expect(ok).toBeDisabled();
  await page.getByTestId('retention-confirm-name').fill(company);
  await shot(page, 'confirm');
  await ok.click();

  await expect(page.getByTestId('retention-progress')).toContainText('Finished');
  await expect(page.getByTestId('retention-count-inbound_receipts')).toHaveText('0');
  await expect(page.getByTestId('retention-count-outbound_orders')).toHaveText('0');
  await shot(page, 'done');

  // The confirmed receipt and the cancelled order are gone; the pending receipt, the stock and its log stay.
  const gone = await page.request.get(`/api/entry/${receipt.id}/`, { headers });
  expect(gone.status()).toBe(404);
  expect((await page.request.get(`/api/outbound-orders/${order.id}/`, { headers })).status()).toBe(404);
  expect((await call('GET', `/api/entry/${pending.id}/`)).status).toBe('pending');
  expect((await call('GET', '/api/stock-log/?page_size=100')).count).toBe(logBefore);
  const stock = await call('GET', '/api/location-stock/?page_size=100');
  expect(stock.results.map((b: { on_hand: number }) => b.on_hand)).toEqual([8]);

  // The monthly schedule is off by default and can be switched on.
  await expect(page.getByTestId('retention-schedule')).not.toBeChecked();
  await page.getByTestId('retention-schedule').click();
  await page.getByTestId('retention-schedule-save').click();
  await expect(page.getByTestId('retention-schedule')).toBeChecked();
  expect((await call('GET', '/api/database-clean/settings/')).schedule_enabled).toBe(true);
  await shot(page, 'schedule');
});
