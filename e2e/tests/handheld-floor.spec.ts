import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devices, expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import {
  exportedOrder,
  ok,
  onHand,
  receipt as plannedReceipt,
  sellableLocations,
  setLanguage,
  signIn,
} from '../helpers/api';
import { CHROMIUM } from '../helpers/browser';
import { writeLabelBarcodeVideo } from '../helpers/label-video';
import { shipByTrackingScan } from '../helpers/packing';

/**
 * Issue #37, the floor on a handheld, in Chromium's mobile emulation (a Pixel 7 and a 480 × 800 handheld): receive →
 * put away → pick → pack → ship and a stocktake count, every scan a wedge scanner's keys (typed, then Enter), one
 * scan (the put-away's product) read by the camera from a fake video of the product's Code128 barcode as our label
 * code draws it. On each screen: the handheld presentation (the step and the expected item in large type, 48 px scan
 * boxes), the scan cue (success / error, observed on `<html data-scan-feedback…>`), and no sideways scrolling in zh-TW
 * and en. Set-up through the API (demo seller).
 */

const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
const shot = (page: Page, name: string) => {
  mkdirSync(shots, { recursive: true });
  return page.screenshot({ path: path.join(shots, `handheld-floor-${name}.png`), fullPage: true });
};

const STAMP = Date.now().toString(36).toUpperCase();
/** The barcode of the product the camera sees (handheld profile). */
const CAMERA_BARCODE = `HHC${STAMP}`;
const VIDEO = path.join(tmpdir(), `wms-e2e-label-${process.pid}.y4m`);

// The video exists before the browser starts (the flag is a launch option; the browser starts with the first test).
test.beforeAll(async () => {
  await writeLabelBarcodeVideo(VIDEO, CAMERA_BARCODE);
});

