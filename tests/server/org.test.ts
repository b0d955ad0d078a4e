// Organisations, members and roles over real HTTP (docs/product.md#organisations): a corporate registration
// founds its organisation; invitations (hashed, expiring, single use) through the outbox; the role matrix
// over every write; the member's own payment password; the activity log and its CSV; a removed member's
// token and socket stop at once; nothing of one organisation reachable from another; the ledger check after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { checkLedger, walletOf } from '../../src/server/ledger/ledger';
import { sha256 } from '../../src/server/lib/crypto';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { SOCKET_CLOSE_SESSION_ENDED } from '../../src/shared/socket-events';
import { DAY, lastMail, registerUser, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { createSession } from '../../src/server/modules/session';
import { makeProject, makeUser, newKey, topup } from './market-helpers';
import { giveCredits, makeRetirableProject } from './retire-helpers';
import { addMember, expectOrgRefused, GENEROUS, inviteToken, LANGS, makeOrg, ORG_PASSWORD, orgSnapshot, switchInto, TRADE_PASSWORD, write, type Org } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

const FORBIDDEN = ERRORS.org_role_forbidden.code;

type Role = 'owner' | 'admin' | 'buyer' | 'approver' | 'viewer';

/** Every write of the API, with the capability it needs (src/server/modules/session.ts ROLE_CAN). */
function writes(pid: number, orderId: number, memberId: number): Array<{ name: string; need: 'trade' | 'manage' | 'inbox' | 'self'; call: (token: string, lang: 'en' | 'cn') => Promise<Envelope> }> {
  const w = (path: string, data: Record<string, unknown>) => (token: string, lang: 'en' | 'cn') => write(s, path, token, data, { lang });
  return [
    { name: 'buy', need: 'trade', call: w(PATHS.orderBuy, { project_id: pid, tons: 1, password: TRADE_PASSWORD }) },
    { name: 'book', need: 'trade', call: w(PATHS.orderBook, { project_id: pid, tons: 1, password: TRADE_PASSWORD }) },
    { name: 'finalpay', need: 'trade', call: w(PATHS.orderFinalpay, { order_id: orderId, password: TRADE_PASSWORD }) },
    { name: 'sell', need: 'trade', call: w(PATHS.orderSell, { project_id: pid, tons: 1, password: TRADE_PASSWORD }) },
    { name: 'topup', need: 'trade', call: w(PATHS.walletTopup, { amount: 10_000, method: 'paynow' }) },
    { name: 'withdraw', need: 'trade', call: w(PATHS.walletWithdraw, { amount: 5_000, password: TRADE_PASSWORD }) },
    { name: 'retire', need: 'trade', call: w(PATHS.creditRetire, { project_id: pid, tons: 1, beneficiary: 'Acme', reason: '', paypwd: TRADE_PASSWORD }) },
    { name: 'footprint', need: 'trade', call: w(PATHS.userFootprint, {}) },
    { name: 'card', need: 'manage', call: w(PATHS.userCard, { bank_name: 'DBS', account_no: '1234567890', password: TRADE_PASSWORD }) },
    { name: 'profile', need: 'manage', call: w(PATHS.userProfile, { first_name: 'A', last_name: 'B', mobile: '81234567', ic_number: '' }) },
    {
      name: 'avatar',
      need: 'manage',
      call: async (token, lang) => {
        const res = await s.raw('POST', PATHS.userAvatar, { body: new Uint8Array([1, 2, 3]), headers: { Authorization: token, 'Idempotency-Key': newKey(), 'Content-Type': 'image/png' }, query: `lang=${lang}` });
        return (await res.json()) as Envelope;
      },
    },
    { name: 'invite', need: 'manage', call: w(PATHS.orgInvite, { email: `x${Math.random().toString(36).slice(2)}@example.sg`, role: 'viewer' }) },
    { name: 'role', need: 'manage', call: w(PATHS.orgRole, { user_id: memberId, role: 'viewer' }) },
    { name: 'remove', need: 'manage', call: w(PATHS.orgRemove, { user_id: 999_999_999 }) },
    { name: 'notices read', need: 'inbox', call: w(PATHS.notificationsRead, { all: true }) },
    { name: 'push off', need: 'inbox', call: w(PATHS.pushUnsubscribe, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }) },
    { name: 'offset create', need: 'trade', call: w(PATHS.offsetCreate, { project_id: pid, tons: 1, day: 5, password: TRADE_PASSWORD }) },
    { name: 'offset status', need: 'trade', call: w(PATHS.offsetStatus, { id: 999_999, status: 'paused' }) },
    // The person's own: login and payment passwords, passkeys (every role, acting on the member's login).
    { name: 'login password', need: 'self', call: w(PATHS.userLoginpwd, { old_password: 'wrong-Password1', password: 'Another#Pass2026', repassword: 'Another#Pass2026' }) },
    { name: 'passkey options', need: 'self', call: w(PATHS.passkeyOptions, { password: 'wrong-Password1' }) },
  ];
}

