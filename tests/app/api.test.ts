// The client request layer (src/app/lib/api.ts; docs/product.md#api-conventions and
// docs/product.md#error-catalogue) in Node: against the real server, and against a small echo server that
// records what it received and answers what a test asks for.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// The module reads localStorage (login info, token, language, base settings) and navigator.onLine.
import { storage as memoryStorage } from './browser-globals';

import { configureApi, FROM_CACHE_HEADER, get, post, request } from '../../src/app/lib/api';
import { isOnlineNow, noteReachable } from '../../src/app/lib/online';
import { clearSession, getSession, KEYS, saveBaseSettings, saveLogin, type BaseSettings } from '../../src/app/lib/storage';
import { API_BASE, PATHS } from '../../src/shared/api';
import { REQUEST_TIMEOUT_MS } from '../../src/shared/constants';
import { errorMessage } from '../../src/shared/errors';
import { DEMO_ACCOUNT } from '../../src/server/db/seed';
import { startTestServer, type TestServer } from '../helpers/server';

interface Seen {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer = { status?: number; body?: string; headers?: Record<string, string> } | 'hang';

let server: TestServer;
let echo: http.Server;
let echoUrl = '';
let seen: Seen[] = [];
let answer: (req: Seen) => Answer = () => ({ body: JSON.stringify({ code: 0, msg: 'ok', data: null }) });
const hanging = new Set<http.ServerResponse>();

const hooks = { toast: vi.fn(), onSignedOut: vi.fn(), onTimeout: vi.fn() };

beforeAll(async () => {
  server = await startTestServer();
  echo = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://echo'), headers: req.headers, body };
      seen.push(s);
      const a = answer(s);
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(a.status ?? 200, { 'Content-Type': 'application/json', ...(a.headers ?? {}) });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  echo.closeAllConnections();
  await new Promise<void>((r) => echo.close(() => r()));
  await server?.close();
});

beforeEach(() => {
  memoryStorage.clear();
  clearSession();
  seen = [];
  answer = () => ({ body: JSON.stringify({ code: 0, msg: 'ok', data: null }) });
  hooks.toast.mockReset();
  hooks.onSignedOut.mockReset();
  hooks.onTimeout.mockReset();
  (globalThis.navigator as { onLine: boolean }).onLine = true;
  noteReachable(true);
  configureApi({ origin: server.url, ...hooks });
});

afterEach(() => {
  vi.useRealTimers();
});

const useEcho = () => configureApi({ origin: echoUrl });
const setLanguage = (lang: 'en' | 'cn') => memoryStorage.setItem(KEYS.language, JSON.stringify(lang));
const login = (token: string, mem_id = 7) => saveLogin({ token, mem_id, realname: 'A B', account: 'a@b.sg', mobile: '', avatar: '', type: 'personal', expires_at: 0 });
const baseSettings = (version: string): BaseSettings => ({
  version,
  socket_host: 'ws://x/h5/ws',
  currency: 'SGD',
  server_time_ms: 0,
  registration_open: true,
  limits: { withdraw_min: 0, withdraw_max: 0, withdraw_fee: 0, withdraw_fee_bp: 0, topup_min: 0, presale_fee_bp: 0, settlement_working_days: 2 },
});

describe('against the real server', () => {
  it('gets baseconfig under /h5/api, normalised', async () => {
    const res = await get<{ version: string; socket_host: string }>(PATHS.baseconfig);
    expect(res.code).toBe(0);
    expect(res.data.version).toBe('1.0.0');
    expect(res.data.socket_host).toMatch(/\/h5\/ws$/);
    expect(res.wait).toBe(3);
    expect(res.time).toBe(server.clock.now());
    expect(hooks.toast).not.toHaveBeenCalled();
  });

  it('logs in, sends the stored token, and signs out on code -1 after logout', async () => {
    const res = await post<{ token: string; mem_id: number }>(PATHS.login, { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password, agree: true });
    expect(res.code).toBe(0);
    saveLogin(res.data as never);
    const info = await get<{ mem_id: number }>(PATHS.userInfo);
    expect(info.code).toBe(0);
    expect(info.data.mem_id).toBe(res.data.mem_id);
    expect((await post(PATHS.logout)).code).toBe(0);
    expect(getSession().token).toBe(res.data.token); // logging out is the caller's business; the token stays until told
    const after = await get(PATHS.userInfo);
    expect(after).toMatchObject({ code: -1, msg: errorMessage('session_expired', 'en') });
    expect(hooks.onSignedOut).toHaveBeenCalledTimes(1);
    expect(hooks.onSignedOut).toHaveBeenCalledWith(true); // a member was signed out: the login screen says why
    expect(getSession()).toMatchObject({ token: '', isLogin: false });
    expect(memoryStorage.getItem(KEYS.token)).toBeNull();
  });

  it('a business refusal is returned as is, in the stored language, without toast or sign-out', async () => {
    setLanguage('cn');
    const res = await post(PATHS.login, { email: 'nobody@example.sg', password: 'Whatever1', agree: true });
    expect(res).toMatchObject({ code: 1101, msg: errorMessage('login_incorrect', 'cn'), data: null, wait: 3 });
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });
});

describe('what goes on the wire', () => {
  it('GET: data, lang and v in the query string, no timestamp (the URL is the cache key); token, no-cache and JSON headers', async () => {
    useEcho();
    login('tok-123456789012345678901234');
    saveBaseSettings(baseSettings('9.9.9'));
    await get('/api/x/y', { page: 2, q: 'mangrove forest' });
    await get('/api/x/y', { page: 2, q: 'mangrove forest' });
    expect(seen).toHaveLength(2);
    const r = seen[0]!;
    expect(r.method).toBe('GET');
    expect(r.url.pathname).toBe(`${API_BASE}/api/x/y`);
    expect(Object.fromEntries(r.url.searchParams)).toEqual({ page: '2', q: 'mangrove forest', lang: 'en', v: '9.9.9' });
    // The same read twice is the same URL: the service worker's cache can answer it.
    expect(seen[1]!.url.search).toBe(r.url.search);
    expect(r.headers.authorization).toBe('tok-123456789012345678901234');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers.pragma).toBe('no-cache');
    expect(r.headers.accept).toContain('application/json');
    expect(r.headers['idempotency-key']).toBeUndefined();
    expect(r.body).toBe('');
  });

  it('POST: JSON body with data, lang, t and v; Idempotency-Key when given; lang cn when stored', async () => {
    useEcho();
    setLanguage('cn');
    await post('/api/wallet/topup', { amount: 1000, method: 'paynow' }, { idempotencyKey: 'intent-1' });
    const r = seen[0]!;
    expect(r.method).toBe('POST');
    expect(r.url.pathname).toBe(`${API_BASE}/api/wallet/topup`);
    expect(r.url.search).toBe('');
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.headers['idempotency-key']).toBe('intent-1');
    expect(r.headers.authorization ?? '').toBe(''); // nobody signed in
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(body).toMatchObject({ amount: 1000, method: 'paynow', lang: 'cn', v: '' });
    expect(typeof body.t).toBe('number');
  });
});

