// The order engine over real HTTP (docs/product.md#buying, docs/product.md#selling-back,
// docs/product.md#writes-and-retries): buying by the ton, every project and sell refusal of
// docs/product.md#error-catalogue in en and cn with nothing changed, cycle completion into credits and grade,
// selling back and settlement, idempotency, reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderUsageProblems } from '../../src/server/modules/order/usage';
import { PATHS } from '../../src/shared/api';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { settlementTime } from '../../src/server/modules/order/calc';
import { DAY, HOUR, refusal, startTestServer, type TestServer } from '../helpers/server';
import { expectRefusedBoth, makeProject, makeUser, marketSnapshot, newKey, orderApi, topup, TRADE_PASSWORD, walletOfUser } from './market-helpers';

let s: TestServer;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  s = await startTestServer();
  api = orderApi(s);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  expect(await orderUsageProblems(s.db)).toEqual([]);
  await s?.close();
});

describe('buy by the ton', () => {
  it('takes the money, the supply and answers the order in progress with its countdown', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { price: 1250, total_tons: 500, cycle_value: 2, cycle_unit: 'hours' });
    const res = await api.buy(u, pid, 8);
    expect(res.code, res.msg).toBe(0);
    const o = res.data;
    expect(o).toMatchObject({ project_id: pid, side: 'buy', kind: 'purchase', status: 'in_progress', unit_price: 1250, tons: 8, total: 10_000, booking_fee: 0 });
    expect(o.order_no).toMatch(/^B260302\d{6}$/);
    expect(o.cycle_end_ms).toBe(s.clock.now() + 2 * HOUR);
    expect(o.cycle_end).toMatch(/\+08:00$/);
    expect(o.created_at_ms).toBe(s.clock.now());
    expect(o.project_name).toMatch(/^Test Forest/);
    expect(o.project_name_cn).toMatch(/^测试森林/);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 90_000, credits: 0 });
    const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(p.remaining_tons).toBe(492);
    const logs = await s.db.selectFrom('fund_logs').selectAll().where('ref_type', '=', 'order').where('ref_id', '=', o.id).execute();
    expect(logs.map((l) => [l.owner_id, l.account_name, l.amount])).toEqual([
      [u.id, 'available', -10_000],
      [0, 'sales', 10_000],
    ]);
    const list = await api.lists(u);
    expect(list.data).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(list.data.list[0]).toEqual(o);
    expect((await api.detail(u, o.id)).data).toEqual(o);
    const other = await makeUser(s);
    expect((await api.detail(other, o.id)).code).toBe(refusal('not_found').code);
  });

  it('names the order and its project (both languages) on each fund log of an order, so two buys can be told apart', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const a = await makeProject(s, { price: 1100 });
    const b = await makeProject(s, { price: 1100 });
    const first = (await api.buy(u, a, 3)).data;
    const second = (await api.buy(u, b, 3)).data;
    const logs = (await s.api('GET', PATHS.walletFundlogs, {}, { token: u.token })).data as { list: Array<Record<string, unknown>> };
    const byKind = logs.list.map((l) => [l.kind, l.order_no, l.project_id, l.project_name, l.project_name_cn]);
    expect(byKind).toEqual([
      ['order_buy', second.order_no, b, second.project_name, second.project_name_cn],
      ['order_buy', first.order_no, a, first.project_name, first.project_name_cn],
      ['topup', null, null, null, null],
    ]);
  });

  it('completes after its cycle: credits, holdings, grade, notification — exactly once', async () => {
    const u = await makeUser(s, { cents: 200_000 });
    const pid = await makeProject(s, { price: 1000, cycle_value: 30, cycle_unit: 'minutes' });
    const o = (await api.buy(u, pid, 100)).data; // S$1,000.00 reaches the P1 threshold
    s.clock.advance(29 * 60_000);
    await runDueWork(s.running.deps);
    expect((await api.detail(u, o.id)).data.status).toBe('in_progress');
    s.clock.advance(60_000);
    const report = await runDueWork(s.running.deps);
    expect(report.completed).toBeGreaterThanOrEqual(0); // the server's own scheduler may have done it
    const done = (await api.detail(u, o.id)).data;
    expect(done.status).toBe('completed');
    expect(done.completed_at_ms).toBe(s.clock.now());
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 100_000, credits: 100 });
    await runDueWork(s.running.deps);
    const issues = await s.db.selectFrom('fund_logs').selectAll().where('kind', '=', 'credit_issue').where('ref_id', '=', o.id).execute();
    expect(issues).toHaveLength(2);
    const user = await s.db.selectFrom('users').select('grade').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.grade).toBe(1);
    const notes = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).execute();
    expect(notes.map((n) => n.title)).toEqual(expect.arrayContaining([expect.stringMatching(/^Order B\d+ completed: \d+ t of /), 'Membership upgraded to P1']));
    const credits = (await api.credits(u)).data;
    expect(credits.balance).toBe(100);
    expect(credits.holdings).toEqual([
      expect.objectContaining({ project_id: pid, tons: 100, purchase_tons: 100, presale_tons: 0, buyback_price: 1050, sellable_tons: 100 }),
    ]);
    expect(credits.list).toEqual([expect.objectContaining({ kind: 'credit_issue', amount: 100, balance_after: 100, order_id: o.id, order_no: o.order_no, project_id: pid })]);
  });

  it('counts the monthly limit per SGT calendar month and the total limit across months', async () => {
    const u = await makeUser(s, { cents: 1_000_000 });
    // 2026-03-31 23:00 SGT
    const start = s.clock.now();
    s.clock.set(Date.UTC(2026, 2, 31, 15, 0));
    await runDueWork(s.running.deps); // what fell due by then, before any snapshot
    const pid = await makeProject(s, { monthly_limit: 5, total_limit: 8, end_time: Date.UTC(2026, 6, 1) });
    expect((await api.buy(u, pid, 5)).code).toBe(0);
    await expectRefusedBoth(s, 'monthly_limit', (lang) => api.buy(u, pid, 1, { lang }), { n: 5 });
    s.clock.set(Date.UTC(2026, 2, 31, 16, 30)); // 2026-04-01 00:30 SGT: a new month
    await runDueWork(s.running.deps);
    expect((await api.buy(u, pid, 3)).code).toBe(0);
    await expectRefusedBoth(s, 'total_limit', (lang) => api.buy(u, pid, 1, { lang }), { n: 8 });
    const limits = (await api.limits(u, pid)).data;
    expect(limits).toMatchObject({ monthly_limit: 5, total_limit: 8, monthly_used: 3, total_used: 8, monthly_left: 2, total_left: 0 });
    s.clock.set(start);
  });

  it('refuses every business rule in en and cn, changing nothing', async () => {
    const u = await makeUser(s, { cents: 50_000 });
    const open = await makeProject(s, { min_tons: 2, max_tons: 20, total_tons: 100 });
    const now = s.clock.now();

    const visitor = await s.api('POST', PATHS.visitor, {});
    await expectRefusedBoth(s, 'guest_forbidden', (lang) => api.buy({ token: visitor.data.token }, open, 5, { lang }));
    const risky = await makeUser(s, { cents: 50_000, risk: true });
    await expectRefusedBoth(s, 'risk_forbidden', (lang) => api.buy(risky, open, 5, { lang }));

    const future = await makeProject(s, { selling_time: now + DAY });
    await expectRefusedBoth(s, 'project_not_started', (lang) => api.buy(u, future, 5, { lang }));
    const presale = await makeProject(s, { status: 'presale', presale_price: 900, selling_time: now + DAY });
    await expectRefusedBoth(s, 'project_not_started', (lang) => api.buy(u, presale, 5, { lang }));
    const ended = await makeProject(s, { selling_time: now - 10 * DAY, end_time: now - HOUR });
    await runDueWork(s.running.deps);
    await expectRefusedBoth(s, 'project_ended', (lang) => api.buy(u, ended, 5, { lang }));
    const full = await makeProject(s, { total_tons: 10, remaining_tons: 0 });
    // Let the scheduler close what is due (ended, sold out) first, so nothing moves during the snapshots.
    await runDueWork(s.running.deps);
    await expectRefusedBoth(s, 'project_full', (lang) => api.buy(u, full, 5, { lang }));
    expect((await s.db.selectFrom('projects').select('status').where('id', '=', full).executeTakeFirstOrThrow()).status).toBe('closed');

    await expectRefusedBoth(s, 'below_min_tons', (lang) => api.buy(u, open, 1, { lang }), { n: 2 });
    await expectRefusedBoth(s, 'below_min_tons', (lang) => api.buy(u, open, 0, { lang }), { n: 2 });
    await expectRefusedBoth(s, 'above_max_tons', (lang) => api.buy(u, open, 21, { lang }), { n: 20 });
    const gated = await makeProject(s, { required_grade: 2 });
    await expectRefusedBoth(s, 'grade_not_met', (lang) => api.buy(u, gated, 5, { lang }));
    const scarce = await makeProject(s, { total_tons: 100, remaining_tons: 3 });
    await expectRefusedBoth(s, 'insufficient_remaining', (lang) => api.buy(u, scarce, 5, { lang }));
    const dear = await makeProject(s, { price: 1_000_000 });
    await expectRefusedBoth(s, 'insufficient_balance', (lang) => api.buy(u, dear, 1, { lang }));
    const noPassword = await makeUser(s, { cents: 50_000, noPassword: true });
    await expectRefusedBoth(s, 'withdraw_password_unset', (lang) => api.buy(noPassword, open, 5, { lang }));
    await expectRefusedBoth(s, 'not_found', (lang) => api.buy(u, 999_999, 5, { lang }));
    await expectRefusedBoth(s, 'invalid_number', (lang) => api.buy(u, open, 'two' as unknown as number, { lang }));
    // No Idempotency-Key: refused before anything happens.
    const before = await marketSnapshot(s);
    const nokey = await s.api('POST', PATHS.orderBuy, { project_id: open, tons: 5, password: TRADE_PASSWORD }, { token: u.token });
    expect(nokey.code).toBe(refusal('invalid_request').code);
    expect(await marketSnapshot(s)).toEqual(before);
  });

  it('answers a wrong payment password with the attempts left, moving no money', async () => {
    const u = await makeUser(s, { cents: 50_000 });
    const pid = await makeProject(s);
    for (const [i, lang] of (['en', 'cn'] as const).entries()) {
      const before = await marketSnapshot(s);
      const res = await api.buy(u, pid, 5, { lang, password: 'Wrong#Pass2026' });
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('project_password_incorrect', lang, { n: 4 - i }));
      const after = await marketSnapshot(s);
      expect(after.ledger_accounts).toEqual(before.ledger_accounts);
      expect(after.fund_logs).toEqual(before.fund_logs);
      expect(after.orders).toEqual(before.orders);
      expect(after.projects).toEqual(before.projects);
    }
    // The right password resets the counter.
    expect((await api.buy(u, pid, 5)).code).toBe(0);
    const row = await s.db.selectFrom('users').select('trade_fails').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.trade_fails).toBe(0);
  });

  it('is idempotent: 20 concurrent requests with one key make one order', async () => {
    const u = await makeUser(s, { cents: 50_000 });
    const pid = await makeProject(s);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.buy(u, pid, 3, { key })));
    const ok = answers.filter((a) => a.code === 0);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) if (a.code !== 0) expect(a.code).toBe(refusal('idempotency_in_progress').code);
    expect(new Set(ok.map((a) => a.data.id)).size).toBe(1);
    const replay = await api.buy(u, pid, 3, { key });
    expect(replay.data).toEqual(ok[0]!.data);
    expect((await api.buy(u, pid, 4, { key })).code).toBe(refusal('idempotency_mismatch').code);
    const orders = await s.db.selectFrom('orders').select('id').where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(1);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 47_000 });
  });
});

