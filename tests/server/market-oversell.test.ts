// Oversell (docs/product.md#buying): a project with 100 t left and 500 concurrent buy requests of 1 t from 4
// client processes, 25 users: exactly 100 succeed, remaining 0, no server error, the ledger checks out.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { API_BASE, PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, TRADE_PASSWORD } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  // The oversell guarantee, not the hash lanes' wait bound (hashing.test.ts): on a busy machine 500 queued checks
  // may take longer than the default 3 s to drain. The lane refuses a check whose expected wait, queue / lane
  // width x the recent time of one check, passes HASH_MAX_WAIT_MS (at most 60 s); under load (~10 on 2 cores)
  // a check's time there includes the event loop's delay, and a 2-wide lane of 500 gave four to thirty 429s.
  // A 64-wide lane keeps the estimate far below the bound, and lets more buys race for the last tons.
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', HASH_CONCURRENCY_USER: '64' });
});
afterAll(async () => {
  await s?.close();
});

// Each client process fires all its requests at once and prints [{status, code}] as JSON.
const CLIENT = `
const jobs = JSON.parse(process.env.JOBS);
Promise.all(jobs.map(async (j) => {
  try {
    const res = await fetch(process.env.URL, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: j.token, 'Idempotency-Key': j.key }, body: JSON.stringify(j.body) });
    const text = await res.text();
    let code = null;
    try { code = JSON.parse(text).code; } catch {}
    return { status: res.status, code };
  } catch (err) { return { status: 0, code: null, error: String(err) }; }
})).then((out) => process.stdout.write(JSON.stringify(out)));
`;

function runClient(url: string, jobs: unknown[]): Promise<{ status: number; code: number | null }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT], { env: { ...process.env, URL: url, JOBS: JSON.stringify(jobs) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { status: number; code: number | null }[]) : reject(new Error(`client exited ${code}: ${err}`))));
  });
}

it('sells exactly the 100 tons left to 500 concurrent buyers in 4 processes', async () => {
  const pid = await makeProject(s, { total_tons: 1000, remaining_tons: 100, min_tons: 1, max_tons: 10, monthly_limit: 1000, total_limit: 1000, price: 500 });
  const users = await Promise.all(Array.from({ length: 25 }, () => makeUser(s, { cents: 100_000, scryptLog2n: 10 })));
  const jobs = Array.from({ length: 500 }, (_, i) => ({ token: users[i % users.length]!.token, key: newKey(), body: { project_id: pid, tons: 1, password: TRADE_PASSWORD } }));
  const url = s.url + API_BASE + PATHS.orderBuy;
  const parts = [0, 1, 2, 3].map((k) => jobs.filter((_, i) => i % 4 === k));
  const results = (await Promise.all(parts.map((p) => runClient(url, p)))).flat();

  expect(results).toHaveLength(500);
  expect(results.filter((r) => r.status !== 200)).toEqual([]);
  const byCode = new Map<number | null, number>();
  for (const r of results) byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  expect(byCode.get(0)).toBe(100);
  const allowed = new Set<number | null>([0, ERRORS.project_full.code, ERRORS.insufficient_remaining.code, ERRORS.project_ended.code]);
  expect([...byCode.keys()].filter((c) => !allowed.has(c))).toEqual([]);

  const project = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
  expect(project.remaining_tons).toBe(0);
  const orders = await s.db.selectFrom('orders').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('tons').as('tons')]).where('project_id', '=', pid).executeTakeFirstOrThrow();
  expect({ n: Number(orders.n), tons: Number(orders.tons) }).toEqual({ n: 100, tons: 100 });
  const spent = await s.db
    .selectFrom('fund_logs')
    .select((eb) => eb.fn.sum<number>('amount').as('cents'))
    .where('kind', '=', 'order_buy')
    .where('account_name', '=', 'available')
    .where('owner_id', 'in', users.map((u) => u.id))
    .executeTakeFirstOrThrow();
  expect(Number(spent.cents)).toBe(-100 * 500);
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify(report.problems)).toBe(true);
}, 240_000); // four client processes' cold starts and 500 buys: well over a minute on a loaded machine
