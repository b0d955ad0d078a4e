// A pre-sale sells forward tons (docs/product.md#registry-inventory): its bookings take no held registry units,
// and its allocation waits for the issuance block; refused before it, nothing changes; with it, it allocates.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { allocatePresale, AllocationRefused } from '../../src/server/modules/order/transitions';
import { runOps } from '../../src/server/ops/registry';
import { DAY, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

it('books forward tons with nothing held, and allocates only once the issuance block is held', async () => {
  const pid = await makeProject(s, {
    status: 'presale', price: 1200, presale_price: 1000, total_tons: 100, max_tons: 100, registry: 'Verra', registry_id: 'VCS-4733', vintage: 2024,
    selling_time: s.clock.now() + 5 * DAY, end_time: s.clock.now() + 90 * DAY, held: 0,
  });
  const api = orderApi(s);
  const a = await makeUser(s, { cents: 200_000 });
  const b = await makeUser(s, { cents: 200_000 });
  expect((await api.book(a, pid, 30)).code).toBe(0);
  expect((await api.book(b, pid, 20)).code).toBe(0);

  const state = async () => ({
    project: await s.db.selectFrom('projects').select(['remaining_tons', 'block_tons']).where('id', '=', pid).executeTakeFirstOrThrow(),
    orders: await s.db.selectFrom('orders').select(['id', 'status', 'final_tons']).where('project_id', '=', pid).orderBy('id').execute(),
  });
  const before = await state();
  const refused = await allocatePresale(s.db, pid, 1100, s.clock.now(), 72).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused).toBeInstanceOf(AllocationRefused);
  expect((refused as Error).message).toContain('the allocation needs 50 t held on the registry and 0 t are held');
  expect(await state()).toEqual(before);

  // The issuance arrives: 40 units are not enough for the 50 t booked...
  const add = (range: string) => runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, 'inventory:add', [String(pid), range], 'ops-test');
  expect((await add('30188-900001-900040-VCS-VCU-263-VER-IN-14-4733-01012024-31122024-0')).ok).toBe(true);
  await expect(allocatePresale(s.db, pid, 1100, s.clock.now(), 72)).rejects.toThrow('40 t are held');
  // ...the rest of it is.
  expect((await add('30188-900041-900060-VCS-VCU-263-VER-IN-14-4733-01012024-31122024-0')).ok).toBe(true);
  const result = await allocatePresale(s.db, pid, 1100, s.clock.now(), 72);
  expect(result).toMatchObject({ booked: 50, allocated: 50 });
  expect((await state()).project).toEqual({ remaining_tons: 50, block_tons: 60 });
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.holding_problems])).toBe(true);
});
