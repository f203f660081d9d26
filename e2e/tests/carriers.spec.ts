import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ecpayCheckMacValue } from '../../apps/server/src/modules/carriers/providers/ecpay';
import { loginByApi, registerByApi } from '../helpers/session';

/**
 * Consignment numbers from the carrier (issue #14) against the fake ECPay logistics host that global-setup starts on
 * 127.0.0.1: an ECPay logistics provider (carrier API "ECPay logistics") and a plain one → on /deliver-operation
 * select three orders → "get consignment numbers" → two numbers from ECPay, one "no carrier API"; the numbers are on
 * the orders. Screenshots: e2e/artifacts/screenshots/carriers-*.png.
 */
const shots = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `carriers-${name}.png`), fullPage: true, animations: 'disabled' });

async function post<T = unknown>(req: APIRequestContext, auth: Record<string, string>, url: string, data: unknown) {
  const res = await req.post(url, { headers: auth, data });
  expect(res.ok(), `${url}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

test('get consignment numbers from ECPay for selected orders on /deliver-operation', async ({ page }) => {
  test.setTimeout(90_000);
  const seller = await registerByApi(page, 'zh-TW');
  const session = await loginByApi(page, seller);
  const auth = { authorization: `Bearer ${session.access}` };
  const stamp = `C${Date.now().toString(36).toUpperCase()}`;
  const product = await post<{ id: string }>(page.request, auth, '/api/products/', {
    number: `P-${stamp}`,
    name: `商品 ${stamp}`,
  });
  const ecpay = await post<{ id: string }>(page.request, auth, '/api/logistics-providers/', {
    code: 'ECPAY',
    name: '綠界宅配',
    merchant_id: '2000132',
    hash_key: '5294y06JbISpM5x9',
    hash_iv: 'v77hoKGq4kWxNNIS',
    carrier_type: 'ecpay',
  });
  const plain = await post<{ id: string }>(page.request, auth, '/api/logistics-providers/', {
    code: 'HAND',
    name: '手動物流',
  });
  const mk = (providerId: string) =>
    post<{ id: string; number: string }>(page.request, auth, '/api/outbound-orders/', {
      recipient_name: '王小明',
      recipient_mobile: '0912345678',
      recipient_postcode: '100',
      recipient_address: '台北市中正區重慶南路一段122號',
      logistics_provider_id: providerId,
      lines: [{ product_id: product.id, quantity: 1 }],
    });
  const orders = [await mk(ecpay.id), await mk(ecpay.id), await mk(plain.id)];

  await page.goto('/express-provider');
  await expect(page.getByRole('cell', { name: '綠界物流' })).toBeVisible();
  await shot(page, 'providers');

  await page.goto('/deliver-operation');
  for (const o of orders)
    await page
      .getByRole('row', { name: new RegExp(o.number) })
      .getByRole('checkbox')
      .check();
  await page.getByTestId('carrier-fetch').click();
  const results = page.getByTestId('carrier-results');
  await expect(results).toBeVisible();
  await expect(results.getByTestId('carrier-outcome-created')).toHaveCount(2);
  await expect(results.getByTestId('carrier-outcome-no_carrier')).toHaveCount(1);
  await expect(results).toContainText('取得 2 筆，略過 1 筆，失敗 0 筆');
  await shot(page, 'results');

  const numbers: string[] = [];
  for (const o of orders.slice(0, 2)) {
    const res = await page.request.get(`/api/outbound-orders/${o.id}/`, { headers: auth });
    const n = ((await res.json()) as { consignment_number: string }).consignment_number;
    expect(n).toMatch(/^90\d+23$/);
    numbers.push(n);
  }

  // ECPay reports the parcel's progress (signed with the merchant's hash key and IV): the order drawer shows it.
  const notice: Record<string, string> = {
    MerchantID: '2000132',
    MerchantTradeNo: orders[0]!.number,
    RtnCode: '3024',
    RtnMsg: '貨件已至物流中心',
    AllPayLogisticsID: '1000000',
    BookingNote: numbers[0]!,
    UpdateStatusDate: '2026/11/24 17:10:00',
  };
  notice.CheckMacValue = ecpayCheckMacValue(notice, '5294y06JbISpM5x9', 'v77hoKGq4kWxNNIS');
  const ack = await page.request.post('/api/carriers/ecpay/notify/', { form: notice });
  expect(await ack.text()).toBe('1|OK');
  await page.keyboard.press('Escape');
  await page.goto('/deliver');
  await page.getByTestId(`order-open-${orders[0]!.number}`).click();
  await expect(page.getByTestId('order-carrier-events')).toContainText('貨件已至物流中心');
  await page.getByTestId('order-carrier-events').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'carriers-tracking.png'), animations: 'disabled' });
});
