import { expect, type Page, test } from '@playwright/test';
import { authRoutes } from '@wms/contracts';
import { DEMO } from '../helpers/accounts';
import { apiOf } from '../helpers/api';
import { loginByApi, storedSession } from '../helpers/session';

async function expectLanding(page: Page, from: string, to: string) {
  await page.goto(from);
  await expect(page, `${from} → ${to}`).toHaveURL(new RegExp(`${to.replace(/\//g, '\\/')}$`));
}

test.describe('not logged in', () => {
  const cases: Array<[string, string]> = [
    ['/', '/login'],
    ['/dashboard', '/login'],
    ['/no-such-screen', '/login'],
    ['/profile', '/login'],
    ['/entry-print/42', '/login'],
    ['/tappay', '/login'],
    ['/crm', '/login'],
    ['/crm/customer', '/login'],
    ['/crm/nowhere', '/login'],
    ['/store', '/store/404'],
    ['/store/deliver-list', '/store/404'],
    ['/store/nowhere', '/store/404'],
    ['/store/404', '/store/404'],
    ['/login', '/login'],
    ['/register', '/register'],
    ['/format-password', '/format-password'],
    ['/user-manual', '/user-manual'],
  ];
  for (const [from, to] of cases) {
    test(`${from} → ${to}`, async ({ page }) => {
      await expectLanding(page, from, to);
    });
  }
  test('an unknown manual page shows the manual not-found page', async ({ page }) => {
    await page.goto('/user-manual/no-such-page');
    await expect(page.getByTestId('manual-not-found')).toBeVisible();
  });
});

