import { baseUrl, expect, loginDemo, shot, test } from './helpers';

// A pre-sale sells forward tons (docs/product.md#registry-inventory): its booking screen and its order terms
// say the credits are delivered at issuance, in English and Chinese, on a 390x844 phone. The seeded pre-sale
// (project 7) is used as seeded: nothing here books it.

test('a pre-sale says its credits are delivered at issuance, in English and Chinese', async ({ browser }) => {
  for (const lang of ['en', 'cn'] as const) {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await loginDemo(context, context.request, lang);
    const tag = lang === 'cn' ? 'zh' : 'en';
    await page.goto('/pages/project/dpresale?id=7');
    await expect(page.getByTestId('presale-delivery')).toHaveText(lang === 'cn' ? '签发时交付' : 'Delivered at issuance');
    await shot(page, `registry-${tag}-presale-delivery`);
    await page.goto('/pages/project/project?id=7');
    const forward = page.getByText(lang === 'cn' ? '远期吨数，签发时交付' : 'Forward tons, delivered at issuance', { exact: true });
    await expect(forward).toBeVisible();
    await forward.scrollIntoViewIfNeeded();
    await shot(page, `registry-${tag}-presale-terms`);
    await context.close();
  }
});
