import { expect, type Locator, type Page, test } from '@playwright/test';
import { inboundRoutes } from '@wms/contracts';
import { DEMO } from '../helpers/accounts';
import {
  exportedOrder,
  ok,
  onHand as onHandOf,
  receipt,
  sellableLocations,
  signIn,
  stockIn as stockInAt,
  type TSession,
} from '../helpers/api';

/**
 * Issue #22, finding 1: a keyboard-wedge scanner types the next code right after its Enter, without waiting for the
 * page. Every scanner-first screen is walked at machine speed, twice: `keyboard.type` + `press('Enter')` per scan
 * with no pause, and one `pressSequentially` burst (delay 0, "\n" is Enter). Nothing may be appended to the box of
 * the previous scan; each code must land in the box the flow has moved to. Set-up through the API (demo seller,
 * zh-TW).
 */

type TMode = 'type' | 'burst';
const MODES: TMode[] = ['type', 'burst'];

interface TWorld extends TSession {
  stamp: string;
  warehouse: { id: string; code: string };
  a: { id: string; code: string };
  b: { id: string; code: string };
  product: { id: string; number: string; barcode: string };
}

async function world(page: Page, tag: string): Promise<TWorld> {
  const session = await signIn(page, DEMO.customer);
  const { api, token } = session;
  const stamp = `${tag}${Date.now().toString(36).toUpperCase()}`;
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `Scan ${stamp}` }, token }),
  );
  const [a, b] = await sellableLocations(session, warehouse.id, [`A-${stamp}`, `B-${stamp}`]);
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `P-${stamp}`, name: `Scanner tea ${stamp}`, barcode: `BC${stamp}` },
      token,
    }),
  );
  return { api, token, stamp, warehouse, a, b, product: { ...product, barcode: product.barcode! } };
}

const stockIn = (_page: Page, w: TWorld, location: string, quantity: number) =>
  stockInAt(w, w.warehouse.id, w.product.number, quantity, location);

const onHand = (_page: Page, w: TWorld) => onHandOf(w, w.product.id);

/**
 * The scanner: each code then Enter ('' is a bare Enter: keep the value the box holds), with no pause for the page.
 * Starts once the flow's first box has the focus, as a person starts scanning when the screen is there.
 */
async function scanAtMachineSpeed(page: Page, first: Locator, codes: string[], mode: TMode) {
  await expect(first).toBeFocused();
  if (mode === 'burst') {
    await first.pressSequentially(codes.map((c) => `${c}\n`).join(''), { delay: 0 });
    return;
  }
  for (const code of codes) {
    if (code) await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }
}

const numberBox = (page: Page, testId: string) =>
  page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

