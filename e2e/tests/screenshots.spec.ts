import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO } from '../helpers/accounts';
import { signIn } from '../helpers/api';
import { loginByApi, registerByApi } from '../helpers/session';

/** Screenshots of every screen this issue finishes, in zh-TW and en (e2e/artifacts/screenshots/). */
const dir = path.resolve(import.meta.dirname, '../artifacts/screenshots');
mkdirSync(dir, { recursive: true });

/** A key i18next could not find shows up as `ns:key` or `a.b` words; none may reach the page. */
async function expectTranslated(page: Page, name: string) {
  const text = await page.locator('body').innerText();
  const raw = text.match(/(?<![@\w.:/-])(?:[a-z]+:)?[a-z][a-zA-Z]+\.[a-z][a-zA-Z0-9-]+(?![\w@.])/g) ?? [];
  expect(raw, `untranslated keys on ${name}`).toEqual([]);
}

async function shoot(page: Page, lng: string, name: string, ready: () => Promise<void>) {
  await ready();
  await page.waitForLoadState('networkidle');
  await expectTranslated(page, name);
  await page.screenshot({ path: path.join(dir, `${lng}-${name}.png`), fullPage: true });
}

for (const lng of ['zh-TW', 'en'] as const) {
  test.describe(`screens in ${lng}`, () => {
    test('public pages, member login and the manual', async ({ page }) => {
      await page.goto('/user-manual');
      await page.evaluate((l) => localStorage.setItem('wms.language', l), lng);
      const visit = async (url: string, name: string, visible: string) => {
        await page.goto(url);
        await shoot(page, lng, name, () => expect(page.locator(visible).first()).toBeVisible());
      };
      await visit('/login', 'login', '[data-testid=login-submit]');
      await visit('/register', 'register', '#company_name');
      await visit('/format-password', 'format-password', '#email');
      await visit('/format-password?token=sample-token-123', 'format-password-reset', '#new_password');
      await visit(`/store/login/${DEMO.store.shortUrl}`, 'store-login', '#corp');
      await visit('/store/404', 'store-404', '[data-testid=store-404]');
      await visit('/user-manual', 'manual-index', '[data-testid=manual-contents]');
      await visit('/user-manual/flowchart', 'manual-flowchart', '[data-testid=flowchart]');
      await visit('/user-manual/version', 'manual-version', '[data-testid=manual-version] h1');
      await visit('/user-manual/2fa', 'manual-2fa', '[data-testid=manual-2fa] h1');
      await visit('/user-manual/product', 'manual-pending', '[data-testid=manual-product]');
      await visit('/user-manual/nope', 'manual-not-found', '[data-testid=manual-not-found]');
    });

    test('main area screens of a new seller', async ({ page }) => {
      const user = await registerByApi(page, lng);
      await loginByApi(page, user);
      const visit = async (url: string, name: string, visible: string) => {
        await page.goto(url);
        await shoot(page, lng, name, () => expect(page.locator(visible).first()).toBeVisible());
      };
      await visit('/dashboard', 'dashboard', '[data-testid=dashboard-welcome]');
      await visit('/profile', 'profile', '#name');
      await visit('/change-password', 'change-password', '#old_password');
      await visit('/two-factor', 'two-factor', '.ant-card .ant-btn-primary');
      await page.locator('.ant-card .ant-btn-primary').click();
      await shoot(page, lng, 'two-factor-setup', () => expect(page.getByTestId('two-factor-qr')).toBeVisible());
      await visit('/privacy', 'privacy', '.markdown h1');
      await visit('/service-rule', 'service-rule', '.markdown h1');
      await visit('/404', '404', '.ant-result-404');
      await visit('/stock-age', 'stock-age', '.ant-card-head-title');
      await visit('/dev-test', 'dev-test', '.ant-table-row');
      await visit(
        '/return-print/1',
        'print-layout',
        '[data-testid=print-layout] .ant-result, [data-testid=print-layout] .print-sheet',
      );
    });

    test('CRM and store portal frames', async ({ page }) => {
      const { api, token } = await signIn(page, DEMO.employee);
      await api.authRoutes.updateProfile({ body: { language: lng }, token });
      try {
        await page.goto('/crm/dashboard');
        await shoot(page, lng, 'crm', () => expect(page.getByTestId('crm-menu')).toBeVisible());
      } finally {
        await api.authRoutes.updateProfile({ body: { language: 'zh-TW' }, token });
      }
      const member = await api.authRoutes.memberLogin({
        body: { corp: DEMO.store.shortUrl, email: DEMO.member.email, password: DEMO.member.password },
      });
      const m = member.json();
      await page.evaluate(
        ([s, l]) => {
          localStorage.setItem('wms.member', s);
          localStorage.setItem('wms.language', l);
        },
        [JSON.stringify({ access: m.access, refresh: m.refresh, profile: m.profile }), lng] as const,
      );
      await page.goto('/store');
      await shoot(page, lng, 'store', () => expect(page.getByTestId('store-name')).toBeVisible());
    });
  });
}
