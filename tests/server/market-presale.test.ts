// Pre-sales end to end with a controlled clock (docs/product.md#pre-sale): booking and its fee, operator
// allocation (pro rata when oversubscribed, 0 t returns the fee), final payment, the cycle into credits of
// pre-sale origin (P3 to sell), expiry with the fee forfeited and the credit score lowered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { allocatePresale } from '../../src/server/modules/order/transitions';
import { allocate } from '../../src/server/modules/order/calc';
import { orderUsageProblems } from '../../src/server/modules/order/usage';
import { CLI_TEST_TIMEOUT_MS, DAY, HOUR, cliExists, refusal, runCli, startTestServer, type TestServer } from '../helpers/server';
import { expectRefusedBoth, makeProject, makeUser, orderApi, walletOfUser } from './market-helpers';

let s: TestServer;
let api: ReturnType<typeof orderApi>;
const PAY_HOURS = 72;

beforeAll(async () => {
  s = await startTestServer();
  api = orderApi(s);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  // Bookings, allocations (pro rata and 0 t), payments and expiries kept the buyers' counted tons (migration 018).
  expect(await orderUsageProblems(s.db)).toEqual([]);
  await s?.close();
});

const presaleProject = (o: Parameters<typeof makeProject>[1] = {}) =>
  makeProject(s, { status: 'presale', price: 1200, presale_price: 1000, selling_time: s.clock.now() + 5 * DAY, end_time: s.clock.now() + 90 * DAY, cycle_value: 1, cycle_unit: 'hours', ...o });
const allocateNow = (pid: number, price: number) => allocatePresale(s.db, pid, price, s.clock.now(), PAY_HOURS);
const order = async (id: number) => s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('allocation arithmetic', () => {
  it('pro rata: never above booked, sums to min(supply, booked), each within one ton of its exact share', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 5000 }), (tons, supply) => {
        const bookings = tons.map((t, i) => ({ id: i + 1, tons: t }));
        const out = allocate(bookings, supply);
        const booked = tons.reduce((a, b) => a + b, 0);
        const sum = [...out.values()].reduce((a, b) => a + b, 0);
        expect(sum).toBe(Math.min(supply, booked));
        for (const b of bookings) {
          const got = out.get(b.id)!;
          expect(got).toBeLessThanOrEqual(b.tons);
          const exact = booked <= supply ? b.tons : (b.tons * supply) / booked;
          expect(got).toBeGreaterThanOrEqual(Math.floor(exact));
          expect(got).toBeLessThanOrEqual(Math.ceil(exact));
        }
      }),
    );
  });
  it('gives ties to the earliest bookings', () => {
    expect([...allocate([{ id: 1, tons: 1 }, { id: 2, tons: 1 }, { id: 3, tons: 1 }], 2).values()]).toEqual([1, 1, 0]);
    expect([...allocate([{ id: 7, tons: 30 }, { id: 8, tons: 50 }, { id: 9, tons: 20 }], 50).values()]).toEqual([15, 25, 10]);
  });
});

