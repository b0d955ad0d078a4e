import type { Locator, Page } from '@playwright/test';
import { DEMO, baseUrl, buyAndComplete, expect, loginDemo, memberApi, registerViaApi, shot, test, uniqueEmail } from './helpers';

// What a new user meets on a 390x844 phone, in English and Chinese, beyond the flows themselves: places
// in the app's language and search in either, text that is never clipped, plain words for times and
// states, touch targets of at least 44x44 px, and the first run. Screenshots under
// test-results/screenshots/polish-*.png.

type Lang = 'en' | 'cn';
const LANGS: Lang[] = ['en', 'cn'];
const tag = (lang: Lang) => (lang === 'cn' ? 'zh' : 'en');

async function useLang(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('language', JSON.stringify(l)), lang);
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** The element shows all its text: nothing cut on the right or below. */
async function expectNotClipped(el: Locator, what: string): Promise<void> {
  const m = await el.evaluate((e) => ({
    sw: e.scrollWidth,
    cw: e.clientWidth,
    sh: e.scrollHeight,
    ch: e.clientHeight,
    text: e.textContent,
  }));
  expect(m.sw, `${what} "${m.text}" is cut on the right`).toBeLessThanOrEqual(m.cw + 1);
  expect(m.sh, `${what} "${m.text}" is cut below`).toBeLessThanOrEqual(m.ch + 1);
}

/** A select shows the whole label of its chosen option, inside the screen (a native select draws one line
 *  and cuts what does not fit; one drawn transparent over a label of its own shows the choice there). */
async function expectSelectShowsChoice(select: Locator, what: string): Promise<void> {
  const m = await select.evaluate((el) => {
    const s = el as HTMLSelectElement;
    const style = getComputedStyle(s);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex]?.text ?? '';
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const shown = s.parentElement?.querySelector('.wrap-select__shown') as HTMLElement | null;
    const box = (shown ?? s).getBoundingClientRect();
    return {
      text,
      need: ctx.measureText(text).width,
      room,
      right: box.right,
      transparent: style.opacity === '0',
      shownText: shown?.textContent ?? null,
      shownCut: shown ? shown.scrollWidth > shown.clientWidth + 1 || shown.scrollHeight > shown.clientHeight + 1 : null,
    };
  });
  expect(m.right, `${what}: "${m.text}" runs off the screen`).toBeLessThanOrEqual(390);
  if (m.transparent) {
    expect(m.shownText, `${what}: the label shows the choice`).toBe(m.text);
    expect(m.shownCut, `${what}: "${m.text}" is cut`).toBe(false);
    return;
  }
  expect(m.need, `${what}: "${m.text}" needs ${m.need} px, has ${m.room}`).toBeLessThanOrEqual(m.room);
}

async function expectTarget(el: Locator, what: string): Promise<void> {
  const box = await el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { w: r.width, h: r.height };
  });
  expect(box.w, `${what} width`).toBeGreaterThanOrEqual(44);
  expect(box.h, `${what} height`).toBeGreaterThanOrEqual(44);
}

// ---------------------------------------------------------------- 6. places and search in Chinese

