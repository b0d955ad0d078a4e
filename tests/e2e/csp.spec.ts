import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BrowserContext, ConsoleMessage, Locator, Page } from '@playwright/test';
import { expect, storedLogin, test, waitForServiceWorkerControl } from './helpers';
import { ROOT } from './server-control';

// Headers on every answer (tests/server/headers.test.ts), browser half: the app runs under its
// Content-Security-Policy (src/server/static.ts) without a single violation. A phone walks home, the project
// list, a project, logs in with the demo account through the form, opens the profile; the service worker
// takes control, the live socket opens and says hello, and a new service worker version brings up the update
// prompt, whose Reload swaps the worker and reloads the page. Violations are collected three ways: the
// securitypolicyviolation event (an init script records it into window and reports it here, so reloads lose
// nothing), the console ("... violates the following Content Security Policy directive ..."), and the service
// worker's console.

const DEMO = { email: 'demo@canopy.sg', password: 'Canopy2026' };
const UPDATE_TEXT = /A new version of Canopy is ready/;

interface Violation {
  via: string;
  directive: string;
  blocked: string;
  where: string;
  sample?: string;
}

function pick(...candidates: Locator[]): Locator {
  return candidates.reduce((acc, next) => acc.or(next)).first();
}

const tabBar = (page: Page) => page.getByRole('navigation').filter({ has: page.getByRole('link') }).last();
const projectCards = (page: Page) => page.getByTestId('project-card');

/** Makes the server offer a new version of the service worker: dist/sw.js (and its .gz) with a comment
 *  added. Returns the function that puts both back as they were, times included (the build's staleness
 *  check reads them). */
function offerNewServiceWorker(): () => void {
  const files = [path.join(ROOT, 'dist', 'sw.js'), path.join(ROOT, 'dist', 'sw.js.gz')].filter((f) => fs.existsSync(f));
  const saved = files.map((file) => ({ file, bytes: fs.readFileSync(file), stat: fs.statSync(file) }));
  const next = Buffer.concat([fs.readFileSync(files[0]!), Buffer.from(`\n// csp.spec.ts: a new version ${Date.now()}\n`)]);
  fs.writeFileSync(files[0]!, next);
  if (files[1]) fs.writeFileSync(files[1], zlib.gzipSync(next));
  return () => {
    for (const { file, bytes, stat } of saved) {
      fs.writeFileSync(file, bytes);
      fs.utimesSync(file, stat.atime, stat.mtime);
    }
  };
}

/** Whether the boot shell still had its banner when the HTML was parsed (recorded by watchViolations' init
 *  script at DOMContentLoaded, before the app renders over the shell). */
async function bootHeroAtDomReady(page: Page): Promise<boolean | null> {
  return page.evaluate(() => (window as unknown as { __bootHero?: boolean }).__bootHero ?? null);
}

/** Starts collecting every CSP violation of this context (pages, reloads, the service worker). */
async function watchViolations(context: BrowserContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  await context.exposeBinding('__canopyCspViolation', (_source, v: Omit<Violation, 'via'>) => {
    violations.push({ via: 'securitypolicyviolation', ...v });
  });
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations: unknown[]; __bootHero?: boolean; __canopyCspViolation?: (v: unknown) => void };
    w.__cspViolations = [];
    document.addEventListener('DOMContentLoaded', () => {
      w.__bootHero = !!document.getElementById('boot-hero');
    });
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const v = { directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, where: `${e.sourceFile}:${e.lineNumber}`, sample: e.sample };
        w.__cspViolations.push(v);
        void w.__canopyCspViolation?.(v);
      },
      true,
    );
  });
  const fromConsole = (via: string) => (msg: ConsoleMessage) => {
    if (!/Content[- ]Security[- ]Policy/i.test(msg.text())) return;
    violations.push({ via, directive: '', blocked: '', where: `${msg.location().url}:${msg.location().lineNumber}`, sample: msg.text() });
  };
  context.on('console', fromConsole('console'));
  const watchWorker = (w: { on(event: 'console', listener: (m: ConsoleMessage) => void): unknown }) => w.on('console', fromConsole('service worker console'));
  context.on('serviceworker', watchWorker);
  for (const w of context.serviceWorkers()) watchWorker(w);
  return violations;
}

