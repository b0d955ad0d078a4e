import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './server-control';
import {
  baseUrl,
  expect,
  ops,
  readCode,
  shot,
  startServer,
  stopServer,
  storedLogin,
  test,
  uniqueEmail,
  waitForServiceWorkerControl,
  createProject,
} from './helpers';

// The foundation (docs/decisions/0001-foundation.md), browser half: register, log in, browse projects and
// news, Chinese and back (persists over reload), offline reload from the service worker + IndexedDB,
// installability, a live status change. 390x844 phone, Debian chromium, the real server (global-setup.ts).
//
// SELECTOR CONTRACT: what the screens must provide. Each lookup prefers a data-testid and falls back to
// roles and accessible names (the English texts of the issue), so a screen passes with either.
//   everywhere     <nav aria-label="Main"> tab bar with links Home / Projects / Profile (zh: 首页 ...)   [exists]
//                  data-testid="offline-bar" when offline                                              [exists]
//                  data-testid="project-card" on each project link, "news-row" (home) / "news-item" (news
//                  list) on each news link                                                             [exists]
//   /pages/register/index  textbox "Email" (register-email), button "Send code" (register-send-code),
//                  textbox "Verification code" (register-code), password fields labelled "Password"
//                  (register-password) and "Repeat password" (register-repassword), checkbox agreeing to
//                  the terms (register-agree), submit button "Register" (register-submit)
//   /pages/login/index     textbox "Email" (login-email), field "Password" (login-password), terms
//                  checkbox when the form has one (login-agree), submit "Log in" (login-submit)
//   /pages/profile/setting language choice: radio/button/option "English" (lang-en) and "中文" or
//                  "简体中文" (lang-zh), or a <select> labelled "Language" (lang-select); button "Log out"
//                  (logout); a confirmation dialog, if any, with a "Log out"/"Confirm"/"OK" button
//   /pages/project/index   project-card list with infinite scroll (load more 80 px from the bottom)
//   /pages/project/project?id=ID  the project's status text with data-testid="project-status"
//                  (or class "status", as the project card has)
//   /pages/news/index      news-row list; /pages/news/info?id=ID a heading with the news title
//                  (data-testid="news-title" or the page's h1/h2)

const DEMO = { email: 'demo@canopy.sg', password: 'Canopy2026' };
const PASSWORD = 'Forest2026ok';

// ---------------------------------------------------------------- small helpers

/** The first element matching any of the candidates (testid first). */
function pick(...candidates: Locator[]): Locator {
  return candidates.reduce((acc, next) => acc.or(next)).first();
}

function tabBar(page: Page): Locator {
  return page.getByRole('navigation').filter({ has: page.getByRole('link') }).last();
}

const projectCards = (page: Page) => page.getByTestId('project-card');
// Home shows news as "news-row", the news list as "news-item".
const newsRows = (page: Page) => page.getByTestId('news-row').or(page.getByTestId('news-item'));

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => document.fonts?.ready.then(() => undefined));
}

/** Logs in through the API and stores the session the way the app does (docs/product.md#entities keys), before load. */
async function loginViaApi(context: BrowserContext, request: APIRequestContext, who = DEMO): Promise<{ memId: number }> {
  const res = await request.post(`${baseUrl()}/h5/api/api/login/login`, {
    data: { email: who.email, password: who.password, type: 'personal', agree: true, lang: 'en', t: Date.now() },
  });
  const body = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> & { token: string; mem_id: number } };
  expect(body.code, body.msg).toBe(0);
  const { token, mem_id, realname, account, mobile, avatar, type } = body.data;
  const login = { mem_id, realname, account, mobile, avatar, type };
  await context.addInitScript(
    ([t, l]) => {
      if (localStorage.getItem('token')) return; // only the first load: a later logout must stick
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('login_info', JSON.stringify(l));
      localStorage.setItem('isLogin', 'true');
    },
    [token, login] as const,
  );
  return { memId: mem_id };
}

