import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createFetchClient } from '@wms/contracts/client';
import { loginByApi, registerByApi } from '../helpers/session';

/**
 * Saved release channels (issue #36 item 2): a channel is saved on /release-channels with its carrier and limits, the
 * board lists it with its open orders and next cut-off, and "release next wave" on it makes one batch by its rules.
 */

test.describe.configure({ timeout: 180_000 });

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const shot = (page: Page, name: string) => {
  mkdirSync(shots, { recursive: true });
  return page.screenshot({ path: path.join(shots, `release-channels-${name}.png`), fullPage: true });
};

test('save a channel → the board lists it with its open orders → release its next wave', async ({ page, baseURL }) => {
  const seller = await registerByApi(page, 'en');
  const { access: token } = await loginByApi(page, seller);
  const api = createFetchClient(baseURL!);
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json: () => T }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBeLessThan(300);
    return r.json();
  };
  const stamp = Date.now().toString(36).toUpperCase();
  const wh = await ok(api.warehouseRoutes.createWarehouse({ body: { code: `RC${stamp}`, name: 'Channels' }, token }));
  const carrier = await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: `K${stamp}`, name: `Kerry ${stamp}` }, token }),
  );
  const other = await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: `P${stamp}`, name: `Post ${stamp}` }, token }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `RC-${stamp}`, name: `Channel item ${stamp}`, barcode: `RC${stamp}` },
      token,
    }),
  );
  const loc = await ok(
    api.warehouseRoutes.createStorageLocation({ body: { warehouse_id: wh.id, code: `L${stamp}` }, token }),
  );
  await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: wh.id, code: product.number, quantity: 10, location_code: loc.code },
      token,
    }),
  );
  // Three orders of the channel's carrier, one of another: exported.
  for (const [i, providerId] of [carrier.id, carrier.id, carrier.id, other.id].entries()) {
    const o = await ok(
      api.outboundRoutes.createOrder({
        body: {
          platform_order_number: `RC-${stamp}-${i + 1}`,
          recipient_name: '陳小華',
          recipient_phone: '0922333444',
          recipient_postcode: '40341',
          recipient_address: '台中市西區',
          warehouse_id: wh.id,
          logistics_provider_id: providerId,
          lines: [{ product_id: product.id, quantity: 1 }],
        },
        token,
      }),
    );
    await ok(api.outboundRoutes.transitionOrder({ params: { id: o.id }, body: { action: 'export' }, token }));
  }

  // Saved on /release-channels: the carrier, at most 2 orders a wave.
  await page.goto('/release-channels');
  await page.getByTestId('channel-add').click();
  const name = `Kerry ${stamp}`;
  await page.getByTestId('channel-name').fill(name);
  await page.getByTestId('channel-warehouse').click();
  await page.locator('.ant-select-dropdown:visible').getByText(wh.code, { exact: false }).first().click();
  await page.getByTestId('channel-carriers').click();
  await page.locator('.ant-select-dropdown:visible').getByText(`Kerry ${stamp}`).first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('channel-max-orders').fill('2');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId(`channel-open-${name}`)).toHaveText('3');
  await shot(page, 'list');

  // The board lists it with its 3 open orders; one release takes 2, then 1 is left.
  await page.goto('/ships-today');
  await expect(page.getByTestId(`board-channel-open-${name}`)).toHaveText('3');
  await shot(page, 'board');
  await page.getByTestId(`channel-release-${name}`).click();
  await expect(page.getByTestId('channel-wave-number')).toContainText('2 orders');
  await shot(page, 'released');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(`board-channel-open-${name}`)).toHaveText('1');
});
