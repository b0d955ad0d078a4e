// Monthly offset plans (docs/product.md#monthly-offset): subscribe with the payment password once, a buy a
// month placed by the scheduler through the buy use case, a refusal that buys nothing and says why, one
// order a plan and month whatever ticks at once, pause, change, cancel, and other members' plans refused.
// Real HTTP, a ManualClock, both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { offsetConsentText, offsetDueAt } from '../../src/shared/offset';
import { errorMessage, type Lang } from '../../src/shared/errors';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { createSession } from '../../src/server/modules/session';
import { runOps } from '../../src/server/ops/registry';
import { DAY, MIN, refusal, startTestServer, T0, type TestServer } from '../helpers/server';
import { LANGS, makeProject, makeUser, marketSnapshot, newKey, topup, TRADE_PASSWORD, walletOfUser, type MarketUser } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', METRICS_TOKEN: 'offset-test-metrics-token' });
});

/** canopy_orders_total{kind="offset", code} as the server counts it now. */
async function offsetsCounted(code: string): Promise<number> {
  const { values } = await s.running.deps.metrics!.orders.get();
  return values.find((v) => v.labels.kind === 'offset' && v.labels.code === code)?.value ?? 0;
}
afterAll(async () => {
  await s.close();
});

function offsetApi(server: TestServer) {
  const write = (path: string, u: { token: string }, data: Record<string, unknown>, o: { lang?: Lang; key?: string } = {}) =>
    server.api('POST', path, data, { token: u.token, lang: o.lang, idempotencyKey: o.key ?? newKey() });
  return {
    create: (u: MarketUser, project_id: number, tons: number, day: number, o: { lang?: Lang; key?: string; password?: string } = {}) =>
      write(PATHS.offsetCreate, u, { project_id, tons, day, password: o.password ?? TRADE_PASSWORD }, o),
    change: (u: MarketUser, id: number, tons: number, day: number, o: { lang?: Lang; password?: string } = {}) =>
      write(PATHS.offsetChange, u, { id, tons, day, password: o.password ?? TRADE_PASSWORD }, o),
    status: (u: MarketUser, id: number, status: string, o: { lang?: Lang } = {}) => write(PATHS.offsetStatus, u, { id, status }, o),
    lists: (u: MarketUser) => server.api('GET', PATHS.offsetLists, {}, { token: u.token }),
  };
}

/** The due time of `month` for a plan on `day`, plus a minute: the clock of a tick just after it. */
const after = (month: string, day: number) => offsetDueAt(month, day) + MIN;

/** A session of now: months of the manual clock outlive the one makeUser opened (SESSION_TTL_DAYS). */
async function fresh(u: MarketUser): Promise<MarketUser> {
  return { ...u, token: (await createSession(s.running.deps, u.id)).token };
}

