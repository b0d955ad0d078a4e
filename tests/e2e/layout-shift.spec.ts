import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './helpers';

// The start screens hold still while they load (Cumulative Layout Shift, which Lighthouse's performance
// score weighs: bench/lighthouse.ts): home, the project list and a project's detail, in English and Chinese,
// on a first load with nothing kept and on a return visit, where the boot shell paints the last-seen screen
// (public/boot-shell.js) and React's first render takes its place. Every layout shift the page reports
// counts, with or without recent input. No service worker (as Lighthouse's runs start), and every built
// script and stylesheet slowed a little, as on a phone's network with nothing in its HTTP cache, so a frame
// painted before a screen's own stylesheet has arrived is one this test sees.

test.use({ serviceWorkers: 'block' });

const SLOW_ASSET_MS = 250;

interface Shift {
  value: number;
  sources: string[];
}

type Recorded = { __layoutShifts: Shift[]; __bootSnapshotPainted: boolean };

async function prepare(context: BrowserContext, lang: 'en' | 'cn'): Promise<void> {
  await context.addInitScript((wire) => {
    localStorage.setItem('language', JSON.stringify(wire));
    const w = window as unknown as Recorded;
    w.__layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node | null }[] })[]) {
        const sources = (entry.sources ?? []).map((s) => {
          const node = s.node;
          return node instanceof Element ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}` : String(node?.nodeName ?? '?');
        });
        w.__layoutShifts.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // The boot shell marks a painted snapshot (it may wait for the screen's stylesheets first).
    w.__bootSnapshotPainted = false;
    new MutationObserver((_, observer) => {
      if (document.querySelector('#boot-shell[data-snapshot]') === null) return;
      w.__bootSnapshotPainted = true;
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-snapshot'] });
  }, lang);
  await context.route('**/assets/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_ASSET_MS));
    await route.continue();
  });
}

/** Opens `path`, waits until React has drawn it and the network and screen are quiet, and returns its shifts. */
async function loadAndSettle(page: Page, path: string, ready: string, lang: 'en' | 'cn'): Promise<{ shifts: Shift[]; snapshot: boolean }> {
  await page.goto(path);
  await expect(page.locator(ready).first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'cn' ? 'zh-Hans' : 'en');
  await expect(page.locator('#boot-shell')).toHaveCount(0); // React's first commit replaced the boot shell
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500); // a late answer's render lands after the network went quiet
  return page.evaluate(() => {
    const w = window as unknown as Recorded;
    return { shifts: w.__layoutShifts, snapshot: w.__bootSnapshotPainted };
  });
}

const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0);

const SCREENS = [
  { name: 'home', path: '/pages/index/index', ready: '[data-testid="project-card"]', snapshotKey: 'boot_snapshot:home' },
  { name: 'the project list', path: '/pages/project/index', ready: '[data-testid="project-card"]', snapshotKey: 'boot_snapshot:projects' },
  { name: "a project's detail", path: '/pages/project/project?id=1', ready: '[data-testid="project-status"]', snapshotKey: null },
] as const;

for (const lang of ['en', 'cn'] as const) {
  for (const screen of SCREENS) {
    test(`${screen.name} does not shift its layout on a first load or a return visit (${lang})`, async ({ context }) => {
      await prepare(context, lang);
      const first = await context.newPage();
      const cold = await loadAndSettle(first, screen.path, screen.ready, lang);
      expect(cold.snapshot).toBe(false);
      expect(total(cold.shifts), `first load: ${JSON.stringify(cold.shifts)}`).toBe(0);
      if (!screen.snapshotKey) return;

      // The screen at rest is kept for the boot shell; the next start paints it before any app code runs.
      await expect.poll(() => first.evaluate((key) => localStorage.getItem(key) !== null, screen.snapshotKey)).toBe(true);
      await first.close();
      const again = await loadAndSettle(await context.newPage(), screen.path, screen.ready, lang);
      expect(again.snapshot).toBe(true);
      expect(total(again.shifts), `return visit: ${JSON.stringify(again.shifts)}`).toBe(0);
    });
  }
}
