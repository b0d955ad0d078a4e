// Operator content tools and the audit (docs/product.md#operators): project and news edits, a news withdrawal
// and notices, each run through the real CLI process against the running server's database, reaching the
// public API (and so the open apps) through the live path; every change leaves who/when/what before and
// after.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { NewsItem, Project } from '../../src/shared/schemas/content';
import { CLI_TEST_TIMEOUT_MS, registerUser, runCli, startTestServer, type TestServer } from '../helpers/server';
import { runOps } from '../../src/server/ops/registry';

let s: TestServer;
const OPERATOR = 'ops-test-alice';

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

function file(name: string, content: unknown): string {
  const f = path.join(s.dataDir, name);
  fs.writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}
/** A command run in this process through the CLI's own runner (runOps: the same logging and audit), answered
 *  in the CLI's shape; the first test runs the real CLI process once. */
async function ops(args: string[]): Promise<{ code: number; stdout: string; stderr: string; json: unknown }> {
  const [name, ...rest] = args;
  const o = await runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, name!, rest, OPERATOR);
  if (o.ok) return { code: 0, stdout: o.text, stderr: '', json: { ok: true, data: o.data } };
  return { code: o.exit, stdout: '', stderr: o.error, json: { ok: false, error: o.error } };
}

async function publicGet<T>(p: string, query: Record<string, string | number>): Promise<{ code: number; data: T }> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return (await (await fetch(`${s.url}${API_BASE}${p}?${qs}`)).json()) as { code: number; data: T };
}