describe('sell back', () => {
  async function holder(tons: number, grade = 1) {
    const u = await makeUser(s, { cents: 1_000_000, grade });
    const pid = await makeProject(s, { price: 2000, yield_bp: 750, cycle_value: 1, cycle_unit: 'minutes' });
    expect((await api.buy(u, pid, tons)).code).toBe(0);
    s.clock.advance(60_000);
    await runDueWork(s.running.deps);
    return { u, pid };
  }

  it('moves credits out and proceeds to unavailable until T+2 working days, then to available', async () => {
    const { u, pid } = await holder(10);
    const before = await walletOfUser(s, u.id);
    const res = await api.sell(u, pid, 4);
    expect(res.code, res.msg).toBe(0);
    const price = Math.round((2000 * 10_750) / 10_000); // 2150
    expect(res.data).toMatchObject({ side: 'sell', kind: 'sell', status: 'in_progress', tons: 4, unit_price: price, total: 4 * price, presale_tons: 0, settled_at: null });
    expect(res.data.order_no).toMatch(/^S\d{12}$/);
    const settleAt = settlementTime(s.clock.now(), 2, s.running.deps.config.PUBLIC_HOLIDAYS);
    expect(res.data.settle_at_ms).toBe(settleAt);
    // The answer is made from the row as written, not read back: it is what the database holds.
    expect((await api.detail(u, res.data.id)).data).toEqual(res.data);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: before.available, unavailable: 4 * price, credits: 6 });
    s.clock.set(settleAt - 1);
    await runDueWork(s.running.deps);
    expect(await walletOfUser(s, u.id)).toMatchObject({ unavailable: 4 * price });
    s.clock.set(settleAt);
    await runDueWork(s.running.deps);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: before.available + 4 * price, unavailable: 0, credits: 6 });
    const done = (await api.detail(u, res.data.id)).data;
    expect(done).toMatchObject({ status: 'completed', settled_at_ms: settleAt });
    const sells = (await api.lists(u, { side: 'sell' })).data;
    expect(sells.list.map((o: { id: number }) => o.id)).toEqual([res.data.id]);
    const credits = (await api.credits(u)).data;
    expect(credits.list.map((m: { kind: string; amount: number }) => [m.kind, m.amount])).toEqual([
      ['credit_sell', -4],
      ['credit_issue', 10],
    ]);
  });

  it('refuses selling without holdings, below the selling grade, and for risk accounts', async () => {
    const { u, pid } = await holder(5);
    await expectRefusedBoth(s, 'insufficient_credits', (lang) => api.sell(u, pid, 6, { lang }));
    const other = await makeProject(s);
    await expectRefusedBoth(s, 'insufficient_credits', (lang) => api.sell(u, other, 1, { lang }));
    const { u: low, pid: lowPid } = await holder(5, 0);
    await expectRefusedBoth(s, 'sell_not_eligible', (lang) => api.sell(low, lowPid, 1, { lang }));
    await s.db.updateTable('users').set({ risk: 1 }).where('id', '=', u.id).execute();
    await expectRefusedBoth(s, 'risk_forbidden', (lang) => api.sell(u, pid, 1, { lang }));
    await s.db.updateTable('users').set({ risk: 0 }).where('id', '=', u.id).execute();
  });
});

