import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { ok, signIn, type TSession } from '../helpers/api';
import { CHROMIUM } from '../helpers/browser';
import { writeCodeVideo } from '../helpers/fake-camera';
import { loginByApi } from '../helpers/session';

/**
 * Issue #37, items 1 and 3: the installable app and the camera as a scanner. The browser's camera is Chromium's fake
 * device playing a video of a printed QR code (made before the browser starts: the flags are launch options); the
 * service worker runs in this file only (playwright.config.ts blocks it elsewhere).
 */

const CAMERA_CODE = `CAM${Date.now().toString(36).toUpperCase()}`;
const VIDEO = path.join(tmpdir(), `wms-e2e-camera-${process.pid}.y4m`);
writeCodeVideo(VIDEO, CAMERA_CODE);

test.use({
  serviceWorkers: 'allow',
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

test('PWA: a valid manifest, the service worker controls the page, Chromium finds the app installable', async ({
  page,
}) => {
  await page.goto('/login');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await page.request.get(href!);
  expect(res.ok()).toBe(true);
  expect(res.headers()['content-type']).toContain('manifest+json');
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: Array<{ src: string; sizes: string; type: string }>;
  };
  expect(manifest.display).toBe('standalone');
  expect(manifest.short_name).toBe('WMS');
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size);
    expect(icon, size).toBeTruthy();
    const png = await page.request.get(icon!.src);
    expect(png.ok()).toBe(true);
    expect((await png.body()).subarray(1, 4).toString()).toBe('PNG');
  }
  // The worker takes the page over (clients.claim), and after a reload the page is served through it.
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  // The shell was kept; API answers never are.
  const cached = await page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys())
      for (const req of await (await caches.open(name)).keys()) out.push(new URL(req.url).pathname);
    return out;
  });
  expect(cached).toContain('/');
  expect(cached.some((p) => p.startsWith('/assets/'))).toBe(true);
  // raw-api-path: the test is about URLs themselves (no cached path under the API's prefix).
  expect(cached.filter((p) => p.startsWith('/api/'))).toEqual([]);
  // What Lighthouse's "installable" audit asks Chromium.
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: Array<{ errorId: string }>;
  };
  // Playwright's browser contexts are off the record, where Chromium never installs; a person's profile is not.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

interface TCameraWorld extends TSession {
  stamp: string;
  warehouse: { id: string; code: string };
  location: { id: string; code: string };
  product: { id: string; number: string };
}

let world: TCameraWorld | null = null;

