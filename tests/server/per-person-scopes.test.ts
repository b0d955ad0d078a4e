// What one member of an organisation does is hers, not a colleague's (docs/decisions/0040-per-person-scopes.md):
// her Idempotency-Keys, her push devices, her waiting approval requests, her name in the member list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, walletOf } from '../../src/server/ledger/ledger';
import { down as scopeDown, up as scopeUp } from '../../src/server/db/migrations/036-idempotency-scope';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { makeProject, newKey, topup } from './market-helpers';
import { newDevice } from '../helpers/push-service';
import { MAX_PUSH_DEVICES } from '../../src/server/modules/user/push';
import { addMember, GENEROUS, holdingTeam, makeOrg, ORG_PASSWORD, TRADE_PASSWORD, write } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS, PUSH_HOSTS: 'push.example.net', WITHDRAW_MIN_CENTS: '5000', WITHDRAW_FEE_CENTS: '200', WITHDRAW_FEE_BP: '0' });
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

describe("an Idempotency-Key is the member's own", () => {
  it('two members of one organisation who send the same key each get their own effect', async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s, { total_tons: 10_000 });
    const a = await addMember(s, org, 'buyer');
    const b = await addMember(s, org, 'buyer');
    const key = newKey();
    const buy = { project_id: pid, tons: 1, password: TRADE_PASSWORD };
    const first = await write(s, PATHS.orderBuy, a.orgToken, buy, { key });
    expect(first.code, first.msg).toBe(0);
    const second = await s.api('POST', PATHS.orderBuy, buy, { token: b.orgToken, idempotencyKey: key });
    expect(second.code, second.msg).toBe(0);
    expect(second.data).not.toEqual(first.data);
    const orders = await s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute();
    expect(orders).toHaveLength(2);
    const log = await s.db.selectFrom('organisation_activity').select('member_id').where('account_id', '=', org.id).where('action', '=', 'order.buy').orderBy('id').execute();
    expect(log.map((r) => r.member_id)).toEqual([a.id, b.id]);
    // Her own retry still gets her first answer and no second effect.
    const again = await write(s, PATHS.orderBuy, a.orgToken, buy, { key });
    expect(again.data).toEqual(first.data);
    expect(await s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute()).toHaveLength(2);
  });

  it("the owner's key and a member's key do not meet either, and another key payload is still refused for its owner", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const key = newKey();
    const x = await write(s, PATHS.orgInvite, org.owner.token, { email: `x.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(x.code, x.msg).toBe(0);
    const y = await write(s, PATHS.orgInvite, admin.orgToken, { email: `y.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(y.code, y.msg).toBe(0);
    const z = await write(s, PATHS.orgInvite, admin.orgToken, { email: `z.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(z.code).toBe(ERRORS.idempotency_mismatch.code);
    const invited = await s.db.selectFrom('organisation_invitations').select('email').where('account_id', '=', org.id).where('email', 'like', '_.%').orderBy('id').execute();
    expect(invited.map((r) => r.email)).toEqual([`x.${process.pid}@corp.example.sg`, `y.${process.pid}@corp.example.sg`]);
  });

  it('migration 036 keeps the stored keys (its down keeps the first of two members who shared a key)', async () => {
    const keys = () => s.db.selectFrom('idempotency_keys').select(['id', 'user_id', 'key', 'response']).orderBy('id').execute();
    const before = await keys();
    const shared = before.filter((r, i) => before.findIndex((o) => o.user_id === r.user_id && o.key === r.key) !== i);
    expect(shared.length).toBeGreaterThan(0);
    await scopeDown(s.db as never);
    expect(await keys()).toEqual(before.filter((r) => !shared.includes(r)));
    await scopeUp(s.db as never);
    expect(await keys()).toEqual(before.filter((r) => !shared.includes(r)));
    const scopes = await s.db.selectFrom('idempotency_keys').select('scope').distinct().execute();
    expect(scopes).toEqual([{ scope: '' }]);
  });
});

describe("a removed or demoted member's waiting approval requests", () => {
  /** An organisation with money, a payout account, 300 t of a retirable project, a buyer and an approver. */
  const team = () => holdingTeam(s, 100_000 + 300 * 10_000);
  const requestOf = (res: Envelope): { id: number } => {
    expect(res.code, res.msg).toBe(0);
    expect(res.data.approval, JSON.stringify(res.data)).toBeDefined();
    return res.data.approval;
  };

  for (const how of ['removed', 'demoted'] as const) {
    it(`are cancelled when she is ${how}, released exactly as a decline, and the approvers are told`, async () => {
      const t = await team();
      const before = await walletOf(s.db, t.org.id);
      const retire = requestOf(await write(s, PATHS.creditRetire, t.buyer.orgToken, { project_id: t.pid, tons: 150, beneficiary: 'Acme Pte Ltd', reason: 'FY2026', paypwd: TRADE_PASSWORD }));
      const withdraw = requestOf(await write(s, PATHS.walletWithdraw, t.buyer.orgToken, { amount: 10_000, password: TRADE_PASSWORD }));
      expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available - 10_200 });
      const done = how === 'removed' ? await write(s, PATHS.orgRemove, t.org.owner.token, { user_id: t.buyer.id }) : await write(s, PATHS.orgRole, t.org.owner.token, { user_id: t.buyer.id, role: 'viewer' });
      expect(done.code, done.msg).toBe(0);
      // Released as the maker's own cancel releases: a decline by its maker, the money back, the tons free.
      const rows = await s.db.selectFrom('approval_requests').select(['id', 'status', 'decided_by', 'decided_at']).where('account_id', '=', t.org.id).orderBy('id').execute();
      expect(rows).toEqual([retire.id, withdraw.id].map((id) => ({ id, status: 'declined', decided_by: t.buyer.id, decided_at: s.clock.now() })));
      expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available, frozen: before.frozen });
      const list = await s.api('GET', PATHS.approvalList, { state: 'decided' }, { token: t.org.owner.token });
      expect(list.data.list.map((r: { status: string }) => r.status)).toEqual(['cancelled', 'cancelled']);
      const approved = await write(s, PATHS.approvalApprove, t.approver.orgToken, { id: retire.id, password: TRADE_PASSWORD });
      expect(approved.code).toBe(ERRORS.approval_decided.code);
      const retiredNow = await write(s, PATHS.creditRetire, t.org.owner.token, { project_id: t.pid, tons: 100, beneficiary: 'Acme Pte Ltd', reason: 'FY2026', paypwd: ORG_PASSWORD });
      expect(retiredNow.code, retiredNow.msg).toBe(0);
      // The approvers (the owner, the approver) are told in their own inboxes, in both languages.
      for (const person of [t.org.owner.id, t.approver.id]) {
        const told = await s.db.selectFrom('notifications').select(['title', 'body', 'title_cn', 'body_cn']).where('user_id', '=', person).where('title', 'like', `Request #${withdraw.id} %`).execute();
        expect(told, `person ${person}`).toHaveLength(1);
        expect(told[0]!.body).toMatch(how === 'removed' ? /removed/ : /no longer/);
        expect(told[0]!.body_cn).toMatch(/[\u4e00-\u9fff]/);
      }
    });
  }
});

