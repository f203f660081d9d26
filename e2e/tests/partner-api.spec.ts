import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { newSeller, ok, stockedProduct } from '../helpers/api';
import { chooseLanguage } from '../helpers/session';

/**
 * The partner API end to end (issue #13), as a seller and their developer do it: a partner API setting made on
 * /module-api-setup with a callback URL and a header, enabled → the key and signing secret are shown once → an order
 * is created with the key over HTTP → it is on /deliver and is exported there → a local receiver on 127.0.0.1 got
 * the signed callbacks (HMAC checked here). A second receiver answers 500 twice: the same delivery reaches it on the
 * third try, after the server's real back-off (shortened 20× by the e2e server's JOB_RETRY_DELAY_SCALE: first retry
 * 5–10 s, second 10–20 s later), and the order's next
 * event only after it. Also: an outgoing connection tested against a local token endpoint (/gd-api-setup), the
 * deliveries and their attempts (/gd-api-callback), the guide (/partner-api-docs). Screenshots:
 * e2e/artifacts/screenshots/partner-api-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `partner-api-${name}.png`), fullPage: true, animations: 'disabled' });

interface TReceived {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  answered: number;
}

/** A callback receiver on 127.0.0.1 that records every request; `answer(n)` is the status of the n-th (1-based). */
async function startReceiver(answer: (n: number, req: TReceived) => number) {
  const received: TReceived[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: TReceived = {
        path: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
        answered: 0,
      };
      if (entry.path === '/token') {
        // An OAuth2 token endpoint for the outgoing connection's test.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'tok-e2e-access', refresh_token: 'tok-e2e-refresh', expires_in: 3600 }));
        return;
      }
      received.push(entry);
      entry.answered = answer(received.length, entry);
      res.writeHead(entry.answered, { 'content-type': 'text/plain' });
      res.end(entry.answered < 300 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The check a partner's developer writes from /partner-api-docs: HMAC-SHA256(secret, "<t>.<raw body>"), ±5 min. */
function verifySignature(secret: string, raw: string, header: string | undefined): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - t) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const body = (r: TReceived) =>
  JSON.parse(r.raw) as { id: string; type: string; created_at: string; data: Record<string, unknown> };

test('enable → key once → order over HTTP → /deliver export → signed callbacks; a flaky receiver gets it on the third try', async ({
  page,
}) => {
  // The flaky receiver's third try waits for the server's back-off (≤ 30 s with the e2e server's scale).
  test.setTimeout(180_000);
  const good = await startReceiver(() => 200);
  const flaky = await startReceiver((n) => (n <= 2 ? 500 : 200));
  try {
    const { api, token } = await newSeller(page, 'zh-TW');
    const stamp = `A${Date.now().toString(36).toUpperCase()}`;
    const { warehouse, product } = await stockedProduct(api, token, stamp, 10, { name: `E2E API 商品 ${stamp}` });

    // The flaky receiver's setting, made and enabled by the API before any order exists.
    const flakySetting = await ok(
      api.apiSettingRoutes.createApiSetting({
        body: { name: 'Flaky ERP', kind: 'partner', callback_url: `${flaky.url}/hook`, order_callback_enabled: true },
        token,
      }),
    );
    await ok(api.apiSettingRoutes.enableApiSetting({ params: { id: flakySetting.id }, token }));

    // 1. /gd-api-setup: an outgoing connection whose test gets a token from the local token endpoint.
    await page.goto('/gd-api-setup');
    await expect(page.getByTestId('connection-page').getByTestId('table-empty')).toBeVisible();
    await page.getByTestId('connection-add').click();
    const connDialog = page.getByRole('dialog');
    await page.locator('#name').fill('Own ERP');
    await page.locator('#token_url').fill(`${good.url}/token`);
    await page.locator('#user_name').fill('erp-user');
    await page.locator('#password').fill('erp-pass-secret');
    await connDialog.getByRole('button', { name: /儲\s*存/ }).click();
    await expect(connDialog).toBeHidden();
    const connRow = page.locator('.ant-table-row').filter({ hasText: 'Own ERP' });
    await expect(connRow).toContainText('••••');
    await expect(connRow).not.toContainText('erp-pass-secret');
    await connRow.getByTestId('connection-test').click();
    await expect(page.getByTestId('connection-test-alert')).toContainText('成功');
    await expect(connRow.getByTestId('connection-test-result')).toContainText('成功');
    await shot(page, 'connections');

    // 2. /module-api-setup: the partner setting, made on the screen with a callback URL and a header.
    await page.goto('/module-api-setup');
    await expect(page.getByTestId('api-setting-page').getByText('Flaky ERP')).toBeVisible();
    await page.getByTestId('api-add').click();
    const dialog = page.getByRole('dialog');
    await page.locator('#name').fill('Shop ERP');
    // A new key is read-only unless the seller widens it: this one creates orders.
    await expect(dialog.getByRole('radio', { name: '唯讀', exact: true })).toBeChecked();
    await dialog.getByRole('radio', { name: '訂單', exact: true }).check();
    await page.locator('#callback_url').fill(`${good.url}/hook`);
    await dialog.getByRole('button', { name: '新增標頭' }).click();
    await dialog.getByLabel('標頭名稱').fill('X-Partner-Token');
    await dialog.getByLabel('標頭值').fill('partner-header-secret');
    await page.locator('#order_callback_enabled').click();
    await shot(page, 'form');
    await dialog.getByRole('button', { name: /儲\s*存/ }).click();
    await expect(dialog).toBeHidden();
    const row = page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' });
    await expect(row.getByTestId('api-state')).toHaveText('未啟用');
    await expect(row.getByTestId('api-scope')).toHaveText('訂單');

    // 3. Enable: the key and the signing secret are shown once, with the spec's warning.
    await row.getByTestId('api-enable').click();
    const issued = page.getByTestId('key-issued');
    await expect(issued).toContainText('API 金鑰只會在啟用後顯示這一次。遺失金鑰時必須先停用再重新啟用。');
    const key = (await page.getByTestId('issued-api-key').innerText()).trim();
    const secret = (await page.getByTestId('issued-signing-secret').innerText()).trim();
    expect(key).toMatch(/^wms_/);
    expect(secret).toMatch(/^whsec_/);
    await shot(page, 'key-once');
    await page.getByTestId('key-issued-done').click();
    await expect(issued).toBeHidden();
    await expect(row.getByTestId('api-state')).toHaveText('已啟用');
    await expect(row).toContainText(`${key.slice(0, 10)}…`);
    await page.reload();
    await expect(page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(key);
    await expect(page.locator('body')).not.toContainText(secret);
    await shot(page, 'settings');

    // 4. The developer creates an order with the key over HTTP; sending it again does not make a second one.
    const po = `SHOP-${stamp}`;
    const order = {
      order_number: po,
      recipient_name: '王小明',
      recipient_mobile: '0912345678',
      recipient_postcode: '100',
      recipient_address: '台北市中正區重慶南路一段 122 號',
      warehouse: warehouse.code,
      lines: [{ sku: product.number, quantity: 2 }],
    };
    const created = await api.partnerApiRoutes.apiCreateOrder({ body: order, apiKey: key });
    expect(created.statusCode, created.body).toBe(201);
    const createdOrder = created.json();
    expect(createdOrder.status).toBe('pending_export');
    const again = await api.partnerApiRoutes.apiCreateOrder({ body: order, apiKey: key });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(createdOrder.id);
    const noKey = await api.partnerApiRoutes.apiCreateOrder({ body: order, apiKey: 'wms_wrong' });
    expect(noKey.statusCode).toBe(401);

    // 5. The order is on /deliver, pending export; export it there.
    await page.goto('/deliver');
    await page.getByTestId('order-search').fill(po);
    await page.getByTestId('order-search-submit').click();
    await expect(page.locator('.ant-table-row').filter({ hasText: po })).toContainText('待轉出');
    await page.getByTestId(`order-open-${po}`).click();
    await page.getByTestId('order-action-export').click();
    await expect(page.getByTestId('order-status-exported').first()).toBeVisible();

    // 6. The good receiver got order.created then order.status_changed, signed with the secret shown once, with
    // the setting's own header.
    const orderEvents = () => good.received.filter((r) => body(r).data.order_number === createdOrder.number);
    await expect
      .poll(() => orderEvents().map((r) => body(r).type), { timeout: 90_000 })
      .toEqual(['order.created', 'order.status_changed']);
    for (const r of orderEvents()) {
      expect(verifySignature(secret, r.raw, r.headers['x-wms-signature'] as string), r.raw).toBe(true);
      expect(verifySignature('whsec_not-the-secret', r.raw, r.headers['x-wms-signature'] as string)).toBe(false);
      expect(r.headers['x-wms-event']).toBe(body(r).type);
      expect(r.headers['idempotency-key']).toBe(r.headers['x-wms-delivery']);
      expect(r.headers['x-partner-token']).toBe('partner-header-secret');
    }
    const [createdEvent, exportedEvent] = orderEvents().map(body);
    expect(createdEvent?.data).toMatchObject({ platform_order_number: po, status: 'pending_export' });
    expect(exportedEvent?.data).toMatchObject({
      order_number: createdOrder.number,
      platform_order_number: po,
      status: 'exported',
      previous_status: 'pending_export',
    });

    // 7. /gd-api-callback: the deliveries, a test event, and the attempts of one delivery.
    await page.goto('/module-api-setup');
    await page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' }).getByTestId('api-send-test').click();
    await expect.poll(() => good.received.filter((r) => body(r).type === 'ping').length, { timeout: 30_000 }).toBe(1);
    const ping = good.received.find((r) => body(r).type === 'ping')!;
    expect(verifySignature(secret, ping.raw, ping.headers['x-wms-signature'] as string)).toBe(true);
    await page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' }).getByRole('link').click();
    await expect(page).toHaveURL(/\/gd-api-callback\?setting=/);
    const deliveries = page.getByTestId('callback-page').locator('.ant-table-row');
    await expect(deliveries).toHaveCount(3);
    await expect(deliveries.filter({ hasText: '測試事件' })).toContainText('已送達');
    await expect(deliveries.filter({ hasText: '訂單狀態變更' })).toContainText(createdOrder.number);
    await deliveries.filter({ hasText: '訂單狀態變更' }).getByTestId('delivery-attempts').click();
    const attempts = page.getByTestId('attempts-list');
    await expect(attempts).toContainText('第 1 次');
    await expect(attempts).toContainText('200');
    await expect(attempts).toContainText('x-wms-signature');
    await shot(page, 'attempts');
    await page.keyboard.press('Escape');

    // 8. The flaky receiver: 500, 500, then the same delivery again after the back-off, answered 200; the order's
    // later event comes only after it.
    await page.getByTestId('callback-setting').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Flaky ERP' }).click();
    const flakyRows = page.getByTestId('callback-page').locator('.ant-table-row');
    const flakyOrder = () => flaky.received.filter((r) => body(r).data.order_number === createdOrder.number);
    await expect
      .poll(() => flakyOrder().map((r) => r.answered), { timeout: 90_000, intervals: [1_000] })
      .toEqual([500, 500, 200, 200]);
    const [first, second, third, fourth] = flakyOrder();
    for (const r of [first, second, third]) {
      expect(body(r!).type).toBe('order.created');
      expect(body(r!).id).toBe(body(first!).id);
      expect(r!.headers['x-wms-delivery']).toBe(first!.headers['x-wms-delivery']);
    }
    expect(body(fourth!).type).toBe('order.status_changed');
    await expect(flakyRows.filter({ hasText: '訂單建立' })).toContainText('已送達', { timeout: 15_000 });
    await shot(page, 'deliveries');
    // The delivery's attempts: 500, 500, 200.
    await flakyRows.filter({ hasText: '訂單建立' }).getByTestId('delivery-attempts').click();
    const flakyAttempts = page.getByTestId('attempts-list').locator('.ant-collapse-header');
    await expect(flakyAttempts).toHaveCount(3);
    await expect(flakyAttempts.nth(0)).toContainText('500');
    await expect(flakyAttempts.nth(1)).toContainText('500');
    await expect(flakyAttempts.nth(2)).toContainText('200');
    await shot(page, 'attempts-retried');
    await page.keyboard.press('Escape');

    // 9. The guide, linked from /module-api-setup; English and the dark theme.
    await page.goto('/module-api-setup');
    await page.getByTestId('api-reference-link').click();
    await expect(page.getByTestId('partner-api-docs')).toContainText('X-WMS-Signature');
    await expect(page.getByTestId('partner-api-docs')).toContainText('Idempotency-Key');
    await chooseLanguage(page, 'English');
    await expect(page.getByTestId('partner-api-docs').locator('h1')).toHaveText('Partner API guide');
    await shot(page, 'guide-en');
    await page.getByTestId('theme-switch').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.goto('/module-api-setup');
    await expect(page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' })).toContainText('Enabled');
    await shot(page, 'settings-dark');

    // 10. Disabling revokes the key at once.
    await page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' }).getByTestId('api-disable').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    await expect(page.locator('.ant-table-row').filter({ hasText: 'Shop ERP' }).getByTestId('api-state')).toHaveText(
      'Disabled',
    );
    const revoked = await api.partnerApiRoutes.apiGetOrder({ params: { code: po }, apiKey: key });
    expect(revoked.statusCode).toBe(401);
  } finally {
    await good.close();
    await flaky.close();
  }
});
