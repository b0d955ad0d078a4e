import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { DEMO, baseUrl, buyAndComplete, createProject, expect, loginDemo, markStartSeen, shot, test } from './helpers';

// A certificate that keeps the beneficiary private (docs/product.md#retirement), at 390x844 in both
// languages: the retire form says what becomes public and offers "a Canopy customer"; chosen, the public
// certificate shows that instead of the name and reason, and its PDF downloads in the page's language.
// Screenshots in test-results/screenshots/private-certificate-*.png.

let projectId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000); // the operator CLI's cold start and the scheduler's next tick, on a busy machine
  projectId = await createProject({
    name: `Private Forest ${Date.now() % 100000}`,
    name_cn: '隐私测试森林',
    registry: 'Verra',
    registry_id: `VCS-P${Date.now() % 100000}`,
    methodology: 'VM0007 REDD+',
    vintage: 2024,
    country: 'Malaysia',
    price: 1000,
  });
  const context = await browser.newContext();
  const token = await loginDemo(context, context.request);
  expect(await buyAndComplete(context.request, token, projectId, 10)).toBeGreaterThanOrEqual(10);
  await context.close();
});

async function visitorPage(browser: Browser, lang: 'en' | 'cn'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, baseURL: baseUrl(), acceptDownloads: true });
  await markStartSeen(context);
  await context.addInitScript(([wire]) => localStorage.setItem('language', JSON.stringify(wire)), [lang]);
  return context.newPage();
}

for (const lang of ['en', 'cn'] as const) {
  test(`retire as "a Canopy customer": notice, option, public certificate and its PDF (${lang})`, async ({ page, context, request, browser }) => {
    test.setTimeout(120_000);
    await loginDemo(context, request, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    const customer = lang === 'cn' ? '一位 Canopy 客户' : 'a Canopy customer';
    const name = lang === 'cn' ? '陈氏控股' : 'Orchid Holdings';

    await page.goto(`/pages/profile/retire?project_id=${projectId}`);
    await expect(page.getByTestId('retire-project')).toHaveValue(String(projectId));
    await expect(page.getByTestId('retire-privacy-notice')).toContainText(lang === 'cn' ? '公开' : 'public');
    await page.getByTestId('retire-tons').fill('2');
    await page.getByTestId('retire-beneficiary').fill(name);
    await page.getByTestId('retire-reason').fill(lang === 'cn' ? '董事会差旅' : 'Board retreat travel');
    await page.getByTestId('retire-hide-beneficiary').check();
    await page.getByTestId('retire-hide-beneficiary').scrollIntoViewIfNeeded();
    await shot(page, `private-certificate-${lang}-form`);
    await page.getByTestId('retire-submit').click();
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet.getByTestId('confirm-public-name')).toHaveText(customer);
    await sheet.getByTestId('payment-password').fill(DEMO.pay);
    await sheet.getByTestId('confirm-submit').click();
    await expect(page.getByTestId('retire-done')).toBeVisible();
    const href = await page.getByTestId('open-certificate').getAttribute('href');
    expect(href).toMatch(/^\/certificate\/[A-Za-z0-9_-]{22}$/);
    const id = href!.split('/').at(-1)!;

    // Anyone: "a Canopy customer", no reason; the rest of the certificate as always.
    const visitor = await visitorPage(browser, lang);
    await visitor.goto(href!);
    await expect(visitor.getByTestId('certificate-beneficiary')).toHaveText(customer);
    await expect(visitor.getByTestId('certificate-reason')).toHaveCount(0);
    await expect(visitor.getByTestId('certificate')).not.toContainText(name);
    await expect(visitor.getByTestId('certificate-tons')).toHaveText(lang === 'cn' ? '2 吨' : '2 t');
    await shot(visitor, `private-certificate-${lang}`, { fullPage: true });

    // The PDF download: the server's file, named by the certificate id, in the page's language.
    const link = visitor.getByTestId('certificate-pdf');
    await expect(link).toHaveAttribute('href', new RegExp(`/certificate/${id}/pdf\\?lang=${lang}$`));
    const [download] = await Promise.all([visitor.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`canopy-certificate-${id}.pdf`);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    await visitor.context().close();

    // The owner still sees the name in their own list.
    await page.goto('/pages/profile/certificates');
    const item = page.getByTestId('certificate-item').filter({ hasText: name }).first();
    await expect(item).toBeVisible();
    await expect(item.getByTestId('certificate-item-hidden')).toBeVisible();
    await shot(page, `private-certificate-${lang}-mine`);
  });
}