describe("a member's push devices are hers", () => {
  const endpoint = (name: string) => `https://push.example.net/send/${name}-${newKey()}`;
  const devices = (accountId: number) => s.db.selectFrom('push_subscriptions').select(['endpoint', 'person_id']).where('user_id', '=', accountId).orderBy('id').execute();

  it("a viewer who turns on more than the cap of devices replaces her own oldest, never a colleague's", async () => {
    const org = await makeOrg(s);
    const buyer = await addMember(s, org, 'buyer');
    const viewer = await addMember(s, org, 'viewer');
    const hers = endpoint('buyer-phone');
    const on = await write(s, PATHS.pushSubscribe, buyer.orgToken, newDevice().subscription(hers));
    expect(on.code, on.msg).toBe(0);
    expect(on.data).toEqual({ devices: 1 });
    const ownerPhone = endpoint('owner-phone');
    expect((await write(s, PATHS.pushSubscribe, org.owner.token, newDevice().subscription(ownerPhone))).data).toEqual({ devices: 1 });
    const mine: string[] = [];
    for (let i = 0; i <= MAX_PUSH_DEVICES; i++) {
      mine.push(endpoint(`viewer-${i}`));
      const res = await write(s, PATHS.pushSubscribe, viewer.orgToken, newDevice().subscription(mine.at(-1)!));
      expect(res.code, res.msg).toBe(0);
      expect(res.data).toEqual({ devices: Math.min(i + 1, MAX_PUSH_DEVICES) });
    }
    const kept = await devices(org.id);
    expect(kept.filter((d) => d.person_id === buyer.id).map((d) => d.endpoint)).toEqual([hers]);
    expect(kept.filter((d) => d.person_id === org.id).map((d) => d.endpoint)).toEqual([ownerPhone]);
    expect(kept.filter((d) => d.person_id === viewer.id).map((d) => d.endpoint)).toEqual(mine.slice(1));
  });

  it("a member cannot turn off a colleague's device by its endpoint; her own goes", async () => {
    const org = await makeOrg(s);
    const buyer = await addMember(s, org, 'buyer');
    const viewer = await addMember(s, org, 'viewer');
    const hers = endpoint('buyer-phone');
    const mine = endpoint('viewer-phone');
    expect((await write(s, PATHS.pushSubscribe, buyer.orgToken, newDevice().subscription(hers))).code).toBe(0);
    expect((await write(s, PATHS.pushSubscribe, viewer.orgToken, newDevice().subscription(mine))).code).toBe(0);
    for (const token of [viewer.orgToken, org.owner.token]) {
      const off = await write(s, PATHS.pushUnsubscribe, token, { endpoint: hers });
      expect(off.code, off.msg).toBe(0);
    }
    expect((await devices(org.id)).map((d) => d.endpoint)).toEqual([hers, mine]);
    const own = await write(s, PATHS.pushUnsubscribe, viewer.orgToken, { endpoint: mine });
    expect(own.data).toEqual({ devices: 0 });
    expect((await devices(org.id)).map((d) => d.endpoint)).toEqual([hers]);
  });
});

describe("the owner's name in the member list", () => {
  it("is the organisation's, and an admin who edits the organisation's profile names does not rename the owner", async () => {
    const org = await makeOrg(s, 'Acme Pte Ltd');
    const admin = await addMember(s, org, 'admin');
    await s.db.updateTable('users').set({ first_name: 'Mei Ling', last_name: 'Tan' }).where('id', '=', admin.id).execute();
    const names = async () => {
      const res = await s.api('GET', PATHS.orgMembers, {}, { token: admin.orgToken });
      expect(res.code, res.msg).toBe(0);
      return res.data.members.map((m: { user_id: number; name: string; role: string }) => [m.user_id, m.name, m.role]);
    };
    const before = await names();
    expect(before).toEqual([
      [org.id, 'Acme Pte Ltd', 'owner'],
      [admin.id, 'Mei Ling Tan', 'admin'],
    ]);
    const renamed = await write(s, PATHS.userProfile, admin.orgToken, { first_name: 'Eve', last_name: 'Mallory', mobile: '81234567', ic_number: 'S7654321F' });
    expect(renamed.code, renamed.msg).toBe(0);
    expect(await names()).toEqual(before);
  });
});
