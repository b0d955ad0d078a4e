// Headers on every answer (docs/product.md#api-conventions): the app shell carries a strict
// Content-Security-Policy (scripts from this origin only, no inline script allowed, connections to this
// origin and the live socket's), the service worker script a policy of its own, and every API answer,
// whatever made it (a route, the 404 catch-all, the body size limit, a throttle, onError), says
// Cache-Control: no-store and nosniff; but the public answers of the response cache, which say no-cache with
// an ETag (list-path.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { socketOrigin } from '../../src/server/static';
import { makeTmpDir, REPO_ROOT, startTestServer, type TestServer } from '../helpers/server';

// A built app in miniature. Its inline script stands for one added to index.html by mistake: the policy
// must not allow it (no 'unsafe-inline', no hash), whatever the HTML holds.
const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>Canopy</title><script type="module" src="/assets/index-test.js"></script></head>
<body><div id="root"><script>document.title = 'inline';</script></div><script src="/boot-shell.js"></script></body></html>
`;

let staticDir: string;
let s: TestServer;
/** LOGINS_PER_IP_PER_HOUR=1 (the second wrong login is a 429) and a socket on another host. */
let t: TestServer;

beforeAll(async () => {
  staticDir = makeTmpDir('canopy-static-');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX_HTML);
  // The browser's path: a client that accepts gzip gets the precompressed file.
  fs.writeFileSync(path.join(staticDir, 'index.html.gz'), zlib.gzipSync(INDEX_HTML));
  fs.writeFileSync(path.join(staticDir, 'sw.js'), "importScripts('workbox-test.js');\n");
  fs.writeFileSync(path.join(staticDir, 'assets', 'index-test.js'), 'export {};\n');
  [s, t] = await Promise.all([
    startTestServer({}, { staticDir }),
    startTestServer({ LOGINS_PER_IP_PER_HOUR: '1', SOCKET_HOST: 'wss://live.canopy.example/h5/ws', PUBLIC_URL: 'https://canopy.example' }, { staticDir }),
  ]);
});

afterAll(async () => {
  await Promise.all([s?.close(), t?.close()]);
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** The policy as directive -> sources; a directive named twice would be a bug, so it fails here. */
function parseCsp(header: string | null): Record<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy();
  const out: Record<string, string[]> = {};
  for (const part of header!.split(';')) {
    const [raw, ...sources] = part.trim().split(/\s+/);
    if (!raw) continue;
    const name = raw.toLowerCase();
    expect(out[name], `directive ${name} given once`).toBeUndefined();
    out[name] = sources;
  }
  return out;
}

const get = (server: TestServer, p: string, headers: Record<string, string> = {}) => fetch(server.url + p, { headers });

describe('app shell: Content-Security-Policy', () => {
  const SHELL_PATHS = ['/', '/pages/index/index', '/index.html', '/pages/project/project?id=1'];

  it.each(SHELL_PATHS)('%s: a strict policy, scripts from this origin only, the socket origin allowed', async (p) => {
    const socket = new URL((await s.api('GET', PATHS.baseconfig)).data.socket_host as string).origin;
    expect(socket).toBe(`ws://127.0.0.1:${s.port}`);
    for (const encoding of ['gzip', 'identity']) {
      const res = await get(s, p, { 'Accept-Encoding': encoding });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX_HTML);
      const csp = parseCsp(res.headers.get('content-security-policy'));
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['script-src-elem'] ?? [], 'no looser script-src-elem').toEqual([]);
      expect(csp['script-src-attr'] ?? [], 'no looser script-src-attr').toEqual([]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['worker-src']).toEqual(["'self'"]);
      expect(csp['manifest-src']).toEqual(["'self'"]);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['style-src-elem']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'", socket]);
      // Nothing anywhere lets an inline script or eval run.
      const all = Object.values(csp).flat();
      expect(all.filter((x) => /^'(sha256|sha384|sha512|nonce)-/.test(x) || x === "'unsafe-eval'" || x === "'strict-dynamic'")).toEqual([]);
      expect(all).not.toContain('*');
      // The headers that were there before stay.
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('connect-src follows SOCKET_HOST when configured (what baseconfig tells the app to open)', async () => {
    const socket = (await t.api('GET', PATHS.baseconfig)).data.socket_host as string;
    expect(socket).toBe('wss://live.canopy.example/h5/ws');
    const csp = parseCsp((await get(t, '/pages/index/index')).headers.get('content-security-policy'));
    expect(csp['connect-src']).toEqual(["'self'", 'wss://live.canopy.example']);
    expect(csp['script-src']).toEqual(["'self'"]);
  });

  it('the socket origin: SOCKET_HOST first, else PUBLIC_URL as ws/wss; nothing a CSP source cannot name', () => {
    expect(socketOrigin({ SOCKET_HOST: 'wss://live.canopy.sg/h5/ws', PUBLIC_URL: 'https://canopy.sg', PORT: 8080 })).toBe('wss://live.canopy.sg');
    expect(socketOrigin({ SOCKET_HOST: undefined, PUBLIC_URL: 'https://canopy.sg', PORT: 8080 })).toBe('wss://canopy.sg');
    expect(socketOrigin({ SOCKET_HOST: undefined, PUBLIC_URL: 'http://192.168.1.20:8080', PORT: 8080 })).toBe('ws://192.168.1.20:8080');
    expect(socketOrigin({ SOCKET_HOST: undefined, PUBLIC_URL: undefined, PORT: 9000 })).toBe('ws://localhost:9000');
    expect(socketOrigin({ SOCKET_HOST: 'ws://[::1]:8080/h5/ws', PUBLIC_URL: undefined, PORT: 8080 })).toBeNull();
  });

  it('the service worker script has a policy of its own; hashed assets need none', async () => {
    const sw = await get(s, '/sw.js');
    expect(sw.status).toBe(200);
    const csp = parseCsp(sw.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const asset = await get(s, '/assets/index-test.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBeNull();
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('the real boot shell (src/app/index.html) has no inline script: every <script> has a src', () => {
    const html = fs.readFileSync(path.join(REPO_ROOT, 'src/app/index.html'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, attrs, body] of scripts) {
      expect(attrs, tag).toMatch(/\ssrc=/);
      expect(body!.trim(), tag).toBe('');
    }
    // Nor inline event handlers (script-src-attr falls back to script-src 'self').
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    // The boot shell's script is served from public/ (and precached by the service worker as *.js).
    expect(fs.existsSync(path.join(REPO_ROOT, 'public/boot-shell.js'))).toBe(true);
  });
});

describe('API answers: Cache-Control no-store and nosniff, whatever made them', () => {
  function expectApiHeaders(res: Response, what: string) {
    expect(res.headers.get('cache-control'), `${what}: Cache-Control`).toBe('no-store');
    expect(res.headers.get('x-content-type-options'), `${what}: X-Content-Type-Options`).toBe('nosniff');
  }
  const postJson = (server: TestServer, p: string, body: unknown) =>
    server.raw('POST', p, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('a normal answer, small and compressed', async () => {
    const small = await s.raw('GET', PATHS.baseconfig);
    expect(small.status).toBe(200);
    expectApiHeaders(small, 'baseconfig');
    const big = await s.raw('GET', '/api/project/lists', { query: 'page=1&page_size=20', headers: { 'Accept-Encoding': 'gzip' } });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-encoding')).toBe('gzip');
    // A public answer of the response cache: kept by a browser but revalidated (ETag, 304) every time.
    expect(big.headers.get('cache-control'), 'project list (gzip): Cache-Control').toBe('no-cache');
    expect(big.headers.get('etag'), 'project list (gzip): ETag').toMatch(/^W\//);
    expect(big.headers.get('x-content-type-options'), 'project list (gzip): X-Content-Type-Options').toBe('nosniff');
  });

  it('an unknown API path (404)', async () => {
    const res = await s.raw('GET', '/api/nothing/here');
    expect(res.status).toBe(404);
    expectApiHeaders(res, '404');
  });

  it('a body over 64 KiB (413 from the size limit)', async () => {
    const res = await postJson(s, PATHS.login, { email: 'big@example.com', password: 'x'.repeat(70 * 1024), agree: true });
    expect(res.status).toBe(413);
    expectApiHeaders(res, '413');
    // Without a Content-Length (chunked) the limit trips while the body is read, inside the chain.
    const big = new TextEncoder().encode(JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(70 * 1024), agree: true }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 8192) controller.enqueue(big.slice(i, i + 8192));
        controller.close();
      },
    });
    const chunked = await fetch(`${s.url}/h5/api${PATHS.login}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expectApiHeaders(chunked, '413 (chunked)');
  });

  it('a business refusal (HTTP 200 with a non-zero code, thrown and answered by onError)', async () => {
    const res = await postJson(s, PATHS.login, { email: 'nobody@example.com', password: 'Wrong2026pass', agree: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: number }).code).not.toBe(0);
    expectApiHeaders(res, 'refusal');
  });

  it('a throttle (429 with Retry-After)', async () => {
    const first = await postJson(t, PATHS.login, { email: 'guess@example.com', password: 'Wrong2026pass', agree: true });
    expect(first.status).toBe(200);
    expectApiHeaders(first, 'first wrong login');
    const second = await postJson(t, PATHS.login, { email: 'guess@example.com', password: 'Wrong2026pass', agree: true });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expectApiHeaders(second, '429');
  });

  it('an unexpected error (500 from onError)', async () => {
    const mailer = s.running.deps.mailer;
    const send = mailer.send;
    mailer.send = () => Promise.reject(new Error('test: the mail system is down'));
    try {
      const res = await postJson(s, PATHS.sendcode, { email: 'five-hundred@example.com', scene: 'register' });
      expect(res.status).toBe(500);
      expectApiHeaders(res, '500');
    } finally {
      mailer.send = send;
    }
  });
});