test.describe('logged in as CUSTOMER', () => {
  test.beforeEach(async ({ page }) => {
    await loginByApi(page, DEMO.customer);
  });
  const cases: Array<[string, string]> = [
    ['/login', '/dashboard'],
    ['/register', '/dashboard'],
    ['/format-password', '/dashboard'],
    ['/', '/dashboard'],
    ['/no-such-screen', '/dashboard'],
    ['/crm', '/dashboard'],
    ['/crm/customer', '/dashboard'],
    ['/store', '/store/404'],
  ];
  for (const [from, to] of cases) {
    test(`${from} → ${to}`, async ({ page }) => {
      await expectLanding(page, from, to);
    });
  }

  test('entering the guarded area refreshes the token', async ({ page }) => {
    const before = await storedSession(page);
    const refreshed = page.waitForResponse((r) => r.url().endsWith(authRoutes.refresh.path) && r.ok());
    await page.goto('/dashboard');
    await refreshed;
    await expect(page.getByTestId('dashboard-welcome')).toBeVisible();
    const after = await storedSession(page);
    expect(after?.refresh).toBeTruthy();
    expect(after?.refresh).not.toBe(before?.refresh);
  });

  test('a screen opened by its address shows its title inside the main layout', async ({ page }) => {
    // Every screen of the spec is built now (routes.test.ts: PENDING is empty), so no "under construction" is left.
    await page.goto('/stock-age');
    await expect(page.locator('.ant-card-head-title').first()).toContainText('庫齡分析');
    await expect(page.getByTestId('main-menu')).toBeVisible();
  });

  test('print screens have no menu; payment pages neither', async ({ page }) => {
    await page.goto('/deliver-print-pick-A4/7');
    await expect(page.getByTestId('print-layout')).toBeVisible();
    await expect(page.getByTestId('main-menu')).toHaveCount(0);
    await page.goto('/wait-tappay');
    await expect(page.getByTestId('wait-back')).toBeVisible();
    await expect(page.getByTestId('main-menu')).toHaveCount(0);
  });

  test('logout clears the tokens and goes to /login', async ({ page }) => {
    await page.goto('/dashboard');
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown-menu').getByRole('menuitem', { name: '登出' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedSession(page)).toBeNull();
    await expectLanding(page, '/dashboard', '/login');
  });

  test('a refused refresh on entry logs out', async ({ page }) => {
    const s = await storedSession(page);
    // Revoke the refresh token's family on the server, as a logout elsewhere would.
    expect((await apiOf(page.request).authRoutes.logout({ body: { refresh: s!.refresh } })).statusCode).toBeLessThan(
      300,
    );
    await expectLanding(page, '/dashboard', '/login');
    expect(await storedSession(page)).toBeNull();
  });

  test('a missing profile logs out', async ({ page }) => {
    await page.route(`**${authRoutes.profile.path}`, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'x', params: {} } }),
      }),
    );
    await expectLanding(page, '/dashboard', '/login');
    expect(await storedSession(page)).toBeNull();
  });

  test('a 401 triggers one refresh and the call is retried', async ({ page }) => {
    await page.goto('/profile');
    await expect(page.locator('#name')).toBeVisible();
    let patches = 0;
    let refreshes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith(authRoutes.refresh.path)) refreshes++;
    });
    // The server answers 401 to the first PATCH only (an access token that just expired).
    await page.route(`**${authRoutes.updateProfile.path}`, async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patches++;
      if (patches === 1)
        return route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'TOKEN_INVALID', message: 'x', params: {} } }),
        });
      return route.continue();
    });
    await page.getByRole('button', { name: '儲存' }).click();
    await expect(page.getByText('儲存成功')).toBeVisible();
    expect(patches).toBe(2);
    expect(refreshes).toBe(1);
  });

  test('a 401 whose refresh fails logs out', async ({ page }) => {
    await page.goto('/profile');
    await expect(page.locator('#name')).toBeVisible();
    await page.route(`**${authRoutes.updateProfile.path}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 401,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'TOKEN_INVALID', message: 'x', params: {} } }),
          })
        : route.continue(),
    );
    const s = await storedSession(page);
    await apiOf(page.request).authRoutes.logout({ body: { refresh: s!.refresh } });
    await page.getByRole('button', { name: '儲存' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedSession(page)).toBeNull();
  });
});

test.describe('logged in as EMPLOYEE', () => {
  test.beforeEach(async ({ page }) => {
    await loginByApi(page, DEMO.employee);
  });
  const cases: Array<[string, string]> = [
    ['/', '/crm/dashboard'],
    ['/dashboard', '/crm/dashboard'],
    ['/profile', '/crm/dashboard'],
    ['/login', '/crm/dashboard'],
    ['/crm', '/crm/dashboard'],
    ['/crm/nowhere', '/crm/404'],
  ];
  for (const [from, to] of cases) {
    test(`${from} → ${to}`, async ({ page }) => {
      await expectLanding(page, from, to);
    });
  }
  test('the CRM area has its own menu', async ({ page }) => {
    await page.goto('/crm/customer');
    await expect(page.getByTestId('crm-menu')).toContainText('客戶管理');
  });
});

test.describe('store member', () => {
  test('logs in at /store/login/{short_url}, lands on /store/deliver-list, and is kept apart', async ({ page }) => {
    await page.goto(`/store/login/${DEMO.store.shortUrl}`);
    await expect(page.locator('#corp')).toHaveValue(DEMO.store.shortUrl);
    await page.locator('#email').fill(DEMO.member.email);
    await page.locator('#password').fill('wrong-password');
    await page.getByTestId('member-login-submit').click();
    await expect(page.getByTestId('form-error')).toContainText('登入帳號或密碼錯誤');
    await page.locator('#password').fill(DEMO.member.password);
    await page.getByTestId('member-login-submit').click();
    await expect(page).toHaveURL(/\/store\/deliver-list$/);
    await expect(page.getByTestId('store-name')).toHaveText(DEMO.store.name);
    expect(await storedSession(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('wms.member'))).toContain(DEMO.member.email);

    await expectLanding(page, `/store/login/${DEMO.store.shortUrl}`, '/store/deliver-list');
    await expectLanding(page, '/store/404', '/store/deliver-list');
    await expectLanding(page, '/store/nowhere', '/store/deliver-list');
    await expectLanding(page, '/store', '/store/deliver-list');
    // A member is not a user of the main area.
    await expectLanding(page, '/dashboard', '/login');

    await page.goto('/store/profile');
    await page.getByRole('button', { name: '登出' }).click();
    await expect(page).toHaveURL(new RegExp(`/store/login/${DEMO.store.shortUrl}$`));
    await expectLanding(page, '/store/deliver-list', '/store/404');
  });
});