test('the app runs under its Content-Security-Policy with no violation', async ({ page, context }) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(context);
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));

  // Home, straight from the server: the policy is on the answer.
  const bootScript = page.waitForResponse((r) => new URL(r.url()).pathname === '/boot-shell.js');
  const first = await page.goto('/');
  const csp = first?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect((await bootScript).status()).toBe(200);
  await expect(projectCards(page).first()).toBeVisible();
  expect(await bootHeroAtDomReady(page), 'banner in the boot shell of /').toBe(true);
  await waitForServiceWorkerControl(page);

  // The project tab and one project.
  await tabBar(page).getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/pages\/project\/index/);
  await expect(projectCards(page).first()).toBeVisible();
  await projectCards(page).first().click();
  await expect(page).toHaveURL(/\/pages\/project\/project\?id=\d+/);
  await page.waitForLoadState('networkidle');

  // A full load of a route other than home (the shell from the service worker now): the boot shell's
  // script ran under the policy and took the banner out before the app started.
  await page.goto('/pages/project/index');
  expect(await bootHeroAtDomReady(page), 'banner in the boot shell of /pages/project/index').toBe(false);

  // Log in with the demo account through the form; the live socket opens for the member and says hello.
  const socketOpen = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('mem_id='), timeout: 30_000 });
  await page.goto('/pages/login/index');
  await pick(page.getByTestId('login-email'), page.getByRole('textbox', { name: /e-?mail|account/i })).fill(DEMO.email);
  await pick(page.getByTestId('login-password'), page.getByLabel(/^password$/i)).fill(DEMO.password);
  const agree = pick(page.getByTestId('login-agree'), page.getByRole('checkbox', { name: /agree|terms|protocol|privacy/i }));
  if (await agree.count()) await agree.check();
  await pick(page.getByTestId('login-submit'), page.getByRole('button', { name: /^(log ?in|sign ?in)$/i })).click();
  await expect.poll(async () => (await storedLogin(page)).isLogin, { message: 'signed in' }).toBe(true);
  const ws = await socketOpen;
  const hello = await ws.waitForEvent('framereceived', { predicate: (f) => typeof f.payload === 'string' && f.payload.includes('hello'), timeout: 15_000 });
  expect(String(hello.payload)).toContain('hello');
  expect(ws.isClosed()).toBe(false);

  // The profile, signed in.
  await page.goto('/pages/profile/index');
  await expect(page.getByTestId('wallet-available')).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The update prompt: the server offers a new service worker (the same one, a comment longer: routes
  // do not see the browser's update check, so dist/sw.js itself changes for a moment and is put back);
  // the prompt (mounted a moment after start) shows, and Reload activates the new worker and reloads.
  await page.waitForTimeout(3000);
  const swUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
  expect(swUrl).toMatch(/\/sw\.js$/);
  const swHeaders = (await page.request.get('/sw.js')).headers();
  expect(swHeaders['content-security-policy'], 'the service worker script has its own policy').toContain("default-src 'self'");
  const restoreSw = offerNewServiceWorker();
  try {
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update();
    });
    const prompt = page.getByRole('alert').filter({ hasText: UPDATE_TEXT });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(page.getByTestId('wallet-available')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: UPDATE_TEXT })).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  } finally {
    restoreSw();
  }
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);

  const recorded = (await page.evaluate(() => (window as unknown as { __cspViolations: unknown[] }).__cspViolations)) ?? [];
  test.info().annotations.push({ type: 'csp-violations', description: String(violations.length) });
  console.log(`[csp] ${violations.length} violations; sockets opened: ${sockets.length}; policy: ${csp}`);
  expect(recorded).toEqual([]);
  expect(violations).toEqual([]);
});

test('the violation watch sees a violation (so zero above means zero)', async ({ page, context }) => {
  const violations = await watchViolations(context);
  await page.goto('/pages/project/index');
  await expect(projectCards(page).first()).toBeVisible();
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true;';
    document.body.append(s);
  });
  await expect.poll(() => violations.map((v) => v.via).sort()).toEqual(['console', 'securitypolicyviolation']);
  expect(violations.find((v) => v.via === 'securitypolicyviolation')?.directive).toBe('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false)).toBe(false);
});
