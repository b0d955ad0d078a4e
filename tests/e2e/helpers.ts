import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import Database from 'better-sqlite3';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page, type WebSocket } from '@playwright/test';
import { E2E_SERVER_ENV, ROOT, killServer, readState, spawnServer, writeState, type ServerState } from './server-control';

// Helpers for the browser tests. global-setup.ts starts one server per worker; this worker's address and data
// directory arrive in CANOPY_E2E_BASE_URL_<i> / CANOPY_E2E_DATA_DIR_<i> / CANOPY_E2E_STATE_<i>, where i is the
// worker's parallel index.

function env(name: string): string {
  const key = `${name}_${process.env.TEST_PARALLEL_INDEX ?? '0'}`;
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set: run the browser tests with npm run test:e2e (global setup starts the servers)`);
  return value;
}

export const baseUrl = (): string => env('CANOPY_E2E_BASE_URL');
export const dataDir = (): string => env('CANOPY_E2E_DATA_DIR');
const stateFile = (): string => env('CANOPY_E2E_STATE');

/** `test` with baseURL pointing at the server the global setup started, so page.goto('/pages/...') works.
 *  Its context has seen the start screen (a fresh context is a new install, which opens "/" on the start
 *  screen: docs/decisions/0005-start.md); `test.use({ startSeen: false })` tests the first run itself. */
export const test = base.extend<{ startSeen: boolean }>({
  startSeen: [true, { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(baseUrl());
  },
  context: async ({ context, startSeen }, use) => {
    if (startSeen) await markStartSeen(context);
    await use(context);
  },
});

/** Marks the start screen seen in every page of `context` before the app's scripts run. */
export async function markStartSeen(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    try {
      if (localStorage.getItem('start_seen') === null) localStorage.setItem('start_seen', '1');
    } catch {
      // about:blank has no storage
    }
  });
}

/** A page in a context of its own at a phone's size (390x844 at 2x), logged out, the start screen seen, in `lang`. */
export async function visitorPage(browser: Browser, lang: 'en' | 'cn'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, baseURL: baseUrl() });
  await markStartSeen(context);
  await context.addInitScript(
    ([wire]) => {
      localStorage.setItem('language', JSON.stringify(wire));
    },
    [lang],
  );
  return context.newPage();
}
export { expect };

// ---------------------------------------------------------------- outbox

/** The newest verification code mailed to `email` (read from the outbox table, read-only). Waits up to 5 s. */
export async function readCode(email: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const file = path.join(dataDir(), 'canopy.db');
  for (;;) {
    if (fs.existsSync(file)) {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db
          // Receipts are mailed through the outbox too: only the mail that is not a receipt carries a code.
          .prepare('SELECT subject, body FROM outbox WHERE lower(to_email) = lower(?) AND receipt_id IS NULL ORDER BY id DESC LIMIT 1')
          .get(email.trim()) as { subject: string; body: string } | undefined;
        const code = row && (/(\d{4,8})/.exec(row.subject)?.[1] ?? /(\d{4,8})/.exec(row.body)?.[1]);
        if (code) return code;
      } finally {
        db.close();
      }
    }
    if (Date.now() > deadline) throw new Error(`no verification code in the outbox for ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The invitation token in the newest mail to `email` (the outbox, read-only). */
export function inviteToken(email: string): string {
  const db = new Database(path.join(dataDir(), 'canopy.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT body FROM outbox WHERE lower(to_email) = lower(?) ORDER BY id DESC LIMIT 1').get(email) as { body: string } | undefined;
    const m = row && /token=([A-Za-z0-9_-]+)/.exec(row.body);
    if (!m) throw new Error(`no invitation mailed to ${email}`);
    return m[1]!;
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- taking the network down

function currentState(): ServerState {
  const state = readState(stateFile());
  if (!state) throw new Error(`no server state in ${stateFile()}`);
  return state;
}

/** Stops the server (the truest "offline": every request to the origin is refused). Keeps port and data. */
export async function stopServer(): Promise<void> {
  const state = currentState();
  if (!state.pid) return;
  await killServer(state.pid, state.port);
  writeState(stateFile(), { ...state, pid: 0 });
}

/** Starts the server again on the same port and DATA_DIR; resolves when baseconfig answers. */
export async function startServer(): Promise<void> {
  const state = currentState();
  if (state.pid) return;
  const next = await spawnServer({ port: state.port, dataDir: state.dataDir, logFile: state.logFile, env: E2E_SERVER_ENV });
  writeState(stateFile(), next);
}

// ---------------------------------------------------------------- operator CLI

export interface OpsResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npx tsx src/server/ops/cli.ts ...args` against the test server's DATA_DIR. Throws on a non-zero exit
 *  unless `allowFailure`. */
export function ops(args: string[], opts: { allowFailure?: boolean; timeoutMs?: number } = {}): Promise<OpsResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['tsx', 'src/server/ops/cli.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir(), LOG_LEVEL: 'error' },
        timeout: opts.timeoutMs ?? 30_000,
        maxBuffer: 10 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        const result = { code, stdout: String(stdout), stderr: String(stderr) };
        if (code !== 0 && !opts.allowFailure) reject(new Error(`ops ${args.join(' ')} exited ${code}\n${result.stderr || result.stdout}`));
        else resolve(result);
      },
    );
  });
}

// ---------------------------------------------------------------- browser helpers

export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

/** Saves what the phone shows (390x844 at 2x; fullPage on request) as test-results/screenshots/<name>.png (gitignored). */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: opts.fullPage ?? false, animations: 'disabled' });
}

/** Waits until a service worker is active and controls this page (reloading once if it does not yet). */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const controlled = await page.evaluate(() => !!navigator.serviceWorker.controller);
  if (!controlled) await page.reload({ waitUntil: 'load' });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 15_000 }).toBe(true);
}

/**
 * Follows the page's live socket from now on: `ready()` resolves once the socket open now has said hello
 * (connected and subscribed), the one opened after a reload included. A message published before that is
 * not replayed to it (docs/product.md#live-updates: the inbox keeps it), so a test that waits for a live
 * toast first waits for this: waitForServiceWorkerControl may reload the page, and the news of an order
 * that completed while the reloaded app was starting never reached it as a toast.
 */
export function followLiveSocket(page: Page): { ready(timeout?: number): Promise<void> } {
  let current: { ws: WebSocket; hello: boolean } | null = null;
  // A new document (a reload) ends the old one's socket; Playwright does not always report its close.
  page.on('domcontentloaded', () => {
    current = null;
  });
  page.on('websocket', (ws) => {
    const entry = { ws, hello: false };
    current = entry;
    ws.on('framereceived', (f) => {
      if (String(f.payload).includes('"hello"')) entry.hello = true;
    });
    ws.on('close', () => {
      if (current === entry) current = null;
    });
  });
  return {
    ready: (timeout = 20_000) =>
      expect
        .poll(() => {
          const live = current as { ws: WebSocket; hello: boolean } | null;
          return live !== null && live.hello && !live.ws.isClosed();
        }, { timeout, message: 'the live socket says hello' })
        .toBe(true),
  };
}

/** Reads the stored session (the stored-session keys of docs/product.md#entities) from localStorage. */
export async function storedLogin(page: Page): Promise<{ isLogin: boolean; memId: number; token: string }> {
  return page.evaluate(() => {
    const read = (k: string) => {
      try {
        return JSON.parse(localStorage.getItem(k) ?? 'null') as unknown;
      } catch {
        return null;
      }
    };
    const info = (read('login_info') ?? {}) as { mem_id?: number };
    return { isLogin: read('isLogin') === true, memId: info.mem_id ?? 0, token: (read('token') as string | null) ?? '' };
  });
}

/** A unique e-mail address for one test run. */
export function uniqueEmail(tag = 'e2e'): string {
  return `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`;
}

/** Creates a project through the operator CLI; returns its id. */
export async function createProject(fields: Record<string, unknown>, opts: { block?: boolean } = {}): Promise<number> {
  const file = path.join(os.tmpdir(), `canopy-e2e-project-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const now = Date.now();
  const project = {
    location: 'Sabah, Malaysia',
    type: 'forestry',
    standard: 'VCS',
    status: 'in_progress',
    price: 2000,
    min_tons: 1,
    max_tons: 100,
    total_tons: 10_000,
    selling_time: new Date(now - 86_400_000).toISOString(),
    end_time: new Date(now + 30 * 86_400_000).toISOString(),
    cycle_value: 1,
    cycle_unit: 'minutes',
    yield_bp: 500,
    company: 'E2E Test Forestry Sdn Bhd',
    registry_id: 'VCS-E2E',
    intro: 'A project created by the browser tests.',
    ...fields,
  };
  fs.writeFileSync(file, JSON.stringify(project));
  let id: number;
  try {
    const out = await ops(['project:create', file, '--json']);
    id = (JSON.parse(out.stdout) as { data: { id: number } }).data.id;
  } finally {
    fs.rmSync(file, { force: true });
  }
  // A project sells only what it holds on its registry (docs/product.md#registry-inventory): the operator adds
  // the block of its whole supply, in the format of the registry it names (unless the spec adds its own).
  if (opts.block === false) return id;
  const facts: Record<string, unknown> = project;
  const tons = Number(facts.total_tons);
  const vintage = typeof facts.vintage === 'number' && facts.vintage > 1990 ? facts.vintage : 2025;
  const number = String(facts.registry_id).replace(/\D/g, '') || String(id);
  const range =
    facts.registry === 'Gold Standard'
      ? `GS1-1-MY-GS${number}-16-${vintage}-${80_000 + id}-1-${tons}`
      : `${80_000 + id}-1-${tons}-VCS-VCU-1-VER-MY-14-${number}-0101${vintage}-3112${vintage}-0`;
  await ops(['inventory:add', String(id), range]);
  return id;
}

// ---------------------------------------------------------------- the member's API and bought credits

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Calls the API as a signed-in member (`token`), in English, with a fresh Idempotency-Key on writes. */
export async function memberApi<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST', p: string, data: Record<string, unknown> = {}): Promise<Envelope<T>> {
  const url = `${baseUrl()}/h5/api${p}`;
  const headers = { Authorization: token, 'Idempotency-Key': `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  const res =
    method === 'GET'
      ? await request.get(url, { headers, params: { lang: 'en', ...(data as Record<string, string>) } })
      : await request.post(url, { headers, data: { lang: 'en', ...data } });
  return (await res.json()) as Envelope<T>;
}

/** Tons of `projectId` the member holds (GET /api/order/credits). */
export async function heldTons(request: APIRequestContext, token: string, projectId: number): Promise<number> {
  const res = await memberApi<{ holdings: { project_id: number; tons: number }[] }>(request, token, 'GET', '/api/order/credits');
  return res.data?.holdings.filter((h) => h.project_id === projectId).reduce((sum, h) => sum + h.tons, 0) ?? 0;
}

/**
 * Buys `tons` of a project through the API with the demo payment password, and has the real scheduler
 * complete the purchase without waiting out its cycle: the order's cycle_end is moved to now in the test
 * server's own database (nothing in the server or the CLI can do that), and the scheduler, which ticks every
 * 2 s, completes it as it would at the end of the cycle (credits, fund logs, socket events). Resolves with
 * the tons then held of the project, once they include the purchase.
 */
export async function buyAndComplete(request: APIRequestContext, token: string, projectId: number, tons: number): Promise<number> {
  const before = await heldTons(request, token, projectId);
  const bought = await memberApi<{ id: number; status: string }>(request, token, 'POST', '/api/order/buy', { project_id: projectId, tons, password: DEMO.pay });
  expect(bought.code, bought.msg).toBe(0);
  expect(bought.data.status).toBe('in_progress');
  endCycleNow(bought.data.id);
  let held = before;
  await expect
    .poll(
      async () => {
        held = await heldTons(request, token, projectId);
        return held;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBeGreaterThanOrEqual(before + tons);
  return held;
}

/** Moves a buy order's end of cycle to now in the server's SQLite file (WAL: the server's reads and writes go on). */
export function endCycleNow(orderId: number): void {
  const db = new Database(path.join(dataDir(), 'canopy.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const changed = db.prepare("UPDATE orders SET cycle_end = ? WHERE id = ? AND side = 'buy' AND status = 'in_progress'").run(Date.now(), orderId).changes;
    if (changed !== 1) throw new Error(`order ${orderId}: no buy order in progress to complete`);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- sign-in without the forms

export const E2E_PASSWORD = 'Forest2026ok';

/** Registers a user through the API (with `company`, a corporate registration: the organisation and its owner)
 *  and stores the session the way the app does (the stored-session keys of docs/product.md#entities), in every
 *  page of `context` opened from now on, with `lang` the language too. */
export async function registerViaApi(context: BrowserContext, request: APIRequestContext, email: string, opts: { company?: string; lang?: 'en' | 'cn' } = {}): Promise<{ token: string }> {
  const api = (p: string) => `${baseUrl()}/h5/api${p}`;
  const sent = (await (await request.post(api('/api/login/sendcode'), { data: { email, scene: 'register', lang: 'en' } })).json()) as { code: number; msg: string };
  expect(sent.code, sent.msg).toBe(0);
  const code = await readCode(email);
  const res = await request.post(api('/api/login/register'), {
    data: { email, code, password: E2E_PASSWORD, repassword: E2E_PASSWORD, agree: true, lang: 'en', ...(opts.company === undefined ? { type: 'personal' } : { type: 'corporate', company: opts.company, uen: '201912345K' }) },
  });
  const body = (await res.json()) as {
    code: number;
    msg: string;
    data: { token: string; mem_id: number; realname: string; account: string; mobile: string; avatar: string; type: string };
  };
  expect(body.code, body.msg).toBe(0);
  await storeSession(context, body.data, opts.lang);
  return { token: body.data.token };
}

type LoginData = { token: string; mem_id: number; realname: string; account: string; mobile: string; avatar: string; type: string };

/** Stores a session the way the app does (the stored-session keys of docs/product.md#entities) in every page
 *  of `context` opened from now on, and with `lang` the language too (wire value: 'en' or 'cn'). */
export async function storeSession(context: BrowserContext, data: LoginData, lang?: 'en' | 'cn'): Promise<void> {
  const { token, mem_id, realname, account, mobile, avatar, type } = data;
  await context.addInitScript(
    ([t, l, wire]) => {
      if (wire) localStorage.setItem('language', JSON.stringify(wire));
      if (localStorage.getItem('token')) return;
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('login_info', JSON.stringify(l));
      localStorage.setItem('isLogin', 'true');
    },
    [token, { mem_id, realname, account, mobile, avatar, type }, lang ?? null] as const,
  );
}

/** The seeded demo member (src/server/db/seed.ts). */
export const DEMO = { email: 'demo@canopy.sg', password: 'Canopy2026', pay: 'Canopy#2026x' };

/** Logs the demo member in through the API and stores the session and language before the first load. */
export async function loginDemo(context: BrowserContext, request: APIRequestContext, lang: 'en' | 'cn' = 'en'): Promise<string> {
  const res = await request.post(`${baseUrl()}/h5/api/api/login/login`, {
    data: { email: DEMO.email, password: DEMO.password, type: 'personal', agree: true, lang: 'en', t: Date.now() },
  });
  const body = (await res.json()) as { code: number; msg: string; data: LoginData };
  expect(body.code, body.msg).toBe(0);
  await storeSession(context, body.data, lang);
  return body.data.token;
}