test.use({
  permissions: ['camera'],
  launchOptions: {
    ...CHROMIUM,
    args: [
      ...CHROMIUM.args,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${VIDEO}`,
    ],
  },
});

const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7'];
const PROFILES = [
  { name: 'pixel7', camera: false, use: { ...pixel7, viewport: { width: 412, height: 915 } } },
  {
    name: 'handheld',
    camera: true,
    use: {
      viewport: { width: 480, height: 800 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1.5,
      userAgent: pixel7.userAgent,
    },
  },
] as const;

/** How many scans were accepted / refused so far on this page (the marks scan-feedback.ts leaves on <html>). */
async function cues(page: Page): Promise<{ ok: number; error: number; last: string | null }> {
  return page.evaluate(() => {
    const d = document.documentElement.dataset;
    return {
      ok: Number(d.scanFeedbackOk ?? 0),
      error: Number(d.scanFeedbackError ?? 0),
      last: d.scanFeedback ?? null,
    };
  });
}

/** A wedge scanner: the code typed where the focus is, then Enter (after the flow put the focus on `box`). */
async function scan(page: Page, box: Locator, code: string) {
  await expect(box).toBeFocused();
  if (code) await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

async function noSideways(page: Page, what: string) {
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways, `${what} scrolls ${sideways}px sideways`).toBeLessThanOrEqual(0);
}

/** The handheld presentation: the step shown, what is expected in large type, the scan box a touch target. */
async function expectStep(page: Page, target: string | null, box?: Locator) {
  await expect(page.getByTestId('scan-step')).toBeVisible();
  if (target !== null) {
    const big = page.getByTestId('scan-step-target');
    await expect(big).toContainText(target);
    const size = await big.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(28);
  }
  if (box) {
    const height = await box.evaluate(
      (el) => (el.closest('.ant-input-affix-wrapper') ?? el).getBoundingClientRect().height,
    );
    expect(height).toBeGreaterThanOrEqual(48);
  }
}

for (const profile of PROFILES) {
  test.describe(profile.name, () => {
    test.use(profile.use);

    test(`${profile.name}: receive → put away → pick → pack → ship, and a count, by scans`, async ({ page }) => {
      test.setTimeout(180_000);
      const session = await signIn(page, DEMO.customer);
      const { api, token } = session;
      await setLanguage(page, session, 'zh-TW');
      const stamp = `${profile.name === 'pixel7' ? 'P7' : 'HH'}${STAMP}`;
      const warehouse = await ok(
        api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `Floor ${stamp}` }, token }),
      );
      const [dock, shelf] = await sellableLocations(session, warehouse.id, [`RCV-${stamp}`, `A01-${stamp}`]);
      const product = await ok(
        api.catalogRoutes.createProduct({
          body: {
            number: `P-${stamp}`,
            name: `Floor tea ${stamp}`,
            barcode: profile.camera ? CAMERA_BARCODE : `BC${stamp}`,
          },
          token,
        }),
      );
      const barcode = product.barcode!;
      const vw = profile.use.viewport.width;

      // 1. Receive (/entry-confirm): a wrong code first — the error cue —, then the receipt; its line is a card.
      const receipt = await plannedReceipt(session, warehouse.id, [{ product_id: product.id, quantity: 5 }]);
      await page.goto('/entry-confirm');
      const receiptBox = page.getByTestId('confirm-receipt-scan');
      await expectStep(page, null, receiptBox);
      await scan(page, receiptBox, `NOPE-${stamp}`);
      await expect(page.getByTestId('confirm-error')).toBeVisible();
      await expect.poll(() => cues(page)).toEqual({ ok: 0, error: 1, last: 'error' });
      await scan(page, receiptBox, receipt.number);
      await expect.poll(() => cues(page)).toEqual({ ok: 1, error: 1, last: 'ok' });
      await expectStep(page, receipt.number);
      await expect(page.getByTestId('receiving-line-card')).toHaveCount(1);
      await expect(page.getByTestId('receiving-line-card')).toContainText(product.number);
      await noSideways(page, `/entry-confirm at ${vw}px`);
      await shot(page, `${profile.name}-entry-confirm`);
      // Accepted 5 (Enter), defective 0 (Enter), the dock's code, then Enter on the confirm button.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await scan(page, page.getByTestId('confirm-location'), dock.code);
      await expect(page.getByTestId('confirm-submit')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('receipt-status').first()).toHaveText('已確認');
      expect(await onHand(session, product.id)).toEqual({ [dock.code]: 5 });

      // 2. Put away (/stock-transfer): the product (by the camera on the handheld), the quantity, the shelf.
      // The floor user works in this warehouse (the page's `warehouse` parameter; the select's default is the
      // remembered or first warehouse, and the demo seller has many by the time this spec runs in the full suite).
      await page.goto(`/stock-transfer?warehouse=${warehouse.id}`);
      const productBox = page.getByTestId('transfer-product');
      await expectStep(page, null, productBox);
      const before = await cues(page);
      if (profile.camera) {
        await page.getByTestId('transfer-product-camera').tap();
        await expect(productBox).toHaveValue(CAMERA_BARCODE, { timeout: 20_000 });
        await expect(page.getByTestId('camera-video')).toHaveCount(0);
      } else await scan(page, productBox, barcode);
      await expect.poll(() => cues(page)).toMatchObject({ ok: before.ok + 1, last: 'ok' });
      await expect(page.getByTestId('transfer-quantity')).toBeFocused();
      await expectStep(page, dock.code);
      await page.keyboard.type('5');
      await page.keyboard.press('Enter');
      await noSideways(page, `/stock-transfer at ${vw}px`);
      await shot(page, `${profile.name}-stock-transfer`);
      await scan(page, page.getByTestId('transfer-to'), shelf.code);
      await expect(page.locator('.ant-message')).toContainText(/TR\d{12}|5/);
      expect(await onHand(session, product.id)).toEqual({ [shelf.code]: 5 });

      // 3. Pick: an order of 2, exported (stock reserved at the shelf), in a collection batch; its pick list says where.
      const order = await exportedOrder(session, {
        platform_order_number: `PO-${stamp}`,
        recipient_name: '陳小華',
        recipient_mobile: '0922333444',
        recipient_postcode: '40341',
        recipient_address: '台中市西區',
        warehouse_id: warehouse.id,
        lines: [{ product_id: product.id, quantity: 2 }],
      });
      const batch = await ok(api.outboundRoutes.createBatch({ body: { order_ids: [order.id] }, token }));
      await page.goto(`/deliver-print-pick/${batch.id}`);
      await expect(page.getByTestId('pick-list').getByTestId('pick-row')).toContainText(shelf.code);

      // The pick walk on the handheld (/deliver-pick): the batch's number, a location with nothing to pick (error cue),
      // the shelf the screen names, a wrong product (error cue), then the product twice.
      await page.goto('/deliver-pick');
      const pickBox = page.getByTestId('pick-scan');
      await expectStep(page, null, pickBox);
      await scan(page, pickBox, batch.number);
      await expectStep(page, shelf.code, pickBox);
      const picking = await cues(page);
      await scan(page, pickBox, dock.code);
      await expect(page.getByTestId('pick-cue')).toHaveAttribute('data-cue', 'refused');
      await expect(page.getByTestId('pick-cue-text')).toContainText(shelf.code);
      await expect.poll(() => cues(page)).toEqual({ ok: picking.ok, error: picking.error + 1, last: 'error' });
      await scan(page, pickBox, shelf.code);
      await expectStep(page, product.number, pickBox);
      await scan(page, pickBox, `WRONG-${stamp}`);
      await expect.poll(() => cues(page)).toEqual({ ok: picking.ok + 1, error: picking.error + 2, last: 'error' });
      await expect(page.getByTestId('pick-cue')).toHaveAttribute('data-cue', 'refused');
      await scan(page, pickBox, barcode);
      await expect(page.getByTestId('pick-progress')).toContainText('1/2');
      await expect.poll(() => cues(page)).toEqual({ ok: picking.ok + 2, error: picking.error + 2, last: 'ok' });
      await noSideways(page, `/deliver-pick at ${vw}px`);
      await shot(page, `${profile.name}-pick`);
      if (profile.name === 'handheld') {
        // The narrowest phone the issue names.
        await page.setViewportSize({ width: 360, height: 740 });
        await noSideways(page, '/deliver-pick at 360px');
        await shot(page, '360x740-pick');
        await page.setViewportSize(profile.use.viewport);
      }
      await scan(page, pickBox, barcode);
      await expect(page.getByTestId('pick-to-packing')).toBeVisible();
      await expect(page.getByTestId('pick-progress')).toContainText('2/2');
      await noSideways(page, `/deliver-pick (done) at ${vw}px`);
      await shot(page, `${profile.name}-pick-done`);

      // 4. Pack (/deliver-opser, packing tab): the order, a wrong item (error cue), the item twice, the tracking number.
      await page.goto('/deliver-opser');
      await page.getByTestId('tab-packing').tap();
      const orderBox = page.getByTestId('pack-scan-order');
      await expectStep(page, null, orderBox);
      await scan(page, orderBox, order.number);
      await expectStep(page, product.number);
      const itemBox = page.getByTestId('pack-scan-item');
      const packing = await cues(page);
      await scan(page, itemBox, `WRONG-${stamp}`);
      await expect(page.getByTestId('pack-cue')).toHaveAttribute('data-cue', 'refused');
      await expect.poll(() => cues(page)).toEqual({ ok: packing.ok, error: packing.error + 1, last: 'error' });
      await noSideways(page, `/deliver-opser (packing) at ${vw}px`);
      await shot(page, `${profile.name}-pack`);
      await scan(page, itemBox, barcode);
      await expect(page.getByTestId(`pack-progress-${product.number}`)).toHaveText('1/2');
      await scan(page, itemBox, barcode);
      await expect(page.getByTestId('pack-complete')).toBeVisible();
      await expect.poll(() => cues(page)).toEqual({ ok: packing.ok + 2, error: packing.error + 1, last: 'ok' });
      await expect(page.getByTestId('pack-consignment')).toBeFocused();
      await shipByTrackingScan(page, token, `TC${stamp}`);
      await expect(page.getByTestId('pack-cue')).toContainText(order.number);

      // Cluster pick (handheld): two orders of one unit, one tote each; the screen names the tote of every unit, and
      // the packing station opens an order by scanning its tote.
      if (profile.name === 'handheld') {
        const two = [];
        for (const k of [1, 2]) {
          const created = await api.outboundRoutes.createOrder({
            body: {
              platform_order_number: `PC${k}-${stamp}`,
              recipient_name: '林小美',
              recipient_mobile: '0933444555',
              recipient_postcode: '40341',
              recipient_address: '台中市西區',
              warehouse_id: warehouse.id,
              lines: [{ product_id: product.id, quantity: 1 }],
            },
            token,
          });
          expect(created.statusCode, created.body).toBe(201);
          two.push(created.json() as { id: string; number: string });
        }
        const ids = two.map((o) => o.id);
        expect((await api.outboundRoutes.bulkTransition({ body: { ids, action: 'export' }, token })).statusCode).toBe(
          200,
        );
        const made = await api.outboundRoutes.createBatch({ body: { order_ids: ids }, token });
        expect(made.statusCode, made.body).toBe(201);
        const cluster = made.json() as { id: string; number: string };
        await page.goto(`/deliver-pick?batch=${cluster.id}`);
        await page.getByTestId('pick-cluster').tap();
        const box = page.getByTestId('pick-scan');
        // Totes in the batch's order: the first order gets slot 1, the second slot 2.
        const [first, second] = [...two].sort((a, b) => (a.number < b.number ? -1 : 1));
        await expectStep(page, '1', box);
        await expect(page.getByTestId('scan-step')).toContainText(first!.number);
        await scan(page, box, `TOTE1-${stamp}`);
        await expect(page.getByTestId('scan-step')).toContainText(second!.number);
        await scan(page, box, `TOTE2-${stamp}`);
        await expectStep(page, shelf.code, box);
        await scan(page, box, shelf.code);
        await expectStep(page, product.number, box);
        await expect(page.getByTestId('pick-tote')).toContainText(`TOTE1-${stamp}`);
        await noSideways(page, `/deliver-pick (cluster) at ${vw}px`);
        await shot(page, 'handheld-cluster-pick');
        await scan(page, box, barcode);
        await expect(page.getByTestId('pick-tote')).toContainText(`TOTE2-${stamp}`);
        await scan(page, box, barcode);
        await expect(page.getByTestId('pick-to-packing')).toBeVisible();
        // Put-to-tote at the packing station: the second tote opens the second order.
        await page.goto('/deliver-opser');
        await page.getByTestId('tab-packing').tap();
        const toteBox = page.getByTestId('pack-scan-order');
        await scan(page, toteBox, `TOTE2-${stamp}`);
        await expect(page.getByTestId('pack-cue')).toContainText(second!.number);
        await expectStep(page, product.number);
        // The order's head: number and status are not covered by its buttons (they go under it on a handheld).
        const packHead = page.locator('.ant-card-head', { has: page.getByTestId('pack-order-number') });
        const packTitle = await packHead.locator('.ant-card-head-title').boundingBox();
        const packActions = await packHead.locator('.ant-card-extra').boundingBox();
        expect(packTitle && packActions && packTitle.y + packTitle.height <= packActions.y + 1).toBe(true);
        await shot(page, 'handheld-tote-scan-pack');
      }
      const shipped = await ok(api.outboundRoutes.getOrder({ params: { id: order.id }, token }));
      expect(shipped.status).toBe('closed');
      expect(await onHand(session, product.id)).toEqual({ [shelf.code]: 3 });

      // 5. Count (/inventory): the shelf, then the product three times; the location is the big target.
      const sheet = await ok(
        api.stocktakeRoutes.createStocktake({
          body: { warehouse_id: warehouse.id, name: `Floor count ${stamp}`, type: 'full' },
          token,
        }),
      );
      await page.goto(`/inventory?id=${sheet.id}`);
      const countLocation = page.getByTestId('count-location');
      await expectStep(page, null, countLocation);
      await scan(page, countLocation, shelf.code);
      await expectStep(page, shelf.code);
      for (let i = 0; i < 3; i++) await scan(page, page.getByTestId('count-product'), barcode);
      const row = page.getByTestId('count-panel').locator('.ant-table-row');
      await expect(row).toHaveCount(1);
      await expect(row.locator('input')).toHaveValue('3');
      await noSideways(page, `/inventory at ${vw}px`);
      // The sheet's head: its number and title are not covered by its actions (they go under it on a handheld).
      const head = page.getByTestId('stocktake-detail').locator('.ant-card-head').first();
      const title = await head.locator('.ant-card-head-title').boundingBox();
      const actions = await head.locator('.ant-card-extra').boundingBox();
      expect(title && actions && title.y + title.height <= actions.y + 1, JSON.stringify({ title, actions })).toBe(
        true,
      );
      await shot(page, `${profile.name}-count`);
      await page.getByTestId('count-submit').tap();
      await expect(page.locator('.ant-message')).toContainText(shelf.code);
    });

    test(`${profile.name}: no floor screen scrolls sideways, in zh-TW and en`, async ({ page }) => {
      test.setTimeout(120_000);
      const session = await signIn(page, DEMO.customer);
      const { api, token } = session;
      const stamp = `S${profile.name === 'pixel7' ? 'P' : 'H'}${STAMP}`;
      const warehouse = await ok(
        api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `Scroll ${stamp}` }, token }),
      );
      const warehouseId = warehouse.id;
      await sellableLocations(session, warehouseId, [`A01-${stamp}`]);
      const product = await ok(
        api.catalogRoutes.createProduct({
          body: {
            number: `PS-${profile.name}-${STAMP}`,
            name: `A product with a rather long name for a narrow screen ${STAMP}`,
          },
          token,
        }),
      );
      // A receipt waiting to be received, opened: its lines are on screen.
      const receipt = await plannedReceipt(session, warehouseId, [{ product_id: product.id, quantity: 12 }]);
      const sheet = await ok(
        api.stocktakeRoutes.createStocktake({
          body: { warehouse_id: warehouseId, name: `Scroll ${profile.name} ${STAMP}`, type: 'full' },
          token,
        }),
      );
      const screens = [
        `/entry-confirm?id=${receipt.id}`,
        '/entry-quick',
        '/stock-transfer',
        '/location-stock',
        '/deliver-operation',
        '/deliver-opser',
        '/deliver-pick',
        '/return-confirm',
        `/inventory?id=${sheet.id}`,
      ];
      try {
        for (const language of ['en', 'zh-TW'] as const) {
          await setLanguage(page, session, language);
          // The profile's own width, and a 360 px phone (the narrowest the issue names).
          for (const width of [profile.use.viewport.width, 360]) {
            await page.setViewportSize({ width, height: profile.use.viewport.height });
            for (const screen of screens) {
              await page.goto(screen);
              await expect(page.getByTestId('page-loading')).toHaveCount(0);
              await page.waitForLoadState('networkidle');
              if (screen.startsWith('/entry-confirm'))
                await expect(page.getByTestId('receiving-line-card')).toHaveCount(1);
              if (width === 360 && profile.name === 'handheld')
                await shot(page, `360-${language}${screen.split('?')[0]!.replace(/\//g, '-')}`);
              await noSideways(page, `${screen} in ${language} at ${width}px`);
            }
          }
        }
      } finally {
        await setLanguage(page, session, 'zh-TW');
      }
    });
  });
}

