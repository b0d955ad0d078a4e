// Counted passwords under a parallel attack (docs/product.md#accounts): every attempt is reserved in the
// statement that reads the count, before the hash, so N parallel guesses evaluate at most the attempts left
// and a right password that arrives after them is refused with the lock message. Real HTTP, real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { checkLedger, walletOf } from '../../src/server/ledger/ledger';
import { login, registerUser, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi, TRADE_PASSWORD } from './market-helpers';
import { fund, newKey, newUser, uniqueEmail, write, WALLET_ENV, WITHDRAW_PASSWORD } from './wallet-helpers';

let s: TestServer;
beforeAll(async () => {
  // The throttles are off the path here (their own suite): this is about the counter alone.
  s = await startTestServer({ ...WALLET_ENV, LOGINS_PER_IP_PER_HOUR: '100000', LOGINS_PER_ACCOUNT_PER_HOUR: '100000', PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR: '100000', HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
});
afterAll(async () => {
  await s.close();
});

const userRow = (id: number) => s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** 39 wrong guesses and the right one last, all started at once. */
function burst<T>(n: number, call: (right: boolean) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => call(i === n - 1)));
}

describe('40 parallel guesses, the right one last', () => {
  it('login: exactly 5 evaluated, no token, the account locked', async () => {
    const email = uniqueEmail('guess');
    const u = await registerUser(s, email);
    const answers = await burst(40, (right) => s.api('POST', PATHS.login, { email, password: right ? u.password : 'Wrong2026pass', agree: true }));
    expect(answers.filter((a) => a.code === 0)).toEqual([]);
    const codes = answers.map((a) => a.code);
    // Reserved attempts = evaluated hashes: at most 5, and the 5th wrong one locked the account.
    const row = await userRow(u.mem_id);
    expect(row).toMatchObject({ login_fails: 5, login_locked: 1 });
    expect(codes.filter((c) => c === ERRORS.login_incorrect.code).length).toBeLessThanOrEqual(4);
    expect(codes.every((c) => c === ERRORS.login_incorrect.code || c === ERRORS.login_locked.code)).toBe(true);
    // The right password after the lock: the lock message.
    expect((await login(s, email, u.password)).code).toBe(ERRORS.login_locked.code);
  });

  it('payout account: no rebind to the attacker, exactly 5 evaluated, locked and frozen', async () => {
    const u = await newUser(s);
    await fund(s, u, 20_000);
    const before = await s.db.selectFrom('bank_accounts').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    const answers = await burst(40, (right) =>
      write(s, PATHS.userCard, { bank_name: 'OCBC', account_no: '999-111111-1', holder_name: 'Mei Ling Tan', password: right ? WITHDRAW_PASSWORD : 'Wrong#Pay2026' }, u),
    );
    expect(answers.filter((a) => a.code === 0)).toEqual([]);
    const after = await s.db.selectFrom('bank_accounts').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await userRow(u.id)).toMatchObject({ trade_fails: 5, trade_locked: 1 });
    expect(await walletOf(s.db, u.id)).toMatchObject({ available: 0, frozen: 20_000 });
    const codes = new Set(answers.map((a) => a.code));
    // The lock also ends every session of the user (trade-password.ts): a request of the burst that the
    // server reaches only after it (a loaded machine spreads the 40 out) finds its session ended.
    const allowed = [ERRORS.trade_password_incorrect.code, ERRORS.balance_frozen.code, ERRORS.account_locked.code, ERRORS.session_expired.code];
    for (const c of codes) expect(allowed).toContain(c);
    expect(answers.filter((a) => a.code === ERRORS.balance_frozen.code)).toHaveLength(1); // one request locks
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('buy: no order, exactly 5 evaluated, locked', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s);
    const api = orderApi(s);
    const answers = await burst(40, (right) => api.buy(u, pid, 1, { password: right ? TRADE_PASSWORD : 'Wrong#Trade2026' }));
    expect(answers.filter((a) => a.code === 0)).toEqual([]);
    expect(await s.db.selectFrom('orders').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
    expect(await userRow(u.id)).toMatchObject({ trade_fails: 5, trade_locked: 1 });
  });

  it('payment password change with the login password: 5 evaluated, login locked', async () => {
    const u = await newUser(s, { ready: false });
    const answers = await burst(40, (right) =>
      write(s, PATHS.userWithdpwd, { password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: right ? u.password : 'Wrong2026pass' }, u),
    );
    expect(answers.filter((a) => a.code === 0)).toEqual([]);
    expect(await userRow(u.id)).toMatchObject({ login_fails: 5, login_locked: 1, withdraw_password_hash: null });
  });
});

describe('40 parallel changes of an existing payment password, the right current one last', () => {
  it('exactly 5 evaluated, trading locked, the password unchanged', async () => {
    const u = await newUser(s); // has a payment password
    const before = (await userRow(u.id)).withdraw_password_hash;
    const next = 'Another#Pay2027';
    const answers = await burst(40, (right) =>
      write(s, PATHS.userWithdpwd, { password: next, repassword: next, login_password: u.password, old_password: right ? WITHDRAW_PASSWORD : 'Wrong#Pay2026' }, u),
    );
    expect(answers.filter((a) => a.code === 0)).toEqual([]);
    expect(await userRow(u.id)).toMatchObject({ trade_fails: 5, trade_locked: 1, withdraw_password_hash: before });
  });
});

describe('the count itself', () => {
  it('a right password clears it; one wrong after four still has one left', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s);
    const api = orderApi(s);
    for (let i = 0; i < 4; i++) await api.buy(u, pid, 1, { password: 'Wrong#Trade2026' });
    expect((await userRow(u.id)).trade_fails).toBe(4);
    expect((await api.buy(u, pid, 1)).code).toBe(0);
    expect((await userRow(u.id)).trade_fails).toBe(0);
    const wrong = await api.buy(u, pid, 1, { password: 'Wrong#Trade2026', key: newKey() });
    expect(wrong.code).toBe(ERRORS.project_password_incorrect.code);
    expect(wrong.msg).toContain('4');
  });
});
