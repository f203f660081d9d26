import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { newSeller, ok } from '../helpers/api';

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
  const { api, token } = await newSeller(page, 'en');
  const company = (await ok(api.authRoutes.profile({ token }))).company!.name;
  const wh = await ok(api.warehouseRoutes.createWarehouse({ body: { code: 'E2E', name: 'E2E warehouse' }, token }));
  await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: wh.id, code: 'A-01-01', kind: 'sellable' },
      token,
    }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `RET-${Date.now()}`, name: 'Retention tea' }, token }),
  );
  const receipt = await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: wh.id, code: product.number, quantity: 8, location_code: 'A-01-01' },
      token,
    }),
  );
  expect(receipt.status).toBe('confirmed');
  const pending = await ok(
    api.inboundRoutes.createReceipt({
      body: { warehouse_id: wh.id, planned_date: '2026-12-01', lines: [{ product_id: product.id, quantity: 3 }] },
      token,
    }),
  );
  const order = await ok(
    api.outboundRoutes.createOrder({
      body: {
        recipient_name: 'Retention recipient',
        recipient_mobile: '0912345678',
        recipient_postcode: '100',
        recipient_address: 'Taipei',
        warehouse_id: wh.id,
        lines: [{ product_id: product.id, quantity: 1 }],
      },
      token,
    }),
  );
  await ok(api.outboundRoutes.transitionOrder({ params: { id: order.id }, body: { action: 'cancel' }, token }));
  const stockLog = () => ok(api.stockRoutes.stockLog({ query: { page_size: 100 }, token }));
  const logBefore = (await stockLog()).count;
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
  const confirm = page.getByTestId('retention-confirm-ok');
  await expect(confirm).toBeDisabled();
  await page.getByTestId('retention-confirm-name').fill('Not my company');
  await expect(confirm).toBeDisabled();
  await page.getByTestId('retention-confirm-name').fill(company);
  await shot(page, 'confirm');
  await confirm.click();

  await expect(page.getByTestId('retention-progress')).toContainText('Finished');
  await expect(page.getByTestId('retention-count-inbound_receipts')).toHaveText('0');
  await expect(page.getByTestId('retention-count-outbound_orders')).toHaveText('0');
  await shot(page, 'done');

  // The confirmed receipt and the cancelled order are gone; the pending receipt, the stock and its log stay.
  expect((await api.inboundRoutes.getReceipt({ params: { id: receipt.id }, token })).statusCode).toBe(404);
  expect((await api.outboundRoutes.getOrder({ params: { id: order.id }, token })).statusCode).toBe(404);
  expect((await ok(api.inboundRoutes.getReceipt({ params: { id: pending.id }, token }))).status).toBe('pending');
  expect((await stockLog()).count).toBe(logBefore);
  const stock = await ok(api.stockRoutes.locationStock({ query: { page_size: 100 }, token }));
  expect(stock.results.map((b) => b.on_hand)).toEqual([8]);

  // The monthly schedule is off by default and can be switched on.
  await expect(page.getByTestId('retention-schedule')).not.toBeChecked();
  await page.getByTestId('retention-schedule').click();
  await page.getByTestId('retention-schedule-save').click();
  await expect(page.getByTestId('retention-schedule')).toBeChecked();
  expect((await ok(api.retentionRoutes.getRetentionSettings({ token }))).schedule_enabled).toBe(true);
  await shot(page, 'schedule');
});
