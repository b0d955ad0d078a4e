// A monthly offset an organisation's member set up (docs/product.md#monthly-offset): her payment password
// was the consent, so the plan pauses when she leaves the organisation or her role no longer trades, the
// organisation's inbox (its owner and admins) says so, and it buys nothing more until a buyer confirms it
// again with her own payment password. Real HTTP, a ManualClock, both databases.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { offsetDueAt } from '../../src/shared/offset';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { createSession } from '../../src/server/modules/session';
import { down, up } from '../../src/server/db/migrations/030-push-person';
import { MIN, startTestServer, T0, type TestServer } from '../helpers/server';
import { makeProject, newKey, topup, TRADE_PASSWORD } from './market-helpers';
import { addMember, expectOrgRefused, GENEROUS, makeOrg, write, type Org } from './org-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => s?.close());

/** An organisation with money, a project, and a plan on day 5 its buyer set up at T0. */
async function planByMember(role = 'buyer') {
  s.clock.set(T0);
  const org = await makeOrg(s);
  await topup(s, org.id, 500_000);
  const pid = await makeProject(s, { price: 1000, end_time: T0 + 400 * 86_400_000 });
  const maker = await addMember(s, org, role);
  const res = await write(s, PATHS.offsetCreate, maker.orgToken, { project_id: pid, tons: 2, day: 5, password: TRADE_PASSWORD });
  expect(res.code, res.msg).toBe(0);
  return { org, maker, planId: res.data.id as number };
}

const planOf = (id: number) => s.db.selectFrom('offset_plans').select(['status', 'next_run_at']).where('id', '=', id).executeTakeFirstOrThrow();
const ordersOf = (org: Org) => s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute();
const noticesOf = (org: Org) => s.db.selectFrom('notifications').select(['title', 'title_cn', 'body', 'body_cn', 'url']).where('user_id', '=', org.id).orderBy('id').execute();

async function runMonth(month: string): Promise<void> {
  s.clock.set(offsetDueAt(month, 5) + MIN);
  await runDueWork(s.running.deps);
}

it('pauses the plans of a removed member at once, tells the organisation, and buys nothing on their day', async () => {
  const { org, maker, planId } = await planByMember();
  const removed = await write(s, PATHS.orgRemove, org.owner.token, { user_id: maker.id });
  expect(removed.code, removed.msg).toBe(0);
  expect(await planOf(planId)).toEqual({ status: 'paused', next_run_at: null });
  const notices = await noticesOf(org);
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatchObject({ title: 'Monthly offset paused', title_cn: '每月碳抵消已暂停', url: '/pages/profile/offsets' });
  expect(notices[0]!.body).toContain(maker.email);
  expect(notices[0]!.body_cn).toContain(maker.email);
  await runMonth('2026-03');
  expect(await ordersOf(org)).toEqual([]);
});

it("pauses them when her new role does not trade, and not when it still does", async () => {
  const { org, maker, planId } = await planByMember();
  const stillBuyer = await write(s, PATHS.orgRole, org.owner.token, { user_id: maker.id, role: 'buyer' });
  expect(stillBuyer.code, stillBuyer.msg).toBe(0);
  expect((await planOf(planId)).status).toBe('active');
  const toViewer = await write(s, PATHS.orgRole, org.owner.token, { user_id: maker.id, role: 'viewer' });
  expect(toViewer.code, toViewer.msg).toBe(0);
  expect(await planOf(planId)).toEqual({ status: 'paused', next_run_at: null });
  expect(await noticesOf(org)).toHaveLength(1);
  await runMonth('2026-03');
  expect(await ordersOf(org)).toEqual([]);
});

