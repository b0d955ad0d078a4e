// Approvals (maker-checker) over real HTTP (docs/product.md#approvals): a member's retirement or withdrawal
// above the organisation's threshold waits as a request holding its tons or money; an approver who is not
// its maker approves (carried out by the same use case) or declines; the scheduler expires it; every step
// in the activity log and the inboxes. Races in parallel: two approvers, an approval and the expiry, a
// request and a withdrawal of the same money. The ledger check after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, walletOf } from '../../src/server/ledger/ledger';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { DAY, MIN, refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { makeUser, topup } from './market-helpers';
import { makeRetirableProject } from './retire-helpers';
import { addMember, expectOrgRefused, GENEROUS, LANGS, makeOrg, orgSnapshot, ORG_PASSWORD, TRADE_PASSWORD, write, type Member, type Org } from './org-helpers';

const send = (path: string, data: Record<string, unknown>, token: string, opts: { lang?: 'en' | 'cn' } = {}) => write(s, path, token, data, opts);

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS, WITHDRAW_MIN_CENTS: '5000', WITHDRAW_FEE_CENTS: '200', WITHDRAW_FEE_BP: '0', SESSION_TTL_DAYS: '365' });
});
afterAll(async () => {
  await expectLedgerOk();
  await s?.close();
});

async function expectLedgerOk(): Promise<void> {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
}

const FEE = 200;

interface Team {
  org: Org;
  buyer: Member;
  approver: Member;
  pid: number;
}

/** An organisation with money, a payout account, `tons` held of a retirable project, a buyer and an approver. */
async function team(tons = 300, cents = 100_000): Promise<Team> {
  const org = await makeOrg(s);
  ownerTokens.add(org.owner.token);
  const card = await send(PATHS.userCard, { bank_name: 'DBS', account_no: '012-345678-9', holder_name: 'Acme Pte Ltd', password: ORG_PASSWORD }, org.owner.token);
  expect(card.code, card.msg).toBe(0);
  if (cents + tons > 0) await topup(s, org.id, cents + tons * 10_000);
  const pid = await makeRetirableProject(s, { price: 1000 });
  const buyer = await addMember(s, org, 'buyer');
  const approver = await addMember(s, org, 'approver');
  if (tons > 0) {
    const bought = await send(PATHS.orderBuy, { project_id: pid, tons, password: ORG_PASSWORD }, org.owner.token);
    expect(bought.code, bought.msg).toBe(0);
    s.clock.advance(MIN);
    await runDueWork(s.running.deps);
  }
  return { org, buyer, approver, pid };
}

const retire = (t: Team, tons: number, token = t.buyer.orgToken) => send(PATHS.creditRetire, { project_id: t.pid, tons, beneficiary: 'Acme Pte Ltd', reason: 'FY2026', paypwd: token === t.org.owner.token ? ORG_PASSWORD : TRADE_PASSWORD }, token);
const withdraw = (t: Team, amount: number, token = t.buyer.orgToken) => send(PATHS.walletWithdraw, { amount, password: token === t.org.owner.token ? ORG_PASSWORD : TRADE_PASSWORD }, token);
/** The approver types their own payment password (the owner acting as the organisation: the organisation's). */
const approve = (token: string, id: number, lang?: 'en' | 'cn', password?: string) => send(PATHS.approvalApprove, { id, password: password ?? (ownerTokens.has(token) ? ORG_PASSWORD : TRADE_PASSWORD) }, token, { lang });
const ownerTokens = new Set<string>();
const decline = (token: string, id: number, lang?: 'en' | 'cn') => send(PATHS.approvalDecline, { id }, token, { lang });
const cancel = (token: string, id: number, lang?: 'en' | 'cn') => send(PATHS.approvalCancel, { id }, token, { lang });
const held = async (t: Team) => Number((await s.db.selectFrom('credit_holdings').select((eb) => eb.fn.sum<number>('tons').as('n')).where('user_id', '=', t.org.id).where('project_id', '=', t.pid).executeTakeFirst())?.n ?? 0);

