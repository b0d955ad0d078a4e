import type { Page } from '@playwright/test';
import { DEMO, baseUrl, buyAndComplete, createProject, expect, loginDemo, ops, shot, test } from './helpers';

// The marketplace (docs/product.md#buying), browser half: browse, filter, open a project, buy, see the order
// and its countdown, book a pre-sale, the operator allocates, pay the final balance, sell back; then every
// market screen in English and Chinese. 390x844 phone, Debian chromium, the real server (global-setup.ts).
//
// Time: credits arrive only when a purchase's cycle ends, and the server has no clock an outside test can
// move. So the sell-back test creates its own project (ops project:create), buys, and ends that order's
// cycle now in the test database; the real scheduler (it runs every 2 s) completes it (helpers.ts
// buyAndComplete).
// The pre-sale test likewise creates its own pre-sale (booking window open for a day) so other tests'
// bookings and the seed's dates cannot change what it sees.
//
// SELECTOR CONTRACT (src/app/features/orders, src/app/features/projects):
//   project list   status-<status> buttons, filter-standard / filter-sort selects, project-card links
//   project detail project-action (Buy by the ton / Book pre-sale link)
//   dproject / dpresale / dsell   tons-input, tons-plus, tons-minus, buy-submit / book-submit / sell-submit,
//                  order-total / booking-fee / sell-proceeds, confirm-sheet (dialog) with payment-password and
//                  confirm-submit, then order-placed with order-card, order-status and countdown
//   /pages/profile/order  order-tab-<tab>, order-card (data-order-id), final-pay-open, final-due
//   /pages/profile/tons   credits-balance, holding (holding-sell link), credit-move


async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** Sets the tons, opens the confirm sheet, types the payment password and confirms. */
async function order(page: Page, submit: string, tons: number): Promise<void> {
  await page.getByTestId('tons-input').fill(String(tons));
  await page.getByTestId(submit).click();
  const sheet = page.getByTestId('confirm-sheet');
  await expect(sheet).toBeVisible();
  await sheet.getByTestId('payment-password').fill(DEMO.pay);
  await shot(page, `market-en-${submit}-confirm`);
  await sheet.getByTestId('confirm-submit').click();
}

test.describe.configure({ mode: 'serial' });

test('browse, filter, open a project, buy by the ton, see the order and its countdown', async ({ page, context, request }) => {
  await loginDemo(context, request);
  await page.goto('/pages/project/index');
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await shot(page, 'market-en-list');

  // Filter: in progress, Gold Standard, cheapest first.
  await page.getByTestId('status-in_progress').click();
  await page.getByTestId('filter-standard').selectOption('Gold Standard');
  await page.getByTestId('filter-sort').selectOption('price_asc');
  await expect(page).toHaveURL(/standard=Gold/);
  const cards = page.getByTestId('project-card');
  await expect(cards.first()).toBeVisible();
  const gold = await cards.allTextContents();
  expect(gold.length).toBeGreaterThan(0);
  for (const text of gold) expect(text).toContain('Gold Standard');
  const prices = gold.map((t) => Number(/S\$([\d,]+\.\d\d)/.exec(t)?.[1]?.replace(/,/g, '')));
  expect([...prices].sort((a, b) => a - b)).toEqual(prices);
  await shot(page, 'market-en-list-filtered');

  // Open Kalimantan (VCS, in progress, 30-minute cycle) through the search box.
  await page.goto('/pages/project/index?q=Kalimantan');
  await cards.first().click();
  await expect(page).toHaveURL(/\/pages\/project\/project\?id=\d+/);
  await page.getByTestId('project-action').click();
  await expect(page).toHaveURL(/\/pages\/project\/dproject\?id=\d+/);
  await expect(page.getByTestId('available-balance')).toContainText('S$');
  await page.getByTestId('tons-input').fill('2');
  await page.getByTestId('tons-plus').click();
  await expect(page.getByTestId('tons-input')).toHaveValue('3');
  await expect(page.getByTestId('order-total')).toHaveText('S$49.50'); // 3 x S$16.50
  await shot(page, 'market-en-buy');

  // A wrong password is refused with the server's message and attempts left; nothing is bought.
  await page.getByTestId('buy-submit').click();
  const sheet = page.getByTestId('confirm-sheet');
  await sheet.getByTestId('payment-password').fill('Wrong#2026x');
  await sheet.getByTestId('confirm-submit').click();
  await expect(sheet.getByRole('alert')).toContainText(/attempts left: 4/i);
  await sheet.getByTestId('confirm-close').click();

  await order(page, 'buy-submit', 3);
  const placed = page.getByTestId('order-placed');
  await expect(placed).toBeVisible();
  await expect(placed.getByTestId('order-status')).toHaveText('In progress');
  await expect(placed.getByTestId('countdown')).toBeVisible();
  await shot(page, 'market-en-buy-placed');

  await placed.getByTestId('go-orders').click();
  await expect(page).toHaveURL(/\/pages\/profile\/order/);
  const card = page.getByTestId('order-card').first();
  await expect(card).toContainText('Kalimantan');
  await expect(card.getByTestId('order-status')).toHaveText('In progress');
  await expect(card.getByTestId('countdown')).toBeVisible();
  await settle(page);
  await shot(page, 'market-en-orders');
});

