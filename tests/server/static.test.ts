// The built app's files: precompressed at build (brotli and gzip beside each file),
// served by @hono/node-server's serveStatic with `precompressed`, with the headers of headers.test.ts kept
// (the app shell's CSP, immutable hashed assets, no-cache for the rest) and the history-mode fallback to
// index.html.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';

const INDEX_HTML = '<!doctype html><html lang="en"><head><title>Canopy</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>\n';
const APP_JS = `export const words = ${JSON.stringify('carbon '.repeat(400))};\n`;

let dir: string;
let s: TestServer;

function writeCompressed(file: string, text: string) {
  fs.writeFileSync(file, text);
  fs.writeFileSync(file + '.br', zlib.brotliCompressSync(text));
  fs.writeFileSync(file + '.gz', zlib.gzipSync(text));
}

beforeAll(async () => {
  dir = makeTmpDir('canopy-static-');
  fs.mkdirSync(path.join(dir, 'assets'));
  writeCompressed(path.join(dir, 'index.html'), INDEX_HTML);
  writeCompressed(path.join(dir, 'assets', 'index-abc123.js'), APP_JS);
  fs.writeFileSync(path.join(dir, 'sw.js'), "importScripts('workbox-test.js');\n");
  fs.writeFileSync(path.join(dir, 'icon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  s = await startTestServer({}, { staticDir: dir });
});

afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http, so the bytes are seen as sent (fetch would decode them). */
function raw(p: string, headers: Record<string, string> = {}, method = 'GET', base = s.url): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + p, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode: Record<string, (b: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, none: (b) => b };

describe('precompressed files', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['identity', 'none'],
  ])('Accept-Encoding %s: served %s', async (asked, encoding) => {
    for (const [p, text] of [
      ['/assets/index-abc123.js', APP_JS],
      ['/index.html', INDEX_HTML],
      ['/pages/project/project?id=1', INDEX_HTML],
      ['/', INDEX_HTML],
    ] as const) {
      const res = await raw(p, { 'Accept-Encoding': asked });
      expect(res.status, p).toBe(200);
      expect(res.headers['content-encoding'] ?? 'none', p).toBe(encoding);
      expect(decode[encoding]!(res.body).toString('utf8'), p).toBe(text);
      if (encoding !== 'none') expect(res.headers.vary, p).toMatch(/accept-encoding/i);
    }
  });

  it('keeps the headers: immutable hashed assets, no-cache otherwise, the CSP on the app shell, nosniff', async () => {
    const asset = await raw('/assets/index-abc123.js', { 'Accept-Encoding': 'br' });
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    for (const p of ['/', '/index.html', '/pages/index/index']) {
      const shell = await raw(p, { 'Accept-Encoding': 'br' });
      expect(shell.headers['content-type'], p).toMatch(/^text\/html/);
      expect(shell.headers['cache-control'], p).toBe('no-cache');
      expect(shell.headers['content-security-policy'], p).toMatch(/script-src 'self'/);
      expect(shell.headers['x-frame-options'], p).toBe('DENY');
      expect(shell.headers['referrer-policy'], p).toBe('strict-origin-when-cross-origin');
      expect(shell.headers['x-content-type-options'], p).toBe('nosniff');
    }
    const sw = await raw('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-security-policy']).toMatch(/^default-src 'self'/);
    const png = await raw('/icon.png', { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await raw('/assets/index-abc123.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.length).toBe(0);
  });
});

describe('from memory, with a stat per request', () => {
  it('answers a file written again (a rebuild) with its new content', async () => {
    const file = path.join(dir, 'sw.js');
    expect((await raw('/sw.js')).body.toString('utf8')).toBe("importScripts('workbox-test.js');\n");
    fs.writeFileSync(file, "importScripts('workbox-next.js'); // rebuilt\n");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await raw('/sw.js')).body.toString('utf8')).toBe("importScripts('workbox-next.js'); // rebuilt\n");
  });

  it('revalidates with Last-Modified: 304 while the file is unchanged', async () => {
    const first = await raw('/pages/index/index', { 'Accept-Encoding': 'br' });
    const lastModified = first.headers['last-modified'];
    expect(lastModified).toBeTruthy();
    const again = await raw('/pages/index/index', { 'Accept-Encoding': 'br', 'If-Modified-Since': lastModified! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect((await raw('/pages/index/index', { 'If-Modified-Since': new Date(Date.parse(lastModified!) - 60_000).toUTCString() })).status).toBe(200);
  });

  it('leaves Range requests to serveStatic (206, identity bytes)', async () => {
    const res = await raw('/assets/index-abc123.js', { Range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(res.body.toString('utf8')).toBe(APP_JS.slice(0, 10));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('history-mode fallback', () => {
  it('gives index.html to app routes and 404 to anything else', async () => {
    for (const p of ['/', '/pages/project/index', '/pages/wallet/withdraw?x=1']) {
      const res = await raw(p);
      expect(res.status, p).toBe(200);
      expect(res.body.toString('utf8'), p).toBe(INDEX_HTML);
    }
    for (const p of ['/nothing.js', '/assets/missing-123.js', '/assets/', '/../etc/passwd', '/%2e%2e/etc/passwd', '/index.html.br/x']) {
      const res = await raw(p);
      expect(res.status, p).toBe(404);
    }
  });

  it('never serves the built server that sits in the same folder (dist/server)', async () => {
    fs.mkdirSync(path.join(dir, 'server', 'ops'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'server', 'main.js'), 'export {};\n');
    fs.writeFileSync(path.join(dir, 'server', 'ops', 'cli.js'), 'export {};\n');
    for (const p of ['/server/main.js', '/server/ops/cli.js', '/server/', '/server']) {
      const res = await raw(p);
      expect(res.status, p).toBe(404);
    }
  });

  it('says the app is not built (503) when there is no index.html', async () => {
    const empty = makeTmpDir('canopy-static-empty-');
    const other = await startTestServer({}, { staticDir: empty });
    try {
      const res = await raw('/pages/index/index', {}, 'GET', other.url);
      expect(res.status).toBe(503);
      expect(res.body.toString('utf8')).toMatch(/npm run build/);
    } finally {
      await other.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
