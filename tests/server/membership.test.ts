// docs/product.md#membership: the membership page shows each grade's threshold from the server's
// configuration (not words hard-coded in the client) and the member's progress to the next grade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi } from './market-helpers';

let s: TestServer;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  s = await startTestServer({ GRADE_THRESHOLDS_CENTS: '50000,120000,300000,700000,1500000', SELL_MIN_GRADE: '2', PRESALE_SELL_MIN_GRADE: '4' });
  api = orderApi(s);
});
afterAll(async () => s?.close());

describe('GET user/membership', () => {
  it('answers the configured ladder and a new member at P0 with the whole first step to go', async () => {
    const u = await makeUser(s);
    const res = await s.api('GET', PATHS.userMembership, {}, { token: u.token });
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toEqual({
      grade: 0,
      purchases: 0,
      grades: [
        { grade: 0, min_purchases: 0 },
        { grade: 1, min_purchases: 50_000 },
        { grade: 2, min_purchases: 120_000 },
        { grade: 3, min_purchases: 300_000 },
        { grade: 4, min_purchases: 700_000 },
        { grade: 5, min_purchases: 1_500_000 },
      ],
      next: { grade: 1, min_purchases: 50_000, remaining: 50_000 },
      sell_min_grade: 2,
      presale_sell_min_grade: 4,
    });
  });

  it('counts completed purchases only, and moves to the next step once a grade is reached', async () => {
    const u = await makeUser(s, { cents: 200_000 });
    const pid = await makeProject(s, { price: 1000, cycle_value: 30, cycle_unit: 'minutes' });
    expect((await api.buy(u, pid, 60)).code).toBe(0); // S$600.00, in progress: not counted yet
    let m = (await s.api('GET', PATHS.userMembership, {}, { token: u.token })).data;
    expect(m).toMatchObject({ grade: 0, purchases: 0, next: { grade: 1, remaining: 50_000 } });
    s.clock.advance(31 * 60_000);
    await runDueWork(s.running.deps);
    m = (await s.api('GET', PATHS.userMembership, {}, { token: u.token })).data;
    expect(m).toMatchObject({ grade: 1, purchases: 60_000, next: { grade: 2, min_purchases: 120_000, remaining: 60_000 } });
  });

  it('at the top there is no next step; an operator-set grade above the purchases is shown as set', async () => {
    const u = await makeUser(s);
    await s.db.updateTable('users').set({ grade: 5 }).where('id', '=', u.id).execute();
    const m = (await s.api('GET', PATHS.userMembership, {}, { token: u.token })).data;
    expect(m).toMatchObject({ grade: 5, purchases: 0, next: null });
  });

  it('is for members: a visitor or no session is refused', async () => {
    const none = await s.api('GET', PATHS.userMembership, {});
    expect(none.code).toBeLessThan(0);
    const visitor = await s.api('POST', PATHS.visitor, {});
    const res = await s.api('GET', PATHS.userMembership, {}, { token: visitor.data.token });
    expect(res.code).toBe(refusal('guest_forbidden').code);
  });
});
