// The wallet over real HTTP (docs/product.md#wallet-and-ledger, docs/product.md#top-ups,
// docs/product.md#withdrawals): top-ups, withdrawals and every withdrawal rule, operator steps (in-process
// and through the CLI child process), lock and freeze after 5 wrong passwords, fund logs, notifications.
// Refusals are checked in en and cn with the database unchanged; a ManualClock moves through weekends,
// holidays and SGT midnight.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PATHS } from '../../src/shared/api';
import { checkLedger, walletOf, PLATFORM } from '../../src/server/ledger/ledger';
import { writeTx } from '../../src/server/db/tx';
import { AppError } from '../../src/server/lib/http';
import { postMoney } from '../../src/server/modules/wallet/service';
import { withdrawalFee } from '../../src/shared/fees';
import type { FundLogRow, TopupRecord, WithdrawalRecord } from '../../src/shared/schemas/wallet';
import { CLI_TEST_TIMEOUT_MS, T0, login, refusal, runCli, startTestServer, type TestServer } from '../helpers/server';
import {
  WALLET_ENV,
  WITHDRAW_PASSWORD,
  balances,
  expectRefused,
  fund,
  newKey,
  newUser,
  ok,
  ops,
  sgt,
  walletSnapshot,
  withoutCounters,
  write,
  type WalletUser,
} from './wallet-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
});
afterAll(async () => {
  await s?.close();
});
beforeEach(() => s.clock.set(T0)); // Monday 2026-03-02 10:00 SGT

const FEE = (amount: number) => withdrawalFee(amount, { withdraw_fee: 200, withdraw_fee_bp: 50 });
const topup = (u: WalletUser, data: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.walletTopup, data, u, { lang });
const withdraw = (u: WalletUser, data: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.walletWithdraw, data, u, { lang });
const platform = async (name: string) =>
  (await s.db.selectFrom('ledger_accounts').select('balance').where('owner_id', '=', PLATFORM).where('name', '=', name).executeTakeFirstOrThrow()).balance;
const userLogs = (u: WalletUser) => s.db.selectFrom('fund_logs').selectAll().where('owner_id', '=', u.id).orderBy('id').execute();

