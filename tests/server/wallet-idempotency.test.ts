// Idempotency-Key on wallet writes (docs/product.md#writes-and-retries): one key per user intent; a retry
// returns the first answer with no second effect; the same key with other details is refused; concurrent
// duplicates are refused without effect; a refusal is not stored, so the intent can be retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { checkLedger } from '../../src/server/ledger/ledger';
import { ERRORS } from '../../src/shared/errors';
import { refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { WALLET_ENV, WITHDRAW_PASSWORD, balances, expectRefused, fund, newKey, newUser, ok, write } from './wallet-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
});
afterAll(async () => {
  await s?.close();
});

/** Successful answers must be identical; the others may only be "already being processed". */
function oneEffect(results: Envelope[]) {
  // Every send gets the first answer: the duplicates waited for it (docs/product.md#writes-and-retries:
  // "a duplicate that arrives while the first runs waits for it and then gets the first answer").
  const successes = results.filter((r) => r.code === 0);
  expect(successes.length).toBeGreaterThanOrEqual(1);
  for (const r of results) expect(r).toEqual(successes[0]);
  return successes[0]!.data as { id: number };
}

describe('one key, many sends', () => {
  it('a withdrawal sent 20 times at once with one key has exactly one effect', async () => {
    const u = await newUser(s);
    await fund(s, u, 100_000);
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => write(s, PATHS.walletWithdraw, { amount: 10_000, password: WITHDRAW_PASSWORD }, u, { key })));
    const w = oneEffect(results);
    expect(await s.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).execute()).toEqual([{ id: w.id }]);
    expect(await s.db.selectFrom('fund_logs').select('id').where('owner_id', '=', u.id).where('kind', '=', 'withdrawal_apply').execute()).toHaveLength(2);
    expect(await balances(s, u)).toMatchObject({ available: 100_000 - 10_250, frozen: 10_250 });

    // A later retry: the first answer again, marked as replayed, still one effect.
    const res = await s.raw('POST', PATHS.walletWithdraw, {
      headers: { Authorization: u.token, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 10_000, password: WITHDRAW_PASSWORD }),
    });
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(await res.json()).toEqual(results.find((r) => r.code === 0));
    expect(await s.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('a top-up sent 20 times at once with one key creates one top-up', async () => {
    const u = await newUser(s, { ready: false });
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => write(s, PATHS.walletTopup, { amount: 12_345, method: 'paynow', reference: 'CNPPNCEZZZZZZZZ' }, u, { key })));
    const t = oneEffect(results);
    expect(await s.db.selectFrom('topups').select('id').where('user_id', '=', u.id).execute()).toEqual([{ id: t.id }]);
  });

  it('20 withdrawals at once with different keys: one succeeds, the rest hit the daily limit', async () => {
    const u = await newUser(s);
    await fund(s, u, 100_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => write(s, PATHS.walletWithdraw, { amount: 5000, password: WITHDRAW_PASSWORD }, u)));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    // The rest: the daily limit, or (past HASH_JOBS_PER_CLIENT payment checks of one user at once) the
    // hash lane's "too many requests".
    for (const r of results.filter((x) => x.code !== 0)) expect([ERRORS.withdraw_daily_limit.code, ERRORS.too_many_requests.code]).toContain(r.code);
    expect(await balances(s, u)).toMatchObject({ available: 100_000 - 5225, frozen: 5225 });
  });
});

describe('same key, other details', () => {
  it('is refused (idempotency_mismatch) with nothing changed, on the same or another endpoint', async () => {
    const u = await newUser(s);
    await fund(s, u, 100_000);
    const key = newKey();
    ok(await write(s, PATHS.walletWithdraw, { amount: 10_000, password: WITHDRAW_PASSWORD }, u, { key }));
    await expectRefused(s, 'idempotency_mismatch', (lang) => write(s, PATHS.walletWithdraw, { amount: 20_000, password: WITHDRAW_PASSWORD }, u, { key, lang }));
    await expectRefused(s, 'idempotency_mismatch', (lang) => write(s, PATHS.walletWithdraw, { amount: 10_000, password: WITHDRAW_PASSWORD, method: 'paynow' }, u, { key, lang }));
    await expectRefused(s, 'idempotency_mismatch', (lang) => write(s, PATHS.walletTopup, { amount: 10_000, method: 'bank', reference: 'CNPRZZZZZZZZZZZ' }, u, { key, lang }));
    // Keys belong to their user: another user may use the same key for their own intent.
    const other = await newUser(s, { ready: false });
    ok(await write(s, PATHS.walletTopup, { amount: 10_000, method: 'bank', reference: 'CNPRZZZZZZZZZZZ' }, other, { key }));
  });

  it('needs a well-formed key on every write', async () => {
    const u = await newUser(s, { ready: false });
    for (const key of ['', 'short', 'has spaces in it', 'x'.repeat(101)]) {
      await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.walletTopup, { amount: 10_000, method: 'bank', reference: 'CNPRZZZZZZZZZZZ' }, { token: u.token, lang, headers: key ? { 'Idempotency-Key': key } : {} }), {
        field: 'Idempotency-Key',
      });
    }
  });
});

describe('refusals are not stored', () => {
  it('a wrong password with a key, then the right one with the same key, withdraws once', async () => {
    const u = await newUser(s);
    await fund(s, u, 50_000);
    const key = newKey();
    for (const [lang, left] of [['en', 4], ['cn', 3]] as const) {
      const wrong = await write(s, PATHS.walletWithdraw, { amount: 10_000, password: 'Wrong#Pass2026' }, u, { key, lang });
      expect({ code: wrong.code, msg: wrong.msg }).toEqual(refusal('trade_password_incorrect', lang, { n: left }));
    }
    expect(await s.db.selectFrom('idempotency_keys').select('id').where('key', '=', key).execute()).toEqual([]);
    const again = await write(s, PATHS.walletWithdraw, { amount: 10_000, password: WITHDRAW_PASSWORD }, u, { key });
    expect(again.code).toBe(0);
    const replay = await write(s, PATHS.walletWithdraw, { amount: 10_000, password: WITHDRAW_PASSWORD }, u, { key });
    expect(replay).toEqual(again);
    expect(await s.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
  });
});
