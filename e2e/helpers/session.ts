import { expect, type Page } from '@playwright/test';
import { apiOf, ok } from './api';

export interface TCredentials {
  email: string;
  password: string;
}

/** Log in through the login page as a person does; ends on the page the app lands on. */
export async function loginThroughUi(page: Page, who: TCredentials): Promise<void> {
  await page.goto('/login');
  await page.locator('#email').fill(who.email);
  await page.locator('#password').fill(who.password);
  await page.getByTestId('login-submit').click();
}

/** Log in by the API and hand the tokens to the app the way the login page stores them (faster set-up). */
export async function loginByApi(page: Page, who: TCredentials): Promise<{ access: string; refresh: string }> {
  const answer = await ok(apiOf(page.request).authRoutes.login({ body: who }));
  expect(answer.status).toBe('login');
  const body = answer as Extract<typeof answer, { status: 'login' }>;
  if (!page.url().startsWith('http')) await page.goto('/user-manual');
  await page.evaluate((s) => localStorage.setItem('wms.session', JSON.stringify(s)), {
    access: body.access,
    refresh: body.refresh,
    role: body.role,
  });
  return body;
}

/** The session the app keeps in localStorage (null when logged out). */
export async function storedSession(page: Page): Promise<{ access: string; refresh: string; role: string } | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('wms.session');
    return raw ? JSON.parse(raw) : null;
  });
}

/** Pick a language in the header's switch. */
export async function chooseLanguage(page: Page, label: '繁體中文' | '日本語' | 'English'): Promise<void> {
  await page.getByTestId('language-switch').getByText(label, { exact: true }).click();
}

/**
 * Register a new seller by the API and read its password from the mail, as a person would; then replace it, as the
 * first sign-in asks (the mailed password is for that sign-in only). Answers the seller's own password.
 */
export async function registerByApi(
  page: Page,
  language: 'zh-TW' | 'ja' | 'en' = 'zh-TW',
): Promise<TCredentials & { name: string }> {
  const { readMail } = await import('./mail');
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `seller${stamp}@example.com`;
  const name = `Seller ${stamp}`;
  const api = apiOf(page.request);
  await ok(api.authRoutes.register({ body: { company_name: `Company ${stamp}`, name, email, language } }));
  const mail = await readMail(email);
  const password = /(?:Password|密碼|パスワード)[:：]\s*(\S+)/.exec(mail.body)?.[1];
  expect(password, mail.body).toBeTruthy();
  const first = (await ok(api.authRoutes.login({ body: { email, password: password! } }))) as { access: string };
  const own = `own-${password}`;
  await ok(
    api.authRoutes.changePassword({ body: { old_password: password!, new_password: own }, token: first.access }),
  );
  return { email, password: own, name };
}