describe('answers', () => {
  it('normalises the envelope: wait 3 and time "" when missing, data null when missing', async () => {
    useEcho();
    answer = () => ({ body: JSON.stringify({ code: 0, msg: 'ok', data: { a: 1 } }) });
    expect(await get('/api/x')).toEqual({ code: 0, msg: 'ok', data: { a: 1 }, wait: 3, time: '' });
    answer = () => ({ body: JSON.stringify({ code: '0', wait: 5, time: 1234 }) });
    expect(await get('/api/x')).toEqual({ code: 0, msg: '', data: null, wait: 5, time: 1234 });
    answer = () => ({ body: JSON.stringify({ code: 1204, msg: 'Bulk', data: { field: 'email' } }) });
    expect(await post('/api/x')).toEqual({ code: 1204, msg: 'Bulk', data: { field: 'email' }, wait: 3, time: '' });
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });

  it('a throttle (429 with the envelope) is a refusal with its own code and message, not a network error', async () => {
    useEcho();
    hooks.toast.mockReset();
    answer = () => ({ status: 429, headers: { 'Retry-After': '30' }, body: JSON.stringify({ code: 1004, msg: '请求过于频繁，请稍候再试。', data: { retry_after: 30 }, wait: 3, time: 1 }) });
    const res = await post('/api/x');
    expect(res).toMatchObject({ code: 1004, msg: '请求过于频繁，请稍候再试。', data: null });
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });

  it('the database briefly away (503 with code 5) says so in its own words, not "Network error"', async () => {
    useEcho();
    hooks.toast.mockReset();
    const msg = '服务暂时不可用，请稍后重试。';
    answer = () => ({ status: 503, headers: { 'Retry-After': '2' }, body: JSON.stringify({ code: 5, msg, data: null, wait: 3, time: 1 }) });
    const res = await post('/api/x');
    expect(res).toMatchObject({ code: 5, msg, data: null });
    expect(hooks.toast).toHaveBeenCalledWith(msg, 'error');
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });

  it('a status other than 200/204 is a failure: "Network error" toast, code = status', async () => {
    useEcho();
    for (const status of [500, 502, 404, 413]) {
      hooks.toast.mockReset();
      answer = () => ({ status, body: 'oops' });
      const res = await get('/api/x');
      expect(res.code).toBe(status);
      expect(res.msg).toBe('Network error');
      expect(res.data).toBeNull();
      expect(hooks.toast).toHaveBeenCalledWith('Network error', 'error');
    }
    // The server's own envelope message is kept when the failure carries one.
    answer = () => ({ status: 404, body: JSON.stringify({ code: 1009, msg: 'Not found.', data: null }) });
    expect(await get('/api/x')).toMatchObject({ code: 404, msg: 'Not found.' });
    // quiet: no toast
    hooks.toast.mockReset();
    answer = () => ({ status: 503, body: '' });
    expect((await get('/api/x', {}, { quiet: true })).code).toBe(503);
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });

  it('says "Network error" in Chinese when the stored language is cn', async () => {
    useEcho();
    setLanguage('cn');
    answer = () => ({ status: 500, body: '' });
    const res = await get('/api/x');
    expect(res).toMatchObject({ code: 500, msg: '网络错误' });
    expect(hooks.toast).toHaveBeenCalledWith('网络错误', 'error');
  });

  it('an empty body signs the user out', async () => {
    useEcho();
    login('tok-abcdefghijklmnopqrstuvwxyz');
    answer = () => ({ body: '' });
    const res = await get('/api/x');
    expect(res).toMatchObject({ code: -1, msg: errorMessage('session_expired', 'en') });
    expect(hooks.onSignedOut).toHaveBeenCalledTimes(1);
    expect(getSession()).toMatchObject({ token: '', isLogin: false, login: { mem_id: 0 } });
  });

  it('a code below 0 signs the user out and keeps the server message', async () => {
    useEcho();
    login('tok-abcdefghijklmnopqrstuvwxyz');
    expect(getSession().isLogin).toBe(true);
    answer = () => ({ body: JSON.stringify({ code: -1, msg: '您已退出登录或登录已过期。', data: null }) });
    const res = await post('/api/x');
    expect(res).toMatchObject({ code: -1, msg: '您已退出登录或登录已过期。' });
    expect(hooks.onSignedOut).toHaveBeenCalledTimes(1);
    expect(getSession().token).toBe('');
    expect(memoryStorage.getItem(KEYS.loginInfo)).toBeNull();
    expect(memoryStorage.getItem(KEYS.isLogin)).toBeNull();
  });

  it('a guest refused (no session on this device) is sent to log in without being told a session ended', async () => {
    useEcho();
    answer = () => ({ body: JSON.stringify({ code: -1, msg: 'x', data: null }) });
    await get('/api/x');
    expect(hooks.onSignedOut).toHaveBeenCalledWith(false);
  });

  it('an unreachable server answers code 1 with a toast (offline message when navigator says offline)', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', () => r()));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    configureApi({ origin: `http://127.0.0.1:${port}` });
    const res = await get('/api/x');
    expect(res).toMatchObject({ code: 1, msg: 'Network error', data: null });
    expect(hooks.toast).toHaveBeenCalledWith('Network error', 'error');
    (globalThis.navigator as { onLine: boolean }).onLine = false;
    expect(await get('/api/x')).toMatchObject({ code: 1, msg: errorMessage('offline', 'en') });
  });
});