async function ordersOf(userId: number) {
  return s.db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

describe('monthly offset', () => {
  const api = () => offsetApi(s);

  it('subscribes with the consent text and time kept, and the first due day ahead', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const res = await api().create(u, pid, 2, 5, { lang: 'cn' });
    expect(res.code).toBe(0);
    const plan = res.data;
    const p = await s.db.selectFrom('projects').select(['name_cn']).where('id', '=', pid).executeTakeFirstOrThrow();
    expect(plan).toMatchObject({ project_id: pid, tons: 2, day: 5, status: 'active', consent_at_ms: T0, next_run_at_ms: offsetDueAt('2026-03', 5), last_run: null });
    expect(plan.consent_text).toBe(offsetConsentText('cn', { tons: 2, project: p.name_cn, day: 5 }));
    expect(plan.next_run_at).toBe('2026-03-05T09:00:00.000+08:00');
    const row = await s.db.selectFrom('offset_plans').selectAll().where('id', '=', plan.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ consent_text: plan.consent_text, consent_at: T0 });
    // A day already past this month starts next month; 31 falls on April's last day.
    const late = (await api().create(u, pid, 1, 1)).data;
    expect(late.next_run_at).toBe('2026-04-01T09:00:00.000+08:00');
    expect(offsetDueAt('2026-04', 31)).toBe(offsetDueAt('2026-04', 30));
    expect(offsetDueAt('2026-02', 30)).toBe(Date.UTC(2026, 1, 28, 1));
  });

  it('runs three months from a manual clock: three orders, one a month, each through the buy', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { price: 1200, end_time: T0 + 400 * DAY });
    const plan = (await api().create(u, pid, 3, 5)).data;
    for (const month of ['2026-03', '2026-04', '2026-05']) {
      s.clock.set(offsetDueAt(month, 5) - MIN);
      await runDueWork(s.running.deps);
      s.clock.set(after(month, 5));
      await runDueWork(s.running.deps);
      await runDueWork(s.running.deps);
    }
    const orders = await ordersOf(u.id);
    expect(orders.map((o) => [o.kind, o.status === 'completed' || o.status === 'in_progress', o.tons, o.total, o.project_id])).toEqual([
      ['purchase', true, 3, 3600, pid],
      ['purchase', true, 3, 3600, pid],
      ['purchase', true, 3, 3600, pid],
    ]);
    expect(orders.map((o) => new Date(o.created_at + 8 * 3_600_000).toISOString().slice(0, 7))).toEqual(['2026-03', '2026-04', '2026-05']);
    expect((await walletOfUser(s, u.id)).available + (await walletOfUser(s, u.id)).frozen).toBe(100_000 - 3 * 3600);
    const runs = await s.db.selectFrom('offset_runs').selectAll().where('plan_id', '=', plan.id).orderBy('month').execute();
    expect(runs.map((r) => [r.month, r.outcome, r.order_id])).toEqual(orders.map((o, i) => [['2026-03', '2026-04', '2026-05'][i], 'placed', o.id]));
    const keys = await s.db.selectFrom('idempotency_keys').select(['key', 'endpoint']).where('user_id', '=', u.id).where('endpoint', '=', '/offset/month').orderBy('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['2026-03', '2026-04', '2026-05'].map((m) => `offset:${plan.id}:${m}`));
    const listed = (await api().lists(await fresh(u))).data.list[0];
    expect(listed).toMatchObject({ id: plan.id, last_run: { month: '2026-05', outcome: 'placed', order_id: orders[2]!.id, reason_code: null }, next_run_at: '2026-06-05T09:00:00.000+08:00' });
    const notes = await s.db.selectFrom('notifications').select(['title', 'body', 'title_cn']).where('user_id', '=', u.id).execute();
    expect(notes.filter((n) => n.title === 'Monthly offset bought')).toHaveLength(3);
  });

  it('with a short balance buys nothing, says why in both languages, and tries again next month', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 1000 });
    const pid = await makeProject(s, { price: 1000, end_time: T0 + 400 * DAY });
    expect((await api().create(u, pid, 2, 10)).code).toBe(0);
    s.clock.set(after('2026-03', 10));
    const before = await walletOfUser(s, u.id);
    await runDueWork(s.running.deps);
    await runDueWork(s.running.deps);
    expect(await ordersOf(u.id)).toHaveLength(0);
    expect(await walletOfUser(s, u.id)).toEqual(before);
    const notes = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).execute();
    expect(notes).toHaveLength(1);
    expect(await offsetsCounted(String(refusal('insufficient_balance').code))).toBeGreaterThanOrEqual(1);
    expect(notes[0]).toMatchObject({ title: 'Monthly offset not bought', title_cn: '每月碳抵消未购买' });
    expect(notes[0]!.body).toContain(errorMessage('insufficient_balance', 'en'));
    expect(notes[0]!.body).toContain('2026-04-10');
    expect(notes[0]!.body_cn).toContain(errorMessage('insufficient_balance', 'cn'));
    const listed = (await api().lists(await fresh(u))).data.list[0];
    expect(listed.last_run).toEqual({ month: '2026-03', outcome: 'refused', order_id: null, reason_code: refusal('insufficient_balance').code, reason: errorMessage('insufficient_balance', 'en'), reason_cn: errorMessage('insufficient_balance', 'cn') });
    expect(listed.next_run_at).toBe('2026-04-10T09:00:00.000+08:00');
    // Topped up: April buys.
    await topup(s, u.id, 5000);
    s.clock.set(after('2026-04', 10));
    await runDueWork(s.running.deps);
    expect((await ordersOf(u.id)).map((o) => o.tons)).toEqual([2]);
    expect((await api().lists(await fresh(u))).data.list[0].last_run).toMatchObject({ month: '2026-04', outcome: 'placed' });
  });

  it('a project closed or full buys nothing and says why; the limits are the buy\'s', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY, monthly_limit: 4 });
    await api().create(u, pid, 3, 12);
    await api().create(u, pid, 3, 13);
    s.clock.set(after('2026-03', 13));
    await runDueWork(s.running.deps);
    const runs = await s.db.selectFrom('offset_runs as r').innerJoin('offset_plans as p', 'p.id', 'r.plan_id').select(['r.outcome', 'r.reason', 'r.reason_params']).where('p.user_id', '=', u.id).orderBy('p.day').execute();
    expect(runs).toEqual([
      { outcome: 'placed', reason: null, reason_params: null },
      { outcome: 'refused', reason: 'monthly_limit', reason_params: JSON.stringify({ n: 4 }) },
    ]);
    await s.db.updateTable('projects').set({ status: 'closed' }).where('id', '=', pid).execute();
    s.clock.set(after('2026-04', 13));
    await runDueWork(s.running.deps);
    const april = await s.db.selectFrom('offset_runs as r').innerJoin('offset_plans as p', 'p.id', 'r.plan_id').select(['r.outcome', 'r.reason']).where('p.user_id', '=', u.id).where('r.month', '=', '2026-04').execute();
    expect(april).toEqual([
      { outcome: 'refused', reason: 'project_ended' },
      { outcome: 'refused', reason: 'project_ended' },
    ]);
    expect(await ordersOf(u.id)).toHaveLength(1);
  });

  it('forty ticks at once give one order a plan and month', async () => {
    s.clock.set(T0);
    const users = await Promise.all([1, 2, 3].map(() => makeUser(s, { cents: 100_000 })));
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    for (const u of users) await api().create(u, pid, 1, 20);
    s.clock.set(after('2026-03', 20));
    const counted = await offsetsCounted('0');
    await Promise.all(Array.from({ length: 40 }, () => runDueWork(s.running.deps)));
    for (const u of users) expect((await ordersOf(u.id)).length).toBe(1);
    expect(await offsetsCounted('0')).toBe(counted + users.length);
    const notes = await s.db.selectFrom('notifications').select('user_id').where('user_id', 'in', users.map((u) => u.id)).execute();
    expect(notes).toHaveLength(3);
  });

  it('a month already decided is not bought again when its due time comes back (restart, change of day)', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const plan = (await api().create(u, pid, 1, 6)).data;
    s.clock.set(after('2026-03', 6));
    await runDueWork(s.running.deps);
    expect(await ordersOf(u.id)).toHaveLength(1);
    // The due time put back to March's (as an instance that read the plan before the commit would see it):
    // the month's outcome row and key refuse a second buy.
    await s.db.updateTable('offset_plans').set({ next_run_at: offsetDueAt('2026-03', 6) }).where('id', '=', plan.id).execute();
    await runDueWork(s.running.deps);
    expect(await ordersOf(u.id)).toHaveLength(1);
    // Moved to a later day of the same month: March stays bought once.
    expect((await api().change(u, plan.id, 2, 25)).data).toMatchObject({ tons: 2, day: 25, next_run_at: '2026-03-25T09:00:00.000+08:00' });
    s.clock.set(after('2026-03', 25));
    await runDueWork(s.running.deps);
    expect(await ordersOf(u.id)).toHaveLength(1);
    const row = await s.db.selectFrom('offset_plans').select('next_run_at').where('id', '=', plan.id).executeTakeFirstOrThrow();
    expect(row.next_run_at).toBe(offsetDueAt('2026-04', 25));
  });

  it('pause skips, resume starts from the next due day, cancel stops it for good', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const plan = (await api().create(u, pid, 1, 8)).data;
    expect((await api().status(u, plan.id, 'paused')).data).toMatchObject({ status: 'paused', next_run_at: null });
    s.clock.set(after('2026-03', 8));
    await runDueWork(s.running.deps);
    expect(await ordersOf(u.id)).toHaveLength(0);
    expect((await api().status(u, plan.id, 'active')).data).toMatchObject({ status: 'active', next_run_at: '2026-04-08T09:00:00.000+08:00' });
    expect((await api().status(u, plan.id, 'cancelled')).data).toMatchObject({ status: 'cancelled', next_run_at: null });
    for (const month of ['2026-04', '2026-05']) {
      s.clock.set(after(month, 8));
      await runDueWork(s.running.deps);
    }
    expect(await ordersOf(u.id)).toHaveLength(0);
    const again = await fresh(u);
    for (const lang of LANGS) {
      const before = await marketSnapshot(s);
      expect(await api().status(again, plan.id, 'active', { lang })).toMatchObject(refusal('offset_cancelled', lang));
      expect(await api().change(again, plan.id, 2, 9, { lang })).toMatchObject(refusal('offset_cancelled', lang));
      expect(await marketSnapshot(s)).toEqual(before);
    }
  });

  it("refuses another member's plan id, in both languages, and changes nothing", async () => {
    s.clock.set(T0);
    const owner = await makeUser(s, { cents: 100_000 });
    const other = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const plan = (await api().create(owner, pid, 1, 15)).data;
    for (const lang of LANGS) {
      const before = await s.db.selectFrom('offset_plans').selectAll().orderBy('id').execute();
      expect(await api().status(other, plan.id, 'cancelled', { lang })).toMatchObject(refusal('offset_plan_not_found', lang));
      expect(await api().change(other, plan.id, 5, 3, { lang })).toMatchObject(refusal('offset_plan_not_found', lang));
      expect(await api().status(other, 999_999, 'paused', { lang })).toMatchObject(refusal('offset_plan_not_found', lang));
      expect(await s.db.selectFrom('offset_plans').selectAll().orderBy('id').execute()).toEqual(before);
    }
    expect((await api().lists(other)).data).toMatchObject({ list: [], total: 0 });
    const trade = await s.db.selectFrom('users').select('trade_fails').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(trade.trade_fails).toBe(0);
  });

  it('refuses at subscribe what a buy would refuse, the plan count, a bad day, a wrong password; nothing written', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY, min_tons: 2, max_tons: 10, required_grade: 0 });
    const closed = await makeProject(s, { status: 'closed', end_time: T0 - DAY });
    const gradeP2 = await makeProject(s, { end_time: T0 + 400 * DAY, required_grade: 2 });
    for (const lang of LANGS) {
      const before = await s.db.selectFrom('offset_plans').selectAll().orderBy('id').execute();
      const snap = await marketSnapshot(s);
      expect(await api().create(u, closed, 2, 5, { lang })).toMatchObject(refusal('project_ended', lang));
      expect(await api().create(u, pid, 1, 5, { lang })).toMatchObject(refusal('below_min_tons', lang, { n: 2 }));
      expect(await api().create(u, pid, 11, 5, { lang })).toMatchObject(refusal('above_max_tons', lang, { n: 10 }));
      expect(await api().create(u, gradeP2, 2, 5, { lang })).toMatchObject(refusal('grade_not_met', lang));
      expect(await api().create(u, pid, 2, 32, { lang })).toMatchObject(refusal('offset_day_invalid', lang));
      expect(await api().create(u, pid, 2, 0, { lang })).toMatchObject(refusal('offset_day_invalid', lang));
      expect(await api().create(u, pid, 0, 5, { lang })).toMatchObject(refusal('offset_tons_invalid', lang));
      expect(await s.db.selectFrom('offset_plans').selectAll().orderBy('id').execute()).toEqual(before);
      expect(await marketSnapshot(s)).toEqual(snap);
    }
    const wrong = await api().create(u, pid, 2, 5, { password: 'Wrong#Pass2026' });
    expect(wrong.code).toBe(refusal('project_password_incorrect', 'en', { n: 4 }).code);
    expect(await s.db.selectFrom('offset_plans').selectAll().where('user_id', '=', u.id).execute()).toHaveLength(0);
    // Ten open plans at most; a cancelled one does not count.
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await api().create(u, pid, 2, 5)).data.id as number);
    for (const lang of LANGS) expect(await api().create(u, pid, 2, 5, { lang })).toMatchObject(refusal('offset_plans_limit', lang, { n: 10 }));
    await api().status(u, ids[0]!, 'cancelled');
    expect((await api().create(u, pid, 2, 5)).code).toBe(0);
  });

  it('takes no unknown field, no __proto__, and answers the same key once', async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const extra = await s.api('POST', PATHS.offsetCreate, { project_id: pid, tons: 1, day: 5, password: TRADE_PASSWORD, status: 'paused' }, { token: u.token, idempotencyKey: newKey() });
    expect(extra.code).toBe(refusal('invalid_request').code);
    const proto = await s.raw('POST', PATHS.offsetCreate, { headers: { Authorization: u.token, 'Idempotency-Key': newKey(), 'Content-Type': 'application/json' }, body: `{"project_id":${pid},"tons":1,"day":5,"password":"${TRADE_PASSWORD}","__proto__":{"status":"paused"}}` });
    expect(((await proto.json()) as { code: number }).code).toBe(refusal('invalid_request').code);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => api().create(u, pid, 1, 5, { key })));
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
    expect(await s.db.selectFrom('offset_plans').selectAll().where('user_id', '=', u.id).execute()).toHaveLength(1);
  });
});

