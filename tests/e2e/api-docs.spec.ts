import fs from 'node:fs';
import { expect, test } from './helpers';

// GET /h5/api/docs is an interactive reference of /h5/api/openapi.json (Swagger UI served
// by the server from node_modules, nothing from a CDN), working under its own strict CSP without a single
// violation: collected from the securitypolicyviolation event (an init script records them) and from the
// console. Every request the page makes stays on this origin.

const SHOTS = '/tmp/contract-shots';

test('the API reference renders the operations with zero CSP violations', async ({ page, baseURL }) => {
  const consoleProblems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy|Refused to/i.test(msg.text())) consoleProblems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => consoleProblems.push(`pageerror: ${err.message}`));
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('response', (r) => {
    if (r.status() >= 400) consoleProblems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });

  const res = await page.goto('/h5/api/docs');
  expect(res?.status()).toBe(200);
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');

  // Operations by their summary and operationId (displayOperationId), grouped by tag.
  await expect(page.getByRole('heading', { name: 'Canopy API' }).first()).toBeVisible();
  await expect(page.locator('.opblock-tag', { hasText: 'Orders' })).toBeVisible();
  await expect(page.getByText('Buy tons of a selling project (payment password)')).toBeVisible();
  await expect(page.locator('.opblock-summary-operation-id', { hasText: 'orderBuy' })).toBeVisible();
  expect(await page.locator('.opblock').count()).toBeGreaterThan(40);

  // An operation opens with its answer schema and the refusals it lists.
  await page.locator('.opblock-summary', { hasText: 'orderBuy' }).click();
  await expect(page.getByText('1606 insufficient_remaining: Insufficient amount remaining.').first()).toBeVisible();

  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/api-docs-390x844.png` });
  await page.goto('/h5/api/docs');
  await expect(page.locator('.opblock').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/api-docs-top-390x844.png` });

  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  expect(violations).toEqual([]);
  expect(consoleProblems).toEqual([]);
  const origin = new URL(baseURL!).origin;
  expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
});

test('the page fails its CSP check when something breaks the policy (the check can fail)', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.violatedDirective));
  });
  await page.goto('/h5/api/docs');
  await expect(page.locator('.opblock').first()).toBeVisible();
  // An inline script, as a careless change would add: refused by the page's policy, and recorded.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.appendChild(s);
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
});