function requestOf(res: Envelope): { id: number; status: string } {
  expect(res.code, res.msg).toBe(0);
  expect(res.data.approval, JSON.stringify(res.data)).toBeDefined();
  return res.data.approval;
}

describe('approvals', () => {
  it('a buyer asks to retire 150 t: the tons are held, the approver approves, the certificate is made', async () => {
    const t = await team();
    const asked = requestOf(await retire(t, 150));
    expect(asked).toMatchObject({ kind: 'retire', status: 'waiting', tons: 150, maker_id: t.buyer.id, beneficiary: 'Acme Pte Ltd', expires_at: s.clock.now() + 7 * DAY });
    expect(await held(t)).toBe(300);
    expect(await s.db.selectFrom('retirements').selectAll().where('user_id', '=', t.org.id).execute()).toEqual([]);
    // What the request holds is neither retirable nor for sale (the owner's own request checks it as well).
    const more = await retire(t, 151, t.org.owner.token);
    expect(more.code).toBe(ERRORS.retire_insufficient_credits.code);
    const sale = await send(PATHS.orderSell, { project_id: t.pid, tons: 151, password: ORG_PASSWORD }, t.org.owner.token);
    expect(sale.code).not.toBe(0);
    // The approver and the organisation are told; the list shows it waiting.
    const notices = await s.db.selectFrom('notifications').select(['user_id', 'title', 'url']).where('user_id', 'in', [t.org.id, t.approver.id]).execute();
    expect(notices.filter((n) => n.title === 'Retirement waits for approval').map((n) => n.user_id).sort()).toEqual([t.org.id, t.approver.id].sort());
    const list = await s.api('GET', PATHS.approvalList, { state: 'waiting' }, { token: t.approver.orgToken });
    expect(list.data.list.map((a: { id: number }) => a.id)).toEqual([asked.id]);

    const done = await approve(t.approver.orgToken, asked.id);
    expect(done.code, done.msg).toBe(0);
    expect(done.data).toMatchObject({ status: 'approved', decided_by_email: t.approver.email });
    const cert = await s.api('GET', `/api/public/certificate/${done.data.certificate_id}`);
    expect(cert.data).toMatchObject({ tons: 150, beneficiary: 'Acme Pte Ltd' });
    expect(await held(t)).toBe(150);
    const makerNotice = await s.db.selectFrom('notifications').select('title').where('user_id', '=', t.buyer.id).execute();
    expect(makerNotice.map((n) => n.title)).toContain(`Request #${asked.id} approved`);
    const log = await s.api('GET', PATHS.orgActivity, {}, { token: t.org.owner.token });
    const actions = log.data.list.map((a: { action: string; member_id: number }) => `${a.action}:${a.member_id}`);
    expect(actions).toEqual(expect.arrayContaining([`credit.retire:${t.buyer.id}`, `approval.approve:${t.approver.id}`]));
    const asking = log.data.list.find((a: { action: string }) => a.action === 'credit.retire');
    expect(JSON.parse(asking.detail)).toMatchObject({ request: { project_id: t.pid, tons: 150, beneficiary: 'Acme Pte Ltd' }, result: { approval_id: asked.id } });
    await expectOrgRefused(s, 'approval_decided', (lang) => approve(t.org.owner.token, asked.id, lang));
    await expectLedgerOk();
  });

  it('at or under the threshold acts at once; the owner moves the threshold', async () => {
    const t = await team();
    const direct = await retire(t, 100);
    expect(direct.code, direct.msg).toBe(0);
    expect(direct.data.certificate_url).toBeTruthy();
    const own = await retire(t, 100, t.org.owner.token);
    expect(own.data.certificate_url).toBeTruthy();
    const admin = await addMember(s, t.org, 'admin');
    await expectOrgRefused(s, 'approval_owner_only', (lang) => send(PATHS.approvalThresholds, { retire_tons: 1000, withdraw_cents: 0 }, admin.orgToken, { lang }));
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => send(PATHS.approvalThresholds, { retire_tons: 1000, withdraw_cents: 0 }, t.approver.orgToken, { lang }));
    expect((await s.api('GET', PATHS.approvalThresholds, {}, { token: t.buyer.orgToken })).data).toEqual({ retire_tons: 100, withdraw_cents: 0, applies_to_you: true });
    // The owner is held to them as well while someone else may approve (the retire sheet says "send for approval").
    expect((await s.api('GET', PATHS.approvalThresholds, {}, { token: t.org.owner.token })).data).toMatchObject({ applies_to_you: true });
    const set = await send(PATHS.approvalThresholds, { retire_tons: 150, withdraw_cents: 0 }, t.org.owner.token);
    expect(set.data).toEqual({ retire_tons: 150, withdraw_cents: 0 });
    const under = await retire(t, 40);
    expect(under.data.certificate_url).toBeTruthy();
    const bad = await send(PATHS.approvalThresholds, { retire_tons: -1, withdraw_cents: 0 }, t.org.owner.token);
    expect(bad.code).toBe(ERRORS.invalid_request.code);
  });

  it("the owner's retirement or withdrawal above the threshold waits when another member may approve", async () => {
    const t = await team(300, 100_000);
    const r = requestOf(await retire(t, 150, t.org.owner.token));
    expect(r).toMatchObject({ kind: 'retire', status: 'waiting', maker_id: t.org.id });
    const m = requestOf(await withdraw(t, 10_000, t.org.owner.token));
    expect(m).toMatchObject({ kind: 'withdraw', status: 'waiting' });
    // The owner cannot approve their own; the approver can.
    await expectOrgRefused(s, 'approval_own', (lang) => approve(t.org.owner.token, r.id, lang));
    expect((await approve(t.approver.orgToken, r.id)).data).toMatchObject({ status: 'approved' });
    expect((await decline(t.approver.orgToken, m.id)).data).toMatchObject({ status: 'declined' });
    await expectLedgerOk();
  });

  it('an organisation where no one else may approve lets the owner act alone, and the activity log says so', async () => {
    const org = await makeOrg(s);
    const card = await send(PATHS.userCard, { bank_name: 'DBS', account_no: '012-345678-9', holder_name: 'Acme Pte Ltd', password: ORG_PASSWORD }, org.owner.token);
    expect(card.code, card.msg).toBe(0);
    await topup(s, org.id, 100_000);
    // A buyer, an admin and a viewer cannot approve: the owner still acts alone.
    for (const role of ['buyer', 'admin', 'viewer'] as const) await addMember(s, org, role);
    expect((await s.api('GET', PATHS.approvalThresholds, {}, { token: org.owner.token })).data).toEqual({ retire_tons: 100, withdraw_cents: 0, applies_to_you: false });
    const done = await send(PATHS.walletWithdraw, { amount: 10_000, password: ORG_PASSWORD }, org.owner.token);
    expect(done.code, done.msg).toBe(0);
    expect(done.data.approval).toBeUndefined();
    expect(await s.db.selectFrom('withdrawals').select('amount').where('user_id', '=', org.id).execute()).toEqual([{ amount: 10_000 }]);
    const log = await s.api('GET', PATHS.orgActivity, {}, { token: org.owner.token });
    const row = log.data.list.find((a: { action: string }) => a.action === 'wallet.withdraw');
    expect(JSON.parse(row.detail).request).toMatchObject({ amount: 10_000, approval: 'owner_alone' });
    await expectLedgerOk();
  });

  it('role checks: a viewer cannot ask, a buyer cannot approve, a maker cannot approve their own, other organisations are refused', async () => {
    const t = await team();
    const viewer = await addMember(s, t.org, 'viewer');
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => send(PATHS.creditRetire, { project_id: t.pid, tons: 150, beneficiary: 'X', paypwd: TRADE_PASSWORD }, viewer.orgToken, { lang }));
    const asked = requestOf(await retire(t, 150));
    const otherBuyer = await addMember(s, t.org, 'buyer');
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => approve(otherBuyer.orgToken, asked.id, lang));
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => decline(viewer.orgToken, asked.id, lang));
    // A maker who may approve (the owner, with an approver in the organisation): still not their own request.
    const own = requestOf(await retire(t, 120, t.org.owner.token));
    await expectOrgRefused(s, 'approval_own', (lang) => approve(t.org.owner.token, own.id, lang));
    await expectOrgRefused(s, 'approval_own', (lang) => decline(t.org.owner.token, own.id, lang));
    // Another organisation's approver, and ids that are not there.
    const other = await team(0);
    await expectOrgRefused(s, 'approval_not_found', (lang) => approve(other.approver.orgToken, asked.id, lang));
    await expectOrgRefused(s, 'approval_not_found', (lang) => approve(t.approver.orgToken, 999_999_999, lang));
    const otherList = await s.api('GET', PATHS.approvalList, {}, { token: other.approver.orgToken });
    expect(otherList.data.list).toEqual([]);
    const personal = await makeUser(s);
    await expectOrgRefused(s, 'org_not_member', (lang) => approve(personal.token, asked.id, lang));
    const proto = await s.api('POST', PATHS.approvalApprove, JSON.parse('{"id": 1, "__proto__": {"x": 1}}'), { token: t.approver.orgToken, idempotencyKey: `k-${Math.random()}` });
    expect(proto.code).not.toBe(0);
    expect((await decline(t.approver.orgToken, asked.id)).data).toMatchObject({ status: 'declined' });
    expect((await decline(t.approver.orgToken, own.id)).data).toMatchObject({ status: 'declined' });
    await expectLedgerOk();
  });

  it("approving asks the approver's own payment password; a wrong one counts toward the approver's lock; declining asks none", async () => {
    const t = await team(0, 100_000);
    const asked = requestOf(await withdraw(t, 10_000));
    await expectOrgRefused(s, 'required', (lang) => send(PATHS.approvalApprove, { id: asked.id }, t.approver.orgToken, { lang }), { field: 'password' });
    // A wrong password costs the approver an attempt, not the organisation or the maker.
    const second = await addMember(s, t.org, 'approver');
    let left = 5;
    for (const lang of LANGS) {
      const before = await orgSnapshot(s);
      const res = await approve(second.orgToken, asked.id, lang, 'not-her-password');
      left -= 1;
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('trade_password_incorrect', lang, { n: left }));
      expect(await orgSnapshot(s)).toEqual(before);
    }
    // The organisation's password is not the approver's.
    const wrongOrg = await approve(second.orgToken, asked.id, 'en', ORG_PASSWORD);
    expect(wrongOrg.code).toBe(ERRORS.trade_password_incorrect.code);
    for (let i = 0; i < 2; i++) await approve(second.orgToken, asked.id, 'en', 'still-wrong');
    const locked = await s.db.selectFrom('users').select(['id', 'trade_locked']).where('id', 'in', [second.id, t.org.id, t.approver.id]).orderBy('id').execute();
    expect(Object.fromEntries(locked.map((u) => [u.id, u.trade_locked]))).toEqual({ [second.id]: 1, [t.org.id]: 0, [t.approver.id]: 0 });
    expect((await s.db.selectFrom('approval_requests').select('status').where('id', '=', asked.id).executeTakeFirstOrThrow()).status).toBe('waiting');
    // A decline takes no password (a password in it is refused as an unknown field).
    const declined = await decline(t.approver.orgToken, asked.id);
    expect(declined.data).toMatchObject({ status: 'declined' });
    await expectLedgerOk();
  });

  it('the maker cancels their own waiting request: released as by a decline; no one else may; a cancel racing approvals has one outcome', async () => {
    const t = await team(300, 100_000);
    const before = await walletOf(s.db, t.org.id);
    const m = requestOf(await withdraw(t, 10_000));
    const otherBuyer = await addMember(s, t.org, 'buyer');
    await expectOrgRefused(s, 'approval_not_yours', (lang) => cancel(otherBuyer.orgToken, m.id, lang));
    await expectOrgRefused(s, 'approval_not_yours', (lang) => cancel(t.org.owner.token, m.id, lang));
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => cancel(t.approver.orgToken, m.id, lang));
    await expectOrgRefused(s, 'approval_not_found', (lang) => cancel(t.buyer.orgToken, 999_999_999, lang));
    const other = await team(0, 0);
    await expectOrgRefused(s, 'approval_not_found', (lang) => cancel(other.buyer.orgToken, m.id, lang));
    const done = await cancel(t.buyer.orgToken, m.id);
    expect(done.code, done.msg).toBe(0);
    expect(done.data).toMatchObject({ id: m.id, status: 'cancelled', decided_by_email: t.buyer.email });
    expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available, frozen: before.frozen });
    await expectOrgRefused(s, 'approval_decided', (lang) => cancel(t.buyer.orgToken, m.id, lang));
    await expectOrgRefused(s, 'approval_decided', (lang) => approve(t.approver.orgToken, m.id, lang));
    const log = await s.api('GET', PATHS.orgActivity, {}, { token: t.org.owner.token });
    expect(log.data.list.map((a: { action: string; member_id: number }) => `${a.action}:${a.member_id}`)).toContain(`approval.cancel:${t.buyer.id}`);
    expect((await s.api('GET', PATHS.approvalList, { state: 'decided' }, { token: t.approver.orgToken })).data.list[0]).toMatchObject({ id: m.id, status: 'cancelled' });

    // Twenty cancels race twenty approvals, of a retirement and of a withdrawal: one outcome each.
    for (const asking of [() => retire(t, 150), () => withdraw(t, 10_000)]) {
      const r = requestOf(await asking());
      const answers = await Promise.all([...Array.from({ length: 20 }, () => cancel(t.buyer.orgToken, r.id)), ...Array.from({ length: 20 }, () => approve(t.approver.orgToken, r.id))]);
      const won = answers.filter((x) => x.code === 0);
      expect(won).toHaveLength(1);
      for (const x of answers.filter((y) => y.code !== 0)) expect(x.code).toBe(ERRORS.approval_decided.code);
      const row = await s.db.selectFrom('approval_requests').select(['status', 'decided_by']).where('id', '=', r.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(won[0]!.data.status === 'approved' ? 'approved' : 'declined');
      await expectLedgerOk();
    }
    const wallet = await walletOf(s.db, t.org.id);
    const withdrawals = await s.db.selectFrom('withdrawals').select(['amount', 'fee']).where('user_id', '=', t.org.id).execute();
    // Every cent is either available or held by the one withdrawal an approval made.
    expect(wallet.available + wallet.frozen).toBe(before.available + before.frozen);
    expect(wallet.frozen - before.frozen).toBe(withdrawals.reduce((n, w) => n + w.amount + w.fee, 0));
  });

  it('a withdrawal waits holding amount + fee; a decline releases it; an approval withdraws it', async () => {
    const t = await team(0, 100_000);
    const before = await walletOf(s.db, t.org.id);
    const asked = requestOf(await withdraw(t, 10_000));
    expect(asked).toMatchObject({ kind: 'withdraw', amount: 10_000, fee: FEE });
    expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available - 10_000 - FEE, frozen: before.frozen + 10_000 + FEE });
    expect((await decline(t.approver.orgToken, asked.id)).data).toMatchObject({ status: 'declined' });
    expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available, frozen: before.frozen });
    await expectOrgRefused(s, 'approval_decided', (lang) => approve(t.approver.orgToken, asked.id, lang));

    const again = requestOf(await withdraw(t, 20_000));
    const done = await approve(t.approver.orgToken, again.id);
    expect(done.code, done.msg).toBe(0);
    const w = await s.db.selectFrom('withdrawals').selectAll().where('id', '=', done.data.withdrawal_id).executeTakeFirstOrThrow();
    expect(w).toMatchObject({ user_id: t.org.id, amount: 20_000, fee: FEE, status: 'processing' });
    expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: before.available - 20_000 - FEE, frozen: before.frozen + 20_000 + FEE });
    await expectLedgerOk();
  });

  it("an approved withdrawal goes by the maker's payment password, not the organisation's", async () => {
    const t = await team(0, 100_000);
    await s.db.updateTable('users').set({ withdraw_password_hash: null }).where('id', '=', t.org.id).execute();
    const asked = requestOf(await withdraw(t, 10_000));
    const done = await approve(t.approver.orgToken, asked.id);
    expect(done.code, done.msg).toBe(0);
    expect(done.data.withdrawal_id).toBeGreaterThan(0);
    await expectLedgerOk();
  });

  it('an approval the use case refuses (a Saturday) leaves the request waiting and its money held', async () => {
    const t = await team(0, 100_000);
    const asked = requestOf(await withdraw(t, 10_000));
    const wallet = await walletOf(s.db, t.org.id);
    const saturday = 5 * DAY - ((s.clock.now() - Date.UTC(2026, 2, 2, 2)) % (7 * DAY));
    s.clock.advance(saturday > 0 ? saturday : saturday + 7 * DAY);
    // The first right password may store its hash anew (a stronger scheme); the refusals after change nothing.
    expect((await approve(t.approver.orgToken, asked.id)).code).toBe(ERRORS.withdraw_weekend.code);
    await expectOrgRefused(s, 'withdraw_weekend', (lang) => approve(t.approver.orgToken, asked.id, lang));
    expect(await walletOf(s.db, t.org.id)).toEqual(wallet);
    expect((await s.api('GET', PATHS.approvalList, { state: 'waiting' }, { token: t.approver.orgToken })).data.list.map((a: { id: number }) => a.id)).toContain(asked.id);
    s.clock.advance(2 * DAY); // Monday again
    expect((await approve(t.approver.orgToken, asked.id)).data).toMatchObject({ status: 'approved' });
    await expectLedgerOk();
  });

  it('expiry: the scheduler (two instances at once) expires it once and releases what was held', async () => {
    const t = await team(300, 100_000);
    const r = requestOf(await retire(t, 200));
    const m = requestOf(await withdraw(t, 10_000));
    const wallet = await walletOf(s.db, t.org.id);
    s.clock.advance(7 * DAY);
    const reports = await Promise.all([runDueWork(s.running.deps), runDueWork(s.running.deps)]);
    expect(reports.reduce((n, x) => n + x.approvals, 0)).toBe(2);
    const rows = await s.db.selectFrom('approval_requests').select(['id', 'status']).where('id', 'in', [r.id, m.id]).orderBy('id').execute();
    expect(rows.map((x) => x.status)).toEqual(['expired', 'expired']);
    expect(await walletOf(s.db, t.org.id)).toMatchObject({ available: wallet.available + 10_000 + FEE, frozen: wallet.frozen - 10_000 - FEE });
    // The tons are free again: a new request may hold them.
    const again = requestOf(await retire(t, 200));
    expect((await decline(t.approver.orgToken, again.id)).data).toMatchObject({ status: 'declined' });
    const expiries = await s.db.selectFrom('organisation_activity').select('action').where('account_id', '=', t.org.id).where('action', '=', 'approval.expire').execute();
    expect(expiries).toHaveLength(2);
    expect(await s.db.selectFrom('notifications').select('title').where('user_id', '=', t.buyer.id).where('title', 'like', '%expired').execute()).toHaveLength(2);
    await expectLedgerOk();
  });

  it('races: two approvers, forty approvals, an approval against the expiry: exactly one outcome', async () => {
    const t = await team(300, 100_000);
    const second = await addMember(s, t.org, 'approver');
    const a = requestOf(await retire(t, 150));
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => approve(t.approver.orgToken, a.id)),
      ...Array.from({ length: 20 }, () => decline(second.orgToken, a.id)),
    ]);
    const won = answers.filter((x) => x.code === 0);
    expect(won).toHaveLength(1);
    for (const x of answers.filter((y) => y.code !== 0)) expect(x.code).toBe(ERRORS.approval_decided.code);
    expect(await s.db.selectFrom('retirements').select('id').where('user_id', '=', t.org.id).execute()).toHaveLength(won[0]!.data.status === 'approved' ? 1 : 0);
    await expectLedgerOk();

    const b = requestOf(await withdraw(t, 10_000));
    s.clock.advance(7 * DAY - 1);
    const racing = Promise.all([approve(t.approver.orgToken, b.id), approve(second.orgToken, b.id)]);
    s.clock.advance(1);
    const [decided, report] = await Promise.all([racing, runDueWork(s.running.deps)]);
    const row = await s.db.selectFrom('approval_requests').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    const approvals = decided.filter((x) => x.code === 0).length;
    expect(approvals + report.approvals).toBe(1);
    expect(row.status).toBe(approvals === 1 ? 'approved' : 'expired');
    expect(await s.db.selectFrom('withdrawals').select('id').where('user_id', '=', t.org.id).execute()).toHaveLength(approvals);
    await expectLedgerOk();
  });

  it('the same key twice is one request; forty parallel requests hold no more tons than are held', async () => {
    const t = await team(300, 0);
    const key = `k-same-${Date.now()}`;
    const body = { project_id: t.pid, tons: 150, beneficiary: 'Acme Pte Ltd', reason: '', paypwd: TRADE_PASSWORD };
    const [a, b] = await Promise.all([write(s, PATHS.creditRetire, t.buyer.orgToken, body, { key }), write(s, PATHS.creditRetire, t.buyer.orgToken, body, { key })]);
    expect(requestOf(a)).toEqual(requestOf(b));
    const answers = await Promise.all(Array.from({ length: 40 }, () => retire(t, 101)));
    expect(answers.filter((x) => x.code === 0)).toHaveLength(1);
    for (const x of answers.filter((y) => y.code !== 0)) expect(x.code).toBe(ERRORS.retire_insufficient_credits.code);
    expect(await s.db.selectFrom('approval_requests').select('tons').where('account_id', '=', t.org.id).orderBy('id').execute()).toEqual([{ tons: 150 }, { tons: 101 }]);
    await expectLedgerOk();
  });

  it('a request races a withdrawal of the same money: one of them has it', async () => {
    const t = await team(0, 0);
    await topup(s, t.org.id, 15_000);
    // The owner's withdrawal is a request too (an approver exists): two requests, or one against a withdrawal.
    const [asked, direct] = await Promise.all([withdraw(t, 10_000), withdraw(t, 10_000, t.org.owner.token)]);
    expect([asked.code, direct.code].filter((c) => c === 0)).toHaveLength(1);
    // The loser finds the money gone, or (the withdrawal first) today's withdrawal made.
    for (const x of [asked, direct].filter((y) => y.code !== 0)) expect([ERRORS.insufficient_balance.code, ERRORS.withdraw_daily_limit.code]).toContain(x.code);
    expect((await walletOf(s.db, t.org.id)).available).toBe(15_000 - 10_000 - FEE);
    await expectLedgerOk();

    // Two members' requests for the same money: one holds it.
    const u = await team(0, 0);
    await topup(s, u.org.id, 15_000);
    const other = await addMember(s, u.org, 'buyer');
    const both = await Promise.all([withdraw(u, 10_000), withdraw(u, 10_000, other.orgToken)]);
    expect(both.filter((x) => x.code === 0)).toHaveLength(1);
    expect(both.find((x) => x.code !== 0)!.code).toBe(ERRORS.insufficient_balance.code);
    expect(await walletOf(s.db, u.org.id)).toMatchObject({ available: 15_000 - 10_000 - FEE, frozen: 10_000 + FEE });
    await expectLedgerOk();
  });
});