test('6. places, countries and units in Chinese; search finds a project by either language; the footprint source in Chinese', async ({ page, request }) => {
  const count = async (q: string) =>
    (
      (await (
        await request.get(`${baseUrl()}/h5/api/api/project/lists`, {
          params: { q, page_size: '50', lang: 'cn' },
        })
      ).json()) as { data: { total: number } }
    ).data.total;
  const vn = await count('Vietnam');
  expect(vn).toBeGreaterThanOrEqual(2);
  expect(await count('越南')).toBe(vn);

  await useLang(page, 'cn');
  await page.goto('/pages/project/project?id=1');
  const facts = page.locator('#project-facts').locator('..');
  await expect(facts).toContainText('印度尼西亚');
  await expect(facts).not.toContainText('Indonesia');
  await expect(facts).toContainText('公顷');
  await expect(page.locator('.project-hero__meta')).not.toContainText('Kalimantan');
  await shot(page, 'polish-zh-project-facts', { fullPage: true });

  await page.goto('/pages/project/index?q=越南');
  // A seeded project (the other tests create projects of their own, with English places only).
  const mekong = page.getByTestId('project-card').filter({ hasText: '湄公河三角洲红树林修复项目' });
  await expect(mekong).toContainText('越南金瓯省');
  await expect(mekong).not.toContainText('Vietnam');
  await shot(page, 'polish-zh-project-list');

  await page.goto('/pages/profile/footprint');
  await page.locator('#footprint-electricity_kwh_month').fill('300');
  await page.locator('#footprint-household_size').fill('2');
  await page.locator('input[name="diet"][value="low_meat"]').check();
  await page.getByTestId('footprint-submit').click();
  await expect(page.getByTestId('footprint-comparison')).toContainText('新加坡国家气候变化秘书处');
  await expect(page.getByTestId('footprint-comparison')).not.toContainText('National Climate Change Secretariat');
  await expect(page.getByTestId('footprint-comparison')).not.toContainText('The national figure');
  await shot(page, 'polish-zh-footprint-source', { fullPage: true });
});

// ---------------------------------------------------------------- 10. nothing clipped

