// Account settings over real HTTP (docs/product.md#validation, docs/product.md#accounts): payment password,
// login password, personal information, bank account / PayNow. Every refusal in en and cn, with the
// database unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { ERRORS, errorMessage } from '../../src/shared/errors';
import { verifyPassword } from '../../src/server/lib/crypto';
import { login, refusal, startTestServer, type TestServer } from '../helpers/server';
import { WALLET_ENV, WITHDRAW_PASSWORD, expectRefused, fund, newKey, newUser, ok, ops, sgt, walletSnapshot, withoutCounters, write, type WalletSnapshot, type WalletUser } from './wallet-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
});
afterAll(async () => {
  await s?.close();
});

const userRow = (id: number) => s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('who may change settings', () => {
  it('answers guest_forbidden to a visitor and session_expired without a session, on every write and read', async () => {
    const visitor = ok(await s.api('POST', PATHS.visitor)) as { token: string };
    const writes = [PATHS.userWithdpwd, PATHS.userLoginpwd, PATHS.userProfile, PATHS.userCard];
    for (const p of writes) {
      await expectRefused(s, 'guest_forbidden', (lang) => write(s, p, {}, visitor.token, { lang }));
      await expectRefused(s, 'session_expired', (lang) => s.api('POST', p, {}, { lang, idempotencyKey: newKey() }));
    }
    for (const p of [PATHS.userCard, PATHS.notifications]) {
      await expectRefused(s, 'guest_forbidden', (lang) => s.api('GET', p, {}, { token: visitor.token, lang }));
    }
  });

  it('needs an Idempotency-Key on writes', async () => {
    const u = await newUser(s, { ready: false });
    await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.userProfile, { first_name: 'A', last_name: 'B', mobile: '91234567', ic_number: 'S1234567D' }, { token: u.token, lang }), {
      field: 'Idempotency-Key',
    });
  });
});

