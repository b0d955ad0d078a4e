// order_usage (migration 018) against the orders it stands for: a buyer's counted tons of a project per
// Singapore month (buy orders not expired; a pre-sale its final tons once allocated). The monthly limit
// turns over at 00:00 SGT on the 1st as it did when the sums were read from the orders; bookings, allocations
// and expiries in a later month change the month the booking was made in; the upsert sums a change list
// with one key many times (a batch's buyer twice) on both databases; the migration's fill reads the orders
// in pages and puts each order in its SGT month. On SQLite and PostgreSQL (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { writeTx } from '../../src/server/db/tx';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { allocatePresale } from '../../src/server/modules/order/transitions';
import { sgtMonthStart } from '../../src/server/modules/order/calc';
import { changeUsage, orderUsageProblems, usedTonsQuery } from '../../src/server/modules/order/usage';
import * as m018 from '../../src/server/db/migrations/018-order-usage';
import { DAY, HOUR, MIN, refusal, startTestServer, type TestServer } from '../helpers/server';
import { createSession } from '../../src/server/modules/session';
import { makeProject, makeUser, orderApi } from './market-helpers';

// 31 March 2026, 23:30 SGT (15:30 UTC): half an hour before April starts in Singapore.
const MARCH_END = Date.UTC(2026, 2, 31, 15, 30);
const MARCH = Date.UTC(2026, 2, 1) - 8 * HOUR;
const APRIL = Date.UTC(2026, 3, 1) - 8 * HOUR;

let s: TestServer;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  s = await startTestServer({ PORT: '47211' }, { now: MARCH_END });
  api = orderApi(s);
});
afterAll(async () => {
  expect(await orderUsageProblems(s.db)).toEqual([]);
  await s?.close();
});

