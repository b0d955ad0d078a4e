import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { login, startTestServer, type TestServer } from '../helpers/server';
import { newKey, newUser, ok, write, WALLET_ENV, WITHDRAW_PASSWORD } from './wallet-helpers';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { sha256 } from '../../src/server/lib/crypto';
import { canonical } from '../../src/server/lib/idempotency';
import { dialectOf, type DB } from '../../src/server/db/connection';

// The Idempotency-Key row, the effect and the stored answer commit in ONE transaction: no failure can leave
// an effect without its answer (retries would be refused forever) nor a claim without an effect (retries
// would wait out a lease). The fingerprint covers the whole request, secrets included, keyed.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
});
afterAll(async () => {
  await s.close();
});

/** A trigger that fails the step storing an answer, as a busy lock or an I/O error would. */
async function failWhenDone(db: DB): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create function fail_done() returns trigger language plpgsql as $$ begin raise exception 'simulated failure'; end $$`.execute(db);
    await sql`create trigger fail_done before insert or update on idempotency_keys for each row when (new.state = 'done') execute function fail_done()`.execute(db);
  } else {
    // SQLite's triggers take one event each: the answer is stored by an insert (and was by an update).
    await sql`create trigger fail_done before insert on idempotency_keys when new.state = 'done' begin select raise(abort, 'simulated failure'); end`.execute(db);
    await sql`create trigger fail_done_update before update on idempotency_keys when new.state = 'done' begin select raise(abort, 'simulated failure'); end`.execute(db);
  }
}

async function dropFailWhenDone(db: DB): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger fail_done on idempotency_keys`.execute(db);
    await sql`drop function fail_done()`.execute(db);
  } else {
    await sql`drop trigger fail_done`.execute(db);
    await sql`drop trigger fail_done_update`.execute(db);
  }
}

const topups = (userId: number) => s.db.selectFrom('topups').select('id').where('user_id', '=', userId).execute();
const keyRows = (userId: number) => s.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).execute();

describe('one transaction: key, effect, answer', () => {
  it('a failure while storing the answer rolls the effect back too, so the retry runs once and is answered', async () => {
    const u = await newUser(s, { ready: false });
    // The last bookkeeping step (storing the answer) fails, as a busy lock or an I/O error would.
    await failWhenDone(s.db);
    const key = newKey();
    const payload = { amount: 5000, method: 'bank', reference: 'CNPRRZZZZZZZZZZ' };
    let firstFailed: boolean;
    try {
      const first = await write(s, PATHS.walletTopup, payload, u, { key }).catch(() => null);
      firstFailed = first === null || first.code !== 0;
    } finally {
      await dropFailWhenDone(s.db);
    }
    expect(firstFailed).toBe(true);
    expect(await topups(u.id)).toHaveLength(0); // no effect without its answer
    expect(await keyRows(u.id)).toHaveLength(0); // and no claim left to wait out
    const retry = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(retry.code).toBe(0);
    const again = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(again.code).toBe(0);
    expect(again.data).toEqual(retry.data);
    expect(await topups(u.id)).toHaveLength(1);
  });

  it('every stored key has its answer: no pending or answer-less rows after writes of every kind', async () => {
    const u = await newUser(s);
    ok(await write(s, PATHS.walletTopup, { amount: 6000, method: 'paynow', reference: 'CNPR2ZZZZZZZZZZ' }, u));
    ok(await write(s, PATHS.userProfile, { first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }, u));
    const rows = await keyRows(u.id);
    expect(rows.length).toBeGreaterThanOrEqual(5); // profile, card, withdpwd, top-up, profile
    for (const row of rows) {
      expect(row.state).toBe('done');
      expect(row.response).not.toBeNull();
    }
  });

  it('20 concurrent requests with one key: one effect, every one answered with the same data', async () => {
    const u = await newUser(s, { ready: false });
    const key = newKey();
    const payload = { amount: 7000, method: 'bank', reference: 'CNPR3ZZZZZZZZZZ' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => write(s, PATHS.walletTopup, payload, u, { key })));
    for (const a of answers) expect(a.code).toBe(0);
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
    expect(await topups(u.id)).toHaveLength(1);
  });
});

describe('the fingerprint covers the whole request', () => {
  it('two login-password changes under one key with different new passwords: the second is refused, the first stays in force', async () => {
    const u = await newUser(s, { ready: false });
    const key = newKey();
    const first = await write(s, PATHS.userLoginpwd, { old_password: u.password, password: 'First2026pass', repassword: 'First2026pass' }, u, { key });
    expect(first.code).toBe(0);
    const second = await write(s, PATHS.userLoginpwd, { old_password: u.password, password: 'Second2026pass', repassword: 'Second2026pass' }, u, { key });
    expect(second.code).toBe(ERRORS.idempotency_mismatch.code);
    expect((await login(s, u.email, 'First2026pass')).code).toBe(0);
    expect((await login(s, u.email, 'Second2026pass')).code).not.toBe(0);
  });

  it('a withdrawal retried with another password under the same key is refused as a different request', async () => {
    const u = await newUser(s);
    const key = newKey();
    // The first is refused (no balance): nothing stored, so the key is free for the same intent.
    const refusedFirst = await write(s, PATHS.walletWithdraw, { amount: 6000, password: WITHDRAW_PASSWORD }, u, { key });
    expect(refusedFirst.code).not.toBe(0);
    expect(await keyRows(u.id).then((r) => r.filter((x) => x.key === key))).toHaveLength(0);
    // A top-up under one key, then the same key with another reference: mismatch.
    const k2 = newKey();
    ok(await write(s, PATHS.walletTopup, { amount: 5000, method: 'bank', reference: 'CNPAZZZZZZZZZZZ' }, u, { key: k2 }));
    expect((await write(s, PATHS.walletTopup, { amount: 5000, method: 'bank', reference: 'CNPBZZZZZZZZZZZ' }, u, { key: k2 })).code).toBe(ERRORS.idempotency_mismatch.code);
  });

  it('secrets are never stored in clear nor as a plain hash of the request', async () => {
    const u = await newUser(s, { ready: false });
    const key = newKey();
    const body = { old_password: u.password, password: 'Secret2026pass', repassword: 'Secret2026pass' };
    ok(await write(s, PATHS.userLoginpwd, body, u, { key }));
    const row = (await keyRows(u.id)).find((r) => r.key === key)!;
    const dump = JSON.stringify(row);
    expect(dump).not.toContain('Secret2026pass');
    expect(dump).not.toContain(u.password);
    // Not reproducible from the request alone (keyed with the server's secret).
    expect(row.request_hash).not.toBe(sha256(`${row.endpoint}\n${canonical(body)}`));
  });
});
