import type { Locator, Page } from '@playwright/test';

/** Type a six-digit code into antd's Input.OTP (six boxes; focus moves on by itself). */
export async function typeOtp(page: Page, scope: Locator, code: string): Promise<void> {
  await scope.locator('.ant-otp input').first().click();
  await page.keyboard.type(code, { delay: 20 });
}
