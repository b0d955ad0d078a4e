// Organisations probed as an attacker (docs/product.md#organisations): an admin cannot move the
// organisation's money to a personal account, cannot change their own role; the invitation mail commits
// with its token; the activity log keeps no NRIC/FIN in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import * as m031 from '../../src/server/db/migrations/031-org-fixes';
import { sha256 } from '../../src/server/lib/crypto';
import type { Mailer } from '../../src/server/lib/mail';
import { sendReceiptMail } from '../../src/server/scheduler/receipt-mail';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, topup } from './market-helpers';
import { addMember, expectOrgRefused, GENEROUS, makeOrg, TRADE_PASSWORD, write } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

describe("the organisation's payout account is the company's", () => {
  it("an admin who renames the organisation's account to themself cannot bind their own account", async () => {
    const org = await makeOrg(s, 'Acme Pte Ltd');
    const admin = await addMember(s, org, 'admin');
    const renamed = await write(s, PATHS.userProfile, admin.orgToken, { first_name: 'Eve', last_name: 'Mallory', mobile: '81234567', ic_number: 'S7654321F' });
    expect(renamed.code, renamed.msg).toBe(0);
    const mine = { bank_name: 'DBS', account_no: '0123456789', holder_name: 'Eve Mallory', paynow: '', password: TRADE_PASSWORD };
    await expectOrgRefused(s, 'holder_mismatch', (lang) => write(s, PATHS.userCard, admin.orgToken, mine, { lang }));
    // A PayNow mobile number is a person's; a UEN other than the organisation's is another company's.
    for (const paynow of ['81234567', '201999999Z']) {
      await expectOrgRefused(s, 'paynow_invalid', (lang) => write(s, PATHS.userCard, admin.orgToken, { ...mine, bank_name: '', account_no: '', paynow, holder_name: 'Acme Pte Ltd' }, { lang }));
    }
    const bound = await write(s, PATHS.userCard, admin.orgToken, { ...mine, bank_name: '', account_no: '', paynow: '201912345k', holder_name: 'ACME PTE LTD' });
    expect(bound.code, bound.msg).toBe(0);
    const bank = await write(s, PATHS.userCard, admin.orgToken, { ...mine, holder_name: 'Acme Pte Ltd' });
    expect(bank.code, bank.msg).toBe(0);
  });

  it("a payout account bound before in a person's name pays nothing out", async () => {
    const org = await makeOrg(s, 'Acme Pte Ltd');
    await topup(s, org.id, 100_000);
    await s.db.updateTable('users').set({ first_name: 'Eve', last_name: 'Mallory' }).where('id', '=', org.id).execute();
    const now = s.clock.now();
    await s.db.insertInto('bank_accounts').values({ user_id: org.id, bank_name: 'DBS', account_no: '0123456789', holder_name: 'Eve Mallory', paynow: '81234567', created_at: now, updated_at: now }).execute();
    const buyer = await addMember(s, org, 'buyer');
    for (const method of ['bank', 'paynow']) {
      await expectOrgRefused(s, 'bank_incorrect', (lang) => write(s, PATHS.walletWithdraw, buyer.orgToken, { amount: 10_000, method, password: TRADE_PASSWORD }, { lang }));
    }
  });
});

describe('a member cannot change their own role', () => {
  it('an admin who gives themself another role (buyer: trading) is refused and nothing changes', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    for (const role of ['buyer', 'viewer', 'admin']) {
      await expectOrgRefused(s, 'org_own_role', (lang) => write(s, PATHS.orgRole, admin.orgToken, { user_id: admin.id, role }, { lang }));
    }
    // Another admin still may.
    const other = await addMember(s, org, 'admin');
    const changed = await write(s, PATHS.orgRole, other.orgToken, { user_id: admin.id, role: 'viewer' });
    expect(changed.code, changed.msg).toBe(0);
  });
});

describe('the invitation mail commits with its token', () => {
  /** A mailer that keeps what the mail job delivers; a direct send fails (as a crash after the commit would). */
  function capture(): { mailer: Mailer; sent: Array<{ to: string; body: string }> } {
    const sent: Array<{ to: string; body: string }> = [];
    return {
      sent,
      mailer: {
        send: () => Promise.reject(new Error('no direct send')),
        deliver: (to, _subject, body) => {
          sent.push({ to, body });
          return Promise.resolve(true);
        },
      },
    };
  }
  const tokenIn = (body: string) => /token=([A-Za-z0-9_-]+)/.exec(body)![1]!;

  it('is written in the write transaction and sent by the mail job, never by the request', async () => {
    const org = await makeOrg(s);
    const email = `invitee.${Date.now()}@example.sg`;
    const { mailer, sent } = capture();
    const real = s.running.deps.mailer;
    s.running.deps.mailer = mailer;
    try {
      const res = await write(s, PATHS.orgInvite, org.owner.token, { email, role: 'viewer' });
      expect(res.code, res.msg).toBe(0);
    } finally {
      s.running.deps.mailer = real;
    }
    const pending = await s.db.selectFrom('organisation_invitations').select('token_hash').where('email', '=', email).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const queued = await s.db.selectFrom('outbox').select(['id', 'body']).where('to_email', '=', email).execute();
    expect(queued).toHaveLength(1);
    expect(sha256(tokenIn(queued[0]!.body))).toBe(pending.token_hash);
    // The mail job sends it once (this one, or the server's own run, whichever claims it first).
    await sendReceiptMail({ ...s.running.deps, mailer });
    await sendReceiptMail({ ...s.running.deps, mailer });
    expect(sent.filter((m) => m.to === email).length).toBeLessThanOrEqual(1);
    const row = await s.db.selectFrom('outbox').select(['attempted_at']).where('id', '=', queued[0]!.id).executeTakeFirstOrThrow();
    expect(row.attempted_at).not.toBeNull();
  });

  it('of 20 invitations to one address at once, the last mail sent carries the one link that works', async () => {
    const org = await makeOrg(s);
    const email = `race.${Date.now()}@example.sg`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => write(s, PATHS.orgInvite, org.owner.token, { email, role: 'viewer' })));
    for (const a of answers) expect(a.code, a.msg).toBe(0);
    const pending = await s.db.selectFrom('organisation_invitations').select('token_hash').where('email', '=', email).where('revoked_at', 'is', null).execute();
    expect(pending).toHaveLength(1);
    // The job sends in the order of the rows, which is the order the invitations committed in.
    const mine = await s.db.selectFrom('outbox').select('body').where('to_email', '=', email).orderBy('id').execute();
    expect(mine).toHaveLength(20);
    expect(sha256(tokenIn(mine.at(-1)!.body))).toBe(pending[0]!.token_hash);
  });
});