async function apiGet<T>(request: APIRequestContext, path: string, params: Record<string, string | number>): Promise<T> {
  const res = await request.get(`${baseUrl()}/h5/api${path}`, { params: { lang: 'en', ...params } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, body.msg).toBe(0);
  return body.data;
}

async function chooseLanguage(page: Page, lang: 'en' | 'zh'): Promise<void> {
  const select = pick(page.getByTestId('lang-select'), page.getByRole('combobox', { name: /language|语言/i }));
  if (await select.count()) {
    await select.selectOption(lang === 'zh' ? { label: (await select.locator('option', { hasText: /中文/ }).first().textContent()) ?? '' } : { label: 'English' });
    return;
  }
  const name = lang === 'zh' ? /^(简体)?中文/ : /^English/;
  await pick(
    page.getByTestId(`lang-${lang}`),
    page.getByRole('radio', { name }),
    page.getByRole('option', { name }),
    page.getByRole('button', { name }),
    page.getByRole('link', { name }),
    page.getByText(name),
  ).click();
  // A confirmation step, if the screen asks.
  const confirm = page.getByRole('dialog').getByRole('button', { name: /^(ok|confirm|save|确定|确认)$/i });
  if (await confirm.isVisible().catch(() => false)) await confirm.click();
}

async function expectLanguage(page: Page, lang: 'en' | 'zh'): Promise<void> {
  const home = lang === 'zh' ? '首页' : 'Home';
  await expect(tabBar(page).getByRole('link', { name: home })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('language'))).toBe(JSON.stringify(lang === 'zh' ? 'cn' : 'en'));
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-Hans' : 'en');
}

// The project's phone (playwright.config.ts), for contexts made by hand: they do not inherit `use`.
const PHONE = {
  viewport: { width: 390, height: 844 },
  screen: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'en-SG',
  timezoneId: 'Asia/Singapore',
  serviceWorkers: 'allow',
} as const;

async function newPhone(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, ...PHONE });
  return { context, page: await context.newPage() };
}

// ---------------------------------------------------------------- (a) register, log out, log in

