import type { Page } from '@playwright/test';
import { createProject, DEMO, expect, loginDemo, memberApi, shot, test } from './helpers';

// Accessibility: every action reachable by keyboard with a visible focus; a dialog keeps focus
// inside and gives it back; text at 200% without loss. Text zoom is emulated the way a phone's text-size
// setting acts: every font size of the design tokens doubled on the same 390 px screen (src/app/styles/
// tokens.css), then no page may need sideways scrolling.

const DOUBLE_TEXT = `:root { --fs-xs: 24px; --fs-s: 28px; --fs-m: 32px; --fs-l: 36px; --fs-xl: 44px; --fs-xxl: 56px; } html { font-size: 200%; }`;

async function sideways(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    const scroll = document.documentElement.scrollWidth;
    if (scroll <= client + 1) return null;
    const offenders: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const r = el.getBoundingClientRect();
      // Fixed layers (tab bar, toasts) stretch with a widened page: they show the width, not its cause.
      const fixed = getComputedStyle(el).position === 'fixed' || el.closest('.tabbar, .toast-layer');
      if (r.width > 0 && r.right > client + 1 && !el.closest('.swiper') && !fixed) offenders.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
      if (offenders.length > 5) break;
    }
    return `scrollWidth ${scroll} > ${client}: ${offenders.join(', ')}`;
  });
}

const PAGES = ['/pages/index/index', '/pages/project/index', '/pages/profile/index', '/pages/profile/topup', '/pages/profile/withdraw', '/pages/profile/membership', '/pages/profile/order', '/pages/profile/fundlogs'];

test.describe('text at 200%', () => {
  // The larger sizes come as a style added to the page, which the app's CSP would refuse.
  test.use({ bypassCSP: true });
  test('no page needs sideways scrolling', async ({ page, context, request }) => {
    const token = await loginDemo(context, request);
    // An order whose price and total in dollars and cents fill the order card's three figures at double text.
    const projectId = await createProject({ name: 'Zoom Test Highland Forest', name_cn: '缩放测试高地森林', price: 2_400 });
    const bought = await memberApi(request, token, 'POST', '/api/order/buy', { project_id: projectId, tons: 2, password: DEMO.pay });
    expect(bought.code, bought.msg).toBe(0);
    const problems: string[] = [];
    for (const route of PAGES) {
      await page.goto(route);
      await page.addStyleTag({ content: DOUBLE_TEXT });
      await page.waitForLoadState('networkidle');
      const problem = await sideways(page);
      if (problem) problems.push(`${route}: ${problem}`);
      await shot(page, `text200${route.replace(/\//g, '_')}`);
    }
    expect(problems).toEqual([]);
  });
});

test('keyboard: a project opens from the keyboard with a visible focus; the payment sheet keeps focus inside and gives it back', async ({ page, context, request }) => {
  await loginDemo(context, request);
  await page.goto('/pages/project/index?q=Kalimantan');
  const card = page.getByTestId('project-card').first();
  await card.focus();
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    return (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
  });
  expect(ring, 'a focused card shows a focus ring').toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/pages\/project\/project\?id=\d+/);
  await page.getByTestId('project-action').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/pages\/project\/dproject\?id=\d+/);
  await page.getByTestId('tons-input').fill('2');
  const submit = page.getByTestId('buy-submit');
  await submit.focus();
  await page.keyboard.press('Enter');
  const sheet = page.getByTestId('confirm-sheet');
  await expect(sheet).toBeVisible();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]'))), `Tab ${i + 1} stays in the sheet`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(submit).toBeFocused();
});