describe('scheduler: projects by time', () => {
  it('opens a pre-sale at its selling time and closes at the end time or when sold out', async () => {
    const now = s.clock.now();
    const pre = await makeProject(s, { status: 'presale', presale_price: 800, selling_time: now + HOUR, end_time: now + 10 * DAY });
    const ending = await makeProject(s, { end_time: now + 2 * HOUR });
    const u = await makeUser(s, { cents: 100_000 });
    const small = await makeProject(s, { total_tons: 5 });
    expect((await api.buy(u, small, 5)).code).toBe(0);
    await runDueWork(s.running.deps);
    const status = async (id: number) => (await s.db.selectFrom('projects').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(await status(small)).toBe('closed');
    expect(await status(pre)).toBe('presale');
    s.clock.advance(HOUR);
    await runDueWork(s.running.deps);
    expect(await status(pre)).toBe('in_progress');
    expect(await status(ending)).toBe('in_progress');
    s.clock.advance(HOUR);
    await runDueWork(s.running.deps);
    expect(await status(ending)).toBe('closed');
    const live = await s.db.selectFrom('live_events').select('payload').orderBy('id', 'desc').limit(50).execute();
    expect(live.some((e) => e.payload.includes(`"ids":[${ending}]`))).toBe(true);
  });
});

describe('top-up helper sanity', () => {
  it('keeps the ledger balanced', async () => {
    const u = await makeUser(s);
    await topup(s, u.id, 123);
    expect((await checkLedger(s.db)).ok).toBe(true);
  });
});