test('register through the UI, log out, log in again', async ({ page }) => {
  const email = uniqueEmail('reg');
  await page.goto('/pages/register/index');

  await pick(page.getByTestId('register-email'), page.getByRole('textbox', { name: /e-?mail/i })).fill(email);
  await pick(page.getByTestId('register-send-code'), page.getByRole('button', { name: /send( the)? code|get( the)? code/i })).click();
  const code = await readCode(email);
  await pick(page.getByTestId('register-code'), page.getByRole('textbox', { name: /^(verification |email )?code/i })).fill(code);
  await pick(page.getByTestId('register-password'), page.getByLabel(/^(login )?password$/i)).fill(PASSWORD);
  await pick(page.getByTestId('register-repassword'), page.getByLabel(/(repeat|confirm|again|re-?enter)/i)).fill(PASSWORD);
  const agree = pick(page.getByTestId('register-agree'), page.getByRole('checkbox', { name: /agree|terms|protocol|privacy/i }), page.getByRole('checkbox'));
  await agree.check();
  await shot(page, 'en-register-filled');
  await pick(page.getByTestId('register-submit'), page.getByRole('button', { name: /^(register|sign up|create( an)? account)$/i })).click();

  // Registration signs the new user in (the server answers with login info).
  await expect.poll(async () => (await storedLogin(page)).isLogin, { message: 'signed in after registering' }).toBe(true);
  expect((await storedLogin(page)).memId).toBeGreaterThan(0);

  // Log out from the settings screen.
  await page.goto('/pages/profile/setting');
  await pick(page.getByTestId('logout'), page.getByRole('button', { name: /^(log ?out|sign ?out)$/i })).click();
  const confirm = page.getByRole('dialog').or(page.getByRole('alertdialog')).getByRole('button', { name: /^(log ?out|sign ?out|confirm|ok|yes)$/i });
  if (await confirm.first().isVisible({ timeout: 1000 }).catch(() => false)) await confirm.first().click();
  await expect.poll(async () => (await storedLogin(page)).isLogin, { message: 'signed out' }).toBe(false);

  // Log in again as that user.
  await page.goto('/pages/login/index');
  await shot(page, 'en-login');
  await pick(page.getByTestId('login-email'), page.getByRole('textbox', { name: /e-?mail|account/i })).fill(email);
  await pick(page.getByTestId('login-password'), page.getByLabel(/^password$/i)).fill(PASSWORD);
  const loginAgree = pick(page.getByTestId('login-agree'), page.getByRole('checkbox', { name: /agree|terms|protocol|privacy/i }));
  if (await loginAgree.count()) await loginAgree.check();
  await pick(page.getByTestId('login-submit'), page.getByRole('button', { name: /^(log ?in|sign ?in)$/i })).click();
  await expect.poll(async () => (await storedLogin(page)).isLogin, { message: 'signed in again' }).toBe(true);
  expect((await storedLogin(page)).memId).toBeGreaterThan(0);
  await expect(page).not.toHaveURL(/\/pages\/login\//);
});

// ---------------------------------------------------------------- (b) browse

test('browse: home, project tab with infinite scroll, project detail, news list and item', async ({ page, request }) => {
  await page.goto('/');
  await expect(projectCards(page).first()).toBeVisible();
  await expect(newsRows(page).first()).toBeVisible();
  await expect(tabBar(page).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await settle(page);
  await shot(page, 'en-home');

  // Project tab: the first page of the list, then more when scrolled to the bottom.
  const firstList = page.waitForResponse((r) => r.url().includes('/h5/api/api/project/lists') && r.request().method() === 'GET');
  await tabBar(page).getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/pages\/project\/index/);
  const first = await (await firstList).json() as { data: { list: unknown[]; total: number; page_size: number } };
  const query = new URL((await firstList).url()).searchParams;
  if (first.data.total <= first.data.list.length) {
    // The seed has too few projects in this list for a second page: an operator adds some.
    const status = query.get('status') || 'in_progress';
    const n = first.data.page_size + 2 - first.data.total;
    test.info().annotations.push({ type: 'seed', description: `added ${n} ${status} projects for a second page` });
    console.log(`[browse] the project list had one page (${first.data.total} projects): adding ${n} ${status} projects with ops project:create`);
    await addProjects(n, status);
    await page.reload();
  }
  await expect(projectCards(page).first()).toBeVisible();
  const before = await projectCards(page).count();
  const page2 = page.waitForResponse((r) => r.url().includes('/h5/api/api/project/lists') && new URL(r.url()).searchParams.get('page') === '2');
  for (let i = 0; i < 5 && (await projectCards(page).count()) <= before; i++) {
    await page.mouse.wheel(0, 4000);
    await projectCards(page).last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
  }
  await page2;
  await expect.poll(() => projectCards(page).count(), { message: 'more projects after scrolling' }).toBeGreaterThan(before);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'en-projects');

  // Project detail.
  const card = projectCards(page).first();
  const name = (await card.getByRole('heading').first().textContent())?.trim() ?? '';
  await card.click();
  await expect(page).toHaveURL(/\/pages\/project\/project\?id=\d+/);
  await expect(page.getByText(name, { exact: false }).first()).toBeVisible();
  await settle(page);
  await shot(page, 'en-project-detail');

  // News list and one item.
  await page.goto('/pages/news/index');
  await expect(newsRows(page).first()).toBeVisible();
  await shot(page, 'en-news');
  const newsTitle = (await newsRows(page).first().locator('.news-row__title, .news-item__title, h2, h3').first().textContent())?.trim() ?? '';
  await newsRows(page).first().click();
  await expect(page).toHaveURL(/\/pages\/news\/info\?id=\d+/);
  await expect(pick(page.getByTestId('news-title'), page.getByRole('heading', { name: newsTitle }))).toBeVisible();
  await settle(page);
  await shot(page, 'en-news-item');

  // The API agrees with what was shown (a smoke check that the screens show server data).
  const news = await apiGet<{ list: { title: string }[] }>(request, '/api/news/lists', { page: 1, page_size: 10 });
  expect(news.list.map((n) => n.title)).toContain(newsTitle);
});