it('another buyer resumes it only by confirming it with her own payment password; then it buys again', async () => {
  const { org, maker, planId } = await planByMember();
  const other = await addMember(s, org, 'buyer');
  expect((await write(s, PATHS.orgRemove, org.owner.token, { user_id: maker.id })).code).toBe(0);
  await expectOrgRefused(s, 'offset_maker_gone', (lang) => s.api('POST', PATHS.offsetStatus, { id: planId, status: 'active' }, { token: other.orgToken, lang, idempotencyKey: newKey() }));
  expect(await planOf(planId)).toEqual({ status: 'paused', next_run_at: null });
  const confirmed = await write(s, PATHS.offsetChange, other.orgToken, { id: planId, tons: 2, day: 5, password: TRADE_PASSWORD });
  expect(confirmed.code, confirmed.msg).toBe(0);
  const resumed = await write(s, PATHS.offsetStatus, other.orgToken, { id: planId, status: 'active' });
  expect(resumed.code, resumed.msg).toBe(0);
  await runMonth('2026-03');
  expect(await ordersOf(org)).toHaveLength(1);
});

it("a plan whose maker no longer trades for the organisation is paused at its due time, whatever removed her", async () => {
  const { org, maker, planId } = await planByMember();
  // The membership gone by another path than the member screen: the month's run checks it itself.
  await s.db.deleteFrom('organisation_members').where('account_id', '=', org.id).where('user_id', '=', maker.id).execute();
  await runMonth('2026-03');
  expect(await ordersOf(org)).toEqual([]);
  expect(await planOf(planId)).toEqual({ status: 'paused', next_run_at: null });
  expect((await noticesOf(org)).map((n) => n.title)).toEqual(['Monthly offset paused']);
});

it("the owner's own plans keep buying: the organisation's login trades for it always", async () => {
  s.clock.set(T0);
  const org = await makeOrg(s);
  await topup(s, org.id, 500_000);
  const pid = await makeProject(s, { price: 1000, end_time: T0 + 400 * 86_400_000 });
  const owner = { token: (await createSession(s.running.deps, org.id)).token };
  // The owner's payment password is the organisation login's own.
  const res = await write(s, PATHS.offsetCreate, owner.token, { project_id: pid, tons: 1, day: 5, password: 'Canopy#Org2026' });
  expect(res.code, res.msg).toBe(0);
  await runMonth('2026-03');
  expect(await ordersOf(org)).toHaveLength(1);
});

it('migration 030 makes the account itself the maker of every plan that exists', async () => {
  await planByMember();
  await down(s.db as never);
  await up(s.db as never);
  const rows = await s.db.selectFrom('offset_plans').select(['user_id', 'made_by']).execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.made_by).toBe(r.user_id);
});

it('plans she sets up while being removed (forty at once) buy nothing either', async () => {
  const { org, maker } = await planByMember();
  const pid = await makeProject(s, { price: 1000, end_time: T0 + 400 * 86_400_000 });
  const creates = Array.from({ length: 40 }, () => write(s, PATHS.offsetCreate, maker.orgToken, { project_id: pid, tons: 1, day: 5, password: TRADE_PASSWORD }));
  const [removed] = await Promise.all([write(s, PATHS.orgRemove, org.owner.token, { user_id: maker.id }), ...creates]);
  expect(removed.code, removed.msg).toBe(0);
  await runMonth('2026-03');
  expect(await ordersOf(org)).toEqual([]);
  const left = await s.db.selectFrom('offset_plans').select('status').where('user_id', '=', org.id).where('status', '=', 'active').execute();
  expect(left).toEqual([]);
});

it("an organisation's month leaves its activity row under the plan's maker, with the order it placed", async () => {
  const { org, maker, planId } = await planByMember();
  await runMonth('2026-03');
  const [order] = await ordersOf(org);
  expect(order).toBeDefined();
  const rows = await s.db.selectFrom('organisation_activity').select(['member_id', 'action', 'detail']).where('account_id', '=', org.id).where('action', '=', 'offset.month').execute();
  expect(rows).toHaveLength(1);
  expect(Number(rows[0]!.member_id)).toBe(maker.id);
  const detail = JSON.parse(rows[0]!.detail) as { request: Record<string, unknown>; result: Record<string, unknown> };
  expect(detail.request).toMatchObject({ plan_id: planId, month: '2026-03', tons: 2 });
  expect(detail.result).toMatchObject({ id: order!.id });
  // A month another instance decided leaves no second row.
  await runMonth('2026-03');
  expect(await s.db.selectFrom('organisation_activity').select('id').where('account_id', '=', org.id).where('action', '=', 'offset.month').execute()).toHaveLength(1);
});