describe('answers from the service worker cache (FROM_CACHE header)', () => {
  const envelope = (data: unknown) => JSON.stringify({ code: 0, msg: 'ok', data, time: 1000 });
  const unreachable = async () => {
    // A real refused connection marks the server unreachable, as the offline bar sees it.
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', () => r()));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    configureApi({ origin: `http://127.0.0.1:${port}` });
    await get('/api/x', {}, { quiet: true });
    expect(isOnlineNow()).toBe(false);
    useEcho();
  };

  it('is returned at once, marked fromCache, and revalidated through the network at once', async () => {
    useEcho();
    // The worker answers the plain read from its cache; the revalidation reaches the network.
    answer = () => (seen.length === 1 ? { headers: { [FROM_CACHE_HEADER]: '1' }, body: envelope({ n: 'cached' }) } : { body: envelope({ n: 'fresh' }) });
    const res = await get<{ n: string }>('/api/project/lists', { page: 1 });
    expect(res).toMatchObject({ code: 0, data: { n: 'cached' }, fromCache: true });
    const fresh = await res.revalidated!;
    expect(fresh).toMatchObject({ code: 0, data: { n: 'fresh' } });
    expect(fresh.fromCache).toBeUndefined();
    expect(fresh.revalidated).toBeUndefined();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.url.search).toBe(seen[0]!.url.search);
    expect(hooks.toast).not.toHaveBeenCalled();
  });

  it('never counts as the server being reachable; read while it is not, it is revalidated when it is back', async () => {
    await unreachable();
    answer = () => ({ headers: { [FROM_CACHE_HEADER]: '1' }, body: envelope({ n: 'cached' }) });
    const res = await get<{ n: string }>('/api/project/detail', { id: 4 });
    expect(res).toMatchObject({ data: { n: 'cached' }, fromCache: true });
    expect(isOnlineNow()).toBe(false); // a cached answer says nothing about the server
    // Two readers of the same URL meanwhile share one revalidation.
    const again = await get<{ n: string }>('/api/project/detail', { id: 4 });
    expect(again.revalidated).toBe(res.revalidated);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(2); // the two cached answers; nothing sent to a server known to be down
    answer = () => ({ body: envelope({ n: 'fresh' }) });
    noteReachable(true); // what the reachability probe does when the server answers
    expect(await res.revalidated!).toMatchObject({ code: 0, data: { n: 'fresh' } });
    expect(seen).toHaveLength(3);
    expect(isOnlineNow()).toBe(true);
  });

  it('a fresh read the worker could only answer from its cache means the network failed: offline, no further revalidation', async () => {
    useEcho();
    answer = () => ({ headers: { [FROM_CACHE_HEADER]: '1' }, body: envelope({ n: 'cached' }) });
    const res = await get<{ n: string }>('/api/project/detail', { id: 3 }, { fresh: true });
    expect(res).toMatchObject({ code: 0, data: { n: 'cached' }, fromCache: true });
    expect(res.revalidated).toBeUndefined();
    expect(isOnlineNow()).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('a revalidation that fails leaves the cached answer and marks the server unreachable, quietly', async () => {
    useEcho();
    answer = () => (seen.length === 1 ? { headers: { [FROM_CACHE_HEADER]: '1' }, body: envelope({ n: 'cached' }) } : { status: 502, body: '' });
    const res = await get<{ n: string }>('/api/news/lists');
    expect(res.data).toEqual({ n: 'cached' });
    expect(await res.revalidated!).toMatchObject({ code: 502, data: null });
    expect(isOnlineNow()).toBe(false);
    expect(hooks.toast).not.toHaveBeenCalled();
  });
});

/** Waits (on real I/O turns, not on the faked timers) until the echo server has seen n requests. */
async function arrived(n: number) {
  for (let i = 0; seen.length < n; i++) {
    if (i > 20_000) throw new Error('the request never reached the echo server');
    await new Promise((r) => setImmediate(r));
  }
}

describe('timeout', () => {
  it(`after ${REQUEST_TIMEOUT_MS} ms without an answer: onTimeout and code 2 with the retry message`, async () => {
    useEcho();
    setLanguage('cn');
    answer = () => 'hang';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = request('GET', '/api/slow');
    await arrived(1);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(hooks.onTimeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const res = await pending;
    expect(res).toMatchObject({ code: 2, msg: errorMessage('timeout_retry', 'cn'), data: null, wait: 3 });
    expect(hooks.onTimeout).toHaveBeenCalledTimes(1);
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.onSignedOut).not.toHaveBeenCalled();
  });

  it('a background read (revalidation, probe) that times out only marks the server unreachable: no retry overlay', async () => {
    useEcho();
    answer = () => 'hang';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = request('GET', '/api/slow', {}, { background: true });
    await arrived(1);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toMatchObject({ code: 2 });
    expect(hooks.onTimeout).not.toHaveBeenCalled();
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(isOnlineNow()).toBe(false);
  });

  it('keeps the 60 s timeout when the caller passes an AbortSignal', async () => {
    // The timeout is our own signal, forwarded the caller's: a caller's signal must not replace it.
    useEcho();
    answer = () => 'hang';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const pending = request('GET', '/api/slow', {}, { signal: controller.signal });
    await arrived(1);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    const settled = await Promise.race([
      pending.then((r) => r),
      new Promise((r) => {
        let turns = 0;
        const tick = () => (++turns > 500 ? r('still pending') : setImmediate(tick));
        tick();
      }),
    ]);
    controller.abort();
    await pending.catch(() => undefined);
    expect(settled).toMatchObject({ code: 2 });
    expect(hooks.onTimeout).toHaveBeenCalledTimes(1);
  });
});