for (const mode of MODES) {
  test(`[${mode}] entry-confirm: receipt, accepted, defective, location, confirm`, async ({ page }) => {
    const w = await world(page, `EC${mode[0]}`);
    const planned = await receipt(w, w.warehouse.id, [{ product_id: w.product.id, quantity: 6 }]);
    await page.goto('/entry-confirm');
    const box = page.getByTestId('confirm-receipt-scan');
    await scanAtMachineSpeed(page, box, [planned.number, '', '', w.a.code, ''], mode);
    await expect(page.getByTestId('receipt-status').first()).toHaveText('已確認');
    await expect(box).toHaveValue('');
    expect(await onHand(page, w)).toEqual({ [w.a.code]: 6 });
  });

  if (mode === 'type')
    test('[type, CPU ×6] entry-confirm: the page suspends for its next step while the scanner types', async ({
      page,
    }) => {
      // On a slow device the receipt's lines need code and translations that are not loaded yet: the page is hidden
      // behind its fallback while the scanner types on. The keys must wait for the page, not go to the receipt box
      // (which scanned the receipt a second time and lost the location: 4 of 10 runs failed before the fix).
      const w = await world(page, 'ECs');
      const planned = await receipt(w, w.warehouse.id, [{ product_id: w.product.id, quantity: 6 }]);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      const searches: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes(`${inboundRoutes.listReceipts.path}?search=`)) searches.push(r.url());
      });
      await page.goto('/entry-confirm');
      const box = page.getByTestId('confirm-receipt-scan');
      await scanAtMachineSpeed(page, box, [planned.number, '', '', w.a.code, ''], mode);
      await expect(page.getByTestId('receipt-status').first()).toHaveText('已確認', { timeout: 20_000 });
      expect(searches).toHaveLength(1);
      expect(await onHand(page, w)).toEqual({ [w.a.code]: 6 });
    });

  test(`[${mode}] entry-quick: product, quantity, location`, async ({ page }) => {
    const w = await world(page, `EQ${mode[0]}`);
    await page.goto('/entry-quick');
    await expect(page.getByRole('combobox', { name: '倉庫' })).toBeVisible();
    await page.getByRole('combobox', { name: '倉庫' }).click();
    // Typed, so the warehouse is in the (virtual) list however many earlier runs left behind.
    await page.keyboard.type(w.warehouse.code);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: w.warehouse.code })
      .click();
    await page.getByTestId('quick-product').focus();
    await scanAtMachineSpeed(page, page.getByTestId('quick-product'), [w.product.barcode, '4', w.b.code], mode);
    await expect(page.locator('.ant-message')).toContainText(/IN\d{12}/);
    await expect(page.getByTestId('quick-product')).toBeFocused();
    expect(await onHand(page, w)).toEqual({ [w.b.code]: 4 });
  });

  test(`[${mode}] return-confirm: accepted, defective, location, confirm`, async ({ page }) => {
    const w = await world(page, `RC${mode[0]}`);
    const ret = await ok(
      w.api.returnRoutes.createReturn({
        body: {
          warehouse_id: w.warehouse.id,
          category: 'other',
          planned_date: new Date().toISOString().slice(0, 10),
          lines: [{ product_id: w.product.id, quantity: 3 }],
        },
        token: w.token,
      }),
    );
    await page.goto(`/return-confirm?id=${ret.id}`);
    const panel = page.getByTestId('return-confirm-panel');
    await scanAtMachineSpeed(page, numberBox(page, 'confirm-accepted'), ['', '', w.b.code, ''], mode);
    await expect(panel.getByTestId('return-status-confirmed')).toBeVisible();
    expect(await onHand(page, w)).toEqual({ [w.b.code]: 3 });
  });

  test(`[${mode}] stock-transfer: product, from, quantity, to`, async ({ page }) => {
    const w = await world(page, `ST${mode[0]}`);
    await stockIn(page, w, w.a.code, 5);
    await stockIn(page, w, w.b.code, 2);
    await page.goto(`/stock-transfer?warehouse=${w.warehouse.id}`);
    await scanAtMachineSpeed(
      page,
      page.getByTestId('transfer-product'),
      [w.product.number, w.a.code, '3', w.b.code],
      mode,
    );
    await expect(page.locator('.ant-message')).toContainText(/TR\d{12}/);
    expect(await onHand(page, w)).toEqual({ [w.a.code]: 2, [w.b.code]: 5 });
    await expect(page.getByTestId('transfer-product')).toHaveValue('');
  });

  test(`[${mode}] location-stock: two locations scanned one after the other`, async ({ page }) => {
    const w = await world(page, `LS${mode[0]}`);
    await stockIn(page, w, w.a.code, 1);
    await page.goto('/location-stock');
    await page.getByRole('combobox', { name: '倉庫' }).click();
    // Typed, so the warehouse is in the (virtual) list however many earlier runs left behind.
    await page.keyboard.type(w.warehouse.code);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: w.warehouse.code })
      .click();
    const box = page.getByTestId('location-scan');
    await box.focus();
    await scanAtMachineSpeed(page, box, [w.b.code, w.a.code], mode);
    // The second code replaces the first instead of being appended to it.
    await expect(box).toHaveValue(w.a.code);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toContainText(w.product.number);
  });

  test(`[${mode}] packing station: order, items, tracking number`, async ({ page }) => {
    const w = await world(page, `PK${mode[0]}`);
    await stockIn(page, w, w.a.code, 5);
    const order = await exportedOrder(w, {
      recipient_name: 'Scan Test',
      recipient_phone: '0912345678',
      recipient_postcode: '100',
      recipient_address: '台北市中正區',
      warehouse_id: w.warehouse.id,
      lines: [{ product_id: w.product.id, quantity: 2 }],
    });
    await ok(
      w.api.catalogRoutes.createPackagingMaterial({
        body: { code: `BOX-${w.stamp}`, name: 'Box', quantity: 50 },
        token: w.token,
      }),
    );
    // A busy till: the CPU slowed down, so React may render a scan's result after the buffer's quiet frames (this
    // walk then lost the first key replayed after each scan: 5 of 6 runs before the buffer waited for React's commit).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.goto('/deliver-opser');
    await page.getByTestId('tab-packing').click();
    const tracking = `TC${w.stamp}`;
    await scanAtMachineSpeed(
      page,
      page.getByTestId('pack-scan-order'),
      [order.number, w.product.barcode, w.product.number, tracking],
      mode,
    );
    await expect(page.getByTestId('pack-complete')).toBeVisible();
    await expect(page.getByTestId(`pack-progress-${w.product.number}`)).toHaveText('2/2');
    await expect(page.getByTestId('pack-consignment')).toHaveValue(tracking);
    // Enter in the tracking box does not ship: the packaging is chosen next.
    await expect(page.getByTestId('pack-order-number')).toHaveText(order.number);
    await expect(page.getByTestId('pack-packaging-0').locator('input')).toBeFocused();
    await page.getByTestId('pack-packaging-0').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `BOX-${w.stamp}` })
      .click();
    // A box chosen: the next Enter ships.
    await expect(page.getByTestId('pack-ship')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('pack-cue')).toContainText(`訂單 ${order.number} 已出貨`);
  });

  test(`[${mode}] consignment scan: two orders and their consignment labels in a row`, async ({ page }) => {
    const w = await world(page, `CS${mode[0]}`);
    const order = () =>
      ok(
        w.api.outboundRoutes.createOrder({
          body: {
            recipient_name: 'Scan Test',
            recipient_phone: '0912345678',
            recipient_postcode: '100',
            recipient_address: '台北市中正區',
            warehouse_id: w.warehouse.id,
            lines: [{ product_id: w.product.id, quantity: 1 }],
          },
          token: w.token,
        }),
      );
    const first = await order();
    const second = await order();
    await page.goto('/deliver-operation');
    await scanAtMachineSpeed(
      page,
      page.getByTestId('op-scan-order'),
      [first.number, `HCT1${w.stamp}`, second.number, `HCT2${w.stamp}`],
      mode,
    );
    await expect(page.getByTestId('op-cue')).toContainText(`HCT2${w.stamp}`);
    await expect(page.getByTestId('op-cue')).toHaveAttribute('data-ok', 'true');
    for (const [o, c] of [
      [first, `HCT1${w.stamp}`],
      [second, `HCT2${w.stamp}`],
    ] as const) {
      const found = await ok(w.api.outboundRoutes.lookupOrder({ query: { code: c }, token: w.token }));
      expect(found.id).toBe(o.id);
    }
  });

  test(`[${mode}] stocktake count: location, then products`, async ({ page }) => {
    const w = await world(page, `SC${mode[0]}`);
    await stockIn(page, w, w.a.code, 3);
    const sheet = await ok(
      w.api.stocktakeRoutes.createStocktake({
        body: { warehouse_id: w.warehouse.id, name: `Scan ${w.stamp}`, type: 'full' },
        token: w.token,
      }),
    );
    await page.goto(`/inventory?id=${sheet.id}`);
    await scanAtMachineSpeed(
      page,
      page.getByTestId('count-location'),
      [w.a.code, w.product.number, w.product.barcode, w.product.number],
      mode,
    );
    await expect(page.getByTestId('count-location-info')).toContainText(w.a.code);
    const row = page.getByTestId('count-panel').locator('.ant-table-row');
    await expect(row).toHaveCount(1);
    await expect(row.locator('input')).toHaveValue('3');
    await expect(page.getByTestId('count-location')).toHaveValue(w.a.code);
  });
}