describe('payment password', () => {
  let u: WalletUser;
  beforeAll(async () => {
    u = await newUser(s, { ready: false });
  });
  const set = (data: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.userWithdpwd, data, u, { lang });

  it('refuses a weak password, a mismatch and empty fields', async () => {
    for (const weak of ['Short#1a', 'alllowercase#123', 'ALLUPPER#1234', 'NoDigits#Here', 'NoSpecial1234a']) {
      await expectRefused(s, 'withdraw_password_weak', (lang) => set({ password: weak, repassword: weak, login_password: u.password }, lang), { field: 'password' });
    }
    await expectRefused(s, 'password_mismatch', (lang) => set({ password: WITHDRAW_PASSWORD, repassword: `${WITHDRAW_PASSWORD}x`, login_password: u.password }, lang), { field: 'repassword' });
    await expectRefused(s, 'required', (lang) => set({ password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: '' }, lang), { field: 'login_password' });
    await expectRefused(s, 'required', (lang) => set({ password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD }, lang), { field: 'login_password' });
  });

  it('refuses a wrong login password (password_incorrect), counting toward the login lock', async () => {
    await expectRefused(s, 'password_incorrect', (lang) => set({ password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: 'Wrong2026pass' }, lang), { mask: withoutCounters });
    expect((await userRow(u.id)).login_fails).toBe(2);
  });

  it('refuses the login password as the payment password (payment_password_same)', async () => {
    // The default test login password is too weak for a payment password: use one that is valid as both.
    const strong = await newUser(s, { ready: false });
    const newLogin = 'Strong#Login2026';
    ok(await write(s, PATHS.userLoginpwd, { old_password: strong.password, password: newLogin, repassword: newLogin }, strong));
    await expectRefused(s, 'payment_password_same', (lang) => write(s, PATHS.userWithdpwd, { password: newLogin, repassword: newLogin, login_password: newLogin }, strong, { lang }), {
      field: 'password',
    });
  });

  it('sets, then changes the password; the right login password resets the counter', async () => {
    ok(await set({ password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: u.password }));
    let row = await userRow(u.id);
    expect(await verifyPassword(WITHDRAW_PASSWORD, row.withdraw_password_hash!)).toBe(true);
    expect(row.login_fails).toBe(0);
    const info = ok(await s.api('GET', PATHS.userInfo, {}, { token: u.token })) as { has_withdraw_password: boolean };
    expect(info.has_withdraw_password).toBe(true);
    const next = 'Another#Pay2027';
    // Changing an existing one needs the current one too (the login password alone is not enough).
    await expectRefused(s, 'required', (lang) => set({ password: next, repassword: next, login_password: u.password }, lang), { field: 'old_password' });
    const wrong = await set({ password: next, repassword: next, login_password: u.password, old_password: 'Wrong#Pay2026' });
    expect(wrong.code).toBe(ERRORS.trade_password_incorrect.code);
    expect((await userRow(u.id)).trade_fails).toBe(1); // counted like any payment-password attempt
    ok(await set({ password: next, repassword: next, login_password: u.password, old_password: WITHDRAW_PASSWORD }));
    row = await userRow(u.id);
    expect(await verifyPassword(next, row.withdraw_password_hash!)).toBe(true);
    expect(row.trade_fails).toBe(0);
  });

  it('refuses to change it while the account is locked (account_locked)', async () => {
    const locked = await newUser(s);
    await s.db.updateTable('users').set({ trade_locked: 1 }).where('id', '=', locked.id).execute();
    await expectRefused(s, 'account_locked', (lang) =>
      write(s, PATHS.userWithdpwd, { password: 'Brand#New2026', repassword: 'Brand#New2026', login_password: locked.password }, locked, { lang }),
    );
  });

  it('locks login after 5 wrong login passwords in a row (login_locked), until an operator unlocks', async () => {
    const v = await newUser(s, { ready: false });
    const bad = { password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: 'Wrong2026pass' };
    for (let i = 0; i < 4; i++) expect((await write(s, PATHS.userWithdpwd, bad, v)).msg).toBe('Password incorrect.');
    const before = await walletSnapshot(s.db);
    const fifth = await write(s, PATHS.userWithdpwd, bad, v, { lang: 'cn' });
    expect({ code: fifth.code, msg: fifth.msg }).toEqual(refusal('login_locked', 'cn'));
    const after = await walletSnapshot(s.db);
    // Only the counter, the lock and the end of the user's sessions (with the event closing their sockets).
    const strip = (snap: WalletSnapshot) => ({
      ...snap,
      users: snap.users.map(({ trade_fails: _t, login_fails: _l, login_locked: _k, updated_at: _u, ...rest }) => rest),
      sessions: snap.sessions.map(({ revoked_at: _r, ...rest }) => rest),
      live_events: [],
    });
    expect(strip(after)).toEqual(strip(before));
    expect((await userRow(v.id)).login_locked).toBe(1);
    // Guessed inside a session: the lock ends that session (and every other one of the user).
    expect((await s.api('GET', PATHS.userInfo, {}, { token: v.token })).code).toBe(-1);
    expect((await login(s, v.email, v.password)).code).toBe(1104);
    await ops(s, 'user:unlock', [v.email]);
    expect((await login(s, v.email, v.password)).code).toBe(0);
  });
});

describe('login password', () => {
  it('refuses a wrong old password, a weak one and a mismatch; it never says whether a password is the payment password', async () => {
    const u = await newUser(s);
    const change = (data: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.userLoginpwd, data, u, { lang });
    await expectRefused(s, 'old_password_incorrect', (lang) => change({ old_password: 'Nope2026abc', password: 'Fresh2026pw', repassword: 'Fresh2026pw' }, lang), { mask: withoutCounters });
    await expectRefused(s, 'login_password_weak', (lang) => change({ old_password: u.password, password: 'weakpass', repassword: 'weakpass' }, lang), { field: 'password' });
    await expectRefused(s, 'password_mismatch', (lang) => change({ old_password: u.password, password: 'Fresh2026pw', repassword: 'Fresh2026px' }, lang), { field: 'repassword' });
    // Comparing with the payment password here would confirm guesses of it without counting them
    // (docs/decisions/0004-trust.md): the change is answered like any other.
    expect((await change({ old_password: u.password, password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD })).code).toBe(0);
  });

  it('changes it and ends every other session, keeping this one', async () => {
    const u = await newUser(s, { ready: false });
    const other = ok(await login(s, u.email, u.password)) as { token: string };
    expect((await s.api('GET', PATHS.userInfo, {}, { token: other.token })).code).toBe(0);
    ok(await write(s, PATHS.userLoginpwd, { old_password: u.password, password: 'Fresh2026pw', repassword: 'Fresh2026pw' }, u));
    expect((await s.api('GET', PATHS.userInfo, {}, { token: other.token })).code).toBe(-1);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: u.token })).code).toBe(0);
    expect((await login(s, u.email, u.password)).code).toBe(1101);
    expect((await login(s, u.email, 'Fresh2026pw')).code).toBe(0);
  });
});

