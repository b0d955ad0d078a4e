// Organisations probed as an attacker (docs/product.md#organisations): a removed or demoted admin's pending
// invitations, the member's own payment password on the payout account and the withdrawal, account numbers
// in the activity log, and the sockets of a disabled organisation.
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { checkLedger } from '../../src/server/ledger/ledger';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { SOCKET_CLOSE_SESSION_ENDED } from '../../src/shared/socket-events';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, topup } from './market-helpers';
import { addMember, expectOrgRefused, GENEROUS, inviteToken, makeOrg, TRADE_PASSWORD, write, type Org } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

/** An organisation whose owner never set a payment password. */
async function orgWithoutPassword(): Promise<Org> {
  const org = await makeOrg(s, 'Acme Pte Ltd');
  await s.db.updateTable('users').set({ withdraw_password_hash: null }).where('id', '=', org.id).execute();
  return org;
}

async function openSocket(memId: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/h5/ws?mem_id=${memId}&token=${encodeURIComponent(token)}&v=4`);
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  return { ws, closed };
}

async function within<T>(p: Promise<T>, ms: number): Promise<T | 'open'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'open'>((r) => (timer = setTimeout(() => r('open'), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('invitations outlive no authority', () => {
  it("a removed admin's pending invitations stop working at once", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const accomplice = await makeUser(s);
    expect((await write(s, PATHS.orgInvite, admin.orgToken, { email: accomplice.email, role: 'admin' })).code).toBe(0);
    const token = await inviteToken(s, accomplice.email);
    expect((await write(s, PATHS.orgRemove, org.owner.token, { user_id: admin.id })).code).toBe(0);
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => write(s, PATHS.orgJoin, accomplice.token, { token }, { lang }));
  });

  it('invitations an admin sends while being removed: none stays pending (40 in parallel with the removal)', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const sent = Array.from({ length: 40 }, (_, i) => write(s, PATHS.orgInvite, admin.orgToken, { email: `race${i}.${admin.id}@example.sg`, role: 'admin' }));
    await new Promise((r) => setTimeout(r, 15));
    const removed = write(s, PATHS.orgRemove, org.owner.token, { user_id: admin.id });
    expect((await removed).code).toBe(0);
    // Each is refused or made before the removal (and revoked with it); none is made after.
    for (const a of await Promise.all(sent)) expect([0, ERRORS.session_expired.code, ERRORS.org_not_member.code], a.msg).toContain(a.code);
    const pending = await s.db.selectFrom('organisation_invitations').select('id').where('account_id', '=', org.id).where('invited_by', '=', admin.id).where('revoked_at', 'is', null).execute();
    expect(pending).toEqual([]);
  });

  it("an admin given a role without members loses their pending invitations; the owner's stay", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const [a, b] = [await makeUser(s), await makeUser(s)];
    expect((await write(s, PATHS.orgInvite, admin.orgToken, { email: a.email, role: 'buyer' })).code).toBe(0);
    expect((await write(s, PATHS.orgInvite, org.owner.token, { email: b.email, role: 'viewer' })).code).toBe(0);
    const [ta, tb] = [await inviteToken(s, a.email), await inviteToken(s, b.email)];
    expect((await write(s, PATHS.orgRole, org.owner.token, { user_id: admin.id, role: 'viewer' })).code).toBe(0);
    await expectOrgRefused(s, 'org_invite_invalid', (lang) => write(s, PATHS.orgJoin, a.token, { token: ta }, { lang }));
    expect((await write(s, PATHS.orgJoin, b.token, { token: tb })).code).toBe(0);
  });
});

/** A phone that turns the organisation's notices on in the member's organisation session: its endpoint. */
async function orgPhone(org: Org, token: string): Promise<string> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`;
  const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  const on = await write(s, PATHS.pushSubscribe, token, { endpoint, keys });
  expect(on.code, on.msg).toBe(0);
  expect(await s.db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', endpoint).execute()).toEqual([{ user_id: org.id }]);
  return endpoint;
}

describe("a removed member's phone", () => {
  it("receives the organisation's notices no longer: its device goes with the membership", async () => {
    const org = await makeOrg(s);
    const buyer = await addMember(s, org, 'buyer');
    const endpoint = await orgPhone(org, buyer.orgToken);
    expect((await write(s, PATHS.orgRemove, org.owner.token, { user_id: buyer.id })).code).toBe(0);
    expect(await s.db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', endpoint).execute()).toEqual([]);
  });

  it("nor once the member's sessions end (her payment password locked): as a person's own devices go", async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 10_000);
    const buyer = await addMember(s, org, 'buyer');
    const endpoint = await orgPhone(org, buyer.orgToken);
    const pid = await makeProject(s);
    for (let i = 0; i < 5; i++) await write(s, PATHS.orderBuy, buyer.orgToken, { project_id: pid, tons: 1, password: 'Wrong#Pass2026' });
    expect((await s.api('GET', PATHS.userInfo, {}, { token: buyer.orgToken })).code).toBe(ERRORS.session_expired.code);
    expect(await s.db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', endpoint).execute()).toEqual([]);
  });
});

describe("the acting member's own payment password", () => {
  const CARD = { bank_name: 'DBS', account_no: '012-345678-9', holder_name: 'Acme Pte Ltd', paynow: '' };

  it("a payout account change needs the admin's own payment password even when the owner never set one", async () => {
    const org = await orgWithoutPassword();
    const admin = await addMember(s, org, 'admin');
    await expectOrgRefused(s, 'required', (lang) => write(s, PATHS.userCard, admin.orgToken, { ...CARD, password: '' }, { lang }));
    const bound = await write(s, PATHS.userCard, admin.orgToken, { ...CARD, password: TRADE_PASSWORD });
    expect(bound.code, bound.msg).toBe(0);
  });

  it("a buyer withdraws with her own payment password even when the owner never set one", async () => {
    const org = await orgWithoutPassword();
    await topup(s, org.id, 100_000);
    await s.db.insertInto('bank_accounts').values({ user_id: org.id, ...CARD, account_no: '0123456789', created_at: s.clock.now(), updated_at: s.clock.now() }).execute();
    const buyer = await addMember(s, org, 'buyer');
    const res = await write(s, PATHS.walletWithdraw, buyer.orgToken, { amount: 10_000, password: TRADE_PASSWORD });
    expect(res.code, res.msg).toBe(0);
  });
});

describe('the activity log keeps no account number', () => {
  it('masks an account number written with dashes or spaces and a PayNow number', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const res = await write(s, PATHS.userCard, admin.orgToken, { bank_name: 'DBS', account_no: '012-345 678-9', holder_name: 'Acme Pte Ltd', paynow: '2019 1234 5K', password: TRADE_PASSWORD });
    expect(res.code, res.msg).toBe(0);
    const rows = await s.db.selectFrom('organisation_activity').select('detail').where('account_id', '=', org.id).where('action', '=', 'user.card').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).not.toMatch(/012-345|2019/);
    expect(JSON.parse(rows[0]!.detail).request).toMatchObject({ account_no: '****6789', paynow: '****345K', bank_name: 'DBS' });
  });
});

