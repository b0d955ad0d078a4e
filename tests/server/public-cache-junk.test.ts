// The public answers' cache (lib/response-cache.ts) keys on the parameters each route reads, as its schema
// parsed them: requests carrying random junk parameters get the same answers as clean ones and add no
// entries, so nobody can fill the cache (or push the real answers out of it) by varying the query string.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '100000' });
});
afterAll(async () => {
  await s?.close();
});

async function get(p: string, query: Record<string, string | number>): Promise<unknown> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await fetch(`${s.url}${API_BASE}${p}${qs ? `?${qs}` : ''}`);
  expect(res.status).toBe(200);
  const env = (await res.json()) as { code: number; data: unknown };
  expect(env.code, JSON.stringify(env)).toBe(0);
  return env.data;
}

const junk = () => randomBytes(1 + Math.floor(Math.random() * 24)).toString('hex');

describe('the public cache under junk parameters', () => {
  it('1,000 requests with random junk parameters: the same answers, and no more entries than the real ones', async () => {
    const project = await s.db.selectFrom('projects').select('id').where('status', '=', 'in_progress').orderBy('id').executeTakeFirstOrThrow();
    const news = await s.db.selectFrom('news').select('id').orderBy('id').executeTakeFirstOrThrow();
    const routes: Array<[string, Record<string, string | number>]> = [
      [PATHS.projectLists, { page: 1, page_size: 10 }],
      [PATHS.projectDetail, { id: project.id }],
      [PATHS.newsLists, { page: 1, page_size: 10 }],
      [PATHS.newsDetail, { id: news.id }],
      [PATHS.faqLists, {}],
      [PATHS.page, { slug: 'about' }],
      [PATHS.banners, {}],
      [PATHS.publicTransparency, {}],
    ];
    const cache = s.running.deps.publicCache!;
    cache.clear();
    const expected = new Map<string, unknown>();
    for (const [p, q] of routes) expected.set(p, await get(p, q));
    const real = cache.stats().entries;
    expect(real).toBe(routes.length);

    for (let i = 0; i < 1000; i++) {
      const [p, q] = routes[i % routes.length]!;
      const extra: Record<string, string> = {};
      for (let n = 1 + (i % 3); n > 0; n--) extra[junk()] = junk();
      // The transport parameters and the language do not change an answer either.
      if (i % 5 === 0) Object.assign(extra, { t: Date.now() + i, v: junk(), lang: i % 2 ? 'cn' : 'en' });
      expect(await get(p, { ...extra, ...q }), `${p} with ${JSON.stringify(extra)}`).toEqual(expected.get(p));
    }
    const after = cache.stats();
    expect(after.entries).toBe(real);
    expect(after.hits).toBeGreaterThanOrEqual(1000);
  }, 120_000); // 1,008 requests one after another: past the default 30 s on a loaded machine
});