describe('offset:list', () => {
  it("shows a month's outcome with its reason, and refuses a bad month", async () => {
    s.clock.set(T0);
    const u = await makeUser(s, { cents: 500 });
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    const plan = (await offsetApi(s).create(u, pid, 1, 3)).data;
    s.clock.set(after('2026-04', 3));
    await runDueWork(s.running.deps);
    const ctx = { db: s.db, clock: s.clock, dataDir: s.dataDir };
    const listed = await runOps(ctx, 'offset:list', ['--user', String(u.id), '--month', '2026-04'], 'test');
    expect(listed).toMatchObject({ ok: true, data: [{ id: plan.id, month: '2026-04', outcome: 'refused', reason: 'insufficient_balance', status: 'active' }] });
    expect(listed.ok && listed.text).toContain('(insufficient_balance)');
    // March's day passed while no tick ran until April's had too: March is not bought (nor refused) late.
    expect(await s.db.selectFrom('offset_runs').select('month').where('plan_id', '=', plan.id).execute()).toEqual([{ month: '2026-04' }]);
    expect(await runOps(ctx, 'offset:list', ['--month', '2026-13'], 'test')).toMatchObject({ ok: false, exit: 2 });
  });
});

describe('two instances on one database', () => {
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer({ DATA_DIR: s.dataDir, HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
  });
  afterAll(async () => {
    await b.running.close();
  });

  it('ticking at once give one order a plan and month', async () => {
    s.clock.set(T0);
    b.clock.set(T0);
    const users = await Promise.all([1, 2, 3, 4].map(() => makeUser(s, { cents: 100_000 })));
    const pid = await makeProject(s, { end_time: T0 + 400 * DAY });
    for (const u of users) await offsetApi(s).create(u, pid, 1, 21);
    for (const month of ['2026-03', '2026-04']) {
      s.clock.set(after(month, 21));
      b.clock.set(after(month, 21));
      await Promise.all([...Array.from({ length: 5 }, () => runDueWork(s.running.deps)), ...Array.from({ length: 5 }, () => runDueWork(b.running.deps))]);
    }
    for (const u of users) expect((await ordersOf(u.id)).length).toBe(2);
    const runs = await s.db.selectFrom('offset_runs').selectAll().where('plan_id', 'in', s.db.selectFrom('offset_plans').select('id').where('user_id', 'in', users.map((u) => u.id))).execute();
    expect(runs).toHaveLength(8);
    expect(runs.every((r) => r.outcome === 'placed')).toBe(true);
  });
});
