import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, registerViaApi, test, uniqueEmail } from './helpers';

// Accessibility: axe-core on every route, logged out and logged in, in English and Chinese, at
// 390x844: zero violations of any impact. A failure lists each rule with the route and the elements.

const PUBLIC_ROUTES = [
  '/',
  '/pages/project/index',
  '/pages/project/info?id=1',
  '/pages/news/index',
  '/pages/news/info?id=1',
  '/pages/index/faq',
  '/pages/about/index',
  '/pages/other/privacy',
  '/pages/other/protocol',
  '/pages/login/index',
  '/pages/login/reset',
  '/pages/register/index',
];
const USER_ROUTES = [
  '/pages/profile/index',
  '/pages/profile/profile',
  '/pages/profile/setting',
  '/pages/profile/membership',
  '/pages/profile/fundlogs',
  '/pages/profile/order',
  '/pages/profile/receipts',
  '/pages/profile/tons',
  '/pages/profile/topup',
  '/pages/profile/withdraw',
  '/pages/profile/card',
  '/pages/profile/loginpwd',
  '/pages/profile/withdpwd',
  '/pages/profile/apply',
  '/pages/project/project?id=1',
];

async function violations(page: Page, route: string): Promise<string[]> {
  await page.goto(route);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Let lazy chunks and live data settle (skeletons are pages too, but the finished page is what people read).
  await page.waitForTimeout(300);
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${route} [${v.impact}] ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
}

for (const lang of ['en', 'cn'] as const) {
  test.describe(`axe, ${lang}`, () => {
    test.beforeEach(async ({ context }) => {
      await context.addInitScript((l) => localStorage.setItem('language', JSON.stringify(l)), lang);
    });

    test(`every public page, logged out (${lang})`, async ({ page }) => {
      const found: string[] = [];
      for (const route of PUBLIC_ROUTES) found.push(...(await violations(page, route)));
      expect(found, found.join('\n')).toEqual([]);
    });

    test(`every page of a signed-in user (${lang})`, async ({ page, context, request }) => {
      await registerViaApi(context, request, uniqueEmail(`axe-${lang}`));
      const found: string[] = [];
      for (const route of USER_ROUTES) found.push(...(await violations(page, route)));
      expect(found, found.join('\n')).toEqual([]);
    });
  });
}
