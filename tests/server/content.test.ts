// Public content over real HTTP: project lists and detail, news, FAQ, pages, banners, baseconfig and the
// OpenAPI document (docs/product.md#projects, docs/product.md#api-conventions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { createApp } from '../../src/server/app';
import { isoSgt } from '../../src/server/lib/clock';
import { publish } from '../../src/server/live/events';
import { PROJECT_TYPES, PUBLIC_PROJECT_STATUSES, type Project } from '../../src/shared/schemas/content';
import type { Lang } from '../../src/shared/errors';
import { DAY, dbSnapshot, refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';

let s: TestServer;
const LANGS: Lang[] = ['en', 'cn'];

beforeAll(async () => {
  s = await startTestServer({ WITHDRAW_MIN_CENTS: '6000', TOPUP_MIN_CENTS: '1500', APP_VERSION: '2.3.4' });
  // The tests set a project sold out, or move the ManualClock to its end time, and back. The real scheduler
  // ticks every 2 s at whatever the clock and the rows say: a tick inside such a window would close the
  // project for good (an in-progress project sold out or past its end is closed), and the next answer would
  // say 'ended' where null is expected. Nothing here is about due work: no scheduler.
  await s.running.scheduler.stop();
});
afterAll(async () => {
  await s?.close();
});

type Paged<T> = { list: T[]; total: number; page: number; page_size: number };
const projects = (q: Record<string, unknown> = {}, lang?: Lang) => s.api<Paged<Project>>('GET', PATHS.projectLists, q, { lang });

/** Rows changed behind the server's back (direct writes): say so as a writer does, so the answers it
 *  keeps in memory (lib/response-cache.ts) go, and wait until its hub has passed it on. */
async function changed(tables: Array<'projects' | 'news'>) {
  await publish(s.db, { type: 'invalidate', tables }, null, s.clock.now());
  await s.running.hub.flush();
}

async function visibleRows() {
  return s.db.selectFrom('projects').selectAll().where('status', '!=', 'pending_review').execute();
}

async function expectRefusedGet(p: string, q: Record<string, unknown>, key: 'invalid_request' | 'not_found' | 'too_long' | 'required', params?: Record<string, number>) {
  for (const lang of LANGS) {
    const before = await dbSnapshot(s.db);
    const res = await s.api('GET', p, q, { lang });
    expect({ code: res.code, msg: res.msg }, `${p} ${JSON.stringify(q)} (${lang})`).toEqual(refusal(key, lang, params));
    expect(await dbSnapshot(s.db)).toEqual(before);
  }
}

describe('project lists', () => {
  it('pages the visible projects: {list, total, page, page_size}, pending_review never listed', async () => {
    const visible = await visibleRows();
    const pending = await s.db.selectFrom('projects').select('id').where('status', '=', 'pending_review').execute();
    expect(visible.length).toBeGreaterThanOrEqual(12);
    expect(pending.length).toBeGreaterThan(0);

    const first = await projects();
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ total: visible.length, page: 1, page_size: 10 });
    expect(first.data.list).toHaveLength(10);
    const second = await projects({ page: 2 });
    expect(second.data).toMatchObject({ total: visible.length, page: 2, page_size: 10 });
    expect(second.data.list).toHaveLength(visible.length - 10);
    const past = await projects({ page: 99 });
    expect(past.data).toMatchObject({ list: [], total: visible.length, page: 99 });

    const ids = [...first.data.list, ...second.data.list].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual(visible.map((p) => p.id).sort((a, b) => a - b));
    for (const p of pending) expect(ids).not.toContain(p.id);

    const big = await projects({ page_size: 50 });
    expect(big.data.list).toHaveLength(visible.length);
    expect(big.data.page_size).toBe(50);
    const small = await projects({ page_size: 3, page: 2 });
    expect(small.data.list.map((p) => p.id)).toEqual(big.data.list.slice(3, 6).map((p) => p.id));
  });

  it('lists in progress first, then presale, then closed', async () => {
    const rank = { in_progress: 0, presale: 1, closed: 2, pending_review: 3 };
    const list = (await projects({ page_size: 50 })).data.list;
    const ranks = list.map((p) => rank[p.status]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('carries the product fields with money in cents and times in SGT plus epoch ms', async () => {
    const p = (await projects()).data.list[0]!;
    const row = await s.db.selectFrom('projects').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(p).toMatchObject({
      id: row.id,
      name: row.name,
      status: row.status,
      price: row.price,
      min_tons: row.min_tons,
      max_tons: row.max_tons,
      total_tons: row.total_tons,
      remaining_tons: row.remaining_tons,
      selling_time: isoSgt(row.selling_time),
      selling_time_ms: row.selling_time,
      end_time: isoSgt(row.end_time),
      end_time_ms: row.end_time,
    });
    expect(p.selling_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);
    expect(Number.isInteger(p.price)).toBe(true);
    expect(p.progress).toBe(Math.floor(((row.total_tons - row.remaining_tons) * 100) / row.total_tons));
    expect(p.name_cn).not.toBe('');
  });

  it('filters by status and by type', async () => {
    const visible = await visibleRows();
    for (const status of PUBLIC_PROJECT_STATUSES) {
      const res = await projects({ status, page_size: 50 });
      expect(res.data.total, status).toBe(visible.filter((p) => p.status === status).length);
      expect(res.data.total).toBeGreaterThan(0);
      for (const p of res.data.list) expect(p.status).toBe(status);
    }
    const types = new Set(visible.map((p) => p.type));
    expect(types.size).toBeGreaterThanOrEqual(5);
    for (const type of types) {
      const res = await projects({ type, page_size: 50 });
      expect(res.data.total, type).toBe(visible.filter((p) => p.type === type).length);
      for (const p of res.data.list) expect(p.type).toBe(type);
    }
    const both = await projects({ type: 'mangrove', status: 'presale', page_size: 50 });
    expect(both.data.total).toBe(visible.filter((p) => p.type === 'mangrove' && p.status === 'presale').length);
    const unused = PROJECT_TYPES.find((t) => !types.has(t));
    if (unused) expect((await projects({ type: unused })).data).toMatchObject({ list: [], total: 0 });
    // '' means no filter
    expect((await projects({ status: '', type: '' })).data.total).toBe(visible.length);
  });

  it('searches name, Chinese name and location, case-insensitively, never revealing pending_review', async () => {
    const kal = await projects({ q: 'kalimantan' });
    expect(kal.data.total).toBe(1);
    expect(kal.data.list[0]!.name).toMatch(/Kalimantan/);
    const mangrove = await projects({ q: 'MANGROVE', page_size: 50 });
    expect(mangrove.data.total).toBeGreaterThanOrEqual(2);
    for (const p of mangrove.data.list) expect(`${p.name} ${p.name_cn} ${p.location}`.toLowerCase()).toContain('mangrove');
    const cn = await projects({ q: '红树林', page_size: 50 });
    expect(cn.data.total).toBeGreaterThanOrEqual(1);
    const indonesia = await projects({ q: 'Indonesia', page_size: 50 });
    expect(indonesia.data.total).toBeGreaterThanOrEqual(1);
    for (const p of indonesia.data.list) expect(p.location).toContain('Indonesia');
    const pendingRow = await s.db.selectFrom('projects').select('name').where('status', '=', 'pending_review').executeTakeFirstOrThrow();
    expect((await projects({ q: pendingRow.name })).data).toMatchObject({ list: [], total: 0 });
    expect((await projects({ q: '  kalimantan  ' })).data.total).toBe(1);
    expect((await projects({ q: 'zzzz-nothing' })).data).toMatchObject({ list: [], total: 0 });
  });

  it('finds a project by its place or country in either language, and names them in Chinese (docs/product.md#projects)', async () => {
    const ids = async (q: string) => (await projects({ q, page_size: 50 })).data.list.map((p) => p.id).sort((a, b) => a - b);
    const vietnam = await ids('Vietnam');
    expect(vietnam.length).toBeGreaterThanOrEqual(2);
    expect(await ids('越南')).toEqual(vietnam);
    expect(await ids('金瓯')).toEqual(await ids('Ca Mau'));
    const kal = (await projects({ q: 'kalimantan' })).data.list[0]!;
    expect(kal).toMatchObject({ location: 'Central Kalimantan, Indonesia', location_cn: '印度尼西亚中加里曼丹省', country: 'Indonesia', country_cn: '印度尼西亚' });
  });

  it('treats % and _ in the search text literally', async () => {
    const now = s.clock.now();
    const base = await s.db.selectFrom('projects').selectAll().where('status', '=', 'in_progress').executeTakeFirstOrThrow();
    const { id: _id, list_rank: _rank, due_at: _due, ...rest } = base; // list_rank, due_at: computed by the database
    const inserted = await s.db
      .insertInto('projects')
      .values({ ...rest, name: 'Solar 100% Community_Grid', name_cn: '', location: 'Test', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await changed(['projects']);
    try {
      const pct = await projects({ q: '100%' });
      expect(pct.data.list.map((p) => p.id), 'q=100% must find the project named "Solar 100% ..."').toEqual([inserted.id]);
      const under = await projects({ q: 'Community_Grid' });
      expect(under.data.list.map((p) => p.id)).toEqual([inserted.id]);
      // A bare % or _ matches only names that contain it, not everything.
      expect((await projects({ q: '%', page_size: 50 })).data.list.map((p) => p.id)).toEqual([inserted.id]);
      expect((await projects({ q: '_', page_size: 50 })).data.list.map((p) => p.id)).toEqual([inserted.id]);
    } finally {
      await s.db.deleteFrom('projects').where('id', '=', inserted.id).execute();
      await changed(['projects']);
    }
  });

  it('refuses bad list parameters with invalid_request / too_long, in en and cn', async () => {
    await expectRefusedGet(PATHS.projectLists, { status: 'pending_review' }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { status: 'open' }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { type: 'coal' }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { page: 0 }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { page: 'two' }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { page: '1.5' }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { page_size: 51 }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { page_size: 0 }, 'invalid_request');
    await expectRefusedGet(PATHS.projectLists, { q: 'x'.repeat(141) }, 'too_long', { n: 140 });
  });

  it('join_block says why a project cannot be joined now: not_started, ended, full, or null', async () => {
    const now = s.clock.now();
    const list = (await projects({ page_size: 50 })).data.list;
    for (const p of list) {
      const expected =
        p.remaining_tons <= 0 ? 'full' : p.status === 'closed' || now >= p.end_time_ms ? 'ended' : now < p.selling_time_ms ? 'not_started' : null;
      expect(p.join_block, `${p.name} (${p.status})`).toBe(expected);
    }
    // A closed project says ended, unless it sold out: then "full" is the more useful reason.
    expect(list.filter((p) => p.status === 'closed').every((p) => p.join_block === (p.remaining_tons <= 0 ? 'full' : 'ended'))).toBe(true);
    expect(list.some((p) => p.status === 'closed' && p.join_block === 'full')).toBe(true);
    expect(list.some((p) => p.status === 'presale' && p.join_block === 'not_started')).toBe(true);
    expect(list.some((p) => p.status === 'in_progress' && p.join_block === null)).toBe(true);

    // Sold out -> full; past its end -> ended.
    const open = list.find((p) => p.status === 'in_progress' && p.join_block === null)!;
    await s.db.updateTable('projects').set({ remaining_tons: 0 }).where('id', '=', open.id).execute();
    await changed(['projects']);
    try {
      expect((await s.api<Project>('GET', PATHS.projectDetail, { id: open.id })).data.join_block).toBe('full');
    } finally {
      await s.db.updateTable('projects').set({ remaining_tons: open.remaining_tons }).where('id', '=', open.id).execute();
      await changed(['projects']);
    }
    const saved = s.clock.now();
    s.clock.set(open.end_time_ms);
    try {
      expect((await s.api<Project>('GET', PATHS.projectDetail, { id: open.id })).data.join_block).toBe('ended');
      s.clock.set(open.end_time_ms - 1);
      expect((await s.api<Project>('GET', PATHS.projectDetail, { id: open.id })).data.join_block).toBe(null);
    } finally {
      s.clock.set(saved);
    }
    // A presale project that has not started becomes joinable at its selling time.
    const notStarted = list.find((p) => p.join_block === 'not_started')!;
    s.clock.set(notStarted.selling_time_ms);
    try {
      expect((await s.api<Project>('GET', PATHS.projectDetail, { id: notStarted.id })).data.join_block).toBe(null);
    } finally {
      s.clock.set(saved);
    }
  });
});

describe('project detail', () => {
  it('answers one visible project, equal to its list entry', async () => {
    const first = (await projects()).data.list[0]!;
    const res = await s.api<Project>('GET', PATHS.projectDetail, { id: first.id });
    expect(res.code).toBe(0);
    expect(res.data).toEqual(first);
  });

  it('answers not_found for pending_review and unknown ids, invalid_request for a bad id', async () => {
    const pending = await s.db.selectFrom('projects').select('id').where('status', '=', 'pending_review').executeTakeFirstOrThrow();
    await expectRefusedGet(PATHS.projectDetail, { id: pending.id }, 'not_found');
    await expectRefusedGet(PATHS.projectDetail, { id: 999_999 }, 'not_found');
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '', ' ']) await expectRefusedGet(PATHS.projectDetail, { id }, 'invalid_request');
    // A missing id reads like an empty required field (the rule for absent keys).
    await expectRefusedGet(PATHS.projectDetail, {}, 'required');
  });
});

describe('news', () => {
  it('lists published news newest first, paged, and answers each item by id', async () => {
    const published = await s.db.selectFrom('news').selectAll().where('published_at', '<=', s.clock.now()).execute();
    expect(published.length).toBeGreaterThanOrEqual(5);
    const first = await s.api<Paged<any>>('GET', PATHS.newsLists, { page_size: 3 });
    expect(first.data).toMatchObject({ total: published.length, page: 1, page_size: 3 });
    expect(first.data.list).toHaveLength(3);
    const all = (await s.api<Paged<any>>('GET', PATHS.newsLists, { page_size: 50 })).data.list;
    expect(all).toHaveLength(published.length);
    const times = all.map((n) => n.published_at_ms);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.data.list).toEqual(all.slice(0, 3));
    const item = all[0]!;
    expect(item).toMatchObject({ title: expect.any(String), title_cn: expect.any(String), body: expect.any(String), body_cn: expect.any(String) });
    expect(item.published_at).toBe(isoSgt(item.published_at_ms));
    const detail = await s.api('GET', PATHS.newsDetail, { id: item.id });
    expect(detail.code).toBe(0);
    expect(detail.data).toEqual(item);
  });

  it('hides news scheduled for later until its time', async () => {
    const now = s.clock.now();
    const row = await s.db
      .insertInto('news')
      .values({ title: 'Later', title_cn: '', summary: '', summary_cn: '', body: 'Soon', body_cn: '', image: '', published_at: now + DAY, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await changed(['news']);
    try {
      const ids = (await s.api<Paged<any>>('GET', PATHS.newsLists, { page_size: 50 })).data.list.map((n) => n.id);
      expect(ids).not.toContain(row.id);
      await expectRefusedGet(PATHS.newsDetail, { id: row.id }, 'not_found');
      s.clock.advance(DAY);
      const after = await s.api<Paged<any>>('GET', PATHS.newsLists, {});
      expect(after.data.list[0]!.id).toBe(row.id);
      expect(after.data.list[0]!.title_cn).toBe('Later'); // falls back to English
    } finally {
      s.clock.advance(-DAY);
      await s.db.deleteFrom('news').where('id', '=', row.id).execute();
      await changed(['news']);
    }
  });

  it('refuses bad ids and pages', async () => {
    await expectRefusedGet(PATHS.newsDetail, { id: 999_999 }, 'not_found');
    await expectRefusedGet(PATHS.newsDetail, { id: 'x' }, 'invalid_request');
    await expectRefusedGet(PATHS.newsLists, { page: -1 }, 'invalid_request');
  });
});

describe('faq, pages, banners', () => {
  it('answers the FAQ in both languages', async () => {
    const res = await s.api<Paged<any>>('GET', PATHS.faqLists);
    expect(res.code).toBe(0);
    expect(res.data.list.length).toBeGreaterThan(3);
    expect(res.data.total).toBe(res.data.list.length);
    for (const f of res.data.list) {
      expect(f.question).not.toBe('');
      expect(f.question_cn).not.toBe('');
      expect(f.answer).not.toBe('');
      expect(f.answer_cn).not.toBe('');
    }
  });

  it('answers the about, protocol and privacy pages; other slugs are not_found', async () => {
    for (const slug of ['about', 'protocol', 'privacy']) {
      const res = await s.api('GET', PATHS.page, { slug });
      expect(res.code, slug).toBe(0);
      expect(res.data).toMatchObject({ slug, title: expect.any(String), title_cn: expect.any(String) });
      expect(res.data.body.length).toBeGreaterThan(50);
      expect(res.data.body_cn.length).toBeGreaterThan(20);
    }
    await expectRefusedGet(PATHS.page, { slug: 'secret' }, 'not_found');
    await expectRefusedGet(PATHS.page, {}, 'required');
  });

  it('answers the home banners', async () => {
    const res = await s.api<Paged<any>>('GET', PATHS.banners);
    expect(res.code).toBe(0);
    expect(res.data.list.length).toBeGreaterThan(0);
    for (const b of res.data.list) expect(b).toMatchObject({ id: expect.any(Number), title: expect.any(String), image: expect.any(String), link: expect.any(String) });
  });
});

describe('baseconfig', () => {
  it('gives version, socket_host, currency, server time and limits from the config', async () => {
    const res = await s.api('GET', PATHS.baseconfig);
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      version: '2.3.4',
      socket_host: `ws://127.0.0.1:${s.port}/h5/ws`,
      socket_version: 4,
      currency: 'SGD',
      server_time: isoSgt(s.clock.now()),
      server_time_ms: s.clock.now(),
      registration_open: true,
      limits: {
        withdraw_min: 6000,
        withdraw_max: 5_000_000,
        withdraw_fee: 200,
        withdraw_fee_bp: 0,
        topup_min: 1500,
        presale_fee_bp: 1000,
        settlement_working_days: 2,
      },
    });
    // The request's headers do not move it: only the configuration does.
    const forged = await s.api('GET', PATHS.baseconfig, {}, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' } });
    expect(forged.data.socket_host).toBe(`ws://127.0.0.1:${s.port}/h5/ws`);
  });

  it('derives socket_host from PUBLIC_URL (https gives wss)', async () => {
    const other = await startTestServer({ PUBLIC_URL: 'https://canopy.example/' });
    try {
      expect((await other.api('GET', PATHS.baseconfig)).data.socket_host).toBe('wss://canopy.example/h5/ws');
    } finally {
      await other.close();
    }
  });

  it('names the support address the app links for what only an operator can do, and About names it (SUPPORT_EMAIL)', async () => {
    expect((await s.api('GET', PATHS.baseconfig)).data.support_email).toBe('support@canopy.sg');
    const about = (await s.api('GET', PATHS.page, { slug: 'about' })).data as { body: string; body_cn: string };
    for (const text of [about.body, about.body_cn]) {
      expect(text).toContain('support@canopy.sg');
      expect(text).not.toMatch(/canopy\.example|\{support_email\}/);
    }
    const other = await startTestServer({ SUPPORT_EMAIL: 'help@bank.example' });
    try {
      expect((await other.api('GET', PATHS.baseconfig)).data.support_email).toBe('help@bank.example');
      const theirs = (await other.api('GET', PATHS.page, { slug: 'about' })).data as { body: string; body_cn: string };
      expect(theirs.body).toContain('help@bank.example');
      expect(theirs.body_cn).toContain('help@bank.example');
    } finally {
      await other.close();
    }
  });

  it('uses SOCKET_HOST when configured', async () => {
    const other = await startTestServer({ SOCKET_HOST: 'wss://live.canopy.example/h5/ws' });
    try {
      expect((await other.api('GET', PATHS.baseconfig)).data.socket_host).toBe('wss://live.canopy.example/h5/ws');
    } finally {
      await other.close();
    }
  });

  it('every API answer is marked no-store', async () => {
    const res = await s.raw('GET', PATHS.baseconfig);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('openapi.json', () => {
  it('is an OpenAPI 3.1 document', async () => {
    const res = await s.raw('GET', PATHS.openapi);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\.1/);
  });

  it('lists every path of src/shared/api.ts PATHS', async () => {
    const doc = (await (await s.raw('GET', PATHS.openapi)).json()) as { paths: Record<string, Record<string, unknown>> };
    // Hono's `:name` segments are OpenAPI's `{name}`.
    const missing = Object.values(PATHS).filter((p) => !doc.paths[API_BASE + p.replace(/:(\w+)/g, '{$1}')]);
    expect(missing).toEqual([]);
  });

  it('documents every API route the server answers, with its method', async () => {
    const doc = (await (await s.raw('GET', PATHS.openapi)).json()) as { paths: Record<string, Record<string, unknown>> };
    const app = createApp(s.running.deps, {});
    const routes = app.routes.filter((r) => r.path.startsWith(API_BASE + '/') && r.method !== 'ALL' && !r.path.endsWith('*') && !r.path.endsWith('/openapi.json'));
    expect(routes.length).toBeGreaterThan(10);
    const undocumented = routes.filter((r) => !doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.path}`);
    expect(undocumented).toEqual([]);
    const shared = new Set(Object.values(PATHS).map((p) => API_BASE + p));
    expect(routes.filter((r) => !shared.has(r.path)).map((r) => r.path), 'routes missing from PATHS').toEqual([]);
  });
});

describe('never a 500 for odd query strings', () => {
  it('answers repeated and odd parameters with an envelope', async () => {
    for (const qs of ['page=1&page=2', 'id=1&id=2', 'q=%00', 'q=%E4%BD', 'status[]=x', 'page=99999999999999999999', 'page_size=1e2']) {
      for (const p of [PATHS.projectLists, PATHS.projectDetail, PATHS.newsLists]) {
        const res = await s.raw('GET', p, { query: qs });
        expect(res.status, `${p}?${qs}`).toBe(200);
        const env = (await res.json()) as Envelope;
        expect(typeof env.code).toBe('number');
      }
    }
  });
});