/** The demo seller's warehouse, location and the product whose barcode the fake camera shows (made once per run). */
async function cameraWorld(page: Page): Promise<TCameraWorld> {
  const { api, token } = await signIn(page, DEMO.customer);
  if (world) return { ...world, api, token };
  const stamp = CAMERA_CODE.slice(3);
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-C${stamp}`, name: `Cam ${stamp}` }, token }),
  );
  const location = await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: warehouse.id, code: `CAM-${stamp}`, kind: 'sellable' },
      token,
    }),
  );
  const product = await ok(
    api.catalogRoutes.createProduct({
      body: { number: `P-C${stamp}`, name: `Camera tea ${stamp}`, barcode: CAMERA_CODE },
      token,
    }),
  );
  world = { api, token, stamp, warehouse, location, product };
  return world;
}

test('camera scan: the code read from the camera goes through the same flow as a wedge scan (entry-quick)', async ({
  page,
}) => {
  const { api, token, stamp, warehouse, location, product } = await cameraWorld(page);
  await page.setViewportSize({ width: 480, height: 800 });
  await page.goto('/entry-quick');
  await page.getByRole('combobox', { name: '倉庫' }).click();
  await page.keyboard.type(warehouse.code);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: warehouse.code })
    .click();

  await page.getByTestId('quick-product-camera').click();
  // Read from the camera: the dialog closes, the box holds the code, the product is found, the quantity is next.
  await expect(page.getByTestId('quick-product')).toHaveValue(CAMERA_CODE, { timeout: 20_000 });
  await expect(page.getByTestId('camera-video')).toHaveCount(0);
  await expect(page.getByText(`${product.number} Camera tea ${stamp}`)).toBeVisible();
  await expect(page.getByTestId('quick-quantity')).toBeFocused();
  // The rest by the wedge scanner, as on any day.
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await page.keyboard.type(location.code);
  await page.keyboard.press('Enter');
  await expect(page.locator('.ant-message')).toContainText(/IN\d{12}/);
  await page.screenshot({ path: 'artifacts/handheld-entry-quick.png' });
  const stock = await ok(api.stockRoutes.productLocation({ query: { product_id: product.id, page_size: 10 }, token }));
  const rows = stock.results;
  expect(rows.map((r) => [r.location_code, r.on_hand])).toEqual([[location.code, 3]]);
});

test('camera scan, continuous (stocktake count): the camera stays open and a label held in view counts once', async ({
  page,
}) => {
  const { api, token, warehouse, location } = await cameraWorld(page);
  const sheet = await ok(
    api.stocktakeRoutes.createStocktake({
      body: { warehouse_id: warehouse.id, name: `Camera count ${Date.now()}`, type: 'full' },
      token,
    }),
  );
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/inventory?id=${sheet.id}`);
  await expect(page.getByTestId('count-location')).toBeFocused();
  await page.keyboard.type(location.code);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('count-location-info')).toContainText(location.code);

  await page.getByTestId('count-product-camera').click();
  await expect(page.getByTestId('camera-read')).toContainText(CAMERA_CODE, { timeout: 20_000 });
  await page.screenshot({ path: 'artifacts/handheld-camera-continuous.png' });
  // Still open after the read, and the label (always in view in the fake video) counted once.
  await page.waitForTimeout(2000);
  await expect(page.getByTestId('camera-video')).toBeVisible();
  await expect(page.getByTestId('camera-read').locator('.ant-tag')).toHaveCount(1);
  await page.keyboard.press('Escape');
  const row = page.getByTestId('count-panel').locator('.ant-table-row');
  await expect(row).toHaveCount(1);
  await expect(row.locator('input')).toHaveValue('1');
});

/** The operator screens a handheld is used on (receive, put away, transfer, pick/pack/ship, returns, count). */
const FLOOR_SCREENS = [
  '/entry-confirm',
  '/entry-quick',
  '/stock-transfer',
  '/location-stock',
  '/deliver-operation',
  '/deliver-opser',
  '/return-confirm',
  '/inventory',
];

for (const [device, width, height] of [
  ['phone', 360, 740],
  ['handheld', 480, 800],
] as const) {
  test(`${device} ${width}×${height}: no floor screen scrolls sideways, the menu slides away`, async ({ page }) => {
    await loginByApi(page, DEMO.customer);
    await page.setViewportSize({ width, height });
    for (const screen of FLOOR_SCREENS) {
      await page.goto(screen);
      await expect(page.getByTestId('page-loading')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (sideways > 0)
        await page.screenshot({ path: `artifacts/handheld-${device}${screen.replace(/\//g, '-')}.png` });
      expect(sideways, `${screen} scrolls ${sideways}px sideways at ${width}px`).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: `artifacts/handheld-${device}-inventory.png` });
    // The menu is out of the way, opens over the page from the header's button, and closes on a choice.
    const menu = page.getByTestId('main-menu');
    expect((await menu.boundingBox())?.width ?? 0).toBe(0);
    await page.getByTestId('menu-toggle').click();
    await expect.poll(async () => (await menu.boundingBox())?.width ?? 0).toBe(232);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `artifacts/handheld-${device}-menu.png` });
    await menu.getByRole('menuitem', { name: '儀表板' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(async () => (await menu.boundingBox())?.width ?? 0).toBe(0);
  });
}
