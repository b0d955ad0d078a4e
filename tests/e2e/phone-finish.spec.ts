import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { DEMO, baseUrl, buyAndComplete, createProject, expect, inviteToken, loginDemo, memberApi, ops, registerViaApi, shot, test, uniqueEmail, waitForServiceWorkerControl } from './helpers';

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

/** The lines an element's text takes (its text's line boxes, by their tops). */
async function lineCount(el: Locator): Promise<number> {
  return el.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
}

/** Sends the demo member a notice with the operator CLI: the app shows it as a toast. */
async function noticeToDemo(title: string): Promise<void> {
  const file = path.join(os.tmpdir(), `canopy-e2e-finish-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title, title_cn: `${title}（中文）`, body: 'Body.', body_cn: '正文。' }));
  try {
    await ops(['notice:send', DEMO.email, file]);
  } finally {
    fs.rmSync(file, { force: true });
  }
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
    // One clock and units kept with their numbers: "9:05 am" / "09:05", "−1 t" / "−1 吨".
    const times = await page.locator('[data-testid="fundlog-row"] time').allTextContents();
    for (const time of times) expect(time).toMatch(lang === 'en' ? /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, ([1-9]|1[0-2]):\d{2}\u00a0(am|pm)$/ : /^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/);
    await expect(row.getByTestId('fundlog-amount')).toHaveText(lang === 'en' ? '\u22121\u00a0t' : '\u22121\u00a0吨', { useInnerText: true });
    await shot(page, `finish-${tag(lang)}-fundlogs`);
    // A toast never covers the screen's title.
    await noticeToDemo(`Finish toast ${lang}`);
    const toast = page.locator('.toast').first();
    await expect(toast).toBeVisible({ timeout: 15_000 });
    const t = (await toast.boundingBox())!;
    const nav = (await page.locator('.navbar').first().boundingBox())!;
    expect(t.y, 'the toast is below the nav bar').toBeGreaterThanOrEqual(nav.y + nav.height);
    await shot(page, `finish-${tag(lang)}-toast`);
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

// ---------------------------------------------------------------- touch targets and controls

for (const lang of LANGS) {
  test(`touch targets are 44x44 px: carousel dots, the tax filter, FAQ footer links, receipt and fund-log links; checkboxes in the brand colour (${lang})`, async ({ page, context, request }) => {
    test.setTimeout(120_000);
    await loginDemo(context, request, lang);
    await page.goto('/');
    const dots = page.locator('.swiper__dots button');
    await dots.first().waitFor();
    for (const dot of await dots.all()) await expectTarget(dot, 'carousel dot');
    await shot(page, `finish-${tag(lang)}-home-dots`);

    await page.goto('/pages/project/index');
    const icc = page.getByTestId('filter-icc');
    await expectTarget(icc.locator('..'), 'tax filter');
    const accent = await icc.evaluate((e) => getComputedStyle(e).accentColor);
    expect(accent, 'the checkbox is drawn in the brand colour').not.toBe('auto');
    await shot(page, `finish-${tag(lang)}-tax-filter`);

    await page.goto('/pages/index/faq');
    const more = page.locator('.faq__more a');
    await expect(more).toHaveCount(3);
    for (const link of await more.all()) await expectTarget(link, 'FAQ footer link');

    await page.goto('/pages/profile/fundlogs');
    const receipt = page.getByTestId('fundlog-receipt').first();
    await expect(receipt).toBeVisible();
    await expectTarget(receipt, 'fund-log receipt link');
    await page.goto('/pages/profile/receipts');
    const cert = page.getByTestId('receipt-certificate').first();
    if (await cert.count()) await expectTarget(cert, 'receipt certificate link');
    // A reference is one line, never split inside its code.
    for (const ref of (await page.getByTestId('receipt-reference').locator('dd').all()).slice(0, 5)) expect(await lineCount(ref), (await ref.textContent()) ?? '').toBe(1);
    await shot(page, `finish-${tag(lang)}-receipts`);
    await page.goto('/pages/profile/certificates');
    const transparency = page.locator('a[href="/transparency"]').last();
    await expect(transparency).toBeVisible();
    await expectTarget(transparency, 'transparency link');
  });
}

test('the monthly offset card has room inside: its text and button clear of the card edge', async ({ page }) => {
  const id = await createProject({ name: 'Finish Monthly Offset' });
  await page.goto(`/pages/project/project?id=${id}`);
  const card = page.locator('.project-monthly');
  await expect(card).toBeVisible();
  const pad = await card.evaluate((e) => parseFloat(getComputedStyle(e).paddingLeft));
  expect(pad).toBeGreaterThanOrEqual(12);
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'finish-en-offset-card');
});

// ---------------------------------------------------------------- wrapping

for (const lang of LANGS) {
  test(`nothing wraps inside a button or pushes a field narrower (${lang})`, async ({ page, context, request }) => {
    await useLang(page, lang);
    await page.goto('/pages/register/index');
    const email = page.getByTestId('register-email');
    await email.fill(uniqueEmail('finish'));
    const before = (await email.boundingBox())!.width;
    const send = page.getByTestId('register-send-code');
    await send.click();
    await expect(send).toBeDisabled();
    await expect(send).toContainText(/\d/);
    expect((await email.boundingBox())!.width, 'the email field keeps its width during the countdown').toBeCloseTo(before, 0);
    expect(await lineCount(send)).toBe(1);
    expect(await send.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the countdown fits its button').toBe(true);
    await shot(page, `finish-${tag(lang)}-resend`);

    await loginDemo(context, request, lang);
    await page.goto('/pages/profile/carbontax');
    const downloads = page.locator('.icc-pack__actions .btn');
    await expect(downloads).toHaveCount(2);
    for (const b of await downloads.all()) expect(await lineCount(b), await b.textContent() ?? '').toBe(1);
    await page.locator('.icc-pack__actions').scrollIntoViewIfNeeded();
    await shot(page, `finish-${tag(lang)}-downloads`);
  });
}

// ---------------------------------------------------------------- words

for (const lang of LANGS) {
  test(`offline, passkeys never loaded on this device: says they cannot be loaded, not "no passkeys yet" (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    await page.goto('/');
    await waitForServiceWorkerControl(page);
    await page.waitForLoadState('networkidle');
    await context.setOffline(true);
    try {
      await page.goto('/pages/profile/passkeys');
      await expect(page.getByTestId('passkeys-offline')).toBeVisible();
      await expect(page.getByTestId('passkeys-empty')).toHaveCount(0);
      await shot(page, `finish-${tag(lang)}-passkeys-offline`);
    } finally {
      await context.setOffline(false);
    }
  });
}

