// The public reads' fast path (lib/response-cache.ts fastServe, server.ts): a request answered before from a
// kept answer is answered again straight from the HTTP server's handler, without Hono and its middleware.
// It must send exactly what the usual way sends (status, headers, bytes, in each encoding), leave 304s and
// new answers to the usual way, and stop at once when the answer is dropped by an event. On SQLite and
// PostgreSQL (npm run test:pg).
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { publish } from '../../src/server/live/events';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let produced = 0;

beforeAll(async () => {
  s = await startTestServer({ LIVE_POLL_MS: '600000' });
  await s.running.scheduler.stop();
  // Counts the requests that reach the route (the usual way), through the cache's serve().
  const cache = s.running.deps.publicCache!;
  const serve = cache.serve.bind(cache);
  cache.serve = (...args) => {
    produced++;
    return serve(...args);
  };
});
afterAll(async () => {
  await s?.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
function raw(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}${API_BASE}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}
const withoutDate = (h: http.IncomingHttpHeaders) => ({ ...h, date: undefined, connection: undefined, 'keep-alive': undefined });

it('answers a repeated list request from the kept answer without the route, the same bytes and headers in every encoding', async () => {
  for (const encoding of ['gzip, deflate, br', 'gzip', 'identity']) {
    const before = produced;
    const first = await raw(`${PATHS.projectLists}?page=1&page_size=20&lang=en&t=1`, { 'Accept-Encoding': encoding });
    const again = await raw(`${PATHS.projectLists}?page=1&page_size=20&lang=cn&t=2`, { 'Accept-Encoding': encoding });
    const third = await raw(`${PATHS.projectLists}?t=3&page=1&page_size=20`, { 'Accept-Encoding': encoding });
    expect(first.status).toBe(200);
    expect(withoutDate(again.headers), encoding).toEqual(withoutDate(first.headers));
    expect(again.body.equals(first.body), encoding).toBe(true);
    expect(third.status).toBe(200);
    // The first went the usual way; the second and third (the same query, transport parameters aside)
    // did not reach the route.
    expect(produced - before, encoding).toBeLessThanOrEqual(2);
    const fourth = await raw(`${PATHS.projectLists}?page=1&page_size=20`, { 'Accept-Encoding': encoding });
    expect(fourth.body.equals(first.body)).toBe(true);
  }
  const before = produced;
  for (let i = 0; i < 5; i++) await raw(`${PATHS.projectLists}?page=1&page_size=20&t=${i}`, { 'Accept-Encoding': 'gzip' });
  expect(produced).toBe(before);
});

it('leaves If-None-Match (304) and other queries to the usual way', async () => {
  const first = await raw(`${PATHS.projectLists}?page=1&page_size=20`, { 'Accept-Encoding': 'gzip' });
  const before = produced;
  const notModified = await raw(`${PATHS.projectLists}?page=1&page_size=20`, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(first.headers.etag) });
  expect(notModified.status).toBe(304);
  expect(notModified.body.length).toBe(0);
  const other = await raw(`${PATHS.projectLists}?page=1&page_size=5`, { 'Accept-Encoding': 'gzip' });
  expect(other.status).toBe(200);
  expect(produced - before).toBe(2);
});

it('stops sending an answer the moment an event drops it', async () => {
  const path = `${PATHS.projectLists}?page=1&page_size=20`;
  const first = await raw(path, { 'Accept-Encoding': 'identity' });
  const list = (JSON.parse(first.body.toString('utf8')) as { data: { list: Array<{ id: number; name: string }> } }).data.list;
  const target = list[0]!;
  await s.db.updateTable('projects').set({ name: 'Renamed for the fast path' }).where('id', '=', target.id).execute();
  // Until the event, the kept answer (the cache's rule: changes behind its back wait for their event).
  expect((await raw(path, { 'Accept-Encoding': 'identity' })).body.equals(first.body)).toBe(true);
  await publish(s.db, { type: 'invalidate', tables: ['projects'] }, null, s.clock.now());
  await s.running.hub.flush();
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const now = await raw(path, { 'Accept-Encoding': 'identity' });
    if (!now.body.equals(first.body)) break;
  }
  const after = await raw(path, { 'Accept-Encoding': 'identity' });
  expect(after.body.toString('utf8')).toContain('Renamed for the fast path');
  expect(after.headers.etag).not.toBe(first.headers.etag);
  await s.db.updateTable('projects').set({ name: target.name }).where('id', '=', target.id).execute();
});

it('a small answer that the middleware compresses is sent again as the bytes its Content-Encoding says', async () => {
  const decode = (r: Raw): unknown => {
    const enc = r.headers['content-encoding'];
    const bytes = enc === 'gzip' ? zlib.gunzipSync(r.body) : enc === 'br' ? zlib.brotliDecompressSync(r.body) : r.body;
    return JSON.parse(bytes.toString('utf8'));
  };
  for (const encoding of ['gzip, deflate, br, zstd', 'gzip', 'identity']) {
    const first = await raw(`${PATHS.banners}?lang=en&v=1`, { 'Accept-Encoding': encoding });
    const again = await raw(`${PATHS.banners}?lang=cn&v=1`, { 'Accept-Encoding': encoding });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(decode(again), encoding).toEqual(decode(first));
  }
});