for (const lang of LANGS) {
  test(`10. tabs, sort labels, project pickers and news titles are whole at 390 px (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    await page.goto('/pages/profile/order');
    for (const key of ['all', 'in_progress', 'completed']) {
      const tab = page.getByTestId(`order-tab-${key}`);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-pressed', 'true');
      for (const b of await page.locator('.orders-tabs button').all()) await expectNotClipped(b, 'orders tab');
    }
    await page.getByTestId('order-tab-in_progress').click();
    await shot(page, `polish-${tag(lang)}-orders-tabs`);

    await page.goto('/pages/project/index');
    await page.getByTestId('project-card').first().waitFor();
    const sort = page.getByTestId('filter-sort');
    for (const value of ['', 'price_desc', 'price_asc', 'selling_soon', 'selling_latest']) {
      await sort.selectOption(value);
      await expectSelectShowsChoice(sort, 'sort');
    }
    await sort.selectOption('price_desc');
    await shot(page, `polish-${tag(lang)}-sort`);

    await page.goto('/pages/profile/footprint');
    await page.locator('#footprint-electricity_kwh_month').fill('300');
    await page.locator('#footprint-household_size').fill('2');
    await page.locator('input[name="diet"][value="low_meat"]').check();
    await page.getByTestId('footprint-submit').click();
    const picker = page.getByTestId('footprint-project');
    await expect(picker).toBeVisible();
    for (const value of await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))) {
      await picker.selectOption(value);
      await expectSelectShowsChoice(picker, 'footprint project');
    }
    await picker.scrollIntoViewIfNeeded();
    await shot(page, `polish-${tag(lang)}-footprint-picker`);

    for (const route of ['/', '/pages/news/index']) {
      await page.goto(route);
      await settle(page);
      const titles = page.locator('.news-row__title, .news-item__title');
      await titles.first().waitFor();
      // A title is read whole: it wraps between words and is never cut short.
      for (const title of await titles.all()) await expectNotClipped(title, 'news title');
    }
    await shot(page, `polish-${tag(lang)}-news`);
  });
}

// ---------------------------------------------------------------- 11. plain words for times and states

for (const lang of LANGS) {
  test(`11. times and states in plain words (${lang})`, async ({ page, context, request }) => {
    const token = await loginDemo(context, request, lang);
    await page.goto('/pages/project/project?id=2');
    const terms = page.locator('#project-terms').locator('..');
    await expect(terms).toBeVisible();
    await expect(terms).not.toContainText(lang === 'en' ? /deadline cycle|selling time/i : /截止周期|销售时间/);
    await expect(terms).toContainText(lang === 'en' ? '2 hours' : '2 小时');
    await shot(page, `polish-${tag(lang)}-project-terms`, { fullPage: true });

    await page.goto('/pages/project/dproject?id=2');
    const explain = page.locator('.order-explain');
    await expect(explain).not.toContainText(lang === 'en' ? /deadline cycle/i : /截止周期/);
    await expect(explain).toContainText(lang === 'en' ? '2 hours' : '2 小时');

    const bought = await memberApi<{ id: number }>(request, token, 'POST', '/api/order/buy', { project_id: 2, tons: 1, password: DEMO.pay });
    expect(bought.code, bought.msg).toBe(0);
    const booked = await memberApi<{ id: number }>(request, token, 'POST', '/api/order/book', { project_id: 7, tons: 1, password: DEMO.pay });
    expect(booked.code, booked.msg).toBe(0);
    await page.goto('/pages/profile/order');
    const card = page.locator(`[data-order-id="${bought.data.id}"]`);
    const timer = card.getByTestId('countdown');
    await expect(timer).toBeVisible();
    // "1:59:58", not "0 d 01 h 59 m 58 s".
    await expect(timer).toHaveText(/^\s*1:59:\d\d\s*$/);
    await expect(card.locator('.order-clock')).not.toContainText(lang === 'en' ? /cycle/i : /周期/);
    const presale = page.locator(`[data-order-id="${booked.data.id}"]`);
    await expect(presale.getByTestId('order-status')).toHaveText(lang === 'en' ? 'Booked' : '已预订');
    await card.scrollIntoViewIfNeeded();
    await shot(page, `polish-${tag(lang)}-order-countdown`);
  });
}

// ---------------------------------------------------------------- 15. layout and touch targets

for (const lang of LANGS) {
  test(`15. layout and touch targets (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    // The buy screen opened from the project, inside the app: its card clear of the header.
    await page.goto('/pages/project/project?id=2');
    await page.locator('.action-bar a, .action-bar button').first().click();
    await expect(page).toHaveURL(/dproject/);
    const card = page.getByTestId('order-project');
    await expect(card).toBeVisible();
    const header = await page.locator('.navbar').first().boundingBox();
    const cardBox = await card.boundingBox();
    expect(cardBox!.y - (header!.y + header!.height), 'gap between the header and the project card').toBeGreaterThanOrEqual(8);
    await shot(page, `polish-${tag(lang)}-buy-in-app`);

    // Settings: both headings above their cards.
    await page.goto('/pages/profile/setting');
    for (const heading of await page.locator('.settings-heading').all()) {
      const h = (await heading.boundingBox())!;
      const cardBelow = await heading.evaluate((e) => {
        const card = (e.nextElementSibling ?? e.parentElement?.nextElementSibling) as HTMLElement | null;
        return card?.classList.contains('card') ? card.getBoundingClientRect().top : -1;
      });
      expect(cardBelow, 'a card follows the heading').toBeGreaterThan(0);
      expect(h.y + h.height).toBeLessThanOrEqual(cardBelow + 1);
    }
    await expect(page.locator('.settings-heading')).toHaveCount(2);
    await shot(page, `polish-${tag(lang)}-settings`);

    await page.goto('/');
    await expectTarget(page.locator('.lang-toggle').first(), 'home language pill');
    await page.goto('/pages/profile/order');
    await expectTarget(page.getByTestId('order-tab-all'), 'orders All tab');
  });
}

test('15. the register terms box is a 44 px target of its own', async ({ page }) => {
  await page.goto('/pages/register/index');
  // The box's own hit area, apart from the links of the sentence beside it.
  const hit = page.getByTestId('register-agree').locator('xpath=..');
  await expectTarget(hit, 'terms checkbox');
  await expect(hit.locator('a')).toHaveCount(0);
  await shot(page, 'polish-en-register-terms');
});

