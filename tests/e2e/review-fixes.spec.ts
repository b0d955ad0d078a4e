import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { errorMessage } from '../../src/shared/errors';
import { E2E_PASSWORD, expect, memberApi, ops, registerViaApi, shot, test, uniqueEmail } from './helpers';

// What a fresh-eyes review of the whole app found on a 390x844 phone, in English and Chinese: fund log lines
// that name their order and project, a server refusal said once (inline, not also in a toast), check letters
// on IC numbers, 44 px targets on segmented controls and small links, the buy screen's balance inside its
// card, empty credits that offer a next step, a monthly chart that names its months, the payment sheet
// opening on its password, and a refused amount that stays red while focused.

const PAY = 'Canopy#2026review';
const LANGS = ['en', 'cn'] as const;
type Lang = (typeof LANGS)[number];

async function height(locator: Locator): Promise<number> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`not visible: ${locator.toString()}`);
  return b.height;
}

/** Sets the app's language before the first load (the stored-language key the app reads). */
async function useLang(context: BrowserContext, lang: Lang): Promise<void> {
  await context.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);
}

/** A new member with a name, IC number, payment password and S$500.00 available; no credits. */
async function readyMember(context: BrowserContext, request: APIRequestContext, lang: Lang): Promise<string> {
  await useLang(context, lang);
  const { token } = await registerViaApi(context, request, uniqueEmail('review'));
  const call = async (p: string, data: Record<string, unknown>) => {
    const res = await memberApi<{ id: number }>(request, token, 'POST', p, data);
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  await call('/api/user/profile', { first_name: 'Wei Ming', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' });
  await call('/api/user/withdpwd', { password: PAY, repassword: PAY, login_password: E2E_PASSWORD });
  const topup = await call('/api/wallet/topup', { amount: 50_000, method: 'bank' });
  await ops(['topup:confirm', String(topup.id)]);
  return token;
}

/** The message is on the page exactly once (inline), and no toast repeats it: counted at once, not retried,
 *  since a toast leaves by itself. */
async function saidOnce(page: Page, message: string): Promise<void> {
  const said = page.getByText(message, { exact: true });
  await expect(said.first()).toBeVisible();
  for (const wait of [0, 300]) {
    await page.waitForTimeout(wait);
    expect(await said.count(), message).toBe(1);
    expect(await page.locator('.toast').count(), 'toasts').toBe(0);
  }
}

for (const lang of LANGS) {
  test.describe(`review fixes (${lang})`, () => {
    test('fund logs name the order and its project in the reader\'s language', async ({ page, context, request }) => {
      const token = await readyMember(context, request, lang);
      const orders = [];
      for (let i = 0; i < 2; i++) {
        const res = await memberApi<{ order_no: string; project_name: string; project_name_cn: string }>(request, token, 'POST', '/api/order/buy', { project_id: 1, tons: 1, password: PAY });
        expect(res.code, res.msg).toBe(0);
        orders.unshift(res.data);
      }
      await page.goto('/pages/profile/fundlogs');
      const refs = page.getByTestId('fundlog-ref');
      await expect(refs).toHaveCount(2);
      for (const [i, o] of orders.entries()) {
        await expect(refs.nth(i)).toContainText(o.order_no);
        await expect(refs.nth(i)).toContainText(lang === 'en' ? o.project_name : o.project_name_cn);
      }
      await shot(page, `review-${lang}-fundlogs`);
    });

    test('login, reset and the payment sheet say a refusal once, inline; the sheet opens on its password', async ({ page, context, request }) => {
      await useLang(context, lang);
      await page.goto('/pages/login/index');
      await page.getByTestId('login-email').fill(`nobody.${Date.now()}@example.com`);
      await page.getByTestId('login-password').fill('Wrong2026pass');
      await page.getByTestId('login-submit').click();
      await saidOnce(page, errorMessage('login_incorrect', lang));

      await page.goto(`/pages/login/reset?email=${encodeURIComponent(`nobody.${Date.now()}@example.com`)}`);
      await page.getByTestId('reset-send-code').click();
      await saidOnce(page, errorMessage('email_not_in_use', lang));
      await shot(page, `review-${lang}-reset-refused`);

      await readyMember(context, request, lang);
      await page.goto('/pages/project/dproject?id=1');
      await page.getByTestId('buy-submit').click();
      const sheet = page.getByTestId('confirm-sheet');
      await expect(sheet.getByTestId('payment-password')).toBeFocused();
      await sheet.getByTestId('payment-password').fill('Wrong#2026pass');
      await sheet.getByTestId('confirm-submit').click();
      await saidOnce(page, errorMessage('project_password_incorrect', lang, { n: 4 }));
      await shot(page, `review-${lang}-sheet-refused`);
    });

    test('segmented controls and small links give a thumb 44 px', async ({ page, context, request }) => {
      await useLang(context, lang);
      await page.goto('/pages/login/index');
      for (const b of await page.locator('.segmented button').all()) expect(await height(b)).toBeGreaterThanOrEqual(44);
      expect(await height(page.locator('.auth-row a'))).toBeGreaterThanOrEqual(44);
      expect(await height(page.locator('.auth-terms-note a').last())).toBeGreaterThanOrEqual(44);
      expect(await height(page.locator('.auth-switch a'))).toBeGreaterThanOrEqual(44);
      await shot(page, `review-${lang}-login`);
      await page.goto('/pages/login/reset');
      expect(await height(page.locator('.auth-switch a'))).toBeGreaterThanOrEqual(44);
      await page.goto('/pages/project/index');
      for (const b of await page.locator('.segmented button').all()) expect(await height(b)).toBeGreaterThanOrEqual(44);

      await readyMember(context, request, lang);
      for (const p of ['/pages/profile/card', '/pages/profile/topup', '/pages/profile/footprint']) {
        await page.goto(p);
        await expect(page.locator('.segmented button').first()).toBeVisible();
        for (const b of await page.locator('.segmented button').all()) expect(await height(b), p).toBeGreaterThanOrEqual(44);
      }
      await page.goto('/pages/profile/withdraw');
      expect(await height(page.locator('.wallet-links a'))).toBeGreaterThanOrEqual(44);
    });

    test('buy screen: the available balance is a row of the summary card, in its columns', async ({ page, context, request }) => {
      await readyMember(context, request, lang);
      await page.goto('/pages/project/dproject?id=1');
      const balance = page.getByTestId('available-balance');
      await expect(balance).toContainText('S$500.00');
      const card = page.locator('dl.summary');
      await expect(card.getByTestId('available-balance')).toBeVisible();
      const total = card.locator('dd').nth(-2);
      const [a, b] = [await balance.boundingBox(), await total.boundingBox()];
      expect(Math.abs(a!.x + a!.width - (b!.x + b!.width))).toBeLessThanOrEqual(1);
      await shot(page, `review-${lang}-buy`);
    });

    test('credits and retire with no holdings offer "Browse projects"', async ({ page, context, request }) => {
      await readyMember(context, request, lang);
      const browse = lang === 'en' ? 'Browse projects' : '浏览项目';
      await page.goto('/pages/profile/tons');
      await expect(page.getByTestId('tons-empty').getByRole('link', { name: browse })).toBeVisible();
      await shot(page, `review-${lang}-tons-empty`);
      await page.goto('/pages/profile/retire');
      await expect(page.getByTestId('retire-empty')).toBeVisible();
      await shot(page, `review-${lang}-retire-empty`);
      await page.getByTestId('retire-empty').getByRole('link', { name: browse }).click();
      await expect(page).toHaveURL(/\/pages\/project\/index/);
    });

    test('transparency with nothing retired names its months and says none were retired', async ({ page, context }) => {
      await useLang(context, lang);
      await page.route('**/api/public/transparency*', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { data: { monthly: { month: string; tons: number }[] } };
        body.data.monthly = body.data.monthly.map((m) => ({ ...m, tons: 0 }));
        await route.fulfill({ response: res, json: body });
      });
      await page.goto('/transparency');
      await expect(page.getByTestId('tr-monthly-none')).toHaveText(lang === 'en' ? 'None retired yet.' : '暂无注销记录。');
      const labels = await page.locator('.tr-chart__label').allTextContents();
      expect(labels.some((l) => /^\d{4}$/.test(l))).toBe(true);
      expect(labels).toContain(lang === 'en' ? 'Jan' : '1月');
      await shot(page, `review-${lang}-transparency`);
    });

    test('personal information refuses a wrong NRIC check letter; top-up below the minimum stays red while focused', async ({ page, context, request }) => {
      await readyMember(context, request, lang);
      await page.goto('/pages/profile/profile');
      const ic = page.locator('#profile-ic_number');
      await expect(ic).toHaveValue('S1234567D');
      await ic.fill('S1234567A');
      await page.getByTestId('profile-submit').click();
      await expect(page.getByText(errorMessage('ic_invalid', lang))).toBeVisible();
      await shot(page, `review-${lang}-personal-ic`);

      await page.goto('/pages/profile/topup');
      const amount = page.getByTestId('topup-amount');
      await amount.fill('5');
      await page.getByTestId('topup-submit').click();
      await expect(amount).toBeFocused();
      await expect(amount).toHaveAttribute('aria-invalid', 'true');
      const border = await amount.evaluate((el) => getComputedStyle(el).borderColor);
      expect(border).toBe('rgb(180, 35, 24)');
      await shot(page, `review-${lang}-topup-min`);
    });
  });
}
