import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { apiOf, ok } from '../helpers/api';
import { loginThroughUi, storedSession } from '../helpers/session';

/**
 * The Content-Security-Policy the server sends (default-src 'self', no inline scripts, no framing) does not break
 * the app: the login page, the dashboard, /deliver, the Swagger UI reference and a label print page run without a
 * single CSP violation, a script error or a "Refused to …" console message.
 */
/** Everything the browser reports against the policy, gathered from the page and its console. */
function watchViolations(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

test('the main screens run under the Content-Security-Policy without a violation', async ({ page }) => {
  const problems = watchViolations(page);
  // Violation events are also recorded inside the page (they carry the blocked URI and directive).
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __cspViolations?: string[] };
      w.__cspViolations ??= [];
      w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  const recorded = async () =>
    (await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])).map(
      (v) => `${page.url()}: ${v}`,
    );
  const violations: string[] = [];

  const screen = await page.goto('/login');
  const csp = screen?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(page.locator('#email')).toBeVisible();
  violations.push(...(await recorded()));

  await loginThroughUi(page, DEMO.customer);
  await expect(page.getByTestId('dashboard-welcome')).toBeVisible();
  // antd 6 styles itself with <style> elements made at run time: the reason style-src keeps 'unsafe-inline'.
  expect(await page.locator('head style').count()).toBeGreaterThan(0);
  violations.push(...(await recorded()));

  await page.goto('/deliver');
  await expect(page.getByTestId('order-new')).toBeVisible();
  violations.push(...(await recorded()));

  await page.goto('/api-docs');
  const ui = page.locator('.swagger-ui');
  await expect(ui.locator('.info .title')).toContainText('WMS API');
  await ui.locator('.opblock-tag', { hasText: /^inbound/ }).click();
  // raw-api-path: the reference page shows the path itself (Swagger UI's data-path).
  await expect(ui.locator('[data-path="/api/entry/"]').first()).toBeVisible();
  violations.push(...(await recorded()));

  const session = await storedSession(page);
  const api = apiOf(page.request);
  const token = session!.access;
  const stamp = `C${Date.now().toString(36).toUpperCase()}`;
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `CSP ${stamp}` }, token }),
  );
  const location = await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: warehouse.id, code: `A-${stamp}`, kind: 'sellable', pick_sequence: 1 },
      token,
    }),
  );
  await page.goto(`/rack-print/${location.id}`);
  await expect(page.getByTestId('label-document').locator('svg').first()).toBeVisible();
  violations.push(...(await recorded()));

  expect([...violations, ...problems]).toEqual([]);
});
