// Property test of retirement (docs/product.md#retirement): random buys, cycle completions, sell-backs,
// pre-sale bookings, allocations and final payments, and retirements from several users, over real HTTP.
// After every run: serial ranges are disjoint and their count equals the retired tons per project (= the
// retirement account), the ledger sums to zero with every balance equal to its fund logs, each user's
// holdings sum to their credits, and per project issued = sold + booked + remaining (the transparency
// figures), with sold recomputed from the orders.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger, checkRetirements, walletOf } from '../../src/server/ledger/ledger';
import { allocatePresale } from '../../src/server/modules/order/transitions';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { DAY, MIN, startTestServer, type TestServer } from '../helpers/server';
import { makeUser, orderApi, type MarketUser } from './market-helpers';
import { makeRetirableProject, retireApi } from './retire-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
});
afterAll(async () => {
  await s?.close();
});

type Op =
  | { t: 'buy'; user: number; project: number; tons: number }
  | { t: 'sell'; user: number; project: number; tons: number }
  | { t: 'retire'; user: number; project: number; tons: number }
  | { t: 'book'; user: number; tons: number }
  | { t: 'allocate' }
  | { t: 'finalpay'; user: number }
  | { t: 'tick'; minutes: number };

const USERS = 3;
const PROJECTS = 2;

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('buy' as const), user: fc.nat(USERS - 1), project: fc.nat(PROJECTS - 1), tons: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('sell' as const), user: fc.nat(USERS - 1), project: fc.nat(PROJECTS - 1), tons: fc.integer({ min: 1, max: 10 }) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('retire' as const), user: fc.nat(USERS - 1), project: fc.nat(PROJECTS), tons: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('book' as const), user: fc.nat(USERS - 1), tons: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'allocate' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('finalpay' as const), user: fc.nat(USERS - 1) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('tick' as const), minutes: fc.integer({ min: 1, max: 3 }) }) },
);

async function invariants(projectIds: number[], users: MarketUser[]): Promise<void> {
  // Serials: disjoint, within 1..total, their count = retired tons = the retirement account, per project.
  expect(await checkRetirements(s.db)).toEqual([]);
  const ledger = await checkLedger(s.db);
  expect(ledger.problems).toEqual([]);
  expect(ledger.retirement_problems).toEqual([]);
  for (const [unit, total] of Object.entries(ledger.totals)) expect(total, `ledger total in ${unit}`).toBe(0);
  expect(ledger.ok).toBe(true);
  for (const u of users) {
    const rows = await s.db.selectFrom('credit_holdings').select('tons').where('user_id', '=', u.id).execute();
    expect(rows.reduce((n, r) => n + r.tons, 0)).toBe((await walletOf(s.db, u.id)).credits);
  }
  const transparency = (await retireApi(s).transparency()).data as { projects: Array<{ id: number; issued: number; sold: number; booked: number; retired: number; remaining: number }> };
  for (const pid of projectIds) {
    const p = await s.db.selectFrom('projects').select(['total_tons', 'remaining_tons']).where('id', '=', pid).executeTakeFirstOrThrow();
    const orders = await s.db.selectFrom('orders').selectAll().where('project_id', '=', pid).where('side', '=', 'buy').execute();
    // Sold from the orders: purchases, and pre-sales allocated (final tons) that did not expire.
    const sold = orders.reduce((n, o) => n + (o.kind === 'purchase' ? o.tons : o.status === 'final_payment_expired' ? 0 : (o.final_tons ?? 0)), 0);
    const booked = orders.filter((o) => o.status === 'applying').reduce((n, o) => n + o.tons, 0);
    expect(p.total_tons, `project #${pid}: issued = sold + remaining`).toBe(sold + p.remaining_tons);
    const retired = await s.db.selectFrom('retirements').select('tons').where('project_id', '=', pid).execute();
    const retiredTons = retired.reduce((n, r) => n + r.tons, 0);
    expect(retiredTons).toBeLessThanOrEqual(sold);
    const row = transparency.projects.find((x) => x.id === pid);
    if (row) {
      expect(row.issued).toBe(row.sold + row.booked + row.remaining);
      expect(row.sold).toBe(sold);
      expect(row.booked).toBe(Math.min(booked, p.remaining_tons));
    }
  }
}

