import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, followLiveSocket, ops, registerViaApi, startServer, stopServer, test, uniqueEmail, waitForServiceWorkerControl } from './helpers';
import { ROOT } from './server-control';

// The notifications inbox in the browser: an operator's notice arrives live (the inbox lists it,
// a toast says it), the profile tab's badge counts what the inbox has not shown yet and opening the inbox
// clears it, a tap marks a notice read; "mark all" clears the rest; in Chinese every notice shows its Chinese text; with the server down the inbox still
// lists what the device holds. Screenshots at 390x844 in en and zh under test-results/screenshots-inbox/.
//
// SELECTOR CONTRACT (src/app/features/inbox, components/tab-bar.tsx): inbox-list, inbox-item[data-read],
// inbox-unread, inbox-mark-all, inbox-empty; unread-badge on the profile tab.

const SHOTS = path.join(ROOT, 'test-results', 'screenshots-inbox');

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await expect(page.locator('.toast')).toHaveCount(0, { timeout: 10_000 }); // the screen, not the toast over it
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/** Sends a notice to one user with the operator CLI. */
async function sendNotice(email: string, notice: { title: string; title_cn: string; body: string; body_cn: string }): Promise<void> {
  const file = path.join(os.tmpdir(), `canopy-e2e-notice-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(notice));
  try {
    await ops(['notice:send', email, file]);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const FIRST = { title: 'Maintenance tonight', title_cn: '今晚系统维护', body: 'Trading pauses from 23:00 to 23:30 SGT.', body_cn: '新加坡时间 23:00 至 23:30 暂停交易。' };
const THIRD = { title: 'Your monthly statement is ready', title_cn: '您的月度对账单已生成', body: 'See Fund logs for every movement in October.', body_cn: '请在资金明细中查看十月的每一笔变动。' };
const FOURTH = { title: 'Withdrawals resume', title_cn: '提现已恢复', body: 'Bank transfers run again from Monday.', body_cn: '银行转账自周一起恢复。' };
const SECOND = { title: 'New mangrove project', title_cn: '新的红树林项目', body: 'Sabah Mangroves opens for presale on Monday.', body_cn: '沙巴红树林项目将于周一开放预售。' };

test('inbox: a notice arrives live, the badge counts it, mark read, Chinese text, offline', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('inbox');
  await registerViaApi(context, request, email);

  // ---- empty inbox; the socket is up
  const live = followLiveSocket(page);
  await page.goto('/pages/profile/notifications');
  await expect(page.getByTestId('inbox-empty')).toBeVisible();
  await live.ready();

  // ---- the operator sends a notice: it appears live, with a toast
  await sendNotice(email, FIRST);
  const items = page.getByTestId('inbox-item');
  await expect(items).toHaveCount(1, { timeout: 15_000 });
  await expect(items.first()).toContainText(FIRST.title);
  await expect(items.first()).toHaveAttribute('data-read', 'false');
  await expect(page.locator('.toast', { hasText: FIRST.title })).toBeVisible();
  await expect(page.getByTestId('inbox-unread')).toHaveText('1 unread');

  // ---- the badges count what the inbox has not shown yet (docs/decisions/0046-phone-polish.md): the first
  // notice arrived on the open inbox, so no badge; a second one arriving elsewhere is counted (and said to
  // screen readers)
  await page.goto('/pages/profile/index');
  const badge = page.getByTestId('unread-badge');
  await expect(page.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
  await expect(badge).toHaveCount(0);
  await sendNotice(email, SECOND);
  await expect(badge).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByRole('link', { name: /^Profile\s*,\s*1 unread$/ })).toBeVisible();
  await expect(page.getByTestId('notifications-unread')).toContainText('1');
  await shot(page, 'en-profile-badge');

  // ---- opening the inbox clears the badge; the unread notices stay marked; a tap marks one read
  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(SECOND.title); // newest first
  await expect(page.getByTestId('inbox-unread')).toHaveText('2 unread');
  await shot(page, 'en-inbox');
  await items.nth(1).getByRole('button').click();
  await expect(items.nth(1)).toHaveAttribute('data-read', 'true');
  await expect(page.getByTestId('inbox-unread')).toHaveText('1 unread');
  await page.goto('/pages/profile/index');
  await expect(page.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
  await expect(badge).toHaveCount(0);
  await expect(page.getByTestId('notifications-unread')).toHaveCount(0);

  // ---- in Chinese every notice shows its Chinese text
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('cn')));
  await page.goto('/pages/profile/notifications');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(items.first()).toContainText(SECOND.title_cn);
  await expect(items.nth(1)).toContainText(FIRST.body_cn);
  await expect(page.getByText(SECOND.title)).toHaveCount(0);
  await shot(page, 'zh-inbox');
  await page.goto('/pages/profile/index');
  await expect(page.getByRole('link', { name: '我的', exact: true })).toBeVisible();
  await sendNotice(email, FOURTH);
  await expect(page.getByRole('link', { name: /^我的\s*，\s*1 条未读$/ })).toBeVisible({ timeout: 15_000 });
  await shot(page, 'zh-profile-badge');
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('en')));

  // ---- mark all read: no badge
  await page.goto('/pages/profile/notifications');
  await page.getByTestId('inbox-mark-all').click();
  await expect(page.getByTestId('inbox-unread')).toHaveText('All read');
  await expect(page.getByTestId('inbox-mark-all')).toHaveCount(0);
  await expect(items.first()).toHaveAttribute('data-read', 'true');
  await shot(page, 'en-inbox-all-read');
  await page.goto('/pages/profile/index');
  await expect(page.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
  await expect(badge).toHaveCount(0);

  // ---- offline: the server is down; the inbox lists what the device holds (one notice still unread)
  await page.goto('/pages/profile/notifications');
  await sendNotice(email, THIRD);
  await expect(items).toHaveCount(4, { timeout: 15_000 });
  await waitForServiceWorkerControl(page);
  await stopServer();
  try {
    await page.reload();
    await expect(page.getByTestId('offline-bar')).toBeVisible({ timeout: 15_000 });
    await expect(items).toHaveCount(4);
    await expect(items.first()).toContainText(THIRD.title);
    await expect(items.first()).toHaveAttribute('data-read', 'false');
    await expect(items.nth(1)).toContainText(FOURTH.title);
    await expect(page.getByTestId('inbox-unread')).toHaveText('1 unread');
    await expect(page.getByTestId('inbox-mark-all')).toBeDisabled();
    await shot(page, 'en-inbox-offline');
  } finally {
    await startServer();
  }
});
