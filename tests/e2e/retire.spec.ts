import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { DEMO, buyAndComplete, createProject, expect, loginDemo, memberApi as api, test, visitorPage, waitForServiceWorkerControl } from './helpers';

// Retirement (docs/product.md#retirement), browser half: from the carbon credit balance, retire tons of a
// holding for a beneficiary (form, permanent confirm sheet, payment password), open the certificate logged
// out, decode its QR code (it must name the page's own URL), print it to exactly one A4 page, and watch
// /transparency show the new retired figure without a reload; in English and in Chinese. Screenshots at
// 390x844 in SHOTS (RETIRE_SHOTS, default test-results/retire-shots).
//
// Credits arrive only when a purchase's cycle ends (the real scheduler), so beforeAll buys 20 t and has
// the scheduler complete the purchase at once (helpers.ts buyAndComplete: the order's cycle ends now).

const SHOTS = process.env.RETIRE_SHOTS ?? path.join(process.cwd(), 'test-results', 'retire-shots');

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

let projectId = 0;
const REGISTRY_ID = `VCS-E2E${Date.now() % 100000}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000); // the operator CLI's cold start and the scheduler's next tick, on a busy machine
  projectId = await createProject({
    name: `Retire Forest ${Date.now() % 100000}`,
    name_cn: '注销测试森林',
    registry: 'Verra',
    registry_id: REGISTRY_ID,
    methodology: 'VM0007 REDD+',
    vintage: 2024,
    country: 'Malaysia',
    price: 1000,
  });
  const context = await browser.newContext();
  const token = await loginDemo(context, context.request);
  expect(await buyAndComplete(context.request, token, projectId, 20)).toBeGreaterThanOrEqual(20);
  await context.close();
});

/** The QR code of the page, decoded: a screenshot of the element, its pixels through sharp, then jsQR. */
async function decodeQr(page: Page): Promise<string | null> {
  const png = await page.getByTestId('certificate-qr').screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return code?.data ?? null;
}

/** Retired tons of our project on the transparency page. */
const retiredShown = (page: Page) => page.locator(`[data-testid="tr-project"][data-project-id="${projectId}"] [data-testid="tr-retired"]`);

for (const lang of ['en', 'cn'] as const) {
  test(`retire from the balance, certificate logged out with its QR and one A4 page, transparency live (${lang})`, async ({ page, context, request, browser }) => {
    test.setTimeout(120_000);
    const token = await loginDemo(context, request, lang);
    await page.setViewportSize({ width: 390, height: 844 });

    // The Retire action on the holding of the carbon credit balance.
    await page.goto('/pages/profile/tons');
    await expect(page.getByTestId('holding-retire').first()).toBeVisible();
    await shot(page, `tons-${lang}`);
    // This spec's project (other specs hold projects with "Retire Forest" in their names too).
    const holding = page.getByTestId('holding').filter({ hasText: lang === 'cn' ? '注销测试森林' : 'Retire Forest' });
    await holding.locator(`[data-testid="holding-retire"][href$="project_id=${projectId}"]`).click();
    await expect(page).toHaveURL(/\/pages\/profile\/retire\?project_id=/);
    await expect(page.getByTestId('retire-project')).toHaveValue(String(projectId));
    await page.getByTestId('retire-tons').fill('3');
    const beneficiary = lang === 'cn' ? '林氏家族' : 'Lim Family Office';
    await page.getByTestId('retire-beneficiary').fill(beneficiary);
    await page.getByTestId('retire-reason').fill(lang === 'cn' ? '2026 年家庭出行' : 'Family travel in 2026');
    await shot(page, `retire-${lang}-form`);
    await page.getByTestId('retire-submit').click();
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId('retire-permanent')).toBeVisible();
    await sheet.getByTestId('payment-password').fill(DEMO.pay);
    await shot(page, `retire-${lang}-confirm`);
    await sheet.getByTestId('confirm-submit').click();
    await expect(page.getByTestId('retire-done')).toBeVisible();
    await shot(page, `retire-${lang}-done`);
    const href = await page.getByTestId('open-certificate').getAttribute('href');
    expect(href).toMatch(/^\/certificate\/[A-Za-z0-9_-]{22}$/);

    // Logged out: the certificate opens, with its facts and a QR code of its own URL.
    const visitor = await visitorPage(browser, lang);
    await visitor.goto(href!);
    await expect(visitor.getByTestId('certificate')).toBeVisible();
    await expect(visitor.getByTestId('certificate-beneficiary')).toHaveText(beneficiary);
    await expect(visitor.getByTestId('certificate-tons')).toHaveText(lang === 'cn' ? '3 吨' : '3 t');
    await expect(visitor.getByTestId('certificate-serials')).toContainText(`${REGISTRY_ID}-2024-`);
    await expect(visitor.getByTestId('certificate-qr').locator('svg')).toBeVisible();
    expect(await visitor.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await shot(visitor, `certificate-${lang}`);
    expect(await decodeQr(visitor)).toBe(visitor.url());

    // Printed: exactly one A4 page.
    await visitor.emulateMedia({ media: 'print' });
    await shot(visitor, `certificate-${lang}-print`);
    const pdf = await visitor.pdf({ format: 'A4', printBackground: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? [];
    expect(pages).toHaveLength(1);
    fs.writeFileSync(path.join(SHOTS, `certificate-${lang}.pdf`), pdf);
    await visitor.emulateMedia({ media: 'screen' });

    // Transparency, as the member (live over the socket): a retirement made elsewhere shows without a reload.
    await page.goto('/transparency');
    await expect(retiredShown(page)).toBeVisible();
    const before = Number(((await retiredShown(page).textContent()) ?? '').replace(/[^\d]/g, ''));
    const more = await api<{ id: string }>(request, token, 'POST', '/api/credit/retire', { project_id: projectId, tons: 2, beneficiary: 'Live Test', paypwd: DEMO.pay });
    expect(more.code, more.msg).toBe(0);
    await expect.poll(async () => Number(((await retiredShown(page).textContent()) ?? '').replace(/[^\d]/g, '')), { timeout: 20_000 }).toBe(before + 2);
    await expect(page.getByTestId('ledger-check')).toBeVisible();
    await shot(page, `transparency-${lang}`);

    // And the logged-out visitor's transparency page shows it too.
    await visitor.goto('/transparency');
    await expect(retiredShown(visitor)).toContainText(String(before + 2));
    await shot(visitor, `transparency-${lang}-visitor`);

    // My certificates lists it, with a share button.
    await page.goto('/pages/profile/certificates');
    await expect(page.getByTestId('certificate-item').first()).toBeVisible();
    await expect(page.getByTestId('share-certificate').first()).toBeVisible();
    await shot(page, `certificates-${lang}`);
    // Offline once seen: the app shell from the service worker, the certificate and figures from Dexie.
    await visitor.goto(href!);
    await expect(visitor.getByTestId('certificate')).toBeVisible();
    await waitForServiceWorkerControl(visitor);
    await expect(visitor.getByTestId('certificate')).toBeVisible();
    await visitor.context().setOffline(true);
    try {
      await visitor.reload();
      await expect(visitor.getByTestId('certificate-beneficiary')).toHaveText(beneficiary);
      await visitor.goto('/transparency');
      await expect(retiredShown(visitor)).toContainText(String(before + 2));
    } finally {
      await visitor.context().setOffline(false);
    }
    await visitor.context().close();
  });
}