describe('fee', () => {
  it('is the fixed fee plus the basis points of the amount, rounded down to the cent', () => {
    expect(FEE(5000)).toBe(225);
    expect(FEE(10_000)).toBe(250);
    expect(FEE(10_199)).toBe(250);
    expect(FEE(10_200)).toBe(251);
    expect(withdrawalFee(Number.MAX_SAFE_INTEGER, { withdraw_fee: 0, withdraw_fee_bp: 10_000 })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('is what baseconfig serves the client', async () => {
    const limits = ok(await s.api('GET', PATHS.baseconfig)) as { limits: Record<string, number> };
    expect(limits.limits).toMatchObject({ withdraw_min: 5000, withdraw_max: 200_000, withdraw_fee: 200, withdraw_fee_bp: 50, topup_min: 1000 });
  });
});

describe('who may use the wallet', () => {
  it('refuses visitors (guest_forbidden) and callers without a session (session_expired)', async () => {
    const visitor = ok(await s.api('POST', PATHS.visitor)) as { token: string };
    for (const p of [PATHS.walletTopup, PATHS.walletWithdraw]) {
      await expectRefused(s, 'guest_forbidden', (lang) => write(s, p, { amount: 10_000, method: 'bank', reference: 'CNPXZZZZZZZZZZZ', password: 'x' }, visitor.token, { lang }));
      await expectRefused(s, 'session_expired', (lang) => s.api('POST', p, { amount: 10_000 }, { lang, idempotencyKey: newKey() }));
    }
    for (const p of [PATHS.walletTopups, PATHS.walletWithdrawals, PATHS.walletFundlogs]) {
      await expectRefused(s, 'guest_forbidden', (lang) => s.api('GET', p, {}, { token: visitor.token, lang }));
      await expectRefused(s, 'session_expired', (lang) => s.api('GET', p, {}, { lang }));
    }
  });
});

describe('top-ups', () => {
  it('refuses amounts below the minimum, bad amounts, methods and references', async () => {
    const u = await newUser(s, { ready: false });
    await expectRefused(s, 'topup_below_min', (lang) => topup(u, { amount: 999, method: 'paynow', reference: 'CNPRRZZZZZZZZZZ' }, lang), { params: { n: 'S$10.00' }, field: 'amount' });
    for (const amount of [10.5, 0, -1000, 'abc', '12.00', null, 1e12]) {
      await expectRefused(s, 'invalid_amount', (lang) => topup(u, { amount, method: 'paynow', reference: 'CNPRRZZZZZZZZZZ' }, lang), { field: 'amount' });
    }
    await expectRefused(s, 'required', (lang) => topup(u, { method: 'paynow', reference: 'CNPRRZZZZZZZZZZ' }, lang), { field: 'amount' });
    await expectRefused(s, 'invalid_request', (lang) => topup(u, { amount: 5000, method: 'cash', reference: 'CNPRRZZZZZZZZZZ' }, lang), { field: 'method' });
    await expectRefused(s, 'required', (lang) => topup(u, { amount: 5000, method: 'bank', reference: '  ' }, lang), { field: 'reference' });
    await expectRefused(s, 'too_long', (lang) => topup(u, { amount: 5000, method: 'bank', reference: 'x'.repeat(141) }, lang), { field: 'reference', params: { n: 140 } });
  });

  it('is pending until an operator confirms it, then credited with a fund log and a notification', async () => {
    const u = await newUser(s, { ready: false });
    const pending = ok(await topup(u, { amount: '1000', method: 'paynow', reference: 'CNPPNZ77ZZZZZZZ' })) as TopupRecord;
    expect(pending).toEqual({
      id: pending.id,
      amount: 1000,
      method: 'paynow',
      reference: 'CNPPNZ77ZZZZZZZ',
      status: 'pending',
      note: '',
      created_at: '2026-03-02T10:00:00.000+08:00',
      created_at_ms: T0,
      decided_at: null,
      decided_at_ms: null,
      // The PayNow QR of this top-up and its expiry (TOPUP_EXPIRY_MINUTES, 30 by default).
      paynow_qr: expect.stringMatching(/^000201010212.*CNPPNZ77ZZZZZZZ.*6304[0-9A-F]{4}$/),
      expires_at: '2026-03-02T10:30:00.000+08:00',
      expires_at_ms: T0 + 30 * 60_000,
      received_amount: null,
      flag: '',
      first_topup_id: null,
    });
    expect(await balances(s, u)).toMatchObject({ available: 0, frozen: 0 });
    expect(await userLogs(u)).toEqual([]);
    const bankBefore = await platform('bank');

    s.clock.advance(60_000);
    const done = await ops(s, 'topup:confirm', [String(pending.id)]);
    expect(done.text).toContain(`top-up #${pending.id} credited: S$10.00`);
    expect(await balances(s, u)).toMatchObject({ available: 1000, frozen: 0 });
    expect(await platform('bank')).toBe(bankBefore - 1000);
    const logs = await userLogs(u);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ kind: 'topup', account_name: 'available', amount: 1000, balance_after: 1000, ref_type: 'topup', ref_id: pending.id });

    const list = ok(await s.api('GET', PATHS.walletTopups, {}, { token: u.token })) as { list: TopupRecord[]; total: number };
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ id: pending.id, status: 'credited', decided_at_ms: T0 + 60_000, decided_at: '2026-03-02T10:01:00.000+08:00' });

    const notes = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ title: 'Top-up credited', title_cn: '充值已到账' });
    const events = (await s.db.selectFrom('live_events').select('payload').where('user_id', '=', u.id).execute()).map((e) => JSON.parse(e.payload) as { type: string });
    expect(events).toContainEqual(expect.objectContaining({ type: 'notification', id: notes[0]!.id, title: 'Top-up credited', title_cn: '充值已到账' }));
    expect(events).toContainEqual({ type: 'invalidate', tables: ['user', 'fundlogs'] });
    const feed = ok(await s.api('GET', PATHS.notifications, {}, { token: u.token })) as { list: { title: string; read: boolean }[]; total: number };
    expect(feed).toMatchObject({ total: 1, list: [{ title: 'Top-up credited', read: false }] });

    // Asked twice: refused with the current state, nothing changes.
    const before = await s.db.selectFrom('fund_logs').select('id').execute();
    await expect(ops(s, 'topup:confirm', [String(pending.id)])).rejects.toThrow(`top-up #${pending.id} is already credited`);
    await expect(ops(s, 'topup:reject', [String(pending.id)])).rejects.toThrow('already credited');
    await expect(ops(s, 'topup:confirm', ['999999'])).rejects.toThrow('no top-up #999999');
    await expect(ops(s, 'topup:confirm', ['abc'])).rejects.toThrow('ID must be a positive whole number');
    expect(await s.db.selectFrom('fund_logs').select('id').execute()).toEqual(before);
    expect(await balances(s, u)).toMatchObject({ available: 1000 });
  });

  it('when rejected moves no money and tells the user why', async () => {
    const u = await newUser(s, { ready: false });
    const t = ok(await topup(u, { amount: 25_000, method: 'bank', reference: 'CNPTTZRZZZZZZZZ' })) as TopupRecord;
    const rejected = await ops(s, 'topup:reject', [String(t.id)], { reason: 'no matching transfer' });
    expect(rejected.text).toContain('rejected');
    expect(await userLogs(u)).toEqual([]);
    expect(await balances(s, u)).toMatchObject({ available: 0 });
    const list = ok(await s.api('GET', PATHS.walletTopups, { status: 'rejected' }, { token: u.token })) as { list: TopupRecord[] };
    expect(list.list).toEqual([expect.objectContaining({ id: t.id, status: 'rejected', note: 'no matching transfer' })]);
    const note = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(note).toMatchObject({ title: 'Top-up rejected', title_cn: '充值被拒绝' });
    expect(note.body).toContain('Reason: no matching transfer');
    await expect(ops(s, 'topup:confirm', [String(t.id)])).rejects.toThrow('already rejected');
  });

  it('lists newest first, paged, with a status filter', async () => {
    const u = await newUser(s, { ready: false });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((ok(await topup(u, { amount: 1000 + i, method: 'bank', reference: `CNPPAGE${'ABCDE'[i]}ZZZZZZZ` })) as TopupRecord).id);
    await ops(s, 'topup:confirm', [String(ids[1])]);
    const page1 = ok(await s.api('GET', PATHS.walletTopups, { page: 1, page_size: 2 }, { token: u.token })) as { list: TopupRecord[]; total: number; page: number; page_size: number };
    expect(page1).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(page1.list.map((t) => t.id)).toEqual([ids[4], ids[3]]);
    const page3 = ok(await s.api('GET', PATHS.walletTopups, { page: 3, page_size: 2 }, { token: u.token })) as { list: TopupRecord[] };
    expect(page3.list.map((t) => t.id)).toEqual([ids[0]]);
    const pending = ok(await s.api('GET', PATHS.walletTopups, { status: 'pending' }, { token: u.token })) as { total: number };
    expect(pending.total).toBe(4);
    await expectRefused(s, 'invalid_request', (lang) => s.api('GET', PATHS.walletTopups, { status: 'lost' }, { token: u.token, lang }), { field: 'status' });
  });

  it('is credited at once when TOPUP_AUTO_CONFIRM is on (demo)', async () => {
    const demo = await startTestServer({ ...WALLET_ENV, TOPUP_AUTO_CONFIRM: 'true' });
    try {
      const u = await newUser(demo, { ready: false });
      const t = ok(await write(demo, PATHS.walletTopup, { amount: 5000, method: 'paynow', reference: 'CNPAUTPZZZZZZZZ' }, u)) as TopupRecord;
      expect(t).toMatchObject({ status: 'credited', decided_at_ms: T0 });
      expect(await walletOf(demo.db, u.id)).toMatchObject({ available: 5000 });
      expect((await checkLedger(demo.db)).ok).toBe(true);
    } finally {
      await demo.close();
    }
  });
});

