import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { shipWaveRoutes } from '@wms/contracts';
import { exportedOrder, newSeller, ok, packAndShip, stockIn } from '../helpers/api';

/**
 * Ships today, the floor's day (issue #36): orders arrive → the board shows them due → "release next wave" makes one
 * picking batch → its pick list walks the locations in path order (one of them placed by hand on /subzone) → the
 * parcels are packed and shipped → the handover scan puts them on the carrier's manifest, closed → the board counts
 * them handed over.
 */

test.describe.configure({ timeout: 180_000 });

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const shot = (page: Page, name: string) => {
  mkdirSync(shots, { recursive: true });
  return page.screenshot({ path: path.join(shots, `ships-waves-${name}.png`), fullPage: true });
};

test('orders due → release a wave → pick in path order → pack and ship → handover manifest → handed over', async ({
  page,
}) => {
  const session = await newSeller(page, 'en');
  const { api, token } = session;
  const stamp = Date.now().toString(36).toUpperCase();
  const wh = await ok(api.warehouseRoutes.createWarehouse({ body: { code: `WV${stamp}`, name: 'Waves' }, token }));
  const carrier = await ok(
    api.partnerRoutes.createLogisticsProvider({ body: { code: `T${stamp}`, name: `Truck ${stamp}` }, token }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `WV-${stamp}`, name: `Wave item ${stamp}`, barcode: `BC${stamp}` },
      token,
    }),
  );
  // Cut-off at 23:59 every day: today's orders are due today.
  await ok(
    api.shipRoutes.saveWarehouseShipping({
      params: { id: wh.id },
      body: {
        cutoffs: [{ logistics_provider_id: carrier.id, cutoff_time: '23:59', pickup_time: '23:59' }],
        working_days: [0, 1, 2, 3, 4, 5, 6],
        holidays: [],
      },
      token,
    }),
  );
  await ok(api.shipRoutes.saveShipSla({ body: { kind: 'same_day', before_time: null }, token }));

  // Two shelves of one area, two positions each: walked S1 forwards, S2 backwards.
  const area = await ok(
    api.warehouseRoutes.createArea({ body: { warehouse_id: wh.id, code: 'A', name: 'Area A' }, token }),
  );
  const codes: Record<string, string> = {};
  for (const s of ['S1', 'S2']) {
    const shelf = await ok(
      api.warehouseRoutes.createShelf({
        body: { warehouse_id: wh.id, area_id: area.id, code: `${s}${stamp}`, name: s, layers: 1 },
        token,
      }),
    );
    const gen = await ok(
      api.warehouseRoutes.generateShelfLocations({ params: { id: shelf.id }, body: { positions_per_layer: 2 }, token }),
    );
    for (const c of gen.codes) codes[`${s}-${c.slice(-5)}`] = c;
  }
  // One unit in each location.
  for (const code of Object.values(codes)) await stockIn(session, wh.id, product.number, 1, code);

  // On /subzone: S2's second cell is set by hand to come right after S1's first.
  await page.goto('/subzone?tab=locations');
  const s2First = page.getByTestId(`walk-${codes['S2-01-01']}`);
  await expect(s2First).toContainText('40');
  await page.locator('.ant-table-row').filter({ has: s2First }).getByRole('button', { name: /Edit/ }).click();
  await page.getByTestId('location-pick-sequence').fill('15');
  await page.getByRole('dialog').getByRole('button', { name: /Save/ }).click();
  await expect(s2First).toContainText('15');
  await expect(s2First).toContainText('By hand');
  await expect(page.getByRole('dialog')).toBeHidden();
  await shot(page, 'subzone');

  // Three orders arrive for that warehouse and carrier, and are exported.
  const orders: Array<{ id: string; number: string }> = [];
  for (const [i, quantity] of [2, 1, 1].entries()) {
    const o = await exportedOrder(session, {
      platform_order_number: `WV-${stamp}-${i + 1}`,
      recipient_name: '陳小華',
      recipient_phone: '0922333444',
      recipient_postcode: '40341',
      recipient_address: '台中市西區',
      warehouse_id: wh.id,
      logistics_provider_id: carrier.id,
      lines: [{ product_id: product.id, quantity }],
    });
    orders.push(o);
  }

  // The board: three due, to pick.
  const key = `${wh.code}-${carrier.code}`;
  await page.goto('/ships-today');
  await expect(page.getByTestId(`board-to-pick-${key}`)).toHaveText('3');
  await expect(page.getByTestId(`board-handed-over-${key}`)).toHaveText('0');
  await shot(page, 'board-due');

  // Release next wave from the carrier's card.
  await page.getByTestId(`board-release-${key}`).click();
  await page.getByTestId('wave-max-orders').fill('10');
  const released = page.waitForResponse((r) => r.url().includes(shipWaveRoutes.releaseWave.path));
  await page.getByTestId('wave-submit').click();
  const batch = (await (await released).json()) as { id: string; number: string; order_count: number };
  expect(batch.order_count).toBe(3);
  await expect(page.getByTestId('wave-result')).toContainText(batch.number);
  await shot(page, 'wave');
  await page.keyboard.press('Escape');

  // The pick list walks the path: S1 cell 1, S2 cell 1 (by hand), S1 cell 2, S2 cell 2.
  await page.goto(`/deliver-print-pick-A4/${batch.id}`);
  const rows = page.getByTestId('pick-row');
  await expect(rows).toHaveCount(4);
  const walked = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[1]?.textContent ?? ''));
  expect(walked).toEqual([codes['S1-01-01'], codes['S2-01-01'], codes['S1-01-02'], codes['S2-01-02']]);
  await shot(page, 'pick-list');

  // Picked, packed and shipped (the packing station's calls), each with its tracking number.
  await ok(api.outboundRoutes.startBatchPicking({ params: { id: batch.id }, token }));
  for (const [i, o] of orders.entries())
    await packAndShip(session, o.id, {
      barcode: `BC${stamp}`,
      units: i === 0 ? 2 : 1,
      consignment: { consignment_number: `TRK${stamp}${i}` },
    });

  // The handover: two parcels by tracking number, one by order number; then closed.
  await page.goto('/ships-today');
  await expect(page.getByTestId(`board-shipped-${key}`)).toHaveText('3');
  await page.getByTestId(`board-handover-${key}`).click();
  const scan = page.getByTestId('handover-scan');
  const parcels = page.getByTestId('handover-parcels').locator('.ant-table-row');
  for (const [i, code] of [`TRK${stamp}0`, `TRK${stamp}1`, orders[2]!.number].entries()) {
    await scan.fill(code);
    await scan.press('Enter');
    await expect(parcels).toHaveCount(i + 1);
  }
  // A parcel scanned twice is refused.
  await scan.fill(`TRK${stamp}0`);
  await scan.press('Enter');
  await expect(page.locator('.ant-message')).toContainText('already on manifest');
  await shot(page, 'handover');
  const printed = page.context().waitForEvent('page');
  await page.getByTestId('handover-close').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /OK|Yes/ })
    .click();
  const manifest = await printed;
  await expect(manifest.getByTestId('manifest-row')).toHaveCount(3);
  await manifest.screenshot({ path: path.join(shots, 'ships-waves-manifest.png'), fullPage: true });
  await manifest.close();
  await expect(page.getByTestId('handover-closed').locator('.ant-table-row')).toHaveCount(1);

  // The board counts them handed over.
  await page.goto('/ships-today');
  await expect(page.getByTestId(`board-handed-over-${key}`)).toHaveText('3');
  await shot(page, 'board-handed-over');
});
