// Never sell what is not held (docs/product.md#registry-inventory): a project listing 2,000 t of supply but
// holding 100 t in registry blocks, and 1,000 concurrent buy requests of 1 t from 4 client processes: exactly
// 100 succeed, no server error, the ledger and the holdings check out. The database's own guard
// (projects_held) refuses a write that sells past what is held even when the checks are bypassed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { isCheck } from '../../src/server/db/errors';
import { API_BASE, PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import type { Project } from '../../src/shared/schemas/content';
import type { TestServer } from '../helpers/server';
import { raceBuys, startRaceServer } from './buy-race-helpers';
import { expectRefusedBoth, makeProject, makeUser, orderApi } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startRaceServer();
});
afterAll(async () => {
  await s?.close();
});

it('sells exactly the 100 tons held to 1,000 concurrent 1-t buyers, though 2,000 t are listed', async () => {
  const pid = await makeProject(s, { total_tons: 2000, remaining_tons: 2000, held: 100, min_tons: 1, max_tons: 10, monthly_limit: 1000, total_limit: 1000, price: 500 });
  const { results, byCode } = await raceBuys(s, pid, { buyers: 50, buys: 1000 });

  expect(results).toHaveLength(1000);
  expect(results.filter((r) => r.status !== 200)).toEqual([]);
  expect(byCode.get(0)).toBe(100);
  const allowed = new Set<number | null>([0, ERRORS.project_full.code, ERRORS.insufficient_remaining.code]);
  expect([...byCode.keys()].filter((c) => !allowed.has(c))).toEqual([]);

  // The supply still lists 1,900 t; none of it is for sale until more units are held.
  const project = await s.db.selectFrom('projects').select(['remaining_tons', 'block_tons']).where('id', '=', pid).executeTakeFirstOrThrow();
  expect(project).toEqual({ remaining_tons: 1900, block_tons: 100 });
  const orders = await s.db.selectFrom('orders').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('tons').as('tons')]).where('project_id', '=', pid).executeTakeFirstOrThrow();
  expect({ n: Number(orders.n), tons: Number(orders.tons) }).toEqual({ n: 100, tons: 100 });
  const answer = (await (await fetch(`${s.url}${API_BASE}${PATHS.projectDetail}?id=${pid}`)).json()) as { data: Project };
  expect(answer.data.remaining_tons).toBe(0);
  expect(answer.data.join_block).toBe('full');
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.holding_problems])).toBe(true);
}, 300_000); // four client processes' cold starts and 1,000 buys: minutes on a loaded machine

it('refuses in the database a write that sells past the held units, and takes back supply freely', async () => {
  const pid = await makeProject(s, { total_tons: 50, remaining_tons: 50, held: 10 });
  const sell = (tons: number) => s.db.updateTable('projects').set((eb) => ({ remaining_tons: eb('remaining_tons', '-', tons) })).where('id', '=', pid).execute();
  await sell(10);
  const err = await sell(1).then(
    () => null,
    (e: unknown) => e,
  );
  expect(isCheck(err, 'projects_held'), String(err)).toBe(true);
  // Supply given back (an expired pre-sale) and other edits pass, whatever was sold.
  await s.db.updateTable('projects').set((eb) => ({ remaining_tons: eb('remaining_tons', '+', 5), name: 'Renamed' })).where('id', '=', pid).execute();
  expect(await s.db.selectFrom('projects').select(['remaining_tons', 'block_tons']).where('id', '=', pid).executeTakeFirstOrThrow()).toEqual({ remaining_tons: 45, block_tons: 10 });
});

it('refuses a buy past the held units with the catalogue refusal in English and Chinese, changing nothing', async () => {
  const pid = await makeProject(s, { total_tons: 500, remaining_tons: 500, held: 5 });
  const u = await makeUser(s, { cents: 100_000 });
  const api = orderApi(s);
  // 6 t of a project holding 5 t: more than remains for sale.
  await expectRefusedBoth(s, 'insufficient_remaining', (lang) => api.buy(u, pid, 6, { lang }));
  expect((await api.buy(u, pid, 5)).code).toBe(0);
  // Nothing held unpromised: the project is full, though 495 t of supply are listed.
  await expectRefusedBoth(s, 'project_full', (lang) => api.buy(u, pid, 1, { lang }));
});