/** The counted tons as the limit checks summed them from the orders before migration 018. */
async function summedFromOrders(userId: number, projectId: number, since?: number): Promise<number> {
  let q = s.db
    .selectFrom('orders')
    .select(sql<number>`coalesce(sum(case when kind = 'presale' then coalesce(final_tons, tons) else tons end), 0)`.as('n'))
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .where('side', '=', 'buy')
    .where('status', '!=', 'final_payment_expired');
  if (since !== undefined) q = q.where('created_at', '>=', since);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** order_usage answers what the orders answered: in all, and since each month start around the boundary. */
async function expectSameAsOrders(userId: number, projectId: number): Promise<void> {
  for (const since of [undefined, MARCH, APRIL, APRIL - 1, APRIL + 1, Date.UTC(2026, 4, 1) - 8 * HOUR]) {
    const kept = Number((await usedTonsQuery(s.db, userId, projectId, since === undefined ? undefined : sgtMonthStart(since)).executeTakeFirstOrThrow()).n);
    expect(kept, `since ${since}`).toBe(await summedFromOrders(userId, projectId, since === undefined ? undefined : sgtMonthStart(since)));
  }
}

const usageRows = (userId: number) =>
  s.db.selectFrom('order_usage').select(['project_id', 'month_start', 'tons']).where('user_id', '=', userId).orderBy('project_id').orderBy('month_start').execute();

describe('the monthly limit at the Singapore month boundary', () => {
  it('turns over at 00:00 SGT on the 1st, not before, the buys counted in the month they were made', async () => {
    s.clock.set(MARCH_END);
    const pid = await makeProject(s, { monthly_limit: 3, total_limit: 7 });
    const u = await makeUser(s, { cents: 1_000_000 });
    expect((await api.buy(u, pid, 3)).code).toBe(0);
    s.clock.set(APRIL - 1); // 23:59:59.999 SGT on 31 March: still March
    expect((await api.buy(u, pid, 1)).code).toBe(refusal('monthly_limit').code);
    expect((await api.limits(u, pid)).data).toMatchObject({ monthly_used: 3, total_used: 3, monthly_left: 0 });
    s.clock.set(APRIL); // 00:00 SGT on 1 April
    expect((await api.limits(u, pid)).data).toMatchObject({ monthly_used: 0, total_used: 3, monthly_left: 3, total_left: 4 });
    expect((await api.buy(u, pid, 3)).code).toBe(0);
    expect((await api.buy(u, pid, 1)).code).toBe(refusal('monthly_limit').code);
    s.clock.set(Date.UTC(2026, 4, 1) - 8 * HOUR); // May: the total is what stops it now
    u.token = (await createSession(s.running.deps, u.id)).token; // a month on: a new session
    expect((await api.buy(u, pid, 2)).code).toBe(refusal('total_limit').code);
    expect((await api.buy(u, pid, 1)).code).toBe(0);
    expect(await usageRows(u.id)).toEqual([
      { project_id: pid, month_start: MARCH, tons: 3 },
      { project_id: pid, month_start: APRIL, tons: 3 },
      { project_id: pid, month_start: Date.UTC(2026, 4, 1) - 8 * HOUR, tons: 1 },
    ]);
    await expectSameAsOrders(u.id, pid);
  });

  it('a booking made in March, allocated and expired in April, changes March', async () => {
    s.clock.set(MARCH_END);
    const pid = await makeProject(s, {
      status: 'presale', price: 1200, presale_price: 1000, total_tons: 10, max_tons: 100, monthly_limit: 10, total_limit: 30,
      selling_time: MARCH_END + 5 * DAY, end_time: MARCH_END + 90 * DAY, cycle_value: 1, cycle_unit: 'hours',
    });
    const a = await makeUser(s, { cents: 1_000_000 });
    const b = await makeUser(s, { cents: 1_000_000 });
    const a1 = await api.book(a, pid, 10);
    expect(a1.code, a1.msg).toBe(0);
    expect((await api.book(b, pid, 10)).code).toBe(0);
    expect((await api.book(a, pid, 1)).code).toBe(refusal('monthly_limit').code);
    s.clock.set(APRIL + 30 * MIN);
    const a2 = await api.book(a, pid, 5);
    expect(a2.code, a2.msg).toBe(0);
    // 25 t booked against 10: a 10 -> 4, b 10 -> 4, a 5 -> 2.
    const result = await allocatePresale(s.db, pid, 1100, s.clock.now(), 72);
    expect(result.orders.map((o) => [o.user_id, o.booked, o.final_tons])).toEqual([
      [a.id, 10, 4],
      [b.id, 10, 4],
      [a.id, 5, 2],
    ]);
    expect(await usageRows(a.id)).toEqual([
      { project_id: pid, month_start: MARCH, tons: 4 },
      { project_id: pid, month_start: APRIL, tons: 2 },
    ]);
    expect((await api.finalpay(a, a1.data.id)).code).toBe(0);
    s.clock.advance(73 * HOUR);
    await runDueWork(s.running.deps);
    const expired = await s.db.selectFrom('orders').select('status').where('user_id', 'in', [a.id, b.id]).where('status', '=', 'final_payment_expired').execute();
    expect(expired).toHaveLength(2); // b's booking and a's April one
    expect(await usageRows(b.id)).toEqual([{ project_id: pid, month_start: MARCH, tons: 0 }]);
    expect(await usageRows(a.id)).toEqual([
      { project_id: pid, month_start: MARCH, tons: 4 },
      { project_id: pid, month_start: APRIL, tons: 0 },
    ]);
    for (const u of [a, b]) await expectSameAsOrders(u.id, pid);
    expect(await orderUsageProblems(s.db)).toEqual([]);
  });
});

describe('changeUsage', () => {
  it('sums one key given many times (a batch with the same buyer twice) and several keys in one statement', async () => {
    const pid = await makeProject(s);
    const other = await makeProject(s);
    const a = await makeUser(s);
    const b = await makeUser(s);
    await writeTx(s.db, (_tx, w) =>
      changeUsage(w, [
        { userId: a.id, projectId: pid, createdAt: APRIL + HOUR, tons: 2 },
        { userId: a.id, projectId: pid, createdAt: APRIL + 2 * DAY, tons: 3 },
        { userId: b.id, projectId: pid, createdAt: APRIL - 1, tons: 1 },
        { userId: a.id, projectId: other, createdAt: APRIL, tons: 4 },
        { userId: a.id, projectId: pid, createdAt: APRIL - 1, tons: 5 },
      ]),
    );
    // Again: every key is there now, so each change is an update of its row.
    await writeTx(s.db, (_tx, w) =>
      changeUsage(w, [
        { userId: a.id, projectId: pid, createdAt: APRIL, tons: 1 },
        { userId: a.id, projectId: pid, createdAt: APRIL + 3 * HOUR, tons: -1 },
        { userId: a.id, projectId: pid, createdAt: APRIL + 4 * HOUR, tons: 6 },
        { userId: b.id, projectId: pid, createdAt: MARCH, tons: 1 },
      ]),
    );
    expect(await usageRows(a.id)).toEqual([
      { project_id: pid, month_start: MARCH, tons: 5 },
      { project_id: pid, month_start: APRIL, tons: 11 },
      { project_id: other, month_start: APRIL, tons: 4 },
    ]);
    expect(await usageRows(b.id)).toEqual([{ project_id: pid, month_start: MARCH, tons: 2 }]);
    // Put back as the orders have it (none), so the suite's final check holds.
    await writeTx(s.db, (_tx, w) =>
      changeUsage(w, [
        { userId: a.id, projectId: pid, createdAt: MARCH, tons: -5 },
        { userId: a.id, projectId: pid, createdAt: APRIL, tons: -11 },
        { userId: a.id, projectId: other, createdAt: APRIL, tons: -4 },
        { userId: b.id, projectId: pid, createdAt: MARCH, tons: -2 },
      ]),
    );
  });
});

describe("migration 018's fill", () => {
  it('reads the orders in pages and counts each in its SGT month, as the orders would', async () => {
    const pid = await makeProject(s, { total_tons: 1_000_000 });
    const users = await Promise.all([makeUser(s), makeUser(s), makeUser(s)]);
    const first = Number((await s.db.selectFrom('orders').select(sql<number>`coalesce(max(id), 0)`.as('m')).executeTakeFirstOrThrow()).m) + 1;
    // 10,600 orders (more than one page of 10,000), straddling the end of March in Singapore, of every kind
    // and status that counts differently: the fill must see all of them the way the sum saw them.
    const shapes = [
      { side: 'buy', kind: 'purchase', status: 'in_progress', final_tons: null },
      { side: 'buy', kind: 'purchase', status: 'completed', final_tons: null },
      { side: 'buy', kind: 'presale', status: 'applying', final_tons: null },
      { side: 'buy', kind: 'presale', status: 'pending_final_payment', final_tons: 1 },
      { side: 'buy', kind: 'presale', status: 'final_payment_expired', final_tons: 2 },
      { side: 'buy', kind: 'presale', status: 'completed', final_tons: 0 },
      { side: 'sell', kind: 'sell', status: 'in_progress', final_tons: null },
    ] as const;
    const N = 10_600;
    const rows = Array.from({ length: N }, (_, i) => {
      const shape = shapes[i % shapes.length]!;
      const id = first + i;
      // Alternate the last and first minutes of the SGT month boundary, and once an hour-long step.
      const created = APRIL - 1 - ((i * 7919) % 120) * MIN + (i % 2 === 0 ? 0 : 2 * HOUR) + (i % 3 === 0 ? 1 : 0);
      return {
        id,
        order_no: `R${String(id).padStart(12, '0')}`,
        user_id: users[i % 3]!.id,
        project_id: pid,
        side: shape.side,
        kind: shape.kind,
        status: shape.status,
        unit_price: 1000,
        tons: 3 + (i % 4),
        total: 1000 * (3 + (i % 4)),
        booking_fee: 0,
        final_tons: shape.final_tons,
        created_at: created,
        updated_at: created,
      };
    });
    for (let i = 0; i < rows.length; i += 500) await s.db.insertInto('orders').values(rows.slice(i, i + 500)).execute();
    // On PostgreSQL the identity goes on after the ids given here (orders placed later take max(id) + 1 anyway).
    expect((await orderUsageProblems(s.db)).length).toBeGreaterThan(0); // inserted behind order_usage's back
    await m018.down(s.db as never);
    await m018.up(s.db as never);
    expect(await orderUsageProblems(s.db)).toEqual([]);
    for (const u of users) {
      const kept = await usageRows(u.id);
      expect(kept.map((r) => r.month_start)).toEqual([MARCH, APRIL]);
      await expectSameAsOrders(u.id, pid);
    }
  });
});
