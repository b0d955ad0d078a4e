import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, loginDemo, ops, registerViaApi, shot, test, uniqueEmail, waitForServiceWorkerControl } from './helpers';

// What a second review of the whole app found on a 390x844 phone, in English and Chinese: controls a
// thumb can hit (44 px), cards that do not run into each other, a time that does not break across
// lines, an avatar that is not underlined text, and an offline record list that does not claim to be
// complete when nothing could be loaded.

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`not visible: ${locator.toString()}`);
  return b;
}

async function expectTarget(locator: Locator): Promise<void> {
  const b = await box(locator);
  expect(b.height, `${locator.toString()} height`).toBeGreaterThanOrEqual(44);
  expect(b.width, `${locator.toString()} width`).toBeGreaterThanOrEqual(44);
}

const LANGS = [
  { lang: 'en' as const, topupNote: 'Your top-ups show here when you are online.', end: 'That is everything.' },
  { lang: 'cn' as const, topupNote: '联网后将在此显示您的充值记录。', end: '没有更多了。' },
];

for (const { lang, topupNote, end } of LANGS) {
  test.describe(`fresh eyes (${lang})`, () => {
    test('profile: the invitation card stands apart from the menu, its buttons and the avatar read as controls', async ({ page, context, request }) => {
      await loginDemo(context, request, lang);
      await page.goto('/pages/profile/index');
      const invite = page.getByTestId('invite-card');
      await expect(invite).toBeVisible();
      await expectTarget(page.getByTestId('invite-copy'));
      await expectTarget(page.getByTestId('invite-copy-link'));
      const card = await box(invite);
      const menu = await box(page.locator('nav.menu').first());
      expect(menu.y - (card.y + card.height)).toBeGreaterThanOrEqual(12);
      await expect(page.getByTestId('profile-avatar-link')).toHaveCSS('text-decoration-line', 'none');
      await shot(page, `fresh-${lang}-profile`);
    });

    test('home, fund logs and the payment sheet: every control is 44 px; a log line keeps its time on one line', async ({ page, context, request }) => {
      await loginDemo(context, request, lang);
      await page.goto('/');
      await expectTarget(page.locator('#latest-projects a'));
      await expectTarget(page.locator('#latest-news a'));

      await page.goto('/pages/profile/fundlogs');
      await expect(page.getByTestId('fundlog-row').first()).toBeVisible();
      for (const chip of await page.getByTestId('fundlog-filter').locator('.chip').all()) {
        expect((await box(chip)).height).toBeGreaterThanOrEqual(44);
      }
      const time = page.getByTestId('fundlog-row').first().locator('time');
      const lineHeight = await time.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.6);
      expect((await box(time)).height).toBeLessThan(lineHeight * 1.5);
      await shot(page, `fresh-${lang}-fundlogs`);

      await page.goto('/pages/project/dproject?id=1');
      await page.getByTestId('buy-submit').click();
      const sheet = page.getByTestId('confirm-sheet');
      await expect(sheet).toBeVisible();
      await expectTarget(sheet.getByTestId('confirm-close'));
    });

    test('inbox: "Mark all as read" is 44 px', async ({ page, context, request }) => {
      const email = uniqueEmail('fresh');
      await registerViaApi(context, request, email);
      const file = path.join(os.tmpdir(), `canopy-e2e-fresh-${Date.now()}.json`);
      fs.writeFileSync(file, JSON.stringify({ title: 'Hello', title_cn: '你好', body: 'A notice.', body_cn: '一条通知。' }));
      try {
        await ops(['notice:send', email, file]);
      } finally {
        fs.rmSync(file, { force: true });
      }
      await page.goto('/pages/profile/notifications');
      expect((await box(page.getByTestId('inbox-mark-all'))).height).toBeGreaterThanOrEqual(44);
    });

    test('PayNow: the copy buttons are 44 px', async ({ page, context, request }) => {
      await loginDemo(context, request, lang);
      await page.goto('/pages/profile/topup');
      await page.getByTestId('topup-amount').fill('25');
      await page.getByTestId('topup-submit').click();
      const copies = page.locator('.paynow-copy__btn');
      await expect(copies.first()).toBeVisible();
      for (const b of await copies.all()) await expectTarget(b);
    });

    test('offline, top-up records never loaded: says they come online, not "that is everything"', async ({ page, context, request }) => {
      await loginDemo(context, request, lang);
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await page.waitForLoadState('networkidle');
      await context.setOffline(true);
      await page.goto('/pages/profile/topup');
      await expect(page.getByTestId('topup-submit')).toBeDisabled();
      await expect(page.getByText(topupNote)).toBeVisible();
      await expect(page.getByText(end)).toHaveCount(0);
      await shot(page, `fresh-${lang}-offline-topup`);
      await context.setOffline(false);
    });
  });
}

