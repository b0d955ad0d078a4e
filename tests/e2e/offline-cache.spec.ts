import type { Page, Response } from '@playwright/test';
import { createProject, expect, ops, shot, startServer, stopServer, test, waitForServiceWorkerControl } from './helpers';

// docs/product.md#offline: API reads come from the service worker's cache under stable keys (no cache-busting
// `t`), and the offline bar stays truthful although those reads succeed: with the server stopped the
// project list and a project's detail open from the cache and the bar shows; when the server returns the
// bar goes away by itself (no reload) and the screen shows the server's new data.

const API_CACHE = 'canopy-content-api';

interface ProjectRead {
  path: string;
  status: number;
  fromServiceWorker: boolean;
}

/** Every answer the page got for /h5/api/api/project/... reads, from now on. */
function recordProjectReads(page: Page): ProjectRead[] {
  const reads: ProjectRead[] = [];
  page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/h5/api/api/project/') || res.request().method() !== 'GET') return;
    reads.push({ path: url.pathname, status: res.status(), fromServiceWorker: res.fromServiceWorker() });
  });
  return reads;
}

const cachedApiKeys = (page: Page) =>
  page.evaluate(async (name) => {
    const cache = await caches.open(name);
    return (await cache.keys()).map((r) => r.url);
  }, API_CACHE);

test('offline: project list and detail answered by the service worker cache, the bar shows; back online it goes and data refreshes', async ({ page }) => {
  const now = Date.now();
  const name = `E2E Offline Grove ${now.toString(36)}`;
  // A pre-sale selling in two days: the scheduler leaves it alone; the operator opens it while the server is down.
  const id = await createProject({ name, status: 'presale', presale_price: 1200, selling_time: new Date(now + 2 * 86_400_000).toISOString() });

  // Online, under the service worker: the project tab and this project's detail.
  await page.goto('/pages/project/index');
  await waitForServiceWorkerControl(page);
  await page.reload();
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await page.goto(`/pages/project/project?id=${id}`);
  await expect(page.getByTestId('project-status')).toHaveText('Pre-sale');
  await page.goto('/pages/project/index');
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await page.waitForLoadState('networkidle');

  // Stable keys: lang and the real parameters, no timestamp, so the next identical read hits.
  const keys = await cachedApiKeys(page);
  expect(keys.some((k) => k.includes('/h5/api/api/project/lists?'))).toBe(true);
  expect(keys.some((k) => k.includes('/h5/api/api/project/detail?') && new URL(k).searchParams.get('id') === String(id))).toBe(true);
  for (const key of keys) {
    expect(new URL(key).searchParams.has('t'), key).toBe(false);
    expect(new URL(key).searchParams.get('lang'), key).toBe('en');
  }

  // The device's store no longer holds this project (its write was still waiting for the store when the page
  // was left, or the browser evicted it): offline, the service worker's copy is still enough to show it.
  await page.evaluate(
    ([store, pid]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(store);
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const tx = open.result.transaction('projects', 'readwrite');
          tx.objectStore('projects').delete(pid);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(new Error(String(tx.error)));
        };
      }),
    ['canopy', id] as const,
  );

  const reads = recordProjectReads(page);
  await stopServer();
  try {
    await page.reload();
    await expect(page.getByTestId('project-card').first()).toBeVisible();
    await expect(page.getByTestId('offline-bar')).toBeVisible();
    // The list read was answered (200) by the service worker although nothing listens on the port.
    await expect.poll(() => reads.some((r) => r.path.endsWith('/lists') && r.status === 200 && r.fromServiceWorker)).toBe(true);
    await shot(page, 'en-offline-cache-projects');

    await page.goto(`/pages/project/project?id=${id}`);
    await expect(page.getByTestId('project-status')).toHaveText('Pre-sale');
    await expect(page.getByTestId('offline-bar')).toBeVisible();
    await expect.poll(() => reads.some((r) => r.path.endsWith('/detail') && r.status === 200 && r.fromServiceWorker)).toBe(true);
    // Still offline a while later: an answer from the cache never counts as the server being reachable.
    await page.waitForTimeout(1500);
    await expect(page.getByTestId('offline-bar')).toBeVisible();
    // And the project is still on screen once the device's store has answered that it does not hold it.
    await expect(page.getByTestId('project-status')).toHaveText('Pre-sale');
    await shot(page, 'en-offline-cache-detail');

    // Meanwhile the operator opens the sale (straight into the database).
    await ops(['project:status', String(id), 'in_progress']);
  } finally {
    await startServer();
  }

  // Back: no reload. The app notices the server by itself, the bar goes, the screen shows the new status.
  await expect(page.getByTestId('offline-bar')).toBeHidden({ timeout: 15_000 });
  await expect(page.getByTestId('project-status')).toHaveText('In progress', { timeout: 10_000 });
  // The list, opened in the app, shows the new status too (the cache was revalidated, not just read).
  await page.goto('/pages/project/index');
  await expect(page.getByTestId('offline-bar')).toBeHidden();
  const card = page.getByTestId('project-card').filter({ hasText: name }).first();
  await expect(card).toBeVisible();
  await expect(card.locator('.status')).toHaveText('In progress');
});