describe('the activity log keeps text well formed', () => {
  it('a long field is cut on a character boundary, never inside a surrogate pair', async () => {
    const org = await makeOrg(s);
    const viewer = await addMember(s, org, 'viewer');
    const base = 'https://fcm.googleapis.com/fcm/send/';
    const endpoint = `${base}${'a'.repeat(199 - base.length)}\u{1F600}tail`;
    const res = await write(s, PATHS.pushUnsubscribe, viewer.orgToken, { endpoint });
    expect(res.code, res.msg).toBe(0);
    const row = await s.db.selectFrom('organisation_activity').select('detail').where('account_id', '=', org.id).where('action', '=', 'user.push.unsubscribe').executeTakeFirstOrThrow();
    const kept = JSON.parse(row.detail).request.endpoint as string;
    expect(kept.isWellFormed()).toBe(true);
    expect(endpoint.startsWith(kept)).toBe(true);
  });
});

describe('sockets of an organisation session', () => {
  it("close when the organisation's account is disabled (the session sweep), as HTTP refuses it", async () => {
    const org = await makeOrg(s);
    const viewer = await addMember(s, org, 'viewer');
    const sock = await openSocket(org.id, viewer.orgToken);
    await s.db.updateTable('users').set({ disabled: 1 }).where('id', '=', org.id).execute();
    expect((await s.api('GET', PATHS.userInfo, {}, { token: viewer.orgToken })).code).toBe(ERRORS.session_expired.code);
    await s.running.hub.sweep();
    expect(await within(sock.closed, 5_000)).toBe(SOCKET_CLOSE_SESSION_ENDED);
    sock.ws.close();
  });
});

