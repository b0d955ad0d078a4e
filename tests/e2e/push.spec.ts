import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from '@playwright/test';
import { baseUrl, buyAndComplete, createProject, dataDir, expect, loginDemo, ops, shot, test, waitForServiceWorkerControl } from './helpers';
import { pushPayload, type PushPayload } from '../../src/server/live/push-sender';

// Web Push in the browser (docs/decisions/0033-web-push.md): a push delivered to the service worker (CDP
// ServiceWorker.deliverPushMessage, as a push service would after the browser decrypted it) shows the
// notice as a notification with the text the server writes for a device in English or in Chinese, and a tap
// on it opens the order screen. The profile offers the switch for this device without asking the
// browser's permission on load. Screenshots in en and zh under test-results/screenshots/.

/** The member's newest notice as the server's sender makes its push for a device reading `lang`. */
function newestPush(lang: 'en' | 'cn'): PushPayload {
  const db = new Database(path.join(dataDir(), 'canopy.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT n.id AS notification_id, n.title, n.title_cn, n.body, n.body_cn, n.url FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = 'demo@canopy.sg' ORDER BY n.id DESC LIMIT 1")
      .get() as { notification_id: number; title: string; title_cn: string; body: string; body_cn: string; url: string | null };
    return pushPayload({ ...row, lang }, 1);
  } finally {
    db.close();
  }
}

/** Waits until the page's service worker registration is ready and its worker activated: a push delivered
 *  to a worker still installing or activating can be dropped without a notification. */
async function workerActivated(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const worker = reg.active;
    if (!worker || worker.state === 'activated') return;
    await new Promise<void>((resolve) => {
      const check = () => worker.state === 'activated' && resolve();
      worker.addEventListener('statechange', check);
      check();
    });
  });
}

/** Delivers `payload` to the page's service worker as a push message, once its worker is activated. */
async function deliverPush(context: BrowserContext, page: Page, payload: PushPayload): Promise<void> {
  await workerActivated(page);
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const active = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(baseUrl()));
      if (active) resolve(active.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseUrl(), registrationId: await registration, data: JSON.stringify(payload) });
}

/** Delivers `payload` until the worker shows it: once, and once more when no notification came within 10 s
 *  (a worker the browser stopped and restarted around the first delivery can miss it). */
async function deliverUntilShown(context: BrowserContext, page: Page, payload: PushPayload, expected: unknown): Promise<void> {
  await deliverPush(context, page, payload);
  try {
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(expected);
    return;
  } catch {
    await deliverPush(context, page, payload);
  }
  await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual(expected);
}

const shown = (page: Page) =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url?: string } | null)?.url })));

for (const lang of ['en', 'cn'] as const) {
  test(`a push shows its notice (${lang}) and a tap opens the order`, async ({ context, page, request }) => {
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    const token = await loginDemo(context, request, lang);
    const stamp = Date.now().toString(36);
    const projectId = await createProject({ name: `Push forest ${stamp}`, name_cn: `推送森林 ${stamp}` });
    await buyAndComplete(request, token, projectId, 1);
    const payload = newestPush(lang);
    expect(payload.title).toMatch(lang === 'en' ? /^Order B\d+ completed: / : /^订单 B\d+ 已完成：/);
    expect(payload.url).toBe('/pages/profile/order?tab=completed');

    await page.goto('/pages/profile/index');
    await waitForServiceWorkerControl(page);
    await expect(page.getByTestId('push-switch')).toBeVisible();
    await expect(page.getByTestId('push-switch')).toContainText(lang === 'en' ? 'Notifications on this device' : '此设备的通知');
    // Into the middle of the screen: the tab bar covers the bottom.
    await page.getByTestId('push-switch').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, `push-profile-${lang}`);

    await deliverUntilShown(context, page, payload, [{ title: payload.title, body: payload.body, tag: `notice-${payload.id}`, url: payload.url }]);
    // The same notice pushed again replaces the one shown (its tag), never a second one.
    await deliverPush(context, page, payload);
    await page.waitForTimeout(500);
    expect(await shown(page)).toHaveLength(1);

    // A tap on it: the worker's notificationclick opens the order screen in the app's window.
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await worker.evaluate(async () => {
      const sw = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [notification] = await sw.registration.getNotifications();
      const Click = (globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
      sw.dispatchEvent(new Click('notificationclick', { notification: notification! }));
    });
    await expect(page).toHaveURL(/\/pages\/profile\/order\?tab=completed$/, { timeout: 15_000 });
    await expect.poll(() => shown(page)).toEqual([]);
    await expect(page.getByText(lang === 'en' ? `Push forest ${stamp}` : `推送森林 ${stamp}`).first()).toBeVisible();
    await shot(page, `push-opened-order-${lang}`);
  });
}

for (const lang of ['en', 'cn'] as const) {
  test(`a subscribe the browser never answers ends after its time limit and says why (${lang})`, async ({ context, page, request }) => {
    test.setTimeout(90_000);
    // A network that blocks the browser's push service: PushManager.subscribe never settles.
    await context.addInitScript(() => {
      PushManager.prototype.subscribe = () => new Promise<PushSubscription>(() => undefined);
    });
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await loginDemo(context, request, lang);
    await page.goto('/pages/profile/index');
    await waitForServiceWorkerControl(page);
    const row = page.getByTestId('push-switch');
    await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await row.click();
    await expect(row).toBeDisabled();
    await expect(page.getByTestId('push-row-busy')).toBeVisible();
    // Within the limit (15 s) and a margin: the switch is usable again, off, and the row says why.
    const why = lang === 'en' ? "The browser's push service did not answer within 15 seconds" : '浏览器的推送服务没有在 15 秒内响应';
    await expect(page.getByTestId('push-row-failed')).toContainText(why, { timeout: 25_000 });
    await expect(row).toBeEnabled();
    await expect(row).toHaveAttribute('aria-checked', 'false');
    await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, `push-timeout-${lang}`);
  });
}

test('the profile never asks for the notification permission on load', async ({ context, page, request }) => {
  await loginDemo(context, request, 'en');
  await page.goto('/pages/profile/index');
  await expect(page.getByTestId('push-switch')).toBeVisible();
  await expect(page.getByTestId('push-switch')).toHaveAttribute('aria-checked', 'false');
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
});

test('the app badge shows the unread count and clears when the inbox is opened', async ({ context, page, request }) => {
  // The badge calls, recorded (headless Chromium draws no icon badge to look at).
  await context.addInitScript(() => {
    const calls: number[] = [];
    (window as unknown as { badgeCalls: number[] }).badgeCalls = calls;
    Object.defineProperty(navigator, 'setAppBadge', { configurable: true, value: (n: number) => (calls.push(n), Promise.resolve()) });
    Object.defineProperty(navigator, 'clearAppBadge', { configurable: true, value: () => (calls.push(0), Promise.resolve()) });
  });
  await loginDemo(context, request, 'en');
  const file = path.join(os.tmpdir(), `canopy-e2e-badge-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title: 'Badge check', body: 'Counted on the icon.' }));
  try {
    await ops(['notice:send', 'demo@canopy.sg', file]);
  } finally {
    fs.rmSync(file, { force: true });
  }
  const lastBadge = () => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls.at(-1) ?? null);
  await page.goto('/pages/profile/index');
  await expect.poll(lastBadge, { timeout: 15_000 }).toBeGreaterThan(0);
  // The badge counts the notices the inbox has not shown (docs/decisions/0046-phone-polish.md): opening it
  // clears the badge.
  await page.goto('/pages/profile/notifications');
  await expect.poll(lastBadge, { timeout: 15_000 }).toBe(0);
});