test('desktop: the floor screens keep their desktop form (no handheld step, the lines in a table)', async ({
  page,
}) => {
  const session = await signIn(page, DEMO.customer);
  const { api, token } = session;
  const warehouses = await ok(api.warehouseRoutes.listWarehouses({ query: { page_size: 100 }, token }));
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `PD-${STAMP}`, name: `Desk ${STAMP}` }, token }),
  );
  const receipt = await plannedReceipt(session, warehouses.results[0]!.id, [{ product_id: product.id, quantity: 1 }]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/entry-confirm?id=${receipt.id}`);
  await expect(page.getByTestId('confirm-accepted')).toBeVisible();
  await expect(page.getByTestId('scan-step')).toHaveCount(0);
  await expect(page.getByTestId('receiving-line-card')).toHaveCount(0);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
});

test('thermal labels: the profile’s default label format opens the roll, and "send to printer" reaches the warehouse printer', async ({
  page,
}) => {
  // The warehouse's label printer: a local raw-port server keeping what each connection sent.
  const jobs: Buffer[] = [];
  const printer = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks));
      socket.end();
    });
  });
  await new Promise<void>((r) => printer.listen(0, '127.0.0.1', () => r()));
  const port = (printer.address() as { port: number }).port;
  const { api, token } = await signIn(page, DEMO.customer);
  try {
    const warehouse = await ok(
      api.warehouseRoutes.createWarehouse({
        body: {
          code: `WH-LP${STAMP}`,
          name: `Label printer ${STAMP}`,
          label_printer_host: '127.0.0.1',
          label_printer_port: port,
        },
        token,
      }),
    );
    const product = await ok(
      api.catalogRoutes.createProduct({ body: { number: `PL-${STAMP}`, name: `Roll tea ${STAMP}` }, token }),
    );
    // The default label format, chosen on the account screen.
    await page.goto('/profile');
    await page.getByTestId('profile-label-format').getByText('感熱捲筒標籤（標籤機）').click();
    await page.getByTestId('profile-save').click();
    await expect(page.locator('.ant-message')).toBeVisible();
    await expect.poll(async () => (await ok(api.authRoutes.profile({ token }))).label_format).toBe('thermal');

    // The print screen opens on the 50 × 30 mm roll; the labels go to the chosen warehouse's printer.
    const request = { kind: 'product', items: [{ id: product.id, copies: 2 }], show_name: true };
    const data = Buffer.from(JSON.stringify(request)).toString('base64url');
    await page.goto(`/product-print-preview/${data}`);
    await expect(page.getByTestId('label-sheet')).toContainText('50 × 30');
    await expect(page.getByTestId('label-total')).toBeVisible();
    await page.getByRole('combobox', { name: '使用哪個倉庫的標籤機' }).click();
    await page.keyboard.type(warehouse.code);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: warehouse.code })
      .click();
    await page.getByTestId('label-send-printer').click();
    await expect(page.getByTestId('label-sent')).toHaveText(`已將 2 張標籤送到 127.0.0.1:${port}`);
    await expect.poll(() => jobs.length).toBe(1);
    const zpl = jobs[0]!.toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl).toContain(product.number);
    await shot(page, 'label-send-printer');

    // The printer switched off: the screen says so, in the user's language.
    await new Promise<void>((r) => printer.close(() => r()));
    await page.getByTestId('label-send-printer').click();
    await expect(page.getByTestId('label-send-error')).toHaveText(
      `無法連線到標籤機 127.0.0.1:${port}，請確認標籤機已開機並連上網路`,
    );
  } finally {
    printer.close();
    await ok(api.authRoutes.updateProfile({ body: { label_format: 'sheet' }, token }));
  }
});
