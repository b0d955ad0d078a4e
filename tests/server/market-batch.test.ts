// Buys placed in batches (order/purchase.ts `purchases`, db/tx.ts Batcher): buys that wait for the same
// group commit are checked in turn against facts read once and written with a statement per table. What a
// batch does must be exactly what the buys one after the other would have done: no oversell, no balance
// below zero, limits held across buys of one user, ids unique, fund logs chained per account, and every
// buyer answered ok has its order committed, its key replaying the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderUsageProblems } from '../../src/server/modules/order/usage';
import { checkLedger } from '../../src/server/ledger/ledger';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, orderApi, type MarketUser } from './market-helpers';

let s: TestServer;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', HASH_CONCURRENCY_USER: '64' });
  api = orderApi(s);
});
afterAll(async () => {
  expect(await orderUsageProblems(s.db)).toEqual([]);
  await s?.close();
});

/** Fund logs of every account, in id order: each balance_after is the one before plus its amount, the
 *  last is the account's balance. */
async function expectChained(): Promise<void> {
  const logs = await s.db.selectFrom('fund_logs').select(['id', 'account_id', 'amount', 'balance_after']).orderBy('id').execute();
  const last = new Map<number, number>();
  const broken: unknown[] = [];
  for (const l of logs) {
    const before = last.get(l.account_id) ?? 0;
    if (Number(l.balance_after) !== before + Number(l.amount)) broken.push(l);
    last.set(l.account_id, Number(l.balance_after));
  }
  expect(broken).toEqual([]);
  const accounts = await s.db.selectFrom('ledger_accounts').select(['id', 'balance']).execute();
  for (const a of accounts) if (last.has(a.id)) expect(Number(a.balance), `account ${a.id}`).toBe(last.get(a.id));
}

describe('buys placed in batches', () => {
  it('a burst over two projects, users buying on both: no oversell, no overdraw, limits held, logs chained, replays identical', async () => {
    const p1 = await makeProject(s, { total_tons: 1000, remaining_tons: 20, monthly_limit: 7, total_limit: 9 });
    const p2 = await makeProject(s, { total_tons: 1000, remaining_tons: 500, price: 700, monthly_limit: 50, total_limit: 50 });
    // Balances that run out partway: 10 t at S$10 on p1, or less on p2.
    const users: MarketUser[] = await Promise.all(Array.from({ length: 6 }, (_, i) => makeUser(s, { cents: 4_000 + i * 1_700 })));
    const calls = Array.from({ length: 60 }, (_, i) => ({ u: users[i % 6]!, pid: i % 3 === 0 ? p2 : p1, tons: 1 + (i % 4), key: newKey() }));
    const answers = await Promise.all(calls.map((c) => api.buy(c.u, c.pid, c.tons, { key: c.key })));
    const okIdx = answers.flatMap((r, i) => (r.code === 0 ? [i] : []));
    expect(okIdx.length).toBeGreaterThan(0);
    // What is answered ok is what is committed, one order per ok answer, ids and numbers unique.
    const orders = await s.db.selectFrom('orders').selectAll().where('project_id', 'in', [p1, p2]).orderBy('id').execute();
    expect(orders.map((o) => o.id).sort((a, b) => a - b)).toEqual(okIdx.map((i) => answers[i]!.data.id).sort((a, b) => a - b));
    expect(new Set(orders.map((o) => o.order_no)).size).toBe(orders.length);
    for (const i of okIdx) {
      const o = orders.find((x) => x.id === answers[i]!.data.id)!;
      expect({ user: o.user_id, pid: o.project_id, tons: o.tons }).toEqual({ user: calls[i]!.u.id, pid: calls[i]!.pid, tons: calls[i]!.tons });
    }
    // Supply: what is left is what was not sold.
    const left = await s.db.selectFrom('projects').select(['id', 'remaining_tons']).where('id', 'in', [p1, p2]).execute();
    const sold = (pid: number) => orders.filter((o) => o.project_id === pid).reduce((n, o) => n + o.tons, 0);
    expect(left.find((p) => p.id === p1)!.remaining_tons).toBe(20 - sold(p1));
    expect(left.find((p) => p.id === p2)!.remaining_tons).toBe(500 - sold(p2));
    // Limits per user on p1, balances never below zero.
    for (const u of users) {
      const mine = orders.filter((o) => o.user_id === u.id && o.project_id === p1).reduce((n, o) => n + o.tons, 0);
      expect(mine).toBeLessThanOrEqual(7);
      const w = await s.db.selectFrom('ledger_accounts').select('balance').where('owner_id', '=', u.id).where('name', '=', 'available').executeTakeFirstOrThrow();
      const spent = orders.filter((o) => o.user_id === u.id).reduce((n, o) => n + o.total, 0);
      expect(Number(w.balance)).toBe(4_000 + users.indexOf(u) * 1_700 - spent);
      expect(Number(w.balance)).toBeGreaterThanOrEqual(0);
    }
    // Refusals are the catalogue's, never a server error.
    for (const r of answers) if (r.code !== 0) expect(r.msg).not.toMatch(/server|internal/i);
    await expectChained();
    const report = await checkLedger(s.db);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    // Replays: the same answer, nothing more written.
    const again = await Promise.all(okIdx.map((i) => api.buy(calls[i]!.u, calls[i]!.pid, calls[i]!.tons, { key: calls[i]!.key })));
    expect(again.map((r) => r.data)).toEqual(okIdx.map((i) => answers[i]!.data));
    expect(await s.db.selectFrom('orders').select('id').where('project_id', 'in', [p1, p2]).execute()).toHaveLength(orders.length);
  }, 60_000);
});

describe('names that JSON carries badly (PostgreSQL reads the batch from JSON)', () => {
  it('a project named with a lone surrogate: every buy of a burst placed (alone when the batch cannot carry it), the ledger whole', async () => {
    const pid = await makeProject(s, { name: 'Forest \ud800 lone', total_tons: 1000, remaining_tons: 40 });
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(s, { cents: 100_000 })));
    const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => api.buy(users[i % 8]!, pid, 1)));
    expect(answers.map((r) => r.code)).toEqual(Array(32).fill(0));
    const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(p.remaining_tons).toBe(8);
    await expectChained();
    expect((await checkLedger(s.db)).ok).toBe(true);
  }, 60_000);
});
