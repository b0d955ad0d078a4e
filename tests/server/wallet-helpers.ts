// Helpers for the wallet suites, on top of tests/helpers/server.ts: users ready to withdraw,
// operator commands run in-process (the same code the CLI runs), and "nothing changed" snapshots.
import { expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PATHS } from '../../src/shared/api';
import type { ErrorKey, Lang, MessageParams } from '../../src/shared/errors';
import type { DB } from '../../src/server/db/connection';
import { COMMANDS } from '../../src/server/ops/registry';
import { walletOf } from '../../src/server/ledger/ledger';
import { refusal, registerUser, type Envelope, type TestServer } from '../helpers/server';

export const LANGS: Lang[] = ['en', 'cn'];
export const WITHDRAW_PASSWORD = 'Canopy#Pay2026';

/** Limits used by the wallet suites: fee = S$2.00 + 0.5 %. */
export const WALLET_ENV = {
  CODES_PER_IP_PER_HOUR: '100000',
  REGISTRATIONS_PER_IP_PER_HOUR: '100000',
  WITHDRAW_MIN_CENTS: '5000',
  WITHDRAW_MAX_CENTS: '200000',
  WITHDRAW_FEE_CENTS: '200',
  WITHDRAW_FEE_BP: '50',
  TOPUP_MIN_CENTS: '1000',
  SEED_DEMO: 'false',
  SESSION_TTL_DAYS: '365', // the clock travels weeks ahead

};

export const newKey = () => `k-${randomUUID()}`;

let seq = 0;
export const uniqueEmail = (tag: string) => `${tag}.${process.pid}.${++seq}@example.sg`;

export interface WalletUser {
  id: number;
  email: string;
  token: string;
  password: string;
  first_name: string;
  last_name: string;
}

/** POST with a fresh Idempotency-Key unless one is given. */
export function write(s: TestServer, p: string, data: Record<string, unknown>, u: { token: string } | string, opts: { lang?: Lang; key?: string } = {}): Promise<Envelope> {
  const token = typeof u === 'string' ? u : u.token;
  return s.api('POST', p, data, { token, lang: opts.lang, idempotencyKey: opts.key ?? newKey() });
}

export function ok<T = unknown>(res: Envelope<T>, what = 'request'): T {
  if (res.code !== 0) throw new Error(`${what} refused: ${res.code} ${res.msg}`);
  return res.data;
}

/** A registered user; with `ready` also a name, a payment password and a bound bank account. */
export async function newUser(s: TestServer, opts: { ready?: boolean; tag?: string; type?: 'personal' | 'corporate'; company?: string; uen?: string } = {}): Promise<WalletUser> {
  const email = uniqueEmail(opts.tag ?? 'wallet');
  const info = await registerUser(s, email, { type: opts.type, company: opts.company, uen: opts.uen });
  const user: WalletUser = { id: info.mem_id, email, token: info.token, password: info.password, first_name: 'Mei Ling', last_name: 'Tan' };
  if (opts.ready ?? true) {
    ok(await write(s, PATHS.userProfile, { first_name: user.first_name, last_name: user.last_name, mobile: '91234567', ic_number: 'S1234567D' }, user), 'profile');
    // The card first: once a payment password exists, changing the payout account asks for it.
    ok(await write(s, PATHS.userCard, { bank_name: 'DBS', account_no: '012-345678-9', holder_name: 'MEI LING  TAN' }, user), 'card');
    ok(await write(s, PATHS.userWithdpwd, { password: WITHDRAW_PASSWORD, repassword: WITHDRAW_PASSWORD, login_password: user.password }, user), 'withdpwd');
  }
  return user;
}

/** Runs an operator command in-process against the test database and clock (what the CLI runs). */
export async function ops(s: TestServer, name: string, positionals: string[] = [], flags: Record<string, string | true> = {}) {
  const command = COMMANDS[name];
  if (!command) throw new Error(`no command ${name}`);
  return command.run({ db: s.db, clock: s.clock }, { positionals, flags });
}

/** A top-up through the API, confirmed by the operator. */
export async function fund(s: TestServer, u: WalletUser, cents: number): Promise<number> {
  const topup = ok(await write(s, PATHS.walletTopup, { amount: cents, method: 'bank' }, u), 'topup') as { id: number };
  await ops(s, 'topup:confirm', [String(topup.id)]);
  return topup.id;
}

export const balances = (s: TestServer, u: { id: number }) => walletOf(s.db, u.id);

/** Everything a refused wallet or settings request must leave as it was. */
export async function walletSnapshot(db: DB) {
  const [users, ledger_accounts, ledger_entries, fund_logs, topups, withdrawals, bank_accounts, notifications, live_events, idempotency_keys, sessions] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('ledger_entries').selectAll().orderBy('id').execute(),
    db.selectFrom('fund_logs').selectAll().orderBy('id').execute(),
    db.selectFrom('topups').selectAll().orderBy('id').execute(),
    db.selectFrom('withdrawals').selectAll().orderBy('id').execute(),
    db.selectFrom('bank_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('notifications').selectAll().orderBy('id').execute(),
    db.selectFrom('live_events').selectAll().orderBy('id').execute(),
    db.selectFrom('idempotency_keys').selectAll().orderBy('id').execute(),
    db.selectFrom('sessions').selectAll().orderBy('id').execute(),
  ]);
  // Sliding expiry moves last_seen_at/expires_at when the test clock jumps; that is not the request's doing.
  const sessionRows = sessions.map(({ last_seen_at: _l, expires_at: _e, ...rest }) => rest);
  return { users, ledger_accounts, ledger_entries, fund_logs, topups, withdrawals, bank_accounts, notifications, live_events, idempotency_keys, sessions: sessionRows };
}
export type WalletSnapshot = Awaited<ReturnType<typeof walletSnapshot>>;

/** Removes the attempt counters a password rule is meant to change. */
export const withoutCounters = (snap: WalletSnapshot) => ({
  ...snap,
  users: snap.users.map(({ trade_fails: _t, login_fails: _l, ...rest }) => rest),
});

/** The same refusal in en and cn (code and msg from the catalogue), with the database unchanged. */
export async function expectRefused(
  s: TestServer,
  key: ErrorKey,
  call: (lang: Lang) => Promise<Envelope>,
  opts: { params?: MessageParams; field?: string; mask?: (snap: WalletSnapshot) => unknown } = {},
): Promise<void> {
  const mask = opts.mask ?? ((x: WalletSnapshot) => x);
  for (const lang of LANGS) {
    const before = mask(await walletSnapshot(s.db));
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, opts.params));
    if (opts.field) expect(res.data).toEqual({ field: opts.field });
    const after = mask(await walletSnapshot(s.db));
    expect(after, `database changed on ${key} (${lang})`).toEqual(before);
  }
}

/** Epoch ms of an SGT wall-clock time. */
export const sgt = (y: number, mo: number, d: number, h = 10, mi = 0, sec = 0, ms = 0) => Date.UTC(y, mo - 1, d, h - 8, mi, sec, ms);