describe('withdrawals', () => {
  it('moves amount + fee from available to frozen with the withdrawal row; completing pays out and earns the fee', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    const feesBefore = await platform('fees');
    const bankBefore = await platform('bank');
    const w = ok(await withdraw(u, { amount: '10000', password: WITHDRAW_PASSWORD })) as WithdrawalRecord;
    expect(w).toEqual({
      id: w.id,
      amount: 10_000,
      fee: 250,
      total: 10_250,
      method: 'bank',
      bank_name: 'DBS',
      account_no: '******6789',
      holder_name: 'MEI LING TAN',
      paynow: '',
      status: 'processing',
      note: '',
      created_at: '2026-03-02T10:00:00.000+08:00',
      created_at_ms: T0,
      decided_at: null,
      decided_at_ms: null,
    });
    expect(await balances(s, u)).toMatchObject({ available: 39_750, frozen: 10_250 });
    const applyLogs = (await userLogs(u)).filter((l) => l.kind === 'withdrawal_apply');
    expect(applyLogs.map((l) => [l.account_name, l.amount, l.balance_after, l.ref_id])).toEqual([
      ['available', -10_250, 39_750, w.id],
      ['frozen', 10_250, 10_250, w.id],
    ]);

    const done = await ops(s, 'withdrawal:complete', [String(w.id)]);
    expect(done.text).toContain(`withdrawal #${w.id} completed: S$100.00`);
    expect(await balances(s, u)).toMatchObject({ available: 39_750, frozen: 0 });
    expect(await platform('bank')).toBe(bankBefore + 10_000);
    expect(await platform('fees')).toBe(feesBefore + 250);
    const list = ok(await s.api('GET', PATHS.walletWithdrawals, {}, { token: u.token })) as { list: WithdrawalRecord[]; total: number };
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ id: w.id, status: 'completed', decided_at_ms: T0 });
    const note = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(note).toMatchObject({ title: 'Withdrawal completed', title_cn: '提现已完成' });
    await expect(ops(s, 'withdrawal:complete', [String(w.id)])).rejects.toThrow(`withdrawal #${w.id} is already completed`);
    await expect(ops(s, 'withdrawal:refuse', [String(w.id)])).rejects.toThrow('already completed');
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('when refused returns amount + fee to available, and a refused withdrawal does not use up the day', async () => {
    const u = await newUser(s);
    await fund(s, u, 20_000);
    const w = ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD })) as WithdrawalRecord;
    await ops(s, 'withdrawal:refuse', [String(w.id)], { reason: 'account closed' });
    expect(await balances(s, u)).toMatchObject({ available: 20_000, frozen: 0 });
    const refused = ok(await s.api('GET', PATHS.walletWithdrawals, { status: 'refused' }, { token: u.token })) as { list: WithdrawalRecord[] };
    expect(refused.list).toEqual([expect.objectContaining({ id: w.id, status: 'refused', note: 'account closed' })]);
    const note = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(note).toMatchObject({ title: 'Withdrawal refused', title_cn: '提现被拒绝' });
    expect(note.body).toContain('S$102.50');
    await expect(ops(s, 'withdrawal:refuse', [String(w.id)])).rejects.toThrow('already refused');
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
    await expectRefused(s, 'withdraw_daily_limit', (lang) => withdraw(u, { amount: 5000, password: WITHDRAW_PASSWORD }, lang));
  });

  it('refuses amounts outside min and max, with the limit in S$', async () => {
    const u = await newUser(s);
    await fund(s, u, 300_000);
    await expectRefused(s, 'withdraw_below_min', (lang) => withdraw(u, { amount: 4999, password: WITHDRAW_PASSWORD }, lang), { params: { n: 'S$50.00' }, field: 'amount' });
    await expectRefused(s, 'withdraw_above_max', (lang) => withdraw(u, { amount: 200_001, password: WITHDRAW_PASSWORD }, lang), { params: { n: 'S$2,000.00' }, field: 'amount' });
    for (const amount of [50.5, 0, -5000, 'S$50']) await expectRefused(s, 'invalid_amount', (lang) => withdraw(u, { amount, password: WITHDRAW_PASSWORD }, lang), { field: 'amount' });
    await expectRefused(s, 'required', (lang) => withdraw(u, { amount: 5000, password: '' }, lang), { field: 'password' });
    ok(await withdraw(u, { amount: 200_000, password: WITHDRAW_PASSWORD }));
  });

  it('refuses on Saturday and Sunday in SGT, whatever the UTC day', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    for (const at of [sgt(2026, 3, 7, 10), sgt(2026, 3, 8, 23, 59, 59, 999), sgt(2026, 3, 7, 0, 0, 0, 0)]) {
      s.clock.set(at);
      await expectRefused(s, 'withdraw_weekend', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
    }
    // Friday 23:59:59.999 SGT is still a working day (UTC says Friday 15:59).
    s.clock.set(sgt(2026, 3, 6, 23, 59, 59, 999));
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
    // Monday 00:00 SGT is a working day although UTC still says Sunday.
    s.clock.set(sgt(2026, 3, 9, 0, 0, 0, 0));
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
  });

  it('refuses on the configured public holidays (withdraw_holiday)', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    s.clock.set(sgt(2026, 4, 3, 11)); // Good Friday
    await expectRefused(s, 'withdraw_holiday', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
    s.clock.set(sgt(2026, 4, 2, 11));
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
  });

  it('allows one a day in SGT: refused until SGT midnight, allowed from 00:00', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    s.clock.set(sgt(2026, 3, 3, 0, 0, 0, 0)); // Tuesday 00:00 SGT = Monday 16:00 UTC
    ok(await withdraw(u, { amount: 5000, password: WITHDRAW_PASSWORD }));
    s.clock.set(sgt(2026, 3, 3, 23, 59, 59, 999));
    await expectRefused(s, 'withdraw_daily_limit', (lang) => withdraw(u, { amount: 5000, password: WITHDRAW_PASSWORD }, lang));
    s.clock.set(sgt(2026, 3, 4, 0, 0, 0, 0));
    ok(await withdraw(u, { amount: 5000, password: WITHDRAW_PASSWORD }));
  });

  it('refuses risk accounts (risk_forbidden)', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    await ops(s, 'user:risk', [u.email, 'on']);
    await expectRefused(s, 'risk_forbidden', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
    await ops(s, 'user:risk', [u.email, 'off']);
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
  });

  it('needs a bound account whose holder is the registered name (bank_incorrect)', async () => {
    const noCard = await newUser(s, { ready: false });
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, noCard));
    ok(await write(s, PATHS.userWithdpwd, { password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: noCard.password }, noCard));
    await fund(s, noCard, 50_000);
    await expectRefused(s, 'bank_incorrect', (lang) => withdraw(noCard, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));

    const u = await newUser(s);
    await fund(s, u, 50_000);
    // Only a bank account is bound: PayNow asked for is not there.
    await expectRefused(s, 'bank_incorrect', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD, method: 'paynow' }, lang));
    // The registered name changed after binding: the holder no longer matches.
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    await expectRefused(s, 'bank_incorrect', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
    // Rebinding with the new name (PayNow this time) fixes it.
    ok(await write(s, PATHS.userCard, { paynow: '91234567', holder_name: 'Mei Tan', password: WITHDRAW_PASSWORD }, u));
    const w = ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD })) as WithdrawalRecord;
    expect(w).toMatchObject({ method: 'paynow', paynow: '+65 ****4567', bank_name: '', account_no: '', holder_name: 'Mei Tan' });
  });

  it('needs a payment password (withdraw_password_unset)', async () => {
    const u = await newUser(s, { ready: false });
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    ok(await write(s, PATHS.userCard, { bank_name: 'DBS', account_no: '0123456789', holder_name: 'Mei Ling Tan' }, u));
    await fund(s, u, 50_000);
    await expectRefused(s, 'withdraw_password_unset', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
  });

  it('refuses when available cannot cover amount + fee (insufficient_balance)', async () => {
    const u = await newUser(s);
    await fund(s, u, 10_000);
    await expectRefused(s, 'insufficient_balance', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));
    await expectRefused(s, 'insufficient_balance', (lang) => withdraw(u, { amount: 9753, password: WITHDRAW_PASSWORD }, lang)); // 9753 + 248 = 10001
    ok(await withdraw(u, { amount: 9752, password: WITHDRAW_PASSWORD })); // 9752 + 248 = 10000
    expect(await balances(s, u)).toMatchObject({ available: 0, frozen: 10_000 });
  });

  it('turns a balance CHECK failure inside the transaction into insufficient_balance, writing nothing', async () => {
    const u = await newUser(s, { ready: false });
    await fund(s, u, 1000);
    const before = await s.db.selectFrom('fund_logs').select('id').execute();
    const err = await writeTx(s.db, (tx) =>
      postMoney(tx, {
        kind: 'withdrawal_apply',
        now: s.clock.now(),
        postings: [
          { owner: u.id, account: 'available', amount: -1001 },
          { owner: u.id, account: 'frozen', amount: 1001 },
        ],
      }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).key).toBe('insufficient_balance');
    expect(await s.db.selectFrom('fund_logs').select('id').execute()).toEqual(before);
    expect(await balances(s, u)).toMatchObject({ available: 1000, frozen: 0 });
  });
});