for (const lang of LANGS) {
  test(`15. the retire button sits in a pinned footer (${lang})`, async ({ page, context, request }) => {
    test.setTimeout(150_000);
    const token = await loginDemo(context, request, lang);
    await buyAndComplete(request, token, 2, 1);
    await page.goto('/pages/profile/retire');
    const bar = page.locator('.action-bar');
    await expect(bar).toBeVisible();
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height), 'the retire footer at the foot of the screen').toBe(844);
    expect(Math.round(box.width), 'the retire footer spans the screen').toBe(390);
    await shot(page, `polish-${tag(lang)}-retire-footer`);
  });
}

// ---------------------------------------------------------------- 16. first run and wording

test.describe('16. first run', () => {
  test.use({ startSeen: false, locale: 'zh-CN' });

  test('a browser in Chinese gets the Chinese start screen; "Browse first" above the fold', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/pages\/index\/start$/);
    await expect(page.getByRole('heading', { name: '一吨一吨地抵消您的碳足迹' })).toBeVisible();
    const browse = (await page.getByTestId('start-browse').boundingBox())!;
    expect(browse.y + browse.height).toBeLessThanOrEqual(844);
    await shot(page, 'polish-zh-start');
  });
});

test.describe('16. first run in English', () => {
  test.use({ startSeen: false });
  test('"Browse first" is above the fold', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/pages\/index\/start$/);
    const browse = (await page.getByTestId('start-browse').boundingBox())!;
    expect(browse.y + browse.height).toBeLessThanOrEqual(844);
    await shot(page, 'polish-en-start');
  });
});

for (const lang of LANGS) {
  test(`16. sign-in without a tick, field messages, one unit word, initials, credit explained (${lang})`, async ({ page, context, request }) => {
    await useLang(page, lang);
    await page.goto('/pages/login/index');
    await expect(page.getByTestId('login-agree')).toHaveCount(0);
    await page.getByTestId('login-submit').click();
    await expect(page.locator('#login-email-error')).toHaveText(lang === 'en' ? 'Enter your email.' : '请输入邮箱。');
    await expect(page.locator('#login-password-error')).toHaveText(lang === 'en' ? 'Enter your password.' : '请输入密码。');
    await shot(page, `polish-${tag(lang)}-login-empty`);
    await page.getByTestId('login-email').fill(DEMO.email);
    await page.getByTestId('login-password').fill(DEMO.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/pages\/profile\/index/);

    await page.goto('/pages/profile/footprint');
    await page.getByTestId('footprint-submit').click();
    await expect(page.locator('#footprint-household_size-error')).toHaveText(lang === 'en' ? 'Enter how many people live in your home.' : '请输入家庭人数。');
    await page.locator('#footprint-electricity_kwh_month').fill('300');
    await page.locator('#footprint-household_size').fill('2');
    await page.locator('input[name="diet"][value="low_meat"]').check();
    await page.getByTestId('footprint-submit').click();
    await expect(page.getByTestId('footprint-total')).toBeVisible();
    if (lang === 'en') await expect(page.locator('main, .page').first()).not.toContainText(/tonne/i);
    await shot(page, `polish-${tag(lang)}-footprint-units`);

    // A brand-new account: initials in the cropper, the credit badge explained.
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await registerViaApi(context, request, uniqueEmail('polish'));
    await useLang(page, lang);
    await page.goto('/pages/profile/index');
    const credit = page.locator('.badge--credit');
    await expect(credit).toBeVisible();
    await expect(page.getByTestId('credit-note')).toBeVisible();
    await expect(page.getByTestId('credit-note')).toContainText(lang === 'en' ? 'pre-sale' : '预售');
    await shot(page, `polish-${tag(lang)}-profile-credit`);
    await page.goto('/pages/profile/cropper');
    const avatar = page.locator('.avatar-current__img');
    await expect(avatar).toBeVisible();
    await expect(avatar).not.toHaveText('?');
    await expect(avatar).toHaveText(/^[A-Z0-9]{1,2}$/);
    await shot(page, `polish-${tag(lang)}-cropper`);
  });
}