describe('pre-sale path', () => {
  it('book -> allocate (oversubscribed, pro rata) -> pay -> cycle -> credits of pre-sale origin; unpaid expires', async () => {
    const pid = await presaleProject({ total_tons: 100, max_tons: 100 });
    const a = await makeUser(s, { cents: 200_000, grade: 1 });
    const b = await makeUser(s, { cents: 200_000 });
    const c = await makeUser(s, { cents: 200_000 });
    // 60 + 60 + 30 = 150 booked against 100 t.
    const oa = await api.book(a, pid, 60);
    expect(oa.code, oa.msg).toBe(0);
    expect(oa.data).toMatchObject({ kind: 'presale', side: 'buy', status: 'applying', tons: 60, unit_price: 1000, total: 60_000, booking_fee: 6_000, final_tons: null });
    expect(oa.data.order_no).toMatch(/^P\d{12}$/);
    expect(await walletOfUser(s, a.id)).toMatchObject({ available: 194_000, presale: 6_000 });
    const ob = (await api.book(b, pid, 60)).data;
    const oc = (await api.book(c, pid, 30)).data;
    const proj = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(proj.remaining_tons).toBe(100); // bookings do not take supply; allocation does

    // Paying before allocation fails.
    await expectRefusedBoth(s, 'final_payment_failed', (lang) => api.finalpay(a, oa.data.id, { lang }));

    const result = await allocateNow(pid, 1100);
    expect(result).toMatchObject({ supply: 100, booked: 150, allocated: 100, oversubscribed: true });
    // 60*100/150 = 40, 40, 20: exact.
    expect(result.orders.map((o) => o.final_tons)).toEqual([40, 40, 20]);
    const pa = (await api.detail(a, oa.data.id)).data;
    expect(pa).toMatchObject({ status: 'pending_final_payment', final_unit_price: 1100, final_tons: 40, final_amount: 40 * 1100 - 6_000 });
    expect(pa.final_deadline_ms).toBe(s.clock.now() + PAY_HOURS * HOUR);
    const after = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(after.remaining_tons).toBe(0);
    const notes = await s.db.selectFrom('notifications').select('title').where('user_id', '=', a.id).execute();
    expect(notes.map((n) => n.title)).toContain('Final payment due');

    // Wrong password and a balance too small are refused without change.
    await expectRefusedBoth(s, 'not_found', (lang) => api.finalpay(b, oa.data.id, { lang }));
    // A pays.
    const paid = await api.finalpay(a, oa.data.id);
    expect(paid.code, paid.msg).toBe(0);
    expect(paid.data).toMatchObject({ status: 'final_payment_made', cycle_end_ms: s.clock.now() + HOUR });
    expect(await walletOfUser(s, a.id)).toMatchObject({ available: 194_000 - 38_000, presale: 0 });
    await expectRefusedBoth(s, 'final_payment_failed', (lang) => api.finalpay(a, oa.data.id, { lang }));

    // C pays too; B does not.
    expect((await api.finalpay(c, oc.id)).code).toBe(0);

    s.clock.advance(HOUR);
    await runDueWork(s.running.deps);
    expect((await order(oa.data.id)).status).toBe('completed');
    expect(await walletOfUser(s, a.id)).toMatchObject({ credits: 40 });
    const holding = await s.db.selectFrom('credit_holdings').selectAll().where('user_id', '=', a.id).execute();
    expect(holding).toEqual([expect.objectContaining({ project_id: pid, origin: 'presale', tons: 40 })]);
    // Pre-sale credits: P1 may not sell them (P3 rule), P3 may.
    await expectRefusedBoth(s, 'sell_not_eligible', (lang) => api.sell(a, pid, 1, { lang }));
    expect((await api.credits(a)).data.holdings[0]).toMatchObject({ presale_tons: 40, sellable_tons: 0 });
    await s.db.updateTable('users').set({ grade: 3 }).where('id', '=', a.id).execute();
    const sold = await api.sell(a, pid, 10);
    expect(sold.code, sold.msg).toBe(0);
    expect(sold.data).toMatchObject({ presale_tons: 10 });

    // B: paying after the deadline but before the scheduler ran is refused as expired.
    // (The server's own scheduler may expire it at any moment now, so only the answer is compared here.)
    s.clock.set(pa.final_deadline_ms);
    for (const lang of ['en', 'cn'] as const) {
      const late = await api.finalpay(b, ob.id, { lang });
      expect({ code: late.code, msg: late.msg }).toEqual(refusal('final_payment_expired', lang));
    }
    await runDueWork(s.running.deps);
    const expired = await order(ob.id);
    expect(expired.status).toBe('final_payment_expired');
    expect(await walletOfUser(s, b.id)).toMatchObject({ available: 194_000, presale: 0 });
    const forfeits = await s.db.selectFrom('fund_logs').selectAll().where('kind', '=', 'presale_forfeit').where('ref_id', '=', ob.id).execute();
    expect(forfeits.map((f) => [f.owner_id, f.account_name, f.amount])).toEqual([
      [b.id, 'presale', -6_000],
      [0, 'forfeits', 6_000],
    ]);
    expect((await s.db.selectFrom('users').select('credit_score').where('id', '=', b.id).executeTakeFirstOrThrow()).credit_score).toBe('medium');
    // The unpaid 40 t went back to the supply.
    expect((await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow()).remaining_tons).toBe(40);
    await expectRefusedBoth(s, 'final_payment_expired', (lang) => api.finalpay(b, ob.id, { lang }));
  });

  it('two expiries make the credit score poor', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    for (let i = 0; i < 2; i++) {
      const pid = await presaleProject();
      expect((await api.book(u, pid, 5)).code).toBe(0);
      await allocateNow(pid, 1000);
      s.clock.advance(PAY_HOURS * HOUR);
      await runDueWork(s.running.deps);
    }
    expect((await s.db.selectFrom('users').select('credit_score').where('id', '=', u.id).executeTakeFirstOrThrow()).credit_score).toBe('poor');
  });

  it('a booking allocated 0 t gets its fee back; a fee larger than the cost is refunded at payment', async () => {
    const pid = await presaleProject({ total_tons: 1, min_tons: 1 });
    const a = await makeUser(s, { cents: 10_000 });
    const b = await makeUser(s, { cents: 10_000 });
    const oa = (await api.book(a, pid, 1)).data;
    const ob = (await api.book(b, pid, 1)).data;
    const r = await allocateNow(pid, 50); // final price far below the pre-sale price
    expect(r.orders.map((o) => [o.id, o.final_tons])).toEqual([
      [oa.id, 1],
      [ob.id, 0],
    ]);
    expect((await order(ob.id)).status).toBe('completed');
    expect(await walletOfUser(s, b.id)).toMatchObject({ available: 10_000, presale: 0 });
    // a: fee 100 cents, cost 1 x 50: pays nothing more and gets 50 back.
    expect((await order(oa.id)).final_amount).toBe(0);
    expect((await api.finalpay(a, oa.id)).code).toBe(0);
    expect(await walletOfUser(s, a.id)).toMatchObject({ available: 9_950, presale: 0 });
  });

  it('refuses wrong bookings in en and cn, changing nothing', async () => {
    const u = await makeUser(s, { cents: 1_000 });
    const pid = await presaleProject({ total_tons: 50, remaining_tons: 50, min_tons: 2, max_tons: 40 });
    await expectRefusedBoth(s, 'presale_quantity', (lang) => api.book(u, pid, 0, { lang }));
    await expectRefusedBoth(s, 'presale_quantity', (lang) => api.book(u, pid, 51, { lang }));
    await expectRefusedBoth(s, 'presale_quantity', (lang) => api.book(u, pid, 'x' as unknown as number, { lang }));
    await expectRefusedBoth(s, 'below_min_tons', (lang) => api.book(u, pid, 1, { lang }), { n: 2 });
    await expectRefusedBoth(s, 'above_max_tons', (lang) => api.book(u, pid, 41, { lang }), { n: 40 });
    await expectRefusedBoth(s, 'insufficient_balance', (lang) => api.book(u, pid, 20, { lang })); // fee 2,000 > 1,000
    const selling = await makeProject(s, { presale_price: 900 });
    await expectRefusedBoth(s, 'project_ended', (lang) => api.book(u, selling, 2, { lang }));
    const gated = await presaleProject({ required_grade: 4 });
    await expectRefusedBoth(s, 'grade_not_met', (lang) => api.book(u, gated, 2, { lang }));
    const limited = await presaleProject({ monthly_limit: 3 });
    await expectRefusedBoth(s, 'monthly_limit', (lang) => api.book(u, limited, 4, { lang }), { n: 3 });
    const wrong = await api.book(u, pid, 2, { password: 'Nope#Nope2026' });
    expect(wrong.code).toBe(refusal('project_password_incorrect').code);
  });

  it.runIf(cliExists())('presale:allocate through the operator CLI', async () => {
    const pid = await presaleProject({ total_tons: 10 });
    const u = await makeUser(s, { cents: 10_000 });
    const v = await makeUser(s, { cents: 10_000 });
    await api.book(u, pid, 8);
    await api.book(v, pid, 8);
    const env = { DATA_DIR: s.dataDir };
    // Each CLI run costs seconds (npx tsx): one run, the rest checked in the database.
    const res = await runCli(['presale:allocate', String(pid), '--price', '1300'], env);
    expect(res.code, res.stderr).toBe(0);
    expect((res.json as { data: { orders: { final_tons: number }[] } }).data.orders.map((o) => o.final_tons)).toEqual([5, 5]);
    const pending = await s.db.selectFrom('orders').select(['status', 'final_unit_price']).where('project_id', '=', pid).execute();
    expect(pending).toEqual([
      { status: 'pending_final_payment', final_unit_price: 1300 },
      { status: 'pending_final_payment', final_unit_price: 1300 },
    ]);
    const log = await s.db.selectFrom('operator_log').select(['command', 'ok']).where('command', '=', 'presale:allocate').execute();
    expect(log).toEqual([{ command: 'presale:allocate', ok: 1 }]);
  }, CLI_TEST_TIMEOUT_MS); // starts the operator CLI (npx tsx, cold), which alone can pass 30 s on a loaded machine
});

describe('a pre-sale waits for its allocation', () => {
  it('does not open to buyers at selling time while bookings await allocation; allocation only in pre-sale', async () => {
    const pid = await presaleProject({ total_tons: 50, max_tons: 50 });
    const u = await makeUser(s, { cents: 100_000 });
    expect((await api.book(u, pid, 10)).code).toBe(0);
    s.clock.advance(6 * DAY); // past the selling time
    await runDueWork(s.running.deps);
    const status = async () => (await s.db.selectFrom('projects').select('status').where('id', '=', pid).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('presale');
    await allocateNow(pid, 1100);
    await runDueWork(s.running.deps);
    expect(await status()).toBe('in_progress');
    // Allocation of a project no longer in pre-sale is refused.
    await expect(allocateNow(pid, 1100)).rejects.toThrow(/only a project in pre-sale/);
  });
});