describe('migration 031', () => {
  it('marks mail the mailer wrote before as claimed, so the mail job never sends an old code', async () => {
    await m031.down(s.db as never);
    const now = s.clock.now();
    const old = await s.db.insertInto('outbox').values({ to_email: 'old@example.sg', subject: 'code', body: '123456', created_at: now - 1000, sent_at: null, error: null }).returning('id').executeTakeFirstOrThrow();
    await m031.up(s.db as never);
    const row = await s.db.selectFrom('outbox').select(['attempted_at']).where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(Number(row.attempted_at)).toBe(now - 1000);
    const sent: string[] = [];
    await sendReceiptMail({ ...s.running.deps, mailer: { send: () => Promise.resolve(), deliver: (to) => (sent.push(to), Promise.resolve(true)) } });
    expect(sent).not.toContain('old@example.sg');
  });
});

describe('the activity log keeps no NRIC/FIN in full', () => {
  it('a profile edit keeps the last 4 characters of the IC number in the log; its CSV has none of it', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const res = await write(s, PATHS.userProfile, admin.orgToken, { first_name: 'Wei', last_name: 'Lim', mobile: '81234567', ic_number: 'S7654321F' });
    expect(res.code, res.msg).toBe(0);
    const row = await s.db.selectFrom('organisation_activity').select('detail').where('account_id', '=', org.id).where('action', '=', 'user.profile').executeTakeFirstOrThrow();
    expect(row.detail).not.toMatch(/S765|7654/);
    const detail = JSON.parse(row.detail);
    expect(detail.request.ic_number).toBe('****321F');
    expect(detail.result.ic_number).toBe('****321F');
    const csv = await (await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: admin.orgToken } })).text();
    // The export is finance's: date, member, action, object, tons, amount, reference; no request detail.
    expect(csv).toContain('Changed the profile');
    expect(csv).not.toMatch(/S765|7654|321F/);
  });

  it("the organisation's PayNow UEN is masked as an account number is", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const res = await write(s, PATHS.userCard, admin.orgToken, { bank_name: '', account_no: '', holder_name: 'Acme Pte Ltd', paynow: '2019 1234 5K', password: TRADE_PASSWORD });
    expect(res.code, res.msg).toBe(0);
    const row = await s.db.selectFrom('organisation_activity').select('detail').where('account_id', '=', org.id).where('action', '=', 'user.card').executeTakeFirstOrThrow();
    expect(row.detail).not.toMatch(/2019/);
    expect(JSON.parse(row.detail).request.paynow).toBe('****345K');
  });
});

describe('a trade write in flight when its member is removed', () => {
  it('commits before the removal or not at all (40 buys and a withdrawal in parallel with it)', async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 10_000_000);
    const now = s.clock.now();
    await s.db.insertInto('bank_accounts').values({ user_id: org.id, bank_name: 'DBS', account_no: '0123456789', holder_name: 'Acme Pte Ltd', paynow: '', created_at: now, updated_at: now }).execute();
    const pid = await makeProject(s, { total_tons: 100_000 });
    const buyer = await addMember(s, org, 'buyer');
    const calls = [
      write(s, PATHS.walletWithdraw, buyer.orgToken, { amount: 10_000, password: TRADE_PASSWORD }),
      ...Array.from({ length: 40 }, () => write(s, PATHS.orderBuy, buyer.orgToken, { project_id: pid, tons: 1, password: TRADE_PASSWORD })),
    ];
    await new Promise((r) => setTimeout(r, 15));
    const removed = await write(s, PATHS.orgRemove, org.owner.token, { user_id: buyer.id });
    expect(removed.code, removed.msg).toBe(0);
    const answers = await Promise.all(calls);
    for (const a of answers) expect([0, ERRORS.session_expired.code, ERRORS.org_role_forbidden.code], a.msg).toContain(a.code);
    const log = await s.db.selectFrom('organisation_activity').select(['id', 'member_id', 'action']).where('account_id', '=', org.id).orderBy('id').execute();
    const removal = log.find((r) => r.action === 'org.remove')!;
    expect(log.filter((r) => r.member_id === buyer.id && r.id > removal.id)).toEqual([]);
    // Every buy that answered ok is an order and a row of the log, every other left nothing.
    const orders = await s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute();
    expect(orders).toHaveLength(answers.slice(1).filter((a) => a.code === 0).length);
    expect(log.filter((r) => r.action === 'order.buy')).toHaveLength(orders.length);
  });
});
