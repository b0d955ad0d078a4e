import type { Page } from '@playwright/test';
import { E2E_PASSWORD, expect, readCode, registerViaApi, shot, storedLogin, test, uniqueEmail } from './helpers';

// The reset-password screen through the UI (it shares its code and password fields with register,
// features/auth/code-form.tsx): a member who forgot the password gets a code by e-mail, sets a new one,
// is signed out and lands on the log-in screen, where the new password works and the old one does not.
// What the member must act on stays on the screen after its 1.5 s toast (docs/decisions/0046-phone-polish.md):
// "Code sent" on the form, "Password updated" on the log-in screen it lands on, under the nav bar's title,
// in English and Chinese. Screenshots in test-results/screenshots/reset-*.png.

const NEW_PASSWORD = 'Mangrove2026ok';

const TEXT = {
  en: { resend: /Resend in \d+s/, sent: 'Code sent. Check your inbox.', updated: 'Password updated. Please log in with your new password.' },
  cn: { resend: /\d+ 秒后重新发送/, sent: '验证码已发送，请查收邮件。', updated: '密码已更新，请使用新密码登录。' },
} as const;

/** Past the toast (1.5 s, 2.5 s for the reset's): what is still on the screen is what stays. */
const pastTheToast = (page: Page) => page.waitForTimeout(3000);

// The 200% text size comes as a style added to the page, which the app's CSP would refuse.
test.use({ bypassCSP: true });

for (const lang of ['en', 'cn'] as const) {
  test(`reset the password with an e-mailed code, then log in with the new one (${lang})`, async ({ page, context, request }) => {
    const text = TEXT[lang];
    const email = uniqueEmail('reset');
    await registerViaApi(context, request, email);
    await context.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);
    await page.goto(`/pages/login/reset?email=${encodeURIComponent(email)}`);
    await expect(page.getByTestId('reset-email')).toHaveValue(email);

    // The form refuses before anything is sent: no code, passwords that differ.
    await page.getByTestId('reset-password').fill(NEW_PASSWORD);
    await page.getByTestId('reset-repassword').fill(`${NEW_PASSWORD}x`);
    await page.getByTestId('reset-submit').click();
    await expect(page.locator('#reset-code-error')).toBeVisible();
    await expect(page.locator('#reset-repassword-error')).toBeVisible();

    await page.getByTestId('reset-send-code').click();
    await expect(page.getByTestId('reset-send-code')).toHaveText(text.resend);
    await expect(page.getByTestId('reset-code')).toBeFocused();
    await pastTheToast(page);
    await expect(page.getByRole('status').filter({ hasText: text.sent })).toBeVisible();
    await shot(page, `reset-${lang === 'en' ? 'en' : 'zh'}-code-sent`);
    const code = await readCode(email);
    await page.getByTestId('reset-code').fill(code);
    await page.getByTestId('reset-repassword').fill(NEW_PASSWORD);
    await page.getByTestId('reset-submit').click();

    await expect(page).toHaveURL(/\/pages\/login\/index/);
    await pastTheToast(page);
    const notice = page.getByTestId('page-notice');
    await expect(notice).toHaveText(text.updated);
    await expect(notice).toHaveAttribute('role', 'status');
    // In the screen's flow under the nav bar: it covers neither the title nor the form.
    const bar = (await page.locator('.navbar').boundingBox())!;
    const box = (await notice.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect((await page.getByTestId('page-notice-close').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await shot(page, `reset-${lang === 'en' ? 'en' : 'zh'}-login-notice`);
    // This device's session belonged to the account: it ended with the reset.
    expect((await storedLogin(page)).isLogin).toBe(false);

    const login = async (password: string) =>
      (await (await request.post('/h5/api/api/login/login', { data: { email, password, type: 'personal', agree: true, lang: 'en' } })).json()) as { code: number };
    expect((await login(E2E_PASSWORD)).code).not.toBe(0);
    expect((await login(NEW_PASSWORD)).code).toBe(0);

    // At 200% text (as keyboard-zoom.spec.ts emulates a phone's text size) it wraps inside the screen.
    await page.addStyleTag({ content: ':root { --fs-xs: 24px; --fs-s: 28px; --fs-m: 32px; --fs-l: 36px; --fs-xl: 44px; --fs-xxl: 56px; } html { font-size: 200%; }' });
    const large = (await notice.boundingBox())!;
    expect(large.x + large.width).toBeLessThanOrEqual(390);
    expect(await notice.evaluate((n) => n.scrollWidth <= n.clientWidth)).toBe(true);
    await shot(page, `reset-${lang === 'en' ? 'en' : 'zh'}-login-notice-text200`);

    // Closing it leaves the screen as it was.
    await page.getByTestId('page-notice-close').click();
    await expect(page.getByTestId('page-notice')).toHaveCount(0);
  });
}
