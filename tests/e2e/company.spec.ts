import type { Page } from '@playwright/test';
import { parsePayNowPayload } from '../../src/shared/paynow';
import { expect, memberApi, registerViaApi, shot, test, uniqueEmail } from './helpers';

// What a company's team meets (docs/product.md#legal-entity, #approvals, #organisations), at 390x844 in
// English and Chinese: the one legal entity on the About page is the payee of the PayNow QR.

type Lang = 'en' | 'cn';
const LANGS: Lang[] = ['en', 'cn'];

async function setLang(page: Page, lang: Lang): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/pages/profile/index');
  await page.evaluate((l) => localStorage.setItem('language', JSON.stringify(l)), lang);
}

test('the About page names the legal entity the PayNow QR pays: its name, UEN and address (en, zh)', async ({ page, context, request }) => {
  const { token } = await registerViaApi(context, request, uniqueEmail('entity'));
  const topup = await memberApi<{ paynow_qr: string }>(request, token, 'POST', '/api/wallet/topup', { amount: 20_000, method: 'paynow' });
  expect(topup.code, topup.msg).toBe(0);
  const payee = parsePayNowPayload(topup.data.paynow_qr);
  const base = await memberApi<{ company: { name: string; uen: string; address: string } }>(request, token, 'GET', '/api/login/baseconfig');
  expect(base.data.company).toMatchObject({ name: payee.name, uen: payee.uen });
  for (const lang of LANGS) {
    await setLang(page, lang);
    await page.goto('/pages/about/index');
    const body = page.locator('.content-page__body');
    await expect(body).toContainText(payee.name);
    await expect(body).toContainText(payee.uen);
    await expect(body).toContainText(base.data.company.address);
    await body.getByText(payee.uen).scrollIntoViewIfNeeded();
    await shot(page, `company-about-${lang === 'cn' ? 'zh' : 'en'}`);
  }
});