describe('held: probes that found the rules in place', () => {
  it("a link of organisation A used in a session acting for B joins A only; B's log is untouched", async () => {
    const [a, b] = [await makeOrg(s, 'A Pte Ltd'), await makeOrg(s, 'B Pte Ltd')];
    const m = await addMember(s, b, 'viewer');
    expect((await write(s, PATHS.orgInvite, a.owner.token, { email: m.email, role: 'buyer' })).code).toBe(0);
    const bLog = await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', b.id).execute();
    const joined = await write(s, PATHS.orgJoin, m.orgToken, { token: await inviteToken(s, m.email) });
    expect(joined.data).toMatchObject({ account_id: a.id, role: 'buyer' });
    expect(await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', b.id).execute()).toEqual(bLog);
    // The session still acts for B with B's role: the viewer cannot buy there.
    const info = await s.api('GET', PATHS.orgMine, {}, { token: m.orgToken });
    expect(info.data.acting).toMatchObject({ account_id: b.id, role: 'viewer' });
    expect((await write(s, PATHS.walletTopup, m.orgToken, { amount: 10_000, method: 'paynow' })).code).toBe(ERRORS.org_role_forbidden.code);
  });

  it('40 parallel removals, role changes and invitations: one removal, one pending invitation, no server error', async () => {
    const org = await makeOrg(s);
    const target = await addMember(s, org, 'buyer');
    const invitee = await makeUser(s);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        if (i % 3 === 0) return write(s, PATHS.orgRemove, org.owner.token, { user_id: target.id });
        if (i % 3 === 1) return write(s, PATHS.orgRole, org.owner.token, { user_id: target.id, role: 'viewer' });
        return write(s, PATHS.orgInvite, org.owner.token, { email: invitee.email, role: 'viewer' });
      }),
    );
    const allowed = [0, ERRORS.org_member_not_found.code];
    for (const a of answers) expect(allowed, a.msg).toContain(a.code);
    expect(answers.filter((a, i) => i % 3 === 0 && a.code === 0)).toHaveLength(1);
    expect(await s.db.selectFrom('organisation_members').selectAll().where('account_id', '=', org.id).where('user_id', '=', target.id).execute()).toEqual([]);
    const pending = await s.db.selectFrom('organisation_invitations').selectAll().where('account_id', '=', org.id).where('email', '=', invitee.email).where('revoked_at', 'is', null).execute();
    expect(pending).toHaveLength(1);
  });

  it("the CSV export neutralises a cell a spreadsheet would run: a member's address starting with + or -", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    for (const email of ['+cmd@example.sg', '-2+3@example.sg']) {
      await s.db.insertInto('organisation_activity').values({ account_id: org.id, member_id: admin.id, action: 'probe', detail: '{}', created_at: s.clock.now() }).execute();
      await s.db.updateTable('users').set({ email }).where('id', '=', admin.id).execute();
      const csv = await (await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: admin.orgToken } })).text();
      expect(csv).toContain(`"'${email}","probe"`);
      expect(csv).not.toMatch(new RegExp(`(^|,)"[-+=@]`, 'm'));
    }
  });
});
