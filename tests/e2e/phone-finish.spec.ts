import type { Locator, Page } from '@playwright/test';
import { DEMO, baseUrl, buyAndComplete, createProject, expect, loginDemo, memberApi, shot, test } from './helpers';

// What a phone user meets at 390x844 in English and Chinese, after the flows work: carbon-tax words in the
// page's language, sorted lists that lead with what can be bought, fund logs that read once and whole, the
// public pack check fitting the phone with a real file button, and touch targets of at least 44x44 px.
// Screenshots under test-results/screenshots/finish-*.png.

type Lang = 'en' | 'cn';
const LANGS: Lang[] = ['en', 'cn'];
const tag = (lang: Lang) => (lang === 'cn' ? 'zh' : 'en');
const CJK = /[\u4e00-\u9fff]/;
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;

async function useLang(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('language', JSON.stringify(l)), lang);
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** The element is a touch target of at least 44x44 px, measured by its box. */
async function expectTarget(el: Locator, what: string): Promise<void> {
  const box = await el.boundingBox();
  expect(box, `${what} is on the page`).not.toBeNull();
  expect(box!.width, `${what} width`).toBeGreaterThanOrEqual(44);
  expect(box!.height, `${what} height`).toBeGreaterThanOrEqual(44);
}

/** Nothing is wider than the phone's screen. */
async function expectNoSideScroll(page: Page, what: string): Promise<void> {
  const m = await page.evaluate(() => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1);
      })
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    return { sw: document.documentElement.scrollWidth, w: window.innerWidth, wide: wide.slice(0, 5) };
  });
  expect(m.wide, `${what}: elements off the screen`).toEqual([]);
  expect(m.sw, `${what}: page wider than the screen`).toBeLessThanOrEqual(m.w);
}

// ---------------------------------------------------------------- carbon-tax words

test('the carbon-tax block of a project reads in Chinese: citations and the host country', async ({ page }) => {
  await useLang(page, 'cn');
  await page.goto('/pages/project/project?id=1');
  const reasons = page.getByTestId('icc-reason');
  await expect(reasons.first()).toBeVisible();
  for (const source of await page.locator('.icc__source').allTextContents()) expect(source).toMatch(CJK);
  const sources = await page.locator('.icc__source').allTextContents();
  expect(new Set(sources).size, 'each reason cites its own rule').toBe(sources.length);
  const facts = page.locator('#project-icc-facts').locator('..');
  await expect(facts).toContainText('印度尼西亚');
  await expect(facts).not.toContainText(/\bID\b/);
  await page.getByTestId('project-icc').scrollIntoViewIfNeeded();
  await shot(page, 'finish-zh-icc');
});

// ---------------------------------------------------------------- price sort

test('a price sort on the All tab leads with open projects, ended ones after', async ({ page }) => {
  const now = Date.now();
  await createProject({ name: 'Finish Ended Cheap', name_cn: '已结束低价项目', status: 'closed', price: 1, selling_time: new Date(now - 20 * 86_400_000).toISOString(), end_time: new Date(now - 86_400_000).toISOString() });
  await page.goto('/pages/project/index?sort=price_asc');
  const cards = page.getByTestId('project-card');
  await cards.first().waitFor();
  await expect(cards.first()).not.toContainText('Finish Ended Cheap');
  const statuses = await page.getByTestId('project-status').allTextContents();
  const firstEnded = statuses.findIndex((s) => /closed|ended/i.test(s));
  if (firstEnded >= 0) expect(statuses.slice(firstEnded).every((s) => /closed|ended/i.test(s)), statuses.join(' | ')).toBe(true);
  await shot(page, 'finish-en-sort-price');
});

// ---------------------------------------------------------------- fund logs

for (const lang of LANGS) {
  test(`fund logs: a retirement names its project, an order number stays on one line (${lang})`, async ({ page, context, request }) => {
    test.setTimeout(150_000);
    const token = await loginDemo(context, request, lang);
    const projectId = await createProject({ name: 'Finish Retire Forest', name_cn: '收尾注销森林', price: 500, registry: 'Verra', registry_id: 'VCS-7788', vintage: 2024 });
    await buyAndComplete(request, token, projectId, 2);
    const retired = await memberApi<{ id: string }>(request, token, 'POST', '/api/credit/retire', { project_id: projectId, tons: 1, beneficiary: 'Finish Test', paypwd: DEMO.pay });
    expect(retired.code, retired.msg).toBe(0);
    await page.goto('/pages/profile/fundlogs');
    const row = page.locator('[data-testid="fundlog-row"][data-kind="credit_retire"]').first();
    await expect(row.getByTestId('fundlog-ref')).toContainText(lang === 'cn' ? '收尾注销森林' : 'Finish Retire Forest');
    const order = page.locator('.fundlog__order').first();
    await expect(order).toBeVisible();
    const lines = await order.evaluate((e) => e.getClientRects().length);
    expect(lines, 'the order number is on one line').toBe(1);
    await shot(page, `finish-${tag(lang)}-fundlogs`);
  });
}

// ---------------------------------------------------------------- the public pack check

for (const lang of LANGS) {
  test(`the pack check fits the phone, has a 44 px file button, a gap before Check, and local dates (${lang})`, async ({ page, context, request }) => {
    const token = await loginDemo(context, request, lang);
    const res = await request.get(`${baseUrl()}/h5/api/api/icc/pack`, { headers: { Authorization: token }, params: { from: '2026-01-01', to: '2026-12-31', format: 'csv', lang } });
    expect(res.status()).toBe(200);
    const hash = res.headers()['x-canopy-pack-sha256']!;
    await page.goto('/verify');
    await expect(page.getByTestId('verify-hash')).toBeVisible();
    await expectNoSideScroll(page, 'verify');
    await expectTarget(page.getByTestId('verify-pick'), 'file button');
    const field = await page.getByTestId('verify-hash').boundingBox();
    const check = await page.getByTestId('verify-check').boundingBox();
    expect(check!.y - (field!.y + field!.height), 'gap between the fingerprint and Check').toBeGreaterThanOrEqual(8);
    await shot(page, `finish-${tag(lang)}-verify`);
    await page.goto(`/verify/${hash}`);
    const result = page.getByTestId('verify-result');
    await expect(result).toHaveAttribute('data-issued', 'true');
    await expect(result).toContainText(lang === 'cn' ? '2026年1月1日' : '1 Jan 2026');
    expect(await result.textContent()).not.toMatch(ISO_DAY);
    await expectNoSideScroll(page, 'verify result');
    await settle(page);
    await shot(page, `finish-${tag(lang)}-verify-result`, { fullPage: true });
  });
}