describe('wrong payment passwords', () => {
  it('answer the attempts left, lock and freeze at the 5th, then account_locked; user:unlock (CLI) restores the balance', async () => {
    const u = await newUser(s);
    await fund(s, u, 30_000);
    const wrong = (lang?: 'en' | 'cn') => withdraw(u, { amount: 10_000, password: 'Wrong#Pass2026' }, lang);
    // Attempts 1-4, alternating the language; nothing but the counter changes.
    for (const [i, left] of [4, 3, 2, 1].entries()) {
      const lang = i % 2 === 0 ? 'en' : 'cn';
      const before = withoutCounters(await walletSnapshot(s.db));
      const res = await wrong(lang);
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('trade_password_incorrect', lang, { n: left }));
      expect(withoutCounters(await walletSnapshot(s.db))).toEqual(before);
    }
    expect(await balances(s, u)).toMatchObject({ available: 30_000, frozen: 0 });

    const fifth = await wrong('cn');
    expect({ code: fifth.code, msg: fifth.msg }).toEqual(refusal('balance_frozen', 'cn'));
    expect(await balances(s, u)).toMatchObject({ available: 0, frozen: 30_000 });
    const freeze = (await userLogs(u)).filter((l) => l.kind === 'lock_freeze');
    expect(freeze.map((l) => [l.account_name, l.amount])).toEqual([
      ['available', -30_000],
      ['frozen', 30_000],
    ]);
    // The lock ends every session of the user (their sockets close): whoever typed the guesses is out.
    expect((await s.api('GET', PATHS.userInfo, {}, { token: u.token })).code).toBe(-1);
    u.token = (ok(await login(s, u.email, u.password)) as { token: string }).token;
    const info = ok(await s.api('GET', PATHS.userInfo, {}, { token: u.token })) as { locked: boolean };
    expect(info.locked).toBe(true);

    // Locked: even the right password is refused, and nothing changes.
    await expectRefused(s, 'account_locked', (lang) => withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }, lang));

    const cli = await runCli(['user:unlock', u.email], { DATA_DIR: s.dataDir });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toMatchObject({ ok: true, data: { unlocked: true, unfrozen_cents: 30_000 } });
    expect(await balances(s, u)).toMatchObject({ available: 30_000, frozen: 0 });
    ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD }));
    expect(await balances(s, u)).toMatchObject({ available: 30_000 - 10_250, frozen: 10_250 });
    expect((await checkLedger(s.db)).ok).toBe(true);
  }, CLI_TEST_TIMEOUT_MS); // starts the operator CLI (npx tsx, cold), which alone can pass 30 s on a loaded machine
});