test('book a pre-sale, the operator allocates, pay the final balance', async ({ page, context, request }) => {
  await loginDemo(context, request);
  const now = Date.now();
  const id = await createProject({
    name: `E2E Pre-sale ${now.toString(36)}`,
    name_cn: 'E2E 预售项目',
    type: 'cookstove',
    standard: 'Gold Standard',
    status: 'presale',
    price: 1500,
    presale_price: 1200,
    selling_time: new Date(now + 86_400_000).toISOString(),
  });
  await page.goto(`/pages/project/project?id=${id}`);
  await expect(page.getByTestId('project-action')).toHaveText('Book pre-sale');
  await page.getByTestId('project-action').click();
  await expect(page).toHaveURL(new RegExp(`/pages/project/dpresale\\?id=${id}`));
  await expect(page.getByTestId('countdown').first()).toBeVisible();
  await page.getByTestId('tons-input').fill('10');
  await expect(page.getByTestId('booking-fee')).toHaveText('S$12.00'); // 10 x S$12 x 10%
  await shot(page, 'market-en-presale');
  await order(page, 'book-submit', 10);
  const placed = page.getByTestId('order-placed');
  await expect(placed.getByTestId('order-status')).toHaveText('Booked');
  await shot(page, 'market-en-presale-booked');

  // The operator allocates at S$13.00; the order waits for its final payment with a deadline.
  await ops(['presale:allocate', String(id), '--price', '1300']);
  await page.goto('/pages/profile/order?tab=pending');
  const card = page.getByTestId('order-card').filter({ hasText: 'E2E Pre-sale' }).first();
  await expect(card.getByTestId('order-status')).toHaveText('Pending final payment');
  await expect(card.getByTestId('countdown')).toBeVisible();
  await card.getByTestId('final-pay-open').click();
  const sheet = page.getByTestId('confirm-sheet');
  await expect(sheet.getByTestId('final-due')).toHaveText('S$118.00'); // 10 x S$13 - S$12 fee
  await sheet.getByTestId('payment-password').fill(DEMO.pay);
  await shot(page, 'market-en-finalpay');
  await sheet.getByTestId('confirm-submit').click();
  await expect(sheet).toBeHidden();
  await page.getByTestId('order-tab-all').click();
  await expect(page.getByTestId('order-card').filter({ hasText: 'E2E Pre-sale' }).first().getByTestId('order-status')).toHaveText('Final payment made');
  await shot(page, 'market-en-finalpay-done');
});

test('sell back credits once a purchase completes its cycle', async ({ page, context, request }) => {
  test.setTimeout(150_000); // the operator CLI's cold start and the scheduler's next tick, on a busy machine
  const token = await loginDemo(context, request);
  const id = await createProject({ name: `E2E One-minute Forest ${Date.now().toString(36)}`, name_cn: 'E2E 一分钟森林', price: 2000, yield_bp: 500 });
  expect(await buyAndComplete(request, token, id, 3)).toBe(3);

  await page.goto('/pages/profile/tons');
  const holding = page.getByTestId('holding').filter({ hasText: 'E2E One-minute Forest' });
  await expect(holding).toBeVisible();
  await expect(page.getByTestId('credit-move').first()).toBeVisible();
  await shot(page, 'market-en-tons');
  await holding.getByTestId('holding-sell').click();
  await expect(page).toHaveURL(new RegExp(`/pages/project/dsell\\?id=${id}`));
  await expect(page.getByTestId('credits-sellable')).toHaveText('3 t');
  await page.getByTestId('tons-input').fill('2');
  await expect(page.getByTestId('sell-proceeds')).toHaveText('S$42.00'); // 2 x S$20 x 1.05
  await expect(page.getByTestId('settlement-note')).toContainText('2 working days');
  await shot(page, 'market-en-sell');
  await order(page, 'sell-submit', 2);
  const placed = page.getByTestId('order-placed');
  await expect(placed.getByTestId('order-status')).toHaveText('Settling');
  await expect(placed.getByTestId('countdown')).toBeVisible();
  await shot(page, 'market-en-sell-placed');
});

test('every market screen in English and Chinese', async ({ browser }) => {
  for (const lang of ['en', 'cn'] as const) {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await loginDemo(context, context.request, lang);
    const tag = lang === 'cn' ? 'zh' : 'en';
    const screens: [string, string][] = [
      ['list', '/pages/project/index?standard=VCS&sort=price_desc'],
      ['detail', '/pages/project/project?id=1'],
      ['dproject', '/pages/project/dproject?id=1'],
      ['dpresale', '/pages/project/dpresale?id=7'],
      ['dsell', '/pages/project/dsell?id=1'],
      ['order', '/pages/profile/order'],
      ['tons', '/pages/profile/tons'],
      ['membership', '/pages/profile/membership'],
    ];
    for (const [name, url] of screens) {
      await page.goto(url);
      await settle(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang === 'cn' ? 'zh-Hans' : 'en');
      await shot(page, `market-screen-${tag}-${name}`);
    }
    await context.close();
  }
});
