// Due work survives a restart (docs/product.md#states): a purchase mid-cycle, a sale awaiting settlement and
// a pre-sale awaiting its final payment; the server stops, the clock moves past every deadline, a new server
// starts on the same DATA_DIR: each transition happens exactly once, found from the database.
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { allocatePresale } from '../../src/server/modules/order/transitions';
import { DAY, makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi, walletOfUser } from './market-helpers';

const dataDir = makeTmpDir('canopy-market-restart-');
let second: TestServer | null = null;
afterAll(async () => {
  await second?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('completes cycles, settles sales and expires pre-sales after a restart, exactly once', async () => {
  const first = await startTestServer({ DATA_DIR: dataDir });
  const api = orderApi(first);
  const u = await makeUser(first, { cents: 500_000, grade: 1 });
  const pid = await makeProject(first, { price: 1000, yield_bp: 1000, cycle_value: 3, cycle_unit: 'days' });
  // Credits to sell: a first purchase completes before the restart.
  const early = (await api.buy(u, pid, 10)).data;
  first.clock.advance(3 * DAY);
  await runDueWork(first.running.deps);
  expect(await walletOfUser(first, u.id)).toMatchObject({ credits: 10 });
  // Now: one purchase mid-cycle, one sale awaiting settlement, one pre-sale awaiting its final payment.
  const buy = (await api.buy(u, pid, 20)).data;
  const sale = (await api.sell(u, pid, 4)).data;
  expect(sale.unit_price).toBe(1100);
  const pre = await makeProject(first, { status: 'presale', presale_price: 800, selling_time: first.clock.now() + 30 * DAY });
  const booking = (await api.book(u, pre, 5)).data;
  await allocatePresale(first.db, pre, 900, first.clock.now(), 72);
  const stoppedAt = first.clock.now();
  await first.running.close(); // keeps the data directory

  second = await startTestServer({ DATA_DIR: dataDir }, { now: stoppedAt + 10 * DAY });
  // The server ran due work on start; running it again (and concurrently) changes nothing more.
  await Promise.all([runDueWork(second.running.deps), runDueWork(second.running.deps)]);
  await runDueWork(second.running.deps);
  const status = async (id: number) => (await second!.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  expect(await status(early.id)).toBe('completed');
  expect(await status(buy.id)).toBe('completed');
  expect(await status(sale.id)).toBe('completed');
  expect(await status(booking.id)).toBe('final_payment_expired');
  const count = async (kind: string, ref: number) =>
    (await second!.db.selectFrom('fund_logs').select('id').where('kind', '=', kind).where('ref_id', '=', ref).execute()).length;
  expect(await count('credit_issue', buy.id)).toBe(2);
  expect(await count('sale_settlement', sale.id)).toBe(2);
  expect(await count('presale_forfeit', booking.id)).toBe(2);
  expect(await walletOfUser(second, u.id)).toMatchObject({
    available: 500_000 - 10_000 - 20_000 + 4 * 1100 - 400,
    unavailable: 0,
    presale: 0,
    credits: 10 - 4 + 20,
  });
  const report = await checkLedger(second.db);
  expect(report.ok, JSON.stringify(report.problems)).toBe(true);
});