describe('operator CLI (child process)', () => {
  // Each child process costs seconds, so only these run as one; the other commands run the same code in-process.
  it('confirms a top-up once and refuses the second time (exit 1); rejects bad input (exit 2); logs every run', async () => {
    const u = await newUser(s);
    const env = { DATA_DIR: s.dataDir };
    const t = ok(await topup(u, { amount: 40_000, method: 'bank', reference: 'CNPCMJZRZZZZZZZ' })) as TopupRecord;
    const [first, bad] = await Promise.all([runCli(['topup:confirm', String(t.id)], env), runCli(['withdrawal:complete', 'x1'], env)]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ ok: true, data: { topup: { id: t.id, status: 'credited' }, email: u.email, wallet: { available: 40_000 } } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ID must be a positive whole number');
    const second = await runCli(['topup:confirm', String(t.id)], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`top-up #${t.id} is already credited`);
    expect(await balances(s, u)).toMatchObject({ available: 40_000 });

    const log = await s.db.selectFrom('operator_log').selectAll().orderBy('id', 'desc').limit(3).execute();
    // Every run is in the operator log, refusals included.
    expect(log.slice(0, 3).map((l) => `${l.command} ${l.ok}`).sort()).toEqual(['topup:confirm 0', 'topup:confirm 1', 'withdrawal:complete 0']);
    // Three child processes (npx + tsx start-up each): seconds apiece alone, far more on a loaded machine.
  }, 180_000);
});

describe('fund logs', () => {
  it('lists the user\'s rows newest first with every field, paged and filtered by kind', async () => {
    const u = await newUser(s);
    const other = await newUser(s);
    await fund(s, other, 5000);
    await fund(s, u, 30_000);
    s.clock.advance(1000);
    const w = ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD })) as WithdrawalRecord;
    s.clock.advance(1000);
    await ops(s, 'withdrawal:refuse', [String(w.id)]);

    const all = ok(await s.api('GET', PATHS.walletFundlogs, {}, { token: u.token })) as { list: FundLogRow[]; total: number; page: number; page_size: number };
    expect(all).toMatchObject({ total: 5, page: 1, page_size: 10 });
    expect(all.list.map((l) => [l.kind, l.account_name, l.amount, l.balance_after])).toEqual([
      ['withdrawal_refuse', 'available', 10_250, 30_000],
      ['withdrawal_refuse', 'frozen', -10_250, 0],
      ['withdrawal_apply', 'frozen', 10_250, 10_250],
      ['withdrawal_apply', 'available', -10_250, 19_750],
      ['topup', 'available', 30_000, 30_000],
    ]);
    const row = all.list[0]!;
    expect(Object.keys(row).sort()).toEqual(['account_name', 'amount', 'balance_after', 'created_at', 'created_at_ms', 'entry_id', 'id', 'kind', 'memo', 'order_no', 'project_id', 'project_name', 'project_name_cn', 'ref_id', 'ref_type', 'unit'].sort());
    expect(row).toMatchObject({ order_no: null, project_name: null, unit: 'cents', ref_type: 'withdrawal', ref_id: w.id, created_at_ms: T0 + 2000, created_at: '2026-03-02T10:00:02.000+08:00' });
    expect(row.memo).toContain(`Withdrawal #${w.id} refused`);

    const page2 = ok(await s.api('GET', PATHS.walletFundlogs, { page: 2, page_size: 2 }, { token: u.token })) as { list: FundLogRow[] };
    expect(page2.list.map((l) => l.id)).toEqual(all.list.slice(2, 4).map((l) => l.id));
    const topups = ok(await s.api('GET', PATHS.walletFundlogs, { kind: 'topup' }, { token: u.token })) as { list: FundLogRow[]; total: number };
    expect(topups.total).toBe(1);
    await expectRefused(s, 'invalid_request', (lang) => s.api('GET', PATHS.walletFundlogs, { kind: 'DROP TABLE' }, { token: u.token, lang }), { field: 'kind' });
    await expectRefused(s, 'invalid_request', (lang) => s.api('GET', PATHS.walletFundlogs, { page: 0 }, { token: u.token, lang }), { field: 'page' });
  });
});

