// Oversell (docs/product.md#buying): a project with 100 t left and 500 concurrent buy requests of 1 t from 4
// client processes, 25 users: exactly 100 succeed, remaining 0, no server error, the ledger checks out.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { ERRORS } from '../../src/shared/errors';
import type { TestServer } from '../helpers/server';
import { raceBuys, startRaceServer } from './buy-race-helpers';
import { makeProject } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startRaceServer();
});
afterAll(async () => {
  await s?.close();
});

it('sells exactly the 100 tons left to 500 concurrent buyers in 4 processes', async () => {
  const pid = await makeProject(s, { total_tons: 1000, remaining_tons: 100, min_tons: 1, max_tons: 10, monthly_limit: 1000, total_limit: 1000, price: 500 });
  const { users, results, byCode } = await raceBuys(s, pid, { buyers: 25, buys: 500 });

  expect(results).toHaveLength(500);
  expect(results.filter((r) => r.status !== 200)).toEqual([]);
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