test('the FAQ speaks of the buy-back price, not yield; the project page of selling back; About names the support address', async ({ page }) => {
  await page.goto('/pages/index/faq');
  await expect(page.locator('.faq__more')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(/earning yield/i);
  await expect(page.locator('body')).toContainText('Is the buy-back price guaranteed?');
  const id = await createProject({ name: 'Finish Buy-back Words', yield_bp: 500 });
  await page.goto(`/pages/project/project?id=${id}`);
  await expect(page.getByTestId('buyback-offer')).toContainText('Sell back to Canopy at');
  await expect(page.getByTestId('buyback-offer')).not.toContainText('Platform buy-back offer');
  await page.goto('/pages/about/index');
  await expect(page.locator('a[href="mailto:support@canopy.sg"]')).toBeVisible();
  await expect(page.locator('body')).not.toContainText('canopy.example');
});

// ---------------------------------------------------------------- acting for a company with a long name

for (const lang of LANGS) {
  test(`"Act for" a long company name has room on its two lines (${lang})`, async ({ browser, request }) => {
    const company = lang === 'en' ? 'Lion City Sustainable Logistics and Shipping Holdings Pte Ltd' : '狮城可持续物流与航运控股私人有限公司新加坡分公司';
    const owner = await browser.newContext({ baseURL: baseUrl() });
    const { token: ownerToken } = await registerViaApi(owner, request, uniqueEmail('finish-owner'), { company });
    const email = uniqueEmail('finish-colleague');
    const colleague = await browser.newContext({ baseURL: baseUrl() });
    await registerViaApi(colleague, request, email);
    await colleague.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);
    const invited = await memberApi(request, ownerToken, 'POST', '/api/org/invite', { email, role: 'buyer' });
    expect(invited.code, invited.msg).toBe(0);
    const her = await colleague.newPage();
    await her.goto(`/pages/org/join?token=${inviteToken(email)}`);
    await her.getByTestId('org-join-submit').click();
    const act = her.getByTestId('org-join-act');
    await expect(act).toBeVisible();
    const m = await act.evaluate((e) => {
      const st = getComputedStyle(e);
      return { pad: parseFloat(st.paddingTop), line: parseFloat(st.lineHeight) / parseFloat(st.fontSize), h: e.getBoundingClientRect().height };
    });
    const lines = await lineCount(act);
    if (lines > 1) {
      expect(m.pad, 'padding above two lines').toBeGreaterThanOrEqual(8);
      expect(m.line, 'line height of two lines').toBeGreaterThanOrEqual(1.3);
    }
    expect(m.h).toBeGreaterThanOrEqual(44);
    await shot(her, `finish-${tag(lang)}-act-for`);
    await owner.close();
    await colleague.close();
  });
}