const CAN: Record<Role, string[]> = {
  owner: ['trade', 'manage', 'inbox', 'self'],
  admin: ['manage', 'inbox', 'self'],
  buyer: ['trade', 'inbox', 'self'],
  approver: ['inbox', 'self'],
  viewer: ['inbox', 'self'],
};

describe('organisations', () => {
  it('a corporate registration founds the organisation with the registrant as owner; a personal one does not', async () => {
    const org = await makeOrg(s, 'Green Co Pte Ltd');
    expect(await s.db.selectFrom('organisations').selectAll().where('account_id', '=', org.id).executeTakeFirst()).toMatchObject({ name: 'Green Co Pte Ltd', uen: '201912345K' });
    expect(await s.db.selectFrom('organisation_members').selectAll().where('account_id', '=', org.id).execute()).toEqual([expect.objectContaining({ user_id: org.id, role: 'owner' })]);
    const mine = await s.api('GET', PATHS.orgMine, {}, { token: org.owner.token });
    expect(mine.data).toEqual({ list: [{ account_id: org.id, name: 'Green Co Pte Ltd', uen: '201912345K', role: 'owner' }], acting: { account_id: org.id, name: 'Green Co Pte Ltd', uen: '201912345K', role: 'owner' } });
    const person = await registerUser(s, `p.${process.pid}@example.sg`);
    expect(await s.db.selectFrom('organisations').selectAll().where('account_id', '=', person.mem_id).execute()).toEqual([]);
    await expectOrgRefused(s, 'org_not_member', (lang) => s.api('GET', PATHS.orgMembers, { lang }, { token: person.token }));
  });

  it('invites by a link whose token is kept only as its hash, used once, by the invited email only', async () => {
    const org = await makeOrg(s);
    const u = await makeUser(s);
    const inv = await write(s, PATHS.orgInvite, org.owner.token, { email: u.email, role: 'buyer' });
    expect(inv.code, inv.msg).toBe(0);
    expect(inv.data).toMatchObject({ email: u.email, role: 'buyer', expires_at: s.clock.now() + 72 * 3_600_000 });
    const mail = await lastMail(s.db, u.email);
    expect(mail!.body).toContain('/pages/org/join?token=');
    const token = await inviteToken(s, u.email);
    const row = await s.db.selectFrom('organisation_invitations').selectAll().where('id', '=', inv.data.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(await orgSnapshot(s))).not.toContain(token);

    // Before joining, the invitation names the organisation and the role (and the address it was sent to).
    const preview = await s.api('GET', PATHS.orgInvitation, { token }, { token: u.token });
    expect(preview.code, preview.msg).toBe(0);
    expect(preview.data).toEqual({ name: 'Acme Pte Ltd', uen: '201912345K', role: 'buyer', email: u.email, expires_at: s.clock.now() + 72 * 3_600_000 });
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => s.api('GET', PATHS.orgInvitation, { token: 'A'.repeat(43), lang }, { token: u.token }));

    const other = await makeUser(s);
    await expectOrgRefused(s, 'org_invite_email', (lang) => write(s, PATHS.orgJoin, other.token, { token }, { lang }), { email: u.email });
    await expectOrgRefused(s, 'org_personal_only', (lang) => write(s, PATHS.orgJoin, org.owner.token, { token }, { lang }));
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => write(s, PATHS.orgJoin, u.token, { token: 'A'.repeat(43) }, { lang }));

    const joined = await write(s, PATHS.orgJoin, u.token, { token });
    expect(joined.data).toEqual({ account_id: org.id, name: 'Acme Pte Ltd', uen: '201912345K', role: 'buyer' });
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => write(s, PATHS.orgJoin, u.token, { token }, { lang }));
    // A used link names nothing any more.
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => s.api('GET', PATHS.orgInvitation, { token, lang }, { token: u.token }));
    await expectOrgRefused(s, 'org_member_exists', (lang) => write(s, PATHS.orgInvite, org.owner.token, { email: u.email, role: 'viewer' }, { lang }));
  });

  it('an expired link is refused; 40 parallel joins with one link: exactly one member', async () => {
    const org = await makeOrg(s);
    const late = await makeUser(s);
    await write(s, PATHS.orgInvite, org.owner.token, { email: late.email, role: 'viewer' });
    const lateToken = await inviteToken(s, late.email);
    s.clock.advance(3 * DAY + 1);
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => write(s, PATHS.orgJoin, late.token, { token: lateToken }, { lang }));

    const u = await makeUser(s);
    await write(s, PATHS.orgInvite, org.owner.token, { email: u.email, role: 'viewer' });
    const token = await inviteToken(s, u.email);
    const answers = await Promise.all(Array.from({ length: 40 }, () => write(s, PATHS.orgJoin, u.token, { token })));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 0)) expect([ERRORS.org_invite_invalid.code, ERRORS.org_member_exists.code]).toContain(a.code);
    expect(await s.db.selectFrom('organisation_members').selectAll().where('account_id', '=', org.id).where('user_id', '=', u.id).execute()).toHaveLength(1);
  });

  it('checks the role on every write (the role matrix), in en and cn with nothing changed', async () => {
    const org = await makeOrg(s);
    const pid = await makeProject(s);
    const members: Record<Exclude<Role, 'owner'>, { orgToken: string; id: number }> = {
      admin: await addMember(s, org, 'admin'),
      buyer: await addMember(s, org, 'buyer'),
      approver: await addMember(s, org, 'approver'),
      viewer: await addMember(s, org, 'viewer'),
    };
    const tokens: Record<Role, string> = { owner: org.owner.token, admin: members.admin.orgToken, buyer: members.buyer.orgToken, approver: members.approver.orgToken, viewer: members.viewer.orgToken };
    for (const role of Object.keys(tokens) as Role[]) {
      for (const wr of writes(pid, 1, members.viewer.id)) {
        if (CAN[role].includes(wr.need)) {
          const res = await wr.call(tokens[role], 'en');
          expect(res.code, `${role} ${wr.name}: ${res.msg}`).not.toBe(FORBIDDEN);
        } else {
          await expectOrgRefused(s, 'org_role_forbidden', (lang) => wr.call(tokens[role], lang));
        }
      }
    }
  });

  it("a buyer buys with the organisation's money and her own payment password; the activity log says so", async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 100_000);
    const pid = await makeProject(s);
    const buyer = await addMember(s, org, 'buyer');
    const admin = await addMember(s, org, 'admin');
    const ownWallet = await walletOf(s.db, buyer.id);
    const wrong = await write(s, PATHS.orderBuy, buyer.orgToken, { project_id: pid, tons: 3, password: ORG_PASSWORD });
    expect(wrong.code).toBe(ERRORS.project_password_incorrect.code);
    const res = await write(s, PATHS.orderBuy, buyer.orgToken, { project_id: pid, tons: 3, password: TRADE_PASSWORD });
    expect(res.code, res.msg).toBe(0);
    expect(await walletOf(s.db, org.id)).toMatchObject({ available: 100_000 - res.data.total });
    expect(await walletOf(s.db, buyer.id)).toEqual(ownWallet);
    const lists = await s.api('GET', PATHS.orderLists, {}, { token: buyer.orgToken });
    expect(lists.data.list.map((o: { id: number }) => o.id)).toContain(res.data.id);

    const log = await s.api('GET', PATHS.orgActivity, {}, { token: admin.orgToken });
    expect(log.code, log.msg).toBe(0);
    const buy = log.data.list.find((a: { action: string }) => a.action === 'order.buy');
    expect(buy).toMatchObject({ member_id: buyer.id, member_email: buyer.email, created_at: s.clock.now() });
    const detail = JSON.parse(buy.detail);
    expect(detail.request).toEqual({ project_id: pid, tons: 3 });
    expect(detail.result).toMatchObject({ id: res.data.id, total: res.data.total });
    expect(log.data.list.filter((a: { action: string }) => a.action === 'org.join')).toHaveLength(2);
    expect(buy.detail).not.toContain(TRADE_PASSWORD);

    const csv = await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: admin.orgToken } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the byte-order mark spreadsheets read UTF-8 by
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.split('\r\n')[0]).toBe('\uFEFF"Date and time (SGT)","Member","Action","Object","Tons","Amount (S$)","Reference"');
    expect(text).toContain(`"${buyer.email}","Bought credits"`);
    for (const role of ['buyer', 'viewer'] as const) {
      const m = role === 'buyer' ? buyer : await addMember(s, org, role);
      await expectOrgRefused(s, 'org_role_forbidden', (lang) => s.api('GET', PATHS.orgActivity, { lang }, { token: m.orgToken }));
      const refused = await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: m.orgToken } });
      expect(((await refused.json()) as Envelope).code).toBe(FORBIDDEN);
    }
    // A replayed key adds no second activity row.
    const key = newKey();
    await write(s, PATHS.walletTopup, buyer.orgToken, { amount: 10_000, method: 'paynow' }, { key });
    await write(s, PATHS.walletTopup, buyer.orgToken, { amount: 10_000, method: 'paynow' }, { key });
    expect(await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', org.id).where('action', '=', 'wallet.topup').execute()).toHaveLength(1);
  });

  it("keeps the owner: never removed nor given another role", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    await expectOrgRefused(s, 'org_owner_fixed', (lang) => write(s, PATHS.orgRemove, admin.orgToken, { user_id: org.id }, { lang }));
    await expectOrgRefused(s, 'org_owner_fixed', (lang) => write(s, PATHS.orgRole, admin.orgToken, { user_id: org.id, role: 'viewer' }, { lang }));
    const bad = await write(s, PATHS.orgRole, admin.orgToken, { user_id: admin.id, role: 'owner' });
    expect(bad.code).toBe(ERRORS.invalid_request.code);
  });

  it("a removed member's token and socket stop at once", async () => {
    const org = await makeOrg(s);
    const buyer = await addMember(s, org, 'buyer');
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/h5/ws?mem_id=${org.id}&token=${encodeURIComponent(buyer.orgToken)}&v=4`);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await new Promise<void>((ok, fail) => {
      ws.once('open', () => ok());
      ws.once('error', fail);
    });
    expect((await s.api('GET', PATHS.userInfo, {}, { token: buyer.orgToken })).data.mem_id).toBe(org.id);
    const removed = await write(s, PATHS.orgRemove, org.owner.token, { user_id: buyer.id });
    expect(removed.data).toEqual({ user_id: buyer.id, role: null });
    expect(await closed).toBe(SOCKET_CLOSE_SESSION_ENDED);
    const after = await s.api('GET', PATHS.walletFundlogs, {}, { token: buyer.orgToken });
    expect(after.code).toBe(ERRORS.session_expired.code);
    const buy = await write(s, PATHS.walletTopup, buyer.orgToken, { amount: 10_000, method: 'paynow' });
    expect(buy.code).toBe(ERRORS.session_expired.code);
  });

  it('a membership deleted behind the server (another instance) refuses the very next request', async () => {
    const org = await makeOrg(s);
    const viewer = await addMember(s, org, 'viewer');
    expect((await s.api('GET', PATHS.orgMembers, {}, { token: viewer.orgToken })).code).toBe(0);
    await s.db.deleteFrom('organisation_members').where('account_id', '=', org.id).where('user_id', '=', viewer.id).execute();
    expect((await s.api('GET', PATHS.orgMembers, {}, { token: viewer.orgToken })).code).toBe(ERRORS.session_expired.code);
  });

  it("nothing of another organisation is reachable: switch, members, orders, activity, role and remove by every id", async () => {
    const a: Org = await makeOrg(s, 'A Pte Ltd');
    const b: Org = await makeOrg(s, 'B Pte Ltd');
    await topup(s, b.id, 50_000);
    const pid = await makeRetirableProject(s);
    const aAdmin = await addMember(s, a, 'admin');
    const bBuyer = await addMember(s, b, 'buyer');
    await giveCredits(s, { id: b.id, email: b.email, token: bBuyer.orgToken }, pid, 5);
    const bOrder = await write(s, PATHS.orderBuy, bBuyer.orgToken, { project_id: await makeProject(s), tons: 1, password: TRADE_PASSWORD });
    expect(bOrder.code, bOrder.msg).toBe(0);
    await expectOrgRefused(s, 'org_not_member', (lang) => s.api('POST', PATHS.orgSwitch, { account_id: b.id, lang }, { token: aAdmin.orgToken }));
    const members = await s.api('GET', PATHS.orgMembers, {}, { token: aAdmin.orgToken });
    expect(members.data.members.map((m: { user_id: number }) => m.user_id).sort()).toEqual([a.id, aAdmin.id].sort());
    expect((await s.api('GET', PATHS.orderDetail, { id: bOrder.data.id }, { token: aAdmin.orgToken })).code).not.toBe(0);
    const log = await s.api('GET', PATHS.orgActivity, {}, { token: aAdmin.orgToken });
    expect(log.data.list.every((x: { member_id: number }) => x.member_id !== bBuyer.id)).toBe(true);
    for (const id of [b.id, bBuyer.id]) {
      await expectOrgRefused(s, 'org_member_not_found', (lang) => write(s, PATHS.orgRole, aAdmin.orgToken, { user_id: id, role: 'viewer' }, { lang }));
      await expectOrgRefused(s, 'org_member_not_found', (lang) => write(s, PATHS.orgRemove, aAdmin.orgToken, { user_id: id }, { lang }));
    }
    for (const probe of [{ account_id: '__proto__' }, { account_id: b.id, __proto__: { x: 1 } }, { account_id: -1 }]) {
      const res = await s.api('POST', PATHS.orgSwitch, probe, { token: aAdmin.orgToken });
      expect(res.code).not.toBe(0);
    }
    // A's admin sees nothing of B's wallet: the info answer is A's.
    expect((await s.api('GET', PATHS.userInfo, {}, { token: aAdmin.orgToken })).data.wallet.available).toBe((await walletOf(s.db, a.id)).available);
  });

  it('switching back to the own account ends the organisation session', async () => {
    const org = await makeOrg(s);
    const viewer = await addMember(s, org, 'viewer');
    const own = await switchInto(s, viewer.orgToken, null);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: own })).data.mem_id).toBe(viewer.id);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: viewer.orgToken })).code).toBe(ERRORS.session_expired.code);
    for (const lang of LANGS) expect((await s.api('GET', PATHS.orgMembers, { lang }, { token: own })).code).toBe(ERRORS.org_not_member.code);
  });
});

describe('organisations under load', () => {
  it('40 parallel buys by two buyers: each placed once from the organisation wallet, one activity row per buy, the ledger balanced', async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s);
    const buyers = [await addMember(s, org, 'buyer'), await addMember(s, org, 'buyer')];
    const viewer = await addMember(s, org, 'viewer');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => write(s, PATHS.orderBuy, (i % 5 === 4 ? viewer : buyers[i % 2]!).orgToken, { project_id: pid, tons: 1, password: TRADE_PASSWORD })),
    );
    const placed = answers.filter((a) => a.code === 0);
    expect(placed).toHaveLength(32);
    expect(answers.filter((a) => a.code === FORBIDDEN)).toHaveLength(8);
    const rows = await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', org.id).where('action', '=', 'order.buy').execute();
    expect(rows.map((r) => JSON.parse(r.detail).result.id).sort()).toEqual(placed.map((a) => a.data.id).sort());
    expect(new Set(rows.map((r) => r.member_id))).toEqual(new Set(buyers.map((b) => b.id)));
    const spent = placed.reduce((sum, a) => sum + (a.data.total as number), 0);
    expect((await walletOf(s.db, org.id)).available).toBe(1_000_000 - spent);
    const report = await checkLedger(s.db);
    expect(report.ok).toBe(true);
  });
});

describe('invitation throttle', () => {
  it('an organisation sends at most ORG_INVITES_PER_ACCOUNT_PER_HOUR invitations an hour (429), counted per organisation', async () => {
    const main = s;
    const t = await startTestServer({ ...GENEROUS, ORG_INVITES_PER_ACCOUNT_PER_HOUR: '3' });
    s = t;
    try {
      const a = await makeOrg(t);
      const b = await makeOrg(t);
      for (let i = 0; i < 3; i++) expect((await write(t, PATHS.orgInvite, a.owner.token, { email: `n${i}@example.sg`, role: 'viewer' })).code).toBe(0);
      const refused = await write(t, PATHS.orgInvite, a.owner.token, { email: 'n9@example.sg', role: 'viewer' }, { lang: 'cn' });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: ERRORS.too_many_requests.code, msg: ERRORS.too_many_requests.cn });
      expect(await lastMail(t.db, 'n9@example.sg')).toBeUndefined();
      expect((await write(t, PATHS.orgInvite, b.owner.token, { email: 'n9@example.sg', role: 'viewer' })).code).toBe(0);
    } finally {
      s = main;
      await t.close();
    }
  });
});

describe('sockets of an organisation session', () => {
  it("close at once on logout and when the member's own sessions end (their payment password locked)", async () => {
    const org = await makeOrg(s);
    const buyer = await addMember(s, org, 'buyer');
    const open = async (token: string) => {
      const ws = new WebSocket(`ws://127.0.0.1:${s.port}/h5/ws?mem_id=${org.id}&token=${encodeURIComponent(token)}&v=4`);
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      await new Promise<void>((ok, fail) => {
        ws.once('open', () => ok());
        ws.once('error', fail);
      });
      return { closed };
    };
    const first = (await open(buyer.orgToken)).closed;
    const res = await s.api('POST', PATHS.logout, {}, { token: buyer.orgToken });
    expect(res.code, res.msg).toBe(0);
    expect(await first).toBe(SOCKET_CLOSE_SESSION_ENDED);

    // A new organisation session (makeUser's login password is not usable: straight from the database), then
    // five wrong payment passwords: the member's lock ends every session of theirs, this one included.
    const { token } = await createSession(s.running.deps, buyer.id, org.id);
    const second = (await open(token)).closed;
    await topup(s, org.id, 10_000);
    const pid = await makeProject(s);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await write(s, PATHS.orderBuy, token, { project_id: pid, tons: 1, password: 'Wrong#Pass2026' })).code);
    expect(codes.at(-1)).toBe(ERRORS.balance_frozen.code);
    expect(await second).toBe(SOCKET_CLOSE_SESSION_ENDED);
    expect((await s.api('GET', PATHS.userInfo, {}, { token })).code).toBe(ERRORS.session_expired.code);
  });
});