describe('personal information', () => {
  it('refuses a bad IC number, a bad mobile and empty names', async () => {
    const u = await newUser(s, { ready: false });
    const base = { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' };
    const send = (over: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.userProfile, { ...base, ...over }, u, { lang });
    for (const ic of ['s1234567d', 'S123456D', 'S12345678D', '11234567D', 'S1234567']) await expectRefused(s, 'ic_invalid', (lang) => send({ ic_number: ic }, lang), { field: 'ic_number' });
    for (const mobile of ['9123456', '912345678', '9123-4567', '+6591234567']) await expectRefused(s, 'mobile_invalid', (lang) => send({ mobile }, lang), { field: 'mobile' });
    await expectRefused(s, 'required', (lang) => send({ first_name: '   ' }, lang), { field: 'first_name' });
    await expectRefused(s, 'too_long', (lang) => send({ last_name: 'x'.repeat(61) }, lang), { field: 'last_name', params: { n: 60 } });
  });

  it('refuses an IC number whose check letter is wrong, with the format code, and keeps the saved one', async () => {
    const u = await newUser(s, { ready: false });
    const base = { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' };
    ok(await write(s, PATHS.userProfile, base, u));
    for (const ic of ['S1234567A', 'T1234567D', 'F1234567D', 'G1234567D', 'M1234567L']) {
      await expectRefused(s, 'ic_invalid', (lang) => write(s, PATHS.userProfile, { ...base, ic_number: ic }, u, { lang }), { field: 'ic_number' });
    }
    expect((await userRow(u.id)).ic_number).toBe('S1234567D');
    for (const ic of ['T1234567J', 'F1234567N', 'G1234567X', 'M1234567K']) ok(await write(s, PATHS.userProfile, { ...base, ic_number: ic }, u));
  });

  it('saves it, and user/info shows the registered name', async () => {
    const u = await newUser(s, { ready: false });
    const saved = ok(await write(s, PATHS.userProfile, { first_name: ' Mei   Ling ', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    expect(saved).toEqual({ first_name: 'Mei Ling', last_name: 'Tan', realname: 'Mei Ling Tan', mobile: '91234567', ic_number: 'S1234567D' });
    const info = ok(await s.api('GET', PATHS.userInfo, {}, { token: u.token })) as { realname: string; mobile: string; ic_number: string };
    expect(info).toMatchObject({ realname: 'Mei Ling Tan', mobile: '91234567', ic_number: 'S1234567D' });
  });
});

describe('bank account and PayNow', () => {
  const card = (u: WalletUser, data: Record<string, unknown>, lang?: 'en' | 'cn') => write(s, PATHS.userCard, data, u, { lang });

  it('asks for the name first (name_required), then the holder must match it (holder_mismatch)', async () => {
    const u = await newUser(s, { ready: false });
    expect(ok(await s.api('GET', PATHS.userCard, {}, { token: u.token }))).toBeNull();
    await expectRefused(s, 'name_required', (lang) => card(u, { bank_name: 'DBS', account_no: '0123456789', holder_name: 'Mei Ling Tan' }, lang));
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    for (const holder of ['Mei Tan', 'Mei Ling Tan Jr', 'Tan Tan Mei Ling', 'MeiLing Tan']) {
      await expectRefused(s, 'holder_mismatch', (lang) => card(u, { bank_name: 'DBS', account_no: '0123456789', holder_name: holder }, lang), { field: 'holder_name' });
    }
  });

  it('takes the holder name as the bank writes it: surname first, capitals, a hyphen (docs/product.md#withdrawals)', async () => {
    const u = await newUser(s, { ready: false });
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    for (const holder of ['TAN MEI LING', 'Tan Mei-Ling', ' tan  mei ling ']) {
      const bound = ok(await card(u, { bank_name: 'DBS', account_no: '0123456789', holder_name: holder }));
      expect(bound).toMatchObject({ bank_name: 'DBS', holder_name: holder.trim().replace(/\s+/g, ' ') });
    }
    ok(await write(s, PATHS.userWithdpwd, { password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: u.password }, u));
    await fund(s, u, 20_000);
    s.clock.set(sgt(2026, 3, 2)); // a Monday: withdrawals are taken on working days
    const w = ok(await write(s, PATHS.walletWithdraw, { amount: '10000', password: WITHDRAW_PASSWORD }, u)) as { status: string };
    expect(w.status).toBe('processing');
  });

  it('once a payment password is set, changing the payout account needs it (attempts counted)', async () => {
    const u = await newUser(s);
    const change = (extra: Record<string, unknown>) => (lang: 'en' | 'cn') => card(u, { paynow: '81234567', holder_name: 'Mei Ling Tan', ...extra }, lang);
    await expectRefused(s, 'required', change({}), { field: 'password' });
    const wrong = await change({ password: 'Wrong#Pass2026' })('cn');
    expect(wrong).toMatchObject({ code: ERRORS.trade_password_incorrect.code, msg: errorMessage('trade_password_incorrect', 'cn', { n: 4 }) });
    expect((await s.api('GET', PATHS.userCard, {}, { token: u.token })).data).toMatchObject({ bank_name: 'DBS', paynow: '' });
    const changed = ok(await change({ password: WITHDRAW_PASSWORD })('en'));
    expect(changed).toMatchObject({ bank_name: '', paynow: '81234567' });
    const row = await s.db.selectFrom('users').select('trade_fails').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.trade_fails).toBe(0);
  });

  it('refuses an account without a number or bank, a bad number, and a bad PayNow', async () => {
    const u = await newUser(s, { ready: false });
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    const holder = 'Mei Ling Tan';
    await expectRefused(s, 'bank_or_paynow_required', (lang) => card(u, { holder_name: holder }, lang), { field: 'bank_name' });
    await expectRefused(s, 'required', (lang) => card(u, { bank_name: 'DBS', holder_name: holder }, lang), { field: 'account_no' });
    await expectRefused(s, 'required', (lang) => card(u, { account_no: '0123456789', holder_name: holder }, lang), { field: 'bank_name' });
    for (const no of ['12345', '123456789012345678901', '12AB5678']) await expectRefused(s, 'account_no_invalid', (lang) => card(u, { bank_name: 'DBS', account_no: no, holder_name: holder }, lang), { field: 'account_no' });
    for (const p of ['9123456', 'ABCDEFGH', '+6591234567']) await expectRefused(s, 'paynow_invalid', (lang) => card(u, { paynow: p, holder_name: holder }, lang), { field: 'paynow' });
    // A UEN is for corporate users only.
    await expectRefused(s, 'paynow_invalid', (lang) => card(u, { paynow: '201912345K', holder_name: holder }, lang), { field: 'paynow' });
    await expectRefused(s, 'required', (lang) => card(u, { bank_name: 'DBS', account_no: '0123456789' }, lang), { field: 'holder_name' });
  });

  it('binds and replaces; holder case and spaces do not matter; GET masks the account number', async () => {
    const u = await newUser(s, { ready: false });
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    const bound = ok(await card(u, { bank_name: 'OCBC', account_no: '501-234567-001', holder_name: '  mei   LING tan ', paynow: '9123 4567' }));
    expect(bound).toMatchObject({ bank_name: 'OCBC', account_no: '********7001', account_last4: '7001', holder_name: 'mei LING tan', paynow: '91234567', paynow_type: 'mobile' });
    expect(ok(await s.api('GET', PATHS.userCard, {}, { token: u.token }))).toEqual(bound);
    const paynowOnly = ok(await card(u, { paynow: '81234567', holder_name: 'Mei Ling Tan' }));
    expect(paynowOnly).toMatchObject({ bank_name: '', account_no: '', account_last4: '', paynow: '81234567' });
    expect(await s.db.selectFrom('bank_accounts').selectAll().where('user_id', '=', u.id).execute()).toHaveLength(1);
  });

  it('lets a corporate user bind PayNow by its UEN, held by the company, never by a person', async () => {
    const u = await newUser(s, { ready: false, type: 'corporate', company: 'Green Leaf Pte Ltd', uen: '201912345K' });
    ok(await write(s, PATHS.userProfile, { first_name: 'Wei', last_name: 'Lim', mobile: '91234567', ic_number: 'S7654321F' }, u));
    const bound = ok(await card(u, { paynow: '201912345k', holder_name: 'GREEN LEAF PTE LTD' }));
    expect(bound).toMatchObject({ paynow: '201912345K', paynow_type: 'uen', holder_name: 'GREEN LEAF PTE LTD' });
    // The account's person names are not the organisation's: a payout goes to the company only.
    await expectRefused(s, 'holder_mismatch', (lang) => card(u, { bank_name: 'UOB', account_no: '3456789012', holder_name: 'wei lim' }, lang), { field: 'holder_name' });
  });
});