let projectSerial = 0;
async function addProjects(n: number, status: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-e2e-projects-'));
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const file = path.join(dir, `p${i}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: `E2E Mangrove Restoration ${++projectSerial}`,
        name_cn: `端到端红树林修复 ${projectSerial}`,
        location: 'Johor, Malaysia',
        type: 'mangrove',
        standard: 'VCS',
        status,
        price: 1800 + i,
        presale_price: status === 'presale' ? 1500 : null,
        min_tons: 1,
        max_tons: 100,
        total_tons: 1000,
        selling_time: new Date(now - 86_400_000 * (i + 1)).toISOString(),
        end_time: new Date(now + 86_400_000 * 90).toISOString(),
        image: '/img/projects/fiji-mangrove.svg',
        intro: 'A project added by the browser tests.',
      }),
    );
    await ops(['project:create', file]);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- (c) Chinese and back

test('switch to Chinese in settings and back; the choice persists over reload', async ({ page }) => {
  await page.goto('/pages/profile/setting');
  await shot(page, 'en-settings');
  await chooseLanguage(page, 'zh');
  await page.goto('/');
  await expectLanguage(page, 'zh'); // needs the zh-Hans catalogue filled (locales/zh-Hans/messages.po)
  await page.reload();
  await expectLanguage(page, 'zh');
  await expect(projectCards(page).first()).toBeVisible();
  await settle(page);
  await shot(page, 'zh-home');

  await page.goto('/pages/profile/setting');
  await shot(page, 'zh-settings');
  await chooseLanguage(page, 'en');
  await page.goto('/');
  await expectLanguage(page, 'en');
  await page.reload();
  await expectLanguage(page, 'en');
});

// ---------------------------------------------------------------- (d) offline

test('offline: with the server down the shell, projects and news seen before come from the device', async ({ page }) => {
  // Online: home, the project tab and one news item.
  await page.goto('/');
  await expect(projectCards(page).first()).toBeVisible();
  await expect(newsRows(page).first()).toBeVisible();
  const homeProjects = await projectCards(page).getByRole('heading').allTextContents();
  const homeNews = await newsRows(page).locator('.news-row__title').allTextContents();

  await page.goto('/pages/project/index');
  await expect(projectCards(page).first()).toBeVisible();
  const tabProjects = await projectCards(page).getByRole('heading').allTextContents();

  await page.goto('/');
  await newsRows(page).first().click();
  await expect(page).toHaveURL(/\/pages\/news\/info\?id=\d+/);
  const newsUrl = new URL(page.url());
  await expect(pick(page.getByTestId('news-title'), page.getByRole('heading', { name: homeNews[0] ?? '' }))).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The service worker has precached the shell and controls the page.
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  await expect(projectCards(page).first()).toBeVisible();

  await stopServer();
  try {
    await page.reload();
    // The shell (nav bar, tab bar) loads from the precache; the data from IndexedDB.
    await expect(tabBar(page).getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(page.getByTestId('offline-bar')).toBeVisible();
    await expect(projectCards(page).first()).toBeVisible();
    for (const title of homeProjects.slice(0, 2)) await expect(projectCards(page).getByRole('heading', { name: title })).toBeVisible();
    for (const title of homeNews.slice(0, 2)) await expect(newsRows(page).filter({ hasText: title })).toBeVisible();
    await shot(page, 'en-offline-home');

    await tabBar(page).getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/pages\/project\/index/);
    await expect(projectCards(page).getByRole('heading', { name: tabProjects[0] ?? '' }).first()).toBeVisible();
    await expect(page.getByTestId('offline-bar')).toBeVisible();
    await shot(page, 'en-offline-projects');

    // A full navigation while offline: the service worker answers with the shell, Dexie with the item.
    await page.goto(newsUrl.pathname + newsUrl.search);
    await expect(pick(page.getByTestId('news-title'), page.getByRole('heading', { name: homeNews[0] ?? '' }))).toBeVisible();
    await shot(page, 'en-offline-news-item');
  } finally {
    await startServer();
  }
  // Back online: the next successful request clears the offline state.
  await page.goto('/');
  await expect(projectCards(page).first()).toBeVisible();
  await expect(page.getByTestId('offline-bar')).toBeHidden({ timeout: 15_000 });
});

// ---------------------------------------------------------------- (e) installability

test('the app is installable (no installability errors)', async () => {
  // Playwright's contexts are incognito, which Chrome never installs from ("in-incognito"): a persistent
  // profile in a temporary directory instead, with the same browser, flags and phone settings.
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-e2e-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
    ...PHONE,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(baseUrl() + '/');
    const cdp = await context.newCDPSession(page);
    // The manifest first, then the service worker controlling the page.
    await expect
      .poll(async () => ((await cdp.send('Page.getAppManifest')) as { url: string }).url, { message: 'manifest linked' })
      .toContain('/manifest.webmanifest');
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
    expect(manifest.errors, JSON.stringify(manifest.errors)).toEqual([]);
    await waitForServiceWorkerControl(page);
    await expect
      .poll(
        async () =>
          ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((e) => e.errorId),
        { message: 'Page.getInstallabilityErrors', timeout: 15_000 },
      )
      .toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- (f) live update

test('live: an operator closes a project and the open detail shows it within about 2 s', async ({ page, context, request }) => {
  await loginViaApi(context, request);
  // A project of its own: statuses only move forward, so closing a seeded one would change other tests.
  const id = await createProject({ name: 'Live Update Test Forest', status: 'in_progress' });

  // The socket opens after the route resolves (300 ms delay) when logged in; wait for its hello.
  const socketOpen = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('mem_id=') });
  await page.goto(`/pages/project/project?id=${id}`);
  const ws = await socketOpen;
  await ws.waitForEvent('framereceived', { predicate: (f) => typeof f.payload === 'string' && f.payload.includes('hello'), timeout: 10_000 }).catch(() => undefined);

  const status = pick(page.getByTestId('project-status'), page.locator('main .status, .status'));
  await expect(status).toHaveText(/in progress/i);
  await shot(page, 'en-project-live-before');

  const invalidated = ws.waitForEvent('framereceived', { predicate: (f) => typeof f.payload === 'string' && f.payload.includes('invalidate'), timeout: 10_000 });
  const opsStarted = Date.now();
  await ops(['project:status', String(id), 'closed']);
  const changedAt = Date.now();
  await expect(status).toHaveText(/closed/i, { timeout: 2500 });
  const took = Date.now() - changedAt;
  await invalidated.catch(() => undefined);
  test.info().annotations.push({ type: 'live-update', description: `status on screen ${took} ms after the ops command returned` });
  console.log(`[live] status on screen ${took} ms after \`ops project:status ${id} closed\` returned (${Date.now() - opsStarted} ms after it started, tsx start-up included)`);
  await shot(page, 'en-project-live-after');
});

// ---------------------------------------------------------------- screenshots, en and zh

const SCREENS: [string, string][] = [
  ['home', '/'],
  ['projects', '/pages/project/index'],
  ['project-detail', '/pages/project/project?id=1'],
  ['news', '/pages/news/index'],
  ['news-item', '/pages/news/info?id=1'],
  ['faq', '/pages/index/faq'],
  ['about', '/pages/about/index'],
  ['protocol', '/pages/other/protocol'],
  ['privacy', '/pages/other/privacy'],
  ['login', '/pages/login/index'],
  ['register', '/pages/register/index'],
  // signed in from here on
  ['profile', '/pages/profile/index'],
  ['settings', '/pages/profile/setting'],
];

for (const lang of ['en', 'zh'] as const) {
  test(`screenshots of the main screens (${lang})`, async ({ browser, request }) => {
    const { context, page } = await newPhone(browser, baseUrl());
    try {
      await context.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang === 'zh' ? 'cn' : 'en');
      for (const [name, url] of SCREENS) {
        if (name === 'profile') await loginViaApi(context, request); // the signed-in profile from here on
        await page.goto(url);
        await settle(page);
        await shot(page, `${lang}-screen-${name}`);
      }
    } finally {
      await context.close();
    }
  });
}