it('random buys, sells, bookings and retirements keep serials, ledger and supply consistent', { timeout: 600_000 }, async () => {
  let runs = 0;
  let retiredOk = 0;
  const codes = new Map<number, number>();
  let presaleCompleted = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30, size: 'max' }), async (ops) => {
      runs++;
      const users = await Promise.all(Array.from({ length: USERS }, () => makeUser(s, { cents: 2_000_000, grade: 3, scryptLog2n: 10 })));
      const projects = await Promise.all(Array.from({ length: PROJECTS }, () => makeRetirableProject(s, { total_tons: 120, remaining_tons: 120, max_tons: 100 })));
      const presale = await makeRetirableProject(s, { status: 'presale', presale_price: 700, total_tons: 60, remaining_tons: 60, selling_time: s.clock.now() + 30 * DAY });
      const all = [...projects, presale];
      const api = orderApi(s);
      const r = retireApi(s);
      for (const o of ops) {
        switch (o.t) {
          case 'buy':
            // The cycle (one minute) completes right away: the tons are held for what follows.
            if ((await api.buy(users[o.user]!, projects[o.project]!, o.tons)).code === 0) {
              s.clock.advance(MIN);
              await runDueWork(s.running.deps);
            }
            break;
          case 'sell':
            await api.sell(users[o.user]!, projects[o.project]!, o.tons);
            break;
          case 'retire': {
            const res = await r.retire(users[o.user]!, { project_id: all[o.project]!, tons: o.tons, beneficiary: `User ${o.user}` });
            codes.set(res.code, (codes.get(res.code) ?? 0) + 1);
            if (res.code === 0) {
              retiredOk++;
              expect(res.data.serials.length).toBeGreaterThan(0);
            }
            break;
          }
          case 'book':
            await api.book(users[o.user]!, presale, o.tons);
            break;
          case 'allocate': {
            // Allocated bookings are mostly paid (by their owners, over HTTP) and their cycle completes,
            // so later retirements meet credits of pre-sale origin too.
            const allocated = await allocatePresale(s.db, presale, 800, s.clock.now(), 72).catch(() => null);
            for (const o of allocated?.orders ?? []) {
              const owner = users.find((u) => u.id === o.user_id);
              if (owner && o.status === 'pending_final_payment' && o.id % 4 !== 0) await api.finalpay(owner, o.id);
            }
            s.clock.advance(MIN);
            await runDueWork(s.running.deps);
            break;
          }
          case 'finalpay': {
            const due = await s.db.selectFrom('orders').select('id').where('user_id', '=', users[o.user]!.id).where('status', '=', 'pending_final_payment').executeTakeFirst();
            if (due) await api.finalpay(users[o.user]!, due.id);
            break;
          }
          case 'tick':
            s.clock.advance(o.minutes * MIN);
            await runDueWork(s.running.deps);
            break;
        }
      }
      s.clock.advance(2 * MIN);
      await runDueWork(s.running.deps);
      presaleCompleted += (await s.db.selectFrom('credit_holdings').select('tons').where('project_id', '=', presale).where('origin', '=', 'presale').execute()).length;
      await invariants(all, users);
    }),
    { numRuns: Number(process.env.RETIRE_PROPERTY_RUNS ?? 20), endOnFailure: true },
  );
  expect(runs).toBeGreaterThan(0);
  expect(retiredOk, 'some retirements went through').toBeGreaterThan(0);
  console.log(`retire property: ${runs} runs, ${retiredOk} retirements, ${presaleCompleted} pre-sale holdings, retire answers ${JSON.stringify([...codes])}`);
});