describe('live notifications', () => {
  it('pushes a notification and an invalidation over the socket when an operator completes a withdrawal', async () => {
    const u = await newUser(s);
    await fund(s, u, 20_000);
    const w = ok(await withdraw(u, { amount: 10_000, password: WITHDRAW_PASSWORD })) as WithdrawalRecord;
    const host = (ok(await s.api('GET', PATHS.baseconfig)) as { socket_host: string }).socket_host;
    const ws = new WebSocket(`${host}?mem_id=${u.id}&token=${encodeURIComponent(u.token)}&v=4`);
    const messages: { type: string; title?: string; tables?: string[] }[] = [];
    // Waiters run on every message as it arrives: a wait ends on the event it names, never on a timer.
    const waiters = new Set<() => void>();
    const waitFor = (what: string, found: () => boolean, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!found()) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} over the socket within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    ws.on('message', (data) => {
      messages.push(JSON.parse(data.toString()) as { type: string });
      for (const check of [...waiters]) check();
    });
    const failed = new Promise<never>((_, reject) => ws.once('error', reject));
    failed.catch(() => undefined); // a later error fails the waits below instead
    await Promise.race([waitFor('hello', () => messages.some((m) => m.type === 'hello')), failed]);
    try {
      await ops(s, 'withdrawal:complete', [String(w.id)]); // through live_events, as from the CLI process
      // THIS notice (the top-up's "credited" and the application's own events may arrive too, before or
      // after the hello), then the invalidation published with it: the first one after the notice.
      const notice = () => messages.findIndex((m) => m.type === 'notification' && m.title === 'Withdrawal completed');
      await waitFor('"Withdrawal completed" notice', () => notice() >= 0);
      await waitFor('invalidation after the notice', () => messages.slice(notice() + 1).some((m) => m.type === 'invalidate'));
      expect(messages[notice()]).toMatchObject({ type: 'notification', title: 'Withdrawal completed', title_cn: '提现已完成' });
      expect(messages.slice(notice() + 1).find((m) => m.type === 'invalidate')).toEqual({ type: 'invalidate', tables: ['user', 'fundlogs'] });
    } finally {
      ws.close();
    }
  });
});