/** Polls `check` until it holds, for `ms` (not for a count of polls: 200 polls 25 ms apart ended after
 *  about 5 s, before the 10 s asked for). A wait, not a speed figure: the cached public answers are dropped by the write's event (a
 *  lost event would keep them for the cache's one-minute safety net), and a loaded machine can hold the
 *  event's delivery or the test process itself for seconds. */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${ms} ms`);
}

type AuditRow = { actor: string; command: string; target: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
async function audit(target: string): Promise<AuditRow[]> {
  const res = await ops(['audit:list', '--target', target]);
  expect(res.code, res.stderr).toBe(0);
  return (res.json as { data: AuditRow[] }).data;
}

describe('operator content tools', () => {
  it('project:edit changes the named fields, reaches the public answers, and is audited with before and after', async () => {
    const p = await s.db.selectFrom('projects').selectAll().where('status', '=', 'in_progress').orderBy('id').executeTakeFirstOrThrow();
    await publicGet<Project>(PATHS.projectDetail, { id: p.id }); // cached now
    // The real CLI, in its own process: its write reaches this server's cached answers through the live path.
    const res = await runCli(['project:edit', String(p.id), file('edit.json', { name: 'Edited mangroves', price: p.price + 100, max_tons: p.max_tons + 1 })], { DATA_DIR: s.dataDir, OPERATOR });
    expect(res.code, res.stderr).toBe(0);
    await eventually(async () => (await publicGet<Project>(PATHS.projectDetail, { id: p.id })).data.name === 'Edited mangroves');
    const rows = await audit(`project:${p.id}`);
    expect(rows[0]).toMatchObject({
      actor: OPERATOR,
      command: 'project:edit',
      before: { name: p.name, price: p.price, max_tons: p.max_tons },
      after: { name: 'Edited mangroves', price: p.price + 100, max_tons: p.max_tons + 1 },
    });
    expect(Object.keys(rows[0]!.after!).sort()).toEqual(['max_tons', 'name', 'price', 'updated_at'].sort());
  }, CLI_TEST_TIMEOUT_MS); // starts the operator CLI (npx tsx, cold), which alone can pass 30 s on a loaded machine

  it('project:edit moves the supply and the remaining tons together, never below what is sold', async () => {
    const p = await s.db.selectFrom('projects').selectAll().where('status', '=', 'in_progress').orderBy('id').executeTakeFirstOrThrow();
    await s.db.updateTable('projects').set({ remaining_tons: p.total_tons - 30 }).where('id', '=', p.id).execute(); // 30 t sold
    const grown = await ops(['project:edit', String(p.id), file('supply.json', { total_tons: p.total_tons + 50 })]);
    expect(grown.code, grown.stderr).toBe(0);
    let now = await s.db.selectFrom('projects').select(['total_tons', 'remaining_tons']).where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(now).toEqual({ total_tons: p.total_tons + 50, remaining_tons: p.total_tons + 20 });
    const below = await ops(['project:edit', String(p.id), file('shrink.json', { total_tons: 29 })]);
    expect(below.code).toBe(1);
    expect(below.stderr).toMatch(/30 t are already sold/);
    now = await s.db.selectFrom('projects').select(['total_tons', 'remaining_tons']).where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(now).toEqual({ total_tons: p.total_tons + 50, remaining_tons: p.total_tons + 20 });
    const exactly = await ops(['project:edit', String(p.id), file('sold-out.json', { total_tons: 30 })]);
    expect(exactly.code, exactly.stderr).toBe(0);
    now = await s.db.selectFrom('projects').select(['total_tons', 'remaining_tons']).where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(now).toEqual({ total_tons: 30, remaining_tons: 0 });
  });

  it('project:edit refuses a typo, an empty edit, broken rules and a missing project, and changes nothing', async () => {
    const p = await s.db.selectFrom('projects').selectAll().where('status', '=', 'presale').orderBy('id').executeTakeFirstOrThrow();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ pric: 5 }, 2, /invalid project edit/],
      [{ status: 'closed' }, 2, /invalid project edit/],
      [{}, 2, /changes nothing/],
      [{ min_tons: p.max_tons + 1 }, 2, /max_tons must be at least min_tons/],
      [{ end_time: new Date(p.selling_time - 1000).toISOString() }, 2, /end_time must be after selling_time/],
      [{ presale_price: null }, 2, /presale project needs presale_price/],
      [{ price: -1 }, 2, /invalid project edit/],
      ['{"name": "trunc', 2, /not valid JSON/],
      ['{"__proto__": {"price": 1}, "name": "x"}', 2, /invalid project edit/],
    ];
    for (const [content, code, message] of cases) {
      const before = await s.db.selectFrom('projects').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
      const res = await ops(['project:edit', String(p.id), file('bad.json', content)]);
      expect(res.code, `${JSON.stringify(content)}: ${res.stderr}`).toBe(code);
      expect(code === 0 ? res.stdout : res.stderr).toMatch(message);
      if (code !== 0) expect(await s.db.selectFrom('projects').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow()).toEqual(before);
    }
    expect((await s.db.selectFrom('projects').select('price').where('id', '=', p.id).executeTakeFirstOrThrow()).price).toBe(p.price);
    const missing = await ops(['project:edit', '999999', file('ok.json', { name: 'nobody' })]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no project #999999/);
  });

  it('news:edit and news:withdraw reach the public answers; the withdrawn text stays in the audit', async () => {
    const n = await s.db.selectFrom('news').selectAll().where('published_at', '<=', s.clock.now()).orderBy('id').executeTakeFirstOrThrow();
    const edited = await ops(['news:edit', String(n.id), file('news.json', { title: 'A corrected title', title_cn: '更正的标题' })]);
    expect(edited.code, edited.stderr).toBe(0);
    await eventually(async () => (await publicGet<NewsItem>(PATHS.newsDetail, { id: n.id })).data.title === 'A corrected title');
    const gone = await ops(['news:withdraw', String(n.id)]);
    expect(gone.code, gone.stderr).toBe(0);
    await eventually(async () => (await publicGet<NewsItem>(PATHS.newsDetail, { id: n.id })).code !== 0);
    const rows = await audit(`news:${n.id}`);
    expect(rows.map((r) => r.command)).toEqual(['news:withdraw', 'news:edit']);
    expect(rows[0]).toMatchObject({ after: null, before: { id: n.id, title: 'A corrected title', title_cn: '更正的标题', body: n.body } });
    expect(rows[1]).toMatchObject({ before: { title: n.title, title_cn: n.title_cn }, after: { title: 'A corrected title', title_cn: '更正的标题' } });
    expect((await ops(['news:withdraw', String(n.id)])).code).toBe(1);
  });

  it('notice:send reaches one user in both languages, or every user; a bad notice sends nothing', async () => {
    const a = await registerUser(s, 'notice-a@example.com');
    await registerUser(s, 'notice-b@example.com');
    const count = async () => Number((await s.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (const bad of [{ title: '', body: 'x' }, { title: 'x' }, { title: 'x', body: 'y', extra: 1 }, { title: 'x'.repeat(141), body: 'y' }]) {
      const res = await ops(['notice:send', 'notice-a@example.com', file('notice.json', bad)]);
      expect(res.code, JSON.stringify(bad)).toBe(2);
    }
    expect(await count()).toBe(before);
    const one = await ops(['notice:send', 'notice-a@example.com', file('notice.json', { title: 'Maintenance tonight', title_cn: '今晚维护', body: 'From 23:00 SGT.', body_cn: '新加坡时间23:00开始。' })]);
    expect(one.code, one.stderr).toBe(0);
    const list = await s.api<{ list: Array<{ title: string; body: string; title_cn: string; body_cn: string }> }>('GET', PATHS.notifications, {}, { token: a.token });
    expect(list.data.list[0]).toMatchObject({ title: 'Maintenance tonight' });
    expect(list.data.list[0]).toMatchObject({ title_cn: '今晚维护', body_cn: '新加坡时间23:00开始。' });
    const users = Number((await s.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const all = await ops(['notice:send', '--all', file('notice-all.json', { title: 'New projects', body: 'Three new mangrove projects.' })]);
    expect(all.code, all.stderr).toBe(0);
    expect(await count()).toBe(before + 1 + users);
    expect((await audit('notice:all'))[0]).toMatchObject({ command: 'notice:send', after: { title: 'New projects', title_cn: 'New projects', users } });
    expect((await ops(['notice:send', 'nobody@example.com', file('n.json', { title: 'x', body: 'y' })])).code).toBe(1);
  });

  it('audit:list refuses a malformed target', async () => {
    const res = await ops(['audit:list', '--target', "project:1' or 1=1"]);
    expect(res.code).toBe(2);
  });
});
